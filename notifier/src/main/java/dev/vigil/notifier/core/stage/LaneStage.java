package dev.vigil.notifier.core.stage;

import dev.vigil.notifier.core.ChannelLane;
import dev.vigil.notifier.core.DeliveryOutcome;
import java.util.ArrayList;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * Runs its inner stages (the claim and the send) inside the channel's lane, and the stages after it outside: the
 * lane's slot and pacing cover only the vendor call, so settling, dead-lettering and backing off never hold up the
 * channel's other deliveries, and the claim is taken right before the send so time queued behind a rate limit never
 * eats into its lease.
 */
public final class LaneStage implements DeliveryStage {
    private final ChannelLane lane;
    private final StageList inLane;

    public LaneStage(ChannelLane lane, StageList inLane) {
        this.lane = lane;
        this.inLane = inLane;
    }

    @Override
    public String name() {
        return "lane";
    }

    @Override
    public List<String> names() {
        List<String> names = new ArrayList<>();
        names.add(name());
        names.addAll(inLane.names());
        return List.copyOf(names);
    }

    @Override
    public Mono<Delivery> apply(Delivery d, Chain next) {
        return lane.submit(Mono.defer(() -> inLane.run(d))).flatMap(r -> {
            if (r.sent() != null) {
                paceAfter(lane, r.sent().outcome());
            }
            return next.proceed(r);
        });
    }

    /** Holds the lane back as long as the vendor asked: a Retry-After, or a rate-limit bucket it reported empty. */
    public static void paceAfter(ChannelLane lane, DeliveryOutcome o) {
        if (o instanceof DeliveryOutcome.Transient t && t.retryAfter() != null) {
            lane.holdOff(t.retryAfter());
        } else if (o instanceof DeliveryOutcome.Delivered ok && ok.slowDown() != null) {
            lane.holdOff(ok.slowDown());
        }
    }
}
