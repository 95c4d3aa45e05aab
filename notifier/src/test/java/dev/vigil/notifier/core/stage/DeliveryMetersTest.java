package dev.vigil.notifier.core.stage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.ops.SelfHeals;
import dev.vigil.notifier.core.Claim;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.FinalOutcome;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class DeliveryMetersTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void everyOutcomeAndSendKindIsScrapedAtZeroBeforeTheFirstDelivery() {
        new DeliveryMeters("slack", registry, false);

        for (String outcome : new String[] {"delivered", "deduplicated", "dead_lettered", "silenced"}) {
            assertThat(registry.find(DeliveryMeters.DELIVERIES)
                            .tags("channel", "slack", "outcome", outcome)
                            .counter())
                    .as(outcome)
                    .isNotNull();
        }
        for (String kind : new String[] {"delivered", "transient", "permanent"}) {
            assertThat(registry.find(DeliveryMeters.SEND)
                            .tags("channel", "slack", "outcome", kind)
                            .timer())
                    .as(kind)
                    .isNotNull();
        }
        // group counters belong to channels that show groups
        assertThat(registry.find(DeliveryMeters.GROUP_MESSAGES).counter()).isNull();
    }

    @Test
    void countsOutcomesGroupsAndTakenOverSendsWhereTheyBelong() {
        DeliveryMeters meters = new DeliveryMeters("slack", registry, true);

        meters.finished(FinalOutcome.DELIVERED);
        meters.finished(FinalOutcome.DELIVERED);
        meters.groupDelivered(3);
        meters.resent(new Claim("e1", "slack", Claim.Status.CLAIMED, "t", null));
        meters.resent(new Claim("e2", "slack", Claim.Status.CLAIMED, "t", "notifier-2"));

        assertThat(registry.counter(DeliveryMeters.DELIVERIES, "channel", "slack", "outcome", "delivered")
                        .count())
                .isEqualTo(2.0);
        assertThat(registry.counter(DeliveryMeters.GROUP_MESSAGES, "channel", "slack")
                        .count())
                .isEqualTo(1.0);
        assertThat(registry.counter(DeliveryMeters.GROUP_EVENTS, "channel", "slack")
                        .count())
                .isEqualTo(3.0);
        assertThat(new SelfHeals(registry).count(SelfHeals.CLAIM_RESENT)).isEqualTo(1.0);
    }

    @Test
    void namesASendByWhatItGave() {
        assertThat(DeliveryMeters.kind(new DeliveryOutcome.Delivered(200, null)))
                .isEqualTo("delivered");
        assertThat(DeliveryMeters.kind(new DeliveryOutcome.Transient("503", null, 503)))
                .isEqualTo("transient");
        assertThat(DeliveryMeters.kind(new DeliveryOutcome.Permanent("404", 404)))
                .isEqualTo("permanent");
    }
}
