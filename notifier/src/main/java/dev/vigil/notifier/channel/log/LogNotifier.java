package dev.vigil.notifier.channel.log;

import dev.vigil.notifier.channel.Presentation;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.Notifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/** Writes the notification as one log line (the info channel; the demo's console). */
public final class LogNotifier implements Notifier {
    private static final Logger LOG = LoggerFactory.getLogger("vigil.notifications");

    @Override
    public Mono<DeliveryOutcome> send(Notification n) {
        var e = Presentation.clean(n.event());
        LOG.info(
                "{} fingerprint={} incident={} occurrences={} eventId={}",
                Presentation.title(e),
                e.fingerprint(),
                e.incidentId(),
                e.occurrences(),
                e.eventId());
        return Mono.just(DeliveryOutcome.delivered(null));
    }
}
