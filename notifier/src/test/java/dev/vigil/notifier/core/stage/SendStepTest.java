package dev.vigil.notifier.core.stage;

import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.ops.SelfHeals;
import dev.vigil.notifier.core.Claim;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class SendStepTest {
    private final StageFixture f = new StageFixture();
    private final DeliveryMeters meters = new DeliveryMeters("slack", f.meters, false);
    private final SendStep step = new SendStep(f.sender(), f.records(), meters);

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void sendsOnceAndHandsOnWhatTheVendorAnsweredTimedByItsKind() {
        f.answers.add(new DeliveryOutcome.Transient("slack answered HTTP 503", null, 503));
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);

        f.run(step.apply(f.claimed(e), f.recording));

        assertThat(f.sent).singleElement().satisfies(n -> {
            assertThat(n.event()).isEqualTo(e);
            assertThat(n.channel()).isEqualTo("slack");
            assertThat(n.vendorRef()).isNull();
        });
        assertThat(f.reached).singleElement().satisfies(d -> assertThat(d.sent().outcome())
                .isInstanceOf(DeliveryOutcome.Transient.class));
        assertThat(f.meters
                        .timer(DeliveryMeters.SEND, "channel", "slack", "outcome", "transient")
                        .count())
                .isEqualTo(1);
        assertThat(f.meters
                        .timer(DeliveryMeters.SEND, "channel", "slack", "outcome", "delivered")
                        .count())
                .isZero();
    }

    @Test
    void aLaterEventOfAnIncidentCarriesTheVendorsIdAndAnOpeningOneNone() {
        f.usesVendorRef = true;
        AlertEvent open = opened("monitor/a", Severity.CRITICAL);
        AlertEvent resolved = event("monitor/a", AlertState.RESOLVED, Severity.CRITICAL, 2);
        f.log.saveVendorRef(resolved.incidentId(), resolved.fingerprint(), "slack", "vendor-7")
                .block();

        f.run(step.apply(f.claimed(open), f.recording));
        f.run(step.apply(f.claimed(resolved), f.recording));

        assertThat(f.sent).extracting(n -> n.vendorRef()).containsExactly(null, "vendor-7");
    }

    @Test
    void aSendOnAClaimTakenOverFromADeadSenderIsOneSelfHeal() {
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        Delivery takenOver =
                f.delivery(e).withClaim(new Claim(e.eventId(), "slack", Claim.Status.CLAIMED, "t1", "notifier-2"));
        Delivery ordinary = f.delivery(e).withClaim(new Claim(e.eventId(), "slack", Claim.Status.CLAIMED, "t2"));

        f.run(step.apply(takenOver, f.recording));
        f.run(step.apply(ordinary, f.recording));

        assertThat(new SelfHeals(f.meters).count(SelfHeals.CLAIM_RESENT)).isEqualTo(1.0);
        assertThat(f.sent).hasSize(2);
    }

    @Test
    void whatTheStepsAfterItReturnIsItsResult() {
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        Delivery marker = f.delivery(e).againAfter(java.time.Duration.ofSeconds(9), 4);

        Delivery out = f.run(step.apply(f.claimed(e), d -> Mono.just(marker)));

        assertThat(out).isSameAs(marker);
        assertThat(List.copyOf(f.sent)).hasSize(1);
    }
}
