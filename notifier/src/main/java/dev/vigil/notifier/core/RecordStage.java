package dev.vigil.notifier.core;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Stage 3: settle the claim and record the attempt, and keep the vendor's incident id. Retried through a store
 * outage: an unsettled claim would otherwise hold the dedupe key only until its lease ends.
 */
public final class RecordStage {
    private final DeliveryLog log;
    private final Scheduler timer;

    public RecordStage(DeliveryLog log, Scheduler timer) {
        this.log = log;
        this.timer = timer;
    }

    /** Settles; emits whether a delivered claim's channel has a dispatched delivery-failing alert to resolve. */
    public Mono<Boolean> settle(Claim claim, Attempt attempt, Settlement settlement) {
        return ClaimStage.untilStored(() -> log.settle(claim, attempt, settlement), timer, "settle " + claim.channel());
    }

    public Mono<Void> saveVendorRef(String incidentId, String fingerprint, String channel, String ref) {
        if (ref == null) {
            return Mono.empty();
        }
        return ClaimStage.untilStored(
                () -> log.saveVendorRef(incidentId, fingerprint, channel, ref), timer, "vendor ref " + channel);
    }

    public Mono<String> vendorRef(String incidentId, String fingerprint, String channel) {
        return ClaimStage.untilStored(
                        () -> log.vendorRef(incidentId, fingerprint, channel), timer, "vendor ref " + channel)
                .flatMap(o -> Mono.justOrEmpty(o));
    }
}
