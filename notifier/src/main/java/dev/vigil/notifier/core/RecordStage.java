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

    public Mono<Void> settle(Claim claim, Attempt attempt, Settlement settlement) {
        return Mono.defer(() -> log.settle(claim, attempt, settlement))
                .retryWhen(ClaimStage.storeRetry(timer, "settle " + claim.channel()));
    }

    public Mono<Void> saveVendorRef(String incidentId, String channel, String ref) {
        if (ref == null) {
            return Mono.empty();
        }
        return Mono.defer(() -> log.saveVendorRef(incidentId, channel, ref))
                .retryWhen(ClaimStage.storeRetry(timer, "vendor ref " + channel));
    }

    public Mono<String> vendorRef(String incidentId, String channel) {
        return Mono.defer(() -> log.vendorRef(incidentId, channel))
                .retryWhen(ClaimStage.storeRetry(timer, "vendor ref " + channel))
                .flatMap(o -> Mono.justOrEmpty(o));
    }
}
