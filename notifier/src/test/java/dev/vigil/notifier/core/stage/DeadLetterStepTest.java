package dev.vigil.notifier.core.stage;

import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.core.ChannelResult;
import dev.vigil.notifier.core.DeliveryFailing;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.FailingChannel;
import dev.vigil.notifier.core.FinalOutcome;
import dev.vigil.notifier.core.RetryPolicy;
import dev.vigil.notifier.core.SendStage;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeadLetterStepTest {
    private final StageFixture f = new StageFixture();
    private final DeadLetterStep step = new DeadLetterStep(f.deadLetters());
    private final AlertEvent e = opened("monitor/a", Severity.CRITICAL);

    @AfterEach
    void close() {
        f.close();
    }

    private Delivery decided(DeliveryOutcome o, RetryPolicy.Decision d) {
        return f.claimed(e).withSent(new SendStage.Sent(o, 5)).withDecision(d);
    }

    @Test
    void givingUpDeadLettersTheEventAndEndsTheDelivery() {
        Delivery out = f.run(step.apply(
                decided(new DeliveryOutcome.Permanent("gone", 410), new RetryPolicy.GiveUp("permanent failure: gone")),
                f.recording));

        assertThat(out.result())
                .isEqualTo(new ChannelResult("slack", FinalOutcome.DEAD_LETTERED, 1, "permanent failure: gone"));
        assertThat(f.escalations.deadLetters).hasSize(1);
        assertThat(f.reached).isEmpty();
    }

    @Test
    void aDoneSendEndsTheDeliveryDeliveredWithNothingDeadLettered() {
        Delivery out = f.run(
                step.apply(decided(new DeliveryOutcome.Delivered(200, null), new RetryPolicy.Done()), f.recording));

        assertThat(out.result()).isEqualTo(new ChannelResult("slack", FinalOutcome.DELIVERED, 1, null));
        assertThat(f.escalations.deadLetters).isEmpty();
        assertThat(f.reached).isEmpty();
    }

    @Test
    void aRetryPassesOnWithoutAnOutcome() {
        Delivery out = f.run(step.apply(
                decided(
                        new DeliveryOutcome.Transient("503", null, 503),
                        new RetryPolicy.RetryIn(Duration.ofSeconds(1))),
                f.recording));

        assertThat(out.result()).isNull();
        assertThat(f.reached).hasSize(1);
        assertThat(f.escalations.deadLetters).isEmpty();
    }

    @Test
    void aDoneSendResolvesTheChannelsFailingAlertOnlyWhenItsSettlementFoundOneOpen() {
        FailingChannel open = f.log.openFailing(DeliveryFailing.candidate("slack", List.of("log"), 1_000))
                .block();
        f.log.recordIncident(DeliveryFailing.opened(open, e, "x", 2_000)).block();
        Delivery done = decided(new DeliveryOutcome.Delivered(200, null), new RetryPolicy.Done());

        // the settlement found nothing open (it was asked before the alert was): no look-up, nothing raised
        f.run(step.apply(done.settled(false), f.recording));
        assertThat(f.escalations.raised).isEmpty();

        f.run(step.apply(done.settled(true), f.recording));
        assertThat(f.escalations.raised)
                .singleElement()
                .satisfies(r -> assertThat(r.state()).isEqualTo(AlertState.RESOLVED))
                .satisfies(r -> assertThat(r.incidentId()).isEqualTo(open.incidentId()));
        assertThat(f.log.dispatchedFailing("slack").block()).isEmpty();
    }
}
