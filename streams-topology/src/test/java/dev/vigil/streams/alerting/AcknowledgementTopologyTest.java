package dev.vigil.streams.alerting;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.failure;
import static dev.vigil.streams.Fixtures.success;
import static dev.vigil.streams.alerting.AlertingTopologyTest.MIN;
import static dev.vigil.streams.alerting.AlertingTopologyTest.ONE;
import static dev.vigil.streams.alerting.AlertingTopologyTest.log;
import static dev.vigil.streams.alerting.AlertingTopologyTest.monitor;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.streams.rules.Evaluation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Acknowledgements in the topology, event time throughout (docs/design.md#incident-lifecycle): an acknowledged incident sends no
 * reminder; one whose acknowledgement ends sends its reminder at the next breach; an escalation pages through the
 * acknowledgement; a replay of the same inputs gives the same events.
 */
class AcknowledgementTopologyTest {
    private static final String FP = "monitor/api";

    /** Failing two-minute windows {@code from..to} (indexes from W0) of a one-region monitor. */
    private static void failing(AlertingHarness h, int from, int to) {
        for (int i = from; i < to; i++) {
            h.result(failure("api", "eu-west", W0 + i * 2 * MIN));
        }
    }

    private static void healthy(AlertingHarness h, int from, int to) {
        for (int i = from; i < to; i++) {
            h.result(success("api", "eu-west", W0 + i * 2 * MIN));
        }
    }

    /** Opens the incident (first failing window) and returns its opened event. */
    private static AlertEvent open(AlertingHarness h) {
        h.define(monitor("api", 120, ONE));
        h.wallClockTo(W0 - 20_000);
        failing(h, 0, 1);
        List<AlertEvent> out = h.alerts.readValuesToList();
        assertThat(log(out)).containsExactly("opened:critical");
        return out.get(0);
    }

    private static Ack ack(AlertEvent opened, long at, Long until, Severity severity) {
        return new Ack(1, FP, opened.incidentId(), "oncall", at, until, "on it", severity);
    }

    @Test
    void anAcknowledgedIncidentSendsNoReminderButItsResolution() {
        try (var h = AlertingTopologyTest.started()) {
            AlertEvent opened = open(h);
            h.acks.pipeInput(FP, ack(opened, W0 + MIN, null, Severity.CRITICAL), W0 + MIN);
            failing(h, 1, 20); // 40 minutes down: two reminders were due
            healthy(h, 20, 22);
            assertThat(log(h.alerts.readValuesToList())).containsExactly("resolved:critical");
        }
    }

    @Test
    void withoutTheAcknowledgementTheSameOutageRemindsEveryFifteenMinutes() {
        try (var h = AlertingTopologyTest.started()) {
            open(h);
            failing(h, 1, 20);
            healthy(h, 20, 22);
            assertThat(log(h.alerts.readValuesToList()))
                    .containsExactly("reminder:critical", "reminder:critical", "resolved:critical");
        }
    }

    @Test
    void anAcknowledgementThatEndsWhileTheIncidentFiresRemindsAtTheNextBreach() {
        try (var h = AlertingTopologyTest.started()) {
            AlertEvent opened = open(h);
            h.acks.pipeInput(FP, ack(opened, W0 + MIN, W0 + 21 * MIN, Severity.CRITICAL), W0 + MIN);
            failing(h, 1, 20);
            List<AlertEvent> out = h.alerts.readValuesToList();
            assertThat(log(out)).containsExactly("reminder:critical", "reminder:critical");
            // the reminder due at 16 min waited; it goes out with the first breach after 21 min (window 22 min)
            assertThat(out.get(0).lastSeen()).isEqualTo(W0 + 22 * MIN);
            assertThat(out.get(1).lastSeen()).isEqualTo(W0 + 38 * MIN);
        }
    }

    @Test
    void anAcknowledgementOfAnEarlierIncidentDoesNotHoldForTheNextOne() {
        try (var h = AlertingTopologyTest.started()) {
            AlertEvent opened = open(h);
            h.acks.pipeInput(
                    FP, new Ack(1, FP, FP + "@1", "oncall", W0 + MIN, null, null, Severity.CRITICAL), W0 + MIN);
            failing(h, 1, 10);
            assertThat(log(h.alerts.readValuesToList())).containsExactly("reminder:critical");
            assertThat(opened.incidentId()).isNotEqualTo(FP + "@1");
        }
    }

    @Test
    void aTombstoneUnacknowledgesAndTheDueReminderGoesOutAtOnce() {
        try (var h = AlertingTopologyTest.started()) {
            AlertEvent opened = open(h);
            h.acks.pipeInput(FP, ack(opened, W0 + MIN, null, Severity.CRITICAL), W0 + MIN);
            failing(h, 1, 12);
            assertThat(h.alerts.readValuesToList()).isEmpty();
            h.acks.pipeInput(FP, null, W0 + 23 * MIN);
            failing(h, 12, 13);
            List<AlertEvent> out = h.alerts.readValuesToList();
            assertThat(log(out)).containsExactly("reminder:critical");
            assertThat(out.get(0).lastSeen()).isEqualTo(W0 + 24 * MIN);
        }
    }

    @Test
    void theSameInputsReplayedGiveTheSameEventsAndIds() {
        List<List<String>> runs = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            try (var h = AlertingTopologyTest.started()) {
                AlertEvent opened = open(h);
                h.acks.pipeInput(FP, ack(opened, W0 + MIN, W0 + 21 * MIN, Severity.CRITICAL), W0 + MIN);
                failing(h, 1, 20);
                healthy(h, 20, 22);
                List<String> ids = new ArrayList<>(List.of(opened.eventId()));
                h.alerts.readValuesToList().forEach(e -> ids.add(e.eventId()));
                runs.add(ids);
            }
        }
        assertThat(runs.get(0)).hasSize(4).isEqualTo(runs.get(1));
    }

    private static Evaluation breach(long at, Severity severity) {
        return Evaluation.breach(
                FP,
                at,
                severity,
                "api",
                null,
                "api is failing",
                java.util.Map.of(),
                java.util.Map.of(),
                dev.vigil.schemas.contract.AlertSource.PROBE);
    }

    @Test
    void anEscalationPagesThroughTheAcknowledgementAndEndsIt() {
        AlertStateMachine machine = new AlertStateMachine();
        AlertStateRecord s =
                machine.apply(null, breach(W0, Severity.WARNING), false).state();
        Ack ack = new Ack(1, FP, s.incidentId(), "oncall", W0 + MIN, null, null, Severity.WARNING);
        // a warning reminder due at 16 min is held back
        var held = machine.apply(s, breach(W0 + 16 * MIN, Severity.WARNING), false, ack);
        assertThat(held.event()).isEmpty();
        // the incident turns critical: it pages at once, acknowledgement or not
        var escalated = machine.apply(held.state(), breach(W0 + 17 * MIN, Severity.CRITICAL), false, ack);
        assertThat(escalated.event()).map(AlertEvent::state).contains(AlertState.ESCALATED);
        // and the warning-level acknowledgement no longer holds for the critical incident: reminders resume
        assertThat(ack.holdsFor(
                        escalated.state().incidentId(), escalated.state().severity(), W0 + 18 * MIN))
                .isFalse();
        var reminder = machine.apply(escalated.state(), breach(W0 + 33 * MIN, Severity.CRITICAL), false, ack);
        assertThat(reminder.event()).map(AlertEvent::state).contains(AlertState.REMINDER);
    }
}
