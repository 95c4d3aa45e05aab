package dev.vigil.streams.alerting;

import static dev.vigil.streams.alerting.AlertStateMachineTest.MIN;
import static dev.vigil.streams.alerting.AlertStateMachineTest.T0;
import static dev.vigil.streams.alerting.AlertStateMachineTest.breach;
import static dev.vigil.streams.alerting.AlertStateMachineTest.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import org.junit.jupiter.api.Test;

/** The alert state machine's holds (docs/monitors.md#dependencies): owed, not dropped; resolutions never held. */
class AlertHoldTest {
    static final AlertStateRecord.Held DB = AlertStateRecord.Held.by("db");

    final AlertStateMachine machine = new AlertStateMachine();

    @Test
    void aHeldOpeningEmitsNothingAndIsSentByTheFirstBreachNotHeld() {
        var t = machine.apply(null, breach(T0), false, null, DB);
        assertThat(t.event()).isEmpty();
        assertThat(t.state().isOpen()).isTrue();
        assertThat(t.state().sequence()).isZero();
        assertThat(t.state().paged()).isFalse();
        assertThat(t.state().held()).isEqualTo(DB);

        var held = machine.apply(t.state(), breach(T0 + MIN), false, null, DB);
        assertThat(held.event()).isEmpty();

        var free = machine.apply(held.state(), breach(T0 + 2 * MIN), false, null, null);
        assertThat(free.event()).map(AlertEvent::state).contains(AlertState.OPENED);
        AlertEvent opened = free.event().get();
        assertThat(opened.eventId())
                .as("the first event of the incident")
                .isEqualTo(AlertEvent.topologyEventId(opened.incidentId(), AlertState.OPENED, 1));
        assertThat(free.state().held()).isNull();
        assertThat(free.state().paged()).isTrue();
    }

    @Test
    void aReleaseOfAFiringIncidentSendsItsOpeningAtOnce() {
        var held = machine.apply(null, breach(T0), false, null, DB).state();
        var released = machine.release(held, held.lastEvaluated(), false, false);
        assertThat(released.event()).map(AlertEvent::state).contains(AlertState.OPENED);
        assertThat(released.event().get().silenced()).isFalse();
        assertThat(released.state().held()).isNull();
        assertThat(machine.release(released.state(), T0, false, false).event())
                .as("nothing owed twice")
                .isEmpty();
    }

    @Test
    void aReleaseUnderASilenceRecordsTheOpeningAsSilencedAndPagesWhenTheSilenceEnds() {
        var held = machine.apply(null, breach(T0), false, null, DB).state();
        var released = machine.release(held, T0, true, false);
        assertThat(released.event()).hasValueSatisfying(e -> {
            assertThat(e.state()).isEqualTo(AlertState.OPENED);
            assertThat(e.silenced()).isTrue();
        });
        var after = machine.apply(released.state(), breach(T0 + MIN), false, null, null);
        assertThat(after.event()).map(AlertEvent::state).contains(AlertState.OPENED);
        assertThat(after.event().get().silenced()).isFalse();
    }

    @Test
    void aPagedIncidentsHeldReminderIsSentOnRelease() {
        var opened = machine.apply(null, breach(T0), false, null, null).state();
        var held = machine.apply(opened, breach(T0 + 16 * MIN), false, null, DB);
        assertThat(held.event()).as("the reminder is held").isEmpty();
        assertThat(held.state().lastNotified()).isEqualTo(T0);
        var released = machine.release(held.state(), held.state().lastEvaluated(), false, false);
        assertThat(released.event()).map(AlertEvent::state).contains(AlertState.REMINDER);
    }

    @Test
    void aPagedIncidentsHeldEscalationKeepsItsSeverityAndEscalatesAfterTheHold() {
        var opened = machine.apply(null, breach(T0, Severity.WARNING), false, null, null)
                .state();
        var held = machine.apply(opened, breach(T0 + MIN, Severity.CRITICAL), false, null, DB);
        assertThat(held.event()).isEmpty();
        assertThat(held.state().severity()).isEqualTo(Severity.WARNING);
        var free = machine.apply(held.state(), breach(T0 + 2 * MIN, Severity.CRITICAL), false, null, null);
        assertThat(free.event()).map(AlertEvent::state).contains(AlertState.ESCALATED);
    }

    @Test
    void aResolutionIsNeverHeld() {
        var opened = machine.apply(null, breach(T0), false, null, null).state();
        var s = machine.apply(opened, breach(T0 + MIN), false, null, DB).state();
        s = machine.apply(s, ok(T0 + 2 * MIN), false, null, DB).state();
        var resolved = machine.apply(s, ok(T0 + 3 * MIN), false, null, DB);
        assertThat(resolved.event()).hasValueSatisfying(e -> {
            assertThat(e.state()).isEqualTo(AlertState.RESOLVED);
            assertThat(e.silenced())
                    .as("it paged, so its resolution goes where it paged")
                    .isFalse();
        });
        assertThat(resolved.state().held()).isNull();
    }

    @Test
    void anIncidentHeldThroughoutResolvesWithoutAnyEvent() {
        var s = machine.apply(null, breach(T0), false, null, DB).state();
        s = machine.apply(s, ok(T0 + MIN), false, null, DB).state();
        var resolved = machine.apply(s, ok(T0 + 2 * MIN), false, null, DB);
        assertThat(resolved.event()).isEmpty();
        assertThat(resolved.state().isOpen()).isFalse();
        assertThat(machine.forceResolve(
                                machine.apply(null, breach(T0), false, null, DB).state(), T0 + MIN, "deleted", false)
                        .event())
                .isEmpty();
    }
}
