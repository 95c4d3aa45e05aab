package dev.vigil.notifier.core.stage;

import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.core.ChannelResult;
import dev.vigil.notifier.core.Claim;
import dev.vigil.notifier.core.FinalOutcome;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ClaimStepTest {
    private final StageFixture f = new StageFixture();
    private final ClaimStep step = new ClaimStep(f.claims(), Duration.ofSeconds(1));
    private final AlertEvent e = opened("monitor/a", Severity.CRITICAL);

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void aFreeKeyIsClaimedDurablyAndHandedOn() {
        Delivery out = f.run(step.apply(f.delivery(e), f.recording));

        assertThat(f.reached).singleElement().satisfies(d -> {
            assertThat(d.claim().status()).isEqualTo(Claim.Status.CLAIMED);
            assertThat(d.claim().eventId()).isEqualTo(e.eventId());
        });
        assertThat(f.log.status(e.eventId(), "slack")).isEqualTo("claimed");
        assertThat(out.stopped()).isFalse();
    }

    @Test
    void aKeyAlreadyDeliveredEndsTheDeliveryDeduplicatedWithoutGoingOn() {
        f.log.settleOther(e.eventId(), "slack", "delivered");

        Delivery out = f.run(step.apply(f.delivery(e), f.recording));

        assertThat(f.reached).isEmpty();
        assertThat(out.result())
                .isEqualTo(new ChannelResult(
                        "slack", FinalOutcome.DEDUPLICATED, 0, "already delivered within the dedupe window"));
    }

    @Test
    void aKeyAnotherSenderHoldsEndsTheRunToBeAskedAgainAsTheSameAttempt() {
        f.log.holdByOther(e.eventId(), "slack");

        Delivery out = f.run(step.apply(f.delivery(e), f.recording));

        assertThat(f.reached).isEmpty();
        assertThat(out.result()).isNull();
        assertThat(out.again()).isEqualTo(Duration.ofSeconds(1));
        assertThat(out.attempt()).isEqualTo(1);
        assertThat(out.stopped()).isTrue();
    }
}
