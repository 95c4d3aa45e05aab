package dev.vigil.notifier.core.stage;

import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.core.Attempt;
import dev.vigil.notifier.core.DeliveryFailing;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.FailingChannel;
import dev.vigil.notifier.core.RetryPolicy;
import dev.vigil.notifier.core.SendStage;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class SettleStepTest {
    private final StageFixture f = new StageFixture();
    private final SettleStep step = new SettleStep(f.records());
    private final AlertEvent e = opened("monitor/a", Severity.CRITICAL);

    @AfterEach
    void close() {
        f.close();
    }

    private Delivery decided(DeliveryOutcome o, RetryPolicy.Decision d) {
        return f.claimed(e).withSent(new SendStage.Sent(o, 42)).withDecision(d);
    }

    @Test
    void aDoneSendSettlesDeliveredRecordsTheAttemptAndKeepsTheVendorIdOnceTheIncidentIsRecorded() {
        AtomicBoolean incidentRecorded = new AtomicBoolean();
        Delivery d = decided(new DeliveryOutcome.Delivered(201, "vendor-1"), new RetryPolicy.Done());
        Delivery withIncident = Delivery.at(
                        e,
                        "slack",
                        d.routed(),
                        1,
                        d.firstAttempt(),
                        Mono.fromRunnable(() -> incidentRecorded.set(true)))
                .withClaim(d.claim())
                .withSent(d.sent())
                .withDecision(d.decision());

        f.run(step.apply(withIncident, f.recording));

        assertThat(incidentRecorded).isTrue();
        assertThat(f.log.vendorRefs).containsValue("vendor-1");
        assertThat(f.log.status(e.eventId(), "slack")).isEqualTo("delivered");
        assertThat(f.log.attempts).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo("delivered");
            assertThat(a.httpStatus()).isEqualTo(201);
            assertThat(a.latencyMs()).isEqualTo(42);
            assertThat(a.number()).isEqualTo(1);
            assertThat(a.groupId()).isNull();
        });
        assertThat(f.reached).hasSize(1);
    }

    @Test
    void aRetryReleasesTheClaimSoTheNextAttemptCanClaimItAgain() {
        f.run(step.apply(
                decided(
                        new DeliveryOutcome.Transient("slack answered HTTP 503", null, 503),
                        new RetryPolicy.RetryIn(Duration.ofSeconds(1))),
                f.recording));

        assertThat(f.log.status(e.eventId(), "slack")).isEqualTo("released");
        assertThat(f.log.attempts).extracting(Attempt::error).containsExactly("slack answered HTTP 503");
        assertThat(f.log.vendorRefs).isEmpty();
        assertThat(f.reached).hasSize(1);
    }

    @Test
    void givingUpSettlesDead() {
        f.run(step.apply(
                decided(new DeliveryOutcome.Permanent("gone", 410), new RetryPolicy.GiveUp("permanent failure: gone")),
                f.recording));

        assertThat(f.log.status(e.eventId(), "slack")).isEqualTo("dead");
        assertThat(f.log.attempts).extracting(Attempt::outcome).containsExactly("permanent");
    }

    @Test
    void aDeliveredSettlementTellsTheNextStageWhetherTheChannelHasAFailingAlertToResolve() {
        f.run(step.apply(decided(new DeliveryOutcome.Delivered(200, null), new RetryPolicy.Done()), f.recording));
        assertThat(f.reached)
                .singleElement()
                .extracting(Delivery::channelFailing)
                .isEqualTo(false);

        FailingChannel open = f.log.openFailing(DeliveryFailing.candidate("slack", List.of("log"), 1_000))
                .block();
        f.log.recordIncident(DeliveryFailing.opened(open, e, "x", 2_000)).block();
        AlertEvent next = opened("monitor/b", Severity.CRITICAL);
        f.run(step.apply(
                f.claimed(next)
                        .withSent(new SendStage.Sent(new DeliveryOutcome.Delivered(200, null), 7))
                        .withDecision(new RetryPolicy.Done()),
                f.recording));
        assertThat(f.reached).extracting(Delivery::channelFailing).containsExactly(false, true);
    }
}
