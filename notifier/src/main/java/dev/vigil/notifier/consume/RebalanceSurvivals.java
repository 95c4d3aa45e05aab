package dev.vigil.notifier.consume;

import dev.vigil.kit.ops.SelfHeals;
import java.util.Collection;

/**
 * Counts the rebalances a consumer came through ({@link SelfHeals#CONSUMER_REBALANCE_SURVIVED}): partitions taken
 * from it, revoked in an orderly hand-over or lost when its membership lapsed, and then a new assignment it goes on
 * with. Once per rebalance, however many partitions it gave up; a revocation that no assignment follows (the consumer
 * leaving the group as it closes) is none, and neither is an assignment that took nothing away (the first one).
 *
 * <p>Kafka runs the rebalance callbacks on the thread that polls, so this holds no lock.
 */
final class RebalanceSurvivals {
    private final SelfHeals heals;
    private boolean taken;

    RebalanceSurvivals(SelfHeals heals) {
        this.heals = heals;
    }

    /** Partitions revoked or lost; an empty collection (a rebalance that took nothing from this member) is none. */
    void taken(Collection<?> partitions) {
        if (!partitions.isEmpty()) {
            taken = true;
        }
    }

    /** The end of a rebalance: the consumer goes on with its new assignment (possibly empty). */
    void assigned() {
        if (taken) {
            taken = false;
            heals.record(SelfHeals.CONSUMER_REBALANCE_SURVIVED);
        }
    }
}
