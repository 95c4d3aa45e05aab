package dev.vigil.kit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StaticMembershipTest {

    @Test
    void anEmptyIdKeepsDynamicMembershipAndTheConsumerDefaults() {
        assertThat(StaticMembership.consumerSettings("")).isEmpty();
        assertThat(StaticMembership.consumerSettings(null)).isEmpty();
        assertThat(StaticMembership.consumerSettings("  ")).isEmpty();
    }

    @Test
    void aStaticMemberGetsItsIdAndASessionShortEnoughForFailover() {
        var settings = StaticMembership.consumerSettings("streams-1");
        assertThat(settings)
                .containsEntry("group.instance.id", "streams-1")
                .containsEntry("session.timeout.ms", 6_000)
                .containsEntry("heartbeat.interval.ms", 2_000);
        // the broker refuses sessions outside group.min/max.session.timeout.ms (6 s .. 30 min by default)
        assertThat((int) settings.get("session.timeout.ms")).isBetween(6_000, 1_800_000);
        assertThat((int) settings.get("heartbeat.interval.ms") * 3)
                .isLessThanOrEqualTo((int) settings.get("session.timeout.ms"));
    }
}
