package dev.vigil.notifier.consume;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.ops.SelfHeals;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class RebalanceSurvivalsTest {
    private final SelfHeals heals = new SelfHeals(new SimpleMeterRegistry());
    private final RebalanceSurvivals rebalances = new RebalanceSurvivals(heals);
    private final List<TopicPartition> three =
            List.of(new TopicPartition("a", 0), new TopicPartition("a", 1), new TopicPartition("a", 2));

    private double survived() {
        return heals.count(SelfHeals.CONSUMER_REBALANCE_SURVIVED);
    }

    @Test
    void theFirstAssignmentTookNothingAndCountsNothing() {
        rebalances.taken(List.of());
        rebalances.assigned();
        assertThat(survived()).isZero();
    }

    @Test
    void partitionsRevokedThenANewAssignmentCountOnceHoweverManyPartitions() {
        rebalances.assigned();
        rebalances.taken(three);
        assertThat(survived()).as("not before the consumer goes on").isZero();
        rebalances.assigned();
        assertThat(survived()).isEqualTo(1.0);
        rebalances.assigned();
        assertThat(survived()).as("an assignment with nothing taken before it").isEqualTo(1.0);
    }

    @Test
    void partitionsLostThenRevokedInOneRebalanceCountOnce() {
        rebalances.taken(three.subList(0, 1));
        rebalances.taken(three.subList(1, 3));
        rebalances.assigned();
        assertThat(survived()).isEqualTo(1.0);
        rebalances.taken(three);
        rebalances.assigned();
        assertThat(survived()).as("the next rebalance counts again").isEqualTo(2.0);
    }

    @Test
    void aRevocationNoAssignmentFollowsIsNone() {
        rebalances.assigned();
        rebalances.taken(three);
        assertThat(survived()).isZero();
    }
}
