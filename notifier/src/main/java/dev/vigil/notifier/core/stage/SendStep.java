package dev.vigil.notifier.core.stage;

import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.RecordStage;
import dev.vigil.notifier.core.SendStage;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import java.util.Optional;
import reactor.core.publisher.Mono;

/**
 * Sends on the claim this run holds. A vendor that keeps incidents of its own gets the id it gave the incident's
 * opening page with every later event, so it updates that incident instead of opening another.
 */
public final class SendStep implements DeliveryStage {
    private final SendStage sender;
    private final RecordStage records;
    private final DeliveryMeters meters;

    public SendStep(SendStage sender, RecordStage records, DeliveryMeters meters) {
        this.sender = sender;
        this.records = records;
        this.meters = meters;
    }

    @Override
    public String name() {
        return "send";
    }

    @Override
    public Mono<Delivery> apply(Delivery d, Chain next) {
        return vendorRef(d)
                .flatMap(ref -> sender.send(new Notification(d.event(), d.channel(), ref.orElse(null))))
                .flatMap(sent -> {
                    meters.resent(d.claim());
                    meters.sent(sent);
                    return next.proceed(d.withSent(sent));
                });
    }

    private Mono<Optional<String>> vendorRef(Delivery d) {
        AlertEvent e = d.event();
        Mono<String> ref = sender.usesVendorRef() && e.state() != AlertState.OPENED
                ? records.vendorRef(e.incidentId(), e.fingerprint(), d.channel())
                : Mono.empty();
        return ref.map(Optional::of).defaultIfEmpty(Optional.empty());
    }
}
