package dev.vigil.notifier.channel.digest;

import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.notifier.digest.DigestInbox;
import reactor.core.publisher.Mono;

/**
 * A {@code digest} channel: records the event for the next daily digest instead of sending it, and counts as
 * delivered once it is recorded. A store that cannot be reached is a transient failure, retried like any vendor's.
 */
public final class DigestNotifier implements Notifier {
    private final DigestInbox inbox;

    public DigestNotifier(DigestInbox inbox) {
        this.inbox = inbox;
    }

    @Override
    public Mono<DeliveryOutcome> send(Notification n) {
        return inbox.record(n.event(), n.channel())
                .thenReturn((DeliveryOutcome) new DeliveryOutcome.Delivered(null, null))
                .onErrorResume(e -> Mono.just(new DeliveryOutcome.Transient(
                        "digest store: " + e.getClass().getSimpleName(), null, null)));
    }
}
