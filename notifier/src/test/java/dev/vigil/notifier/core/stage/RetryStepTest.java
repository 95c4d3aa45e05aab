package dev.vigil.notifier.core.stage;

import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.FinalOutcome;
import dev.vigil.notifier.core.RetryPolicy;
import dev.vigil.notifier.core.SendStage;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class RetryStepTest {
    private final StageFixture f = new StageFixture();
    private final RetryStep step = new RetryStep(f.policy(Duration.ofHours(1)), f.clock);
    private final AlertEvent e = opened("monitor/a", Severity.CRITICAL);

    @AfterEach
    void close() {
        f.close();
    }

    private Delivery sent(DeliveryOutcome o) {
        return f.claimed(e).withSent(new SendStage.Sent(o, 12));
    }

    @Test
    void aDeliveredSendIsDoneAndTheStepsAfterItEndTheDelivery() {
        Delivery out = f.run(step.apply(
                sent(new DeliveryOutcome.Delivered(200, null)),
                d -> Mono.just(d.finished(FinalOutcome.DELIVERED, d.attempt(), null))));

        assertThat(out.decision()).isInstanceOf(RetryPolicy.Done.class);
        assertThat(out.result().outcome()).isEqualTo(FinalOutcome.DELIVERED);
        assertThat(out.again()).isNull();
    }

    @Test
    void aPermanentFailureIsGivenUpWithItsReason() {
        f.run(step.apply(sent(new DeliveryOutcome.Permanent("slack answered HTTP 404", 404)), f.recording));

        assertThat(f.reached).singleElement().satisfies(d -> assertThat(d.decision())
                .isEqualTo(new RetryPolicy.GiveUp("permanent failure: slack answered HTTP 404")));
    }

    @Test
    void aTransientFailureIsSettledFirstThenEndsTheRunWithTheBackoffAsTheNextAttempt() {
        Delivery out = f.run(step.apply(
                sent(new DeliveryOutcome.Transient("slack answered HTTP 429", Duration.ofSeconds(7), 429)),
                f.recording));

        // the settle and dead-letter steps saw the decision before the run ended
        assertThat(f.reached).singleElement().satisfies(d -> assertThat(d.decision())
                .isEqualTo(new RetryPolicy.RetryIn(Duration.ofSeconds(7))));
        assertThat(out.again()).isEqualTo(Duration.ofSeconds(7));
        assertThat(out.attempt()).isEqualTo(2);
        assertThat(out.claim()).isNull();
        assertThat(out.sent()).isNull();
        assertThat(out.result()).isNull();
    }

    @Test
    void aTransientFailurePastTheDeadlineIsGivenUp() {
        RetryStep strict = new RetryStep(f.policy(Duration.ofSeconds(1)), f.clock);
        Delivery first = sent(new DeliveryOutcome.Transient("no answer", null, null));
        f.vts.advanceTimeBy(Duration.ofSeconds(5));

        Delivery out = f.run(strict.apply(first, f.recording));

        assertThat(out.decision()).isInstanceOf(RetryPolicy.GiveUp.class);
        assertThat(out.again()).isNull();
    }
}
