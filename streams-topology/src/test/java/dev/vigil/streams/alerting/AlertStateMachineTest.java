package dev.vigil.streams.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.rules.Evaluation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AlertStateMachineTest {
    static final String FP = "monitor/checkout-api";
    static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    static final long MIN = 60_000L;

    final AlertStateMachine machine = new AlertStateMachine();

    static Evaluation breach(long at, Severity severity) {
        return Evaluation.breach(
                FP,
                at,
                severity,
                "checkout",
                "monitor",
                "checkout-api is down",
                Map.of("history", "http://q/v1/monitors/checkout-api/history"),
                Map.of("monitorId", "checkout-api"),
                AlertSource.PROBE);
    }

    static Evaluation breach(long at) {
        return breach(at, Severity.CRITICAL);
    }

    static Evaluation ok(long at) {
        return Evaluation.healthy(
                FP,
                at,
                "checkout",
                "monitor",
                "checkout-api is up",
                Map.of(),
                Map.of("monitorId", "checkout-api"),
                AlertSource.PROBE);
    }

    /** A state record in {@code phase} whose incident started at T0 and was last notified at {@code lastNotified}. */
    static AlertStateRecord record(
            AlertPhase phase,
            Severity severity,
            long lastNotified,
            long lastEvaluated,
            int occurrences,
            int healthy,
            int seq) {
        return new AlertStateRecord(
                FP,
                AlertEvent.incidentIdFor(FP, T0),
                phase,
                severity,
                "checkout",
                "monitor",
                "checkout-api is down",
                Map.of(),
                Map.of(),
                AlertSource.PROBE,
                T0,
                lastEvaluated,
                lastNotified,
                lastEvaluated,
                occurrences,
                healthy,
                seq,
                false,
                true);
    }

    /** Folds evaluations through the machine like the alert processor does, collecting emitted events. */
    static final class Run {
        final AlertStateMachine machine;
        final LongPredicate silencedAt;
        AlertStateRecord state;
        final List<AlertEvent> events = new ArrayList<>();

        Run(AlertStateMachine machine, LongPredicate silencedAt) {
            this.machine = machine;
            this.silencedAt = silencedAt;
        }

        Run feed(Evaluation ev) {
            var t = machine.apply(state, ev, silencedAt.test(ev.at()));
            state = t.state();
            t.event().ifPresent(events::add);
            return this;
        }

        List<AlertState> states() {
            return events.stream().map(AlertEvent::state).toList();
        }

        long paged(AlertState s) {
            return events.stream().filter(e -> e.state() == s && !e.silenced()).count();
        }
    }

    Run run() {
        return new Run(machine, t -> false);
    }

    // ---- the state machine's table (docs/design.md#alert-state-machine), row by row
    // ----------------------------------------------------------------------

    @Test
    void healthyBreachOpensWithOccurrencesOneAndLastNotifiedNow() {
        var t = machine.apply(null, breach(T0), false);
        assertThat(t.state().phase()).isEqualTo(AlertPhase.FIRING);
        assertThat(t.state().occurrences()).isEqualTo(1);
        assertThat(t.state().lastNotified()).isEqualTo(T0);
        assertThat(t.state().incidentId()).isEqualTo(FP + "@" + T0);
        AlertEvent e = t.event().orElseThrow();
        assertThat(e.state()).isEqualTo(AlertState.OPENED);
        assertThat(e.eventId()).isEqualTo(AlertEvent.topologyEventId(FP + "@" + T0, AlertState.OPENED, 1));
        assertThat(e.occurrences()).isEqualTo(1);
        assertThat(e.firstSeen()).isEqualTo(T0);
        assertThat(e.lastSeen()).isEqualTo(T0);
        assertThat(e.severity()).isEqualTo(Severity.CRITICAL);
        assertThat(e.service()).isEqualTo("checkout");
        assertThat(e.summary()).isEqualTo("checkout-api is down");
        assertThat(e.links()).containsKey("history");
        assertThat(e.source()).isEqualTo(AlertSource.PROBE);
        assertThat(e.silenced()).isFalse();
    }

    static Stream<Arguments> table() {
        // from-phase, severity, lastNotified offset (min), evaluation: offset (min), breach?, severity
        //   -> to-phase, emitted (null = nothing), occurrences after, consecutiveHealthy after, lastNotified offset
        // after
        return Stream.of(
                Arguments.of(
                        "firing, breach 14 min after notice: debounced",
                        AlertPhase.FIRING,
                        Severity.CRITICAL,
                        0,
                        14L,
                        true,
                        Severity.CRITICAL,
                        AlertPhase.FIRING,
                        null,
                        4,
                        0,
                        0L),
                Arguments.of(
                        "firing, breach 1 ms before the debounce ends: debounced",
                        AlertPhase.FIRING,
                        Severity.CRITICAL,
                        0,
                        -1L,
                        true,
                        Severity.CRITICAL,
                        AlertPhase.FIRING,
                        null,
                        4,
                        0,
                        0L),
                Arguments.of(
                        "firing, breach exactly 15 min after notice: reminder",
                        AlertPhase.FIRING,
                        Severity.CRITICAL,
                        0,
                        15L,
                        true,
                        Severity.CRITICAL,
                        AlertPhase.FIRING,
                        AlertState.REMINDER,
                        4,
                        0,
                        15L),
                Arguments.of(
                        "firing, breach 40 min after notice: reminder",
                        AlertPhase.FIRING,
                        Severity.CRITICAL,
                        0,
                        40L,
                        true,
                        Severity.CRITICAL,
                        AlertPhase.FIRING,
                        AlertState.REMINDER,
                        4,
                        0,
                        40L),
                Arguments.of(
                        "firing, higher severity: escalated at once",
                        AlertPhase.FIRING,
                        Severity.WARNING,
                        0,
                        1L,
                        true,
                        Severity.CRITICAL,
                        AlertPhase.FIRING,
                        AlertState.ESCALATED,
                        4,
                        0,
                        1L),
                Arguments.of(
                        "firing, lower severity: debounced, no de-escalation",
                        AlertPhase.FIRING,
                        Severity.CRITICAL,
                        0,
                        1L,
                        true,
                        Severity.WARNING,
                        AlertPhase.FIRING,
                        null,
                        4,
                        0,
                        0L),
                Arguments.of(
                        "firing, healthy: resolving",
                        AlertPhase.FIRING,
                        Severity.CRITICAL,
                        0,
                        1L,
                        false,
                        null,
                        AlertPhase.RESOLVING,
                        null,
                        3,
                        1,
                        0L),
                Arguments.of(
                        "resolving, healthy: resolved",
                        AlertPhase.RESOLVING,
                        Severity.CRITICAL,
                        0,
                        2L,
                        false,
                        null,
                        AlertPhase.HEALTHY,
                        AlertState.RESOLVED,
                        3,
                        2,
                        2L),
                Arguments.of(
                        "resolving, breach within debounce: flap back to firing, nothing",
                        AlertPhase.RESOLVING,
                        Severity.CRITICAL,
                        0,
                        3L,
                        true,
                        Severity.CRITICAL,
                        AlertPhase.FIRING,
                        null,
                        4,
                        0,
                        0L),
                Arguments.of(
                        "resolving, breach with a reminder due: firing + reminder",
                        AlertPhase.RESOLVING,
                        Severity.CRITICAL,
                        0,
                        20L,
                        true,
                        Severity.CRITICAL,
                        AlertPhase.FIRING,
                        AlertState.REMINDER,
                        4,
                        0,
                        20L),
                Arguments.of(
                        "resolving, higher severity: escalated",
                        AlertPhase.RESOLVING,
                        Severity.WARNING,
                        0,
                        3L,
                        true,
                        Severity.CRITICAL,
                        AlertPhase.FIRING,
                        AlertState.ESCALATED,
                        4,
                        0,
                        3L));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void tableRow(
            String name,
            AlertPhase from,
            Severity severity,
            long notifiedMin,
            long evalMin,
            boolean isBreach,
            Severity evalSeverity,
            AlertPhase to,
            AlertState emits,
            int occurrencesAfter,
            int healthyAfter,
            long notifiedAfterMin) {
        long lastNotified = T0 + notifiedMin * MIN;
        long at = evalMin < 0 ? lastNotified + 15 * MIN - 1 : T0 + evalMin * MIN;
        int healthy = from == AlertPhase.RESOLVING ? 1 : 0;
        AlertStateRecord cur = record(from, severity, lastNotified, T0, 3, healthy, 2);
        var t = machine.apply(cur, isBreach ? breach(at, evalSeverity) : ok(at), false);

        assertThat(t.state().phase()).isEqualTo(to);
        assertThat(t.event().map(AlertEvent::state).orElse(null)).isEqualTo(emits);
        assertThat(t.state().occurrences()).isEqualTo(occurrencesAfter);
        assertThat(t.state().consecutiveHealthy()).isEqualTo(healthyAfter);
        long expectedNotified = evalMin < 0 ? lastNotified : T0 + notifiedAfterMin * MIN;
        assertThat(t.state().lastNotified()).isEqualTo(expectedNotified);
        assertThat(t.state().incidentId()).isEqualTo(cur.incidentId());
        assertThat(t.state().firstSeen()).isEqualTo(T0);
        assertThat(t.state().sequence()).isEqualTo(emits == null ? 2 : 3);
        t.event().ifPresent(e -> {
            assertThat(e.eventId()).isEqualTo(AlertEvent.topologyEventId(cur.incidentId(), emits, 3));
            assertThat(e.incidentId()).isEqualTo(cur.incidentId());
            assertThat(e.occurrences()).isEqualTo(occurrencesAfter);
            assertThat(e.firstSeen()).isEqualTo(T0);
            assertThat(e.silenced()).isFalse();
        });
    }

    @Test
    void escalationRaisesTheSeverityAndALowerOneNeverLowersIt() {
        var r = run().feed(breach(T0, Severity.WARNING))
                .feed(breach(T0 + MIN, Severity.CRITICAL))
                .feed(breach(T0 + 2 * MIN, Severity.WARNING));
        assertThat(r.states()).containsExactly(AlertState.OPENED, AlertState.ESCALATED);
        assertThat(r.events.get(1).severity()).isEqualTo(Severity.CRITICAL);
        assertThat(r.state.severity()).isEqualTo(Severity.CRITICAL);
        assertThat(r.state.occurrences()).isEqualTo(3);
    }

    @Test
    void healthyEvaluationWithoutAnIncidentCreatesNothing() {
        var t = machine.apply(null, ok(T0), false);
        assertThat(t.state()).isNull();
        assertThat(t.event()).isEmpty();
    }

    @Test
    void healthyEvaluationOfAResolvedRecordChangesNothing() {
        var r = run().feed(breach(T0)).feed(ok(T0 + MIN)).feed(ok(T0 + 2 * MIN));
        AlertStateRecord resolved = r.state;
        var t = machine.apply(resolved, ok(T0 + 3 * MIN), false);
        assertThat(t.state()).isSameAs(resolved);
        assertThat(t.event()).isEmpty();
    }

    @Test
    void aBreachAfterResolutionOpensANewIncident() {
        var r = run().feed(breach(T0)).feed(ok(T0 + MIN)).feed(ok(T0 + 2 * MIN)).feed(breach(T0 + 3 * MIN));
        assertThat(r.states()).containsExactly(AlertState.OPENED, AlertState.RESOLVED, AlertState.OPENED);
        AlertEvent second = r.events.get(2);
        assertThat(second.incidentId()).isEqualTo(FP + "@" + (T0 + 3 * MIN));
        assertThat(second.eventId()).endsWith("/opened/1");
        assertThat(second.occurrences()).isEqualTo(1);
        assertThat(second.firstSeen()).isEqualTo(T0 + 3 * MIN);
    }

    @Test
    void anEvaluationOlderThanTheLastAppliedIsIgnored() {
        var r = run().feed(breach(T0 + 5 * MIN));
        AlertStateRecord before = r.state;
        r.feed(ok(T0 + 4 * MIN)).feed(breach(T0 + 30 * MIN - 1 - 25 * MIN));
        assertThat(r.state).isEqualTo(before);
        assertThat(r.states()).containsExactly(AlertState.OPENED);
    }

    @Test
    void evaluationsAtTheSameTimeAreApplied() {
        var r = run().feed(breach(T0)).feed(breach(T0));
        assertThat(r.state.occurrences()).isEqualTo(2);
        assertThat(r.states()).containsExactly(AlertState.OPENED);
    }

    @Test
    void debounceAndHealthyRunAreConfigurable() {
        var m = new AlertStateMachine(new AlertStateMachine.Config(Duration.ofMinutes(5), 3));
        var r = new Run(m, t -> false)
                .feed(breach(T0))
                .feed(breach(T0 + 5 * MIN))
                .feed(ok(T0 + 6 * MIN))
                .feed(ok(T0 + 7 * MIN));
        assertThat(r.states()).containsExactly(AlertState.OPENED, AlertState.REMINDER);
        assertThat(r.state.phase()).isEqualTo(AlertPhase.RESOLVING);
        assertThat(r.state.consecutiveHealthy()).isEqualTo(2);
        r.feed(ok(T0 + 8 * MIN));
        assertThat(r.states()).containsExactly(AlertState.OPENED, AlertState.REMINDER, AlertState.RESOLVED);

        var once = new Run(new AlertStateMachine(new AlertStateMachine.Config(Duration.ofMinutes(15), 1)), t -> false)
                .feed(breach(T0))
                .feed(ok(T0 + MIN));
        assertThat(once.states()).containsExactly(AlertState.OPENED, AlertState.RESOLVED);
    }

    @Test
    void configIsValidated() {
        assertThatThrownBy(() -> new AlertStateMachine.Config(Duration.ZERO, 2))
                .isInstanceOf(ContractViolation.class)
                .hasMessageContaining("debounce");
        assertThatThrownBy(() -> new AlertStateMachine.Config(Duration.ofMinutes(15), 0))
                .isInstanceOf(ContractViolation.class)
                .hasMessageContaining("healthyToResolve");
    }

    @Test
    void anEvaluationOfAnotherFingerprintIsRefused() {
        var state = machine.apply(null, breach(T0), false).state();
        var other = Evaluation.breach(
                "monitor/other", T0 + MIN, Severity.CRITICAL, "s", null, "x", null, null, AlertSource.PROBE);
        assertThatThrownBy(() -> machine.apply(state, other, false)).isInstanceOf(IllegalArgumentException.class);
    }

    // ---- scenarios from the issue ------------------------------------------------------------------------

    @Test
    void flappingTargetOpensOnceAndResolvesOnce() {
        var r = run().feed(breach(T0))
                .feed(ok(T0 + MIN))
                .feed(breach(T0 + 2 * MIN))
                .feed(ok(T0 + 3 * MIN))
                .feed(ok(T0 + 4 * MIN));
        assertThat(r.states()).containsExactly(AlertState.OPENED, AlertState.RESOLVED);
        assertThat(r.events.get(1).incidentId()).isEqualTo(r.events.get(0).incidentId());
        assertThat(r.events.get(1).occurrences()).isEqualTo(2);
        assertThat(r.state.phase()).isEqualTo(AlertPhase.HEALTHY);
    }

    @Test
    void sixtyMinuteOutageWithTwoMinuteEvaluationsGivesOpenedThreeRemindersAndResolved() {
        var r = run();
        for (long m = 0; m < 60; m += 2) {
            r.feed(breach(T0 + m * MIN));
        }
        r.feed(ok(T0 + 60 * MIN)).feed(ok(T0 + 62 * MIN));
        assertThat(r.states())
                .containsExactly(
                        AlertState.OPENED,
                        AlertState.REMINDER,
                        AlertState.REMINDER,
                        AlertState.REMINDER,
                        AlertState.RESOLVED);
        assertThat(r.events).extracting(AlertEvent::eventId).doesNotHaveDuplicates();
        assertThat(r.events.get(1).lastSeen()).isEqualTo(T0 + 16 * MIN);
        AlertEvent resolved = r.events.get(4);
        assertThat(resolved.occurrences()).isEqualTo(30);
        assertThat(resolved.firstSeen()).isEqualTo(T0);
        assertThat(resolved.lastSeen()).isEqualTo(T0 + 58 * MIN);
        assertThat(resolved.eventId()).isEqualTo(AlertEvent.topologyEventId(FP + "@" + T0, AlertState.RESOLVED, 5));
        assertThat(resolved.summary()).isEqualTo("checkout-api is up");
    }

    @Test
    void degradedToDownEscalatesAtOnce() {
        var r = run().feed(breach(T0, Severity.WARNING)).feed(breach(T0 + MIN, Severity.CRITICAL));
        assertThat(r.states()).containsExactly(AlertState.OPENED, AlertState.ESCALATED);
        assertThat(r.events.get(1).incidentId()).isEqualTo(r.events.get(0).incidentId());
    }

    @Test
    void silencedOutagePagesNothing() {
        var r = new Run(machine, t -> true);
        for (long m = 0; m < 60; m += 2) {
            r.feed(breach(T0 + m * MIN, m >= 30 ? Severity.CRITICAL : Severity.WARNING));
        }
        r.feed(ok(T0 + 60 * MIN)).feed(ok(T0 + 62 * MIN));
        assertThat(r.states())
                .contains(AlertState.OPENED, AlertState.REMINDER, AlertState.ESCALATED, AlertState.RESOLVED);
        assertThat(r.events).allMatch(AlertEvent::silenced);
        assertThat(r.state.paged()).isFalse();
    }

    @Test
    void outageThatOutlivesItsSilencePagesOnce() {
        long silenceEnds = T0 + 21 * MIN;
        var r = new Run(machine, t -> t < silenceEnds);
        for (long m = 0; m < 40; m += 2) {
            r.feed(breach(T0 + m * MIN));
        }
        r.feed(ok(T0 + 40 * MIN)).feed(ok(T0 + 42 * MIN));
        // opened (silenced) at 0, reminder (silenced) at 16, opened unsilenced at 22 (first evaluation after the
        // silence), reminder at 38, resolved at 42
        assertThat(r.states())
                .containsExactly(
                        AlertState.OPENED,
                        AlertState.REMINDER,
                        AlertState.OPENED,
                        AlertState.REMINDER,
                        AlertState.RESOLVED);
        assertThat(r.paged(AlertState.OPENED)).isEqualTo(1);
        AlertEvent page = r.events.get(2);
        assertThat(page.silenced()).isFalse();
        assertThat(page.lastSeen()).isEqualTo(T0 + 22 * MIN);
        assertThat(page.firstSeen()).isEqualTo(T0);
        assertThat(page.eventId()).isEqualTo(AlertEvent.topologyEventId(FP + "@" + T0, AlertState.OPENED, 3));
        assertThat(r.events.get(0).silenced()).isTrue();
        assertThat(r.events.get(1).silenced()).isTrue();
        assertThat(r.events.get(3).silenced()).isFalse();
        assertThat(r.events.get(4).silenced()).isFalse();
        assertThat(r.events).extracting(AlertEvent::eventId).doesNotHaveDuplicates();
    }

    @Test
    void silenceEndingWhileResolvingOnlyPagesIfItFlapsBack() {
        long silenceEnds = T0 + 5 * MIN;
        var quiet = new Run(machine, t -> t < silenceEnds)
                .feed(breach(T0))
                .feed(ok(T0 + 4 * MIN))
                .feed(ok(T0 + 6 * MIN));
        assertThat(quiet.states()).containsExactly(AlertState.OPENED, AlertState.RESOLVED);
        assertThat(quiet.events).allMatch(AlertEvent::silenced); // nobody was paged: no resolution either

        var flap = new Run(machine, t -> t < silenceEnds)
                .feed(breach(T0))
                .feed(ok(T0 + 4 * MIN))
                .feed(breach(T0 + 6 * MIN))
                .feed(ok(T0 + 8 * MIN))
                .feed(ok(T0 + 10 * MIN));
        assertThat(flap.states()).containsExactly(AlertState.OPENED, AlertState.OPENED, AlertState.RESOLVED);
        assertThat(flap.events).extracting(AlertEvent::silenced).containsExactly(true, false, false);
    }

    @Test
    void silenceStartingMidIncidentSilencesLaterEvents() {
        long silenceStarts = T0 + 10 * MIN;
        var r = new Run(machine, t -> t >= silenceStarts);
        for (long m = 0; m < 40; m += 2) {
            r.feed(breach(T0 + m * MIN));
        }
        r.feed(ok(T0 + 40 * MIN)).feed(ok(T0 + 42 * MIN));
        assertThat(r.states())
                .containsExactly(AlertState.OPENED, AlertState.REMINDER, AlertState.REMINDER, AlertState.RESOLVED);
        assertThat(r.events).extracting(AlertEvent::silenced).containsExactly(false, true, true, true);
    }

    @Test
    void replayOfTheSameEvaluationsGivesIdenticalEventsAndIds() {
        List<Evaluation> input = new ArrayList<>();
        var rnd = new java.util.Random(42);
        long t = T0;
        for (int i = 0; i < 500; i++) {
            t += (1 + rnd.nextInt(3)) * MIN;
            input.add(
                    rnd.nextInt(10) < 6 ? breach(t, rnd.nextBoolean() ? Severity.WARNING : Severity.CRITICAL) : ok(t));
        }
        LongPredicate silence = at -> (at / (45 * MIN)) % 4 == 1;
        var a = new Run(machine, silence);
        var b = new Run(new AlertStateMachine(), silence);
        input.forEach(a::feed);
        input.forEach(b::feed);
        assertThat(a.events).isNotEmpty().isEqualTo(b.events);
        assertThat(a.events.stream().map(Json::string).toList())
                .isEqualTo(b.events.stream().map(Json::string).toList());
        assertThat(a.events).extracting(AlertEvent::eventId).doesNotHaveDuplicates();
        assertThat(new HashSet<>(a.states()))
                .contains(AlertState.OPENED, AlertState.REMINDER, AlertState.RESOLVED, AlertState.ESCALATED);
    }

    @Test
    void everyEventIsAValidContractAndPerIncidentResolvedFollowsOpened() {
        var r = run();
        for (long m = 0; m < 200; m += 2) {
            r.feed((m / 20) % 2 == 0 ? breach(T0 + m * MIN) : ok(T0 + m * MIN));
        }
        String open = null;
        for (AlertEvent e : r.events) {
            var copy = Json.read(Json.bytes(e), AlertEvent.class);
            assertThat(copy).isEqualTo(e);
            if (e.state() == AlertState.OPENED) {
                assertThat(open).isNull();
                open = e.incidentId();
            } else {
                assertThat(e.incidentId()).isEqualTo(open);
                if (e.state() == AlertState.RESOLVED) {
                    open = null;
                }
            }
        }
    }

    @Test
    void stateRecordRoundTripsThroughTheSharedMapper() {
        var r = run().feed(breach(T0)).feed(ok(T0 + MIN));
        byte[] bytes = Json.bytes(r.state);
        assertThat(Json.read(bytes, AlertStateRecord.class)).isEqualTo(r.state);
        assertThat(Json.string(r.state)).contains("\"phase\":\"resolving\"");
    }

    @Test
    void forceResolveClosesAnOpenIncidentAtOnce() {
        var r = run().feed(breach(T0));
        var t = machine.forceResolve(r.state, T0 + MIN, "rule deleted", false);
        AlertEvent e = t.event().orElseThrow();
        assertThat(e.state()).isEqualTo(AlertState.RESOLVED);
        assertThat(e.summary()).isEqualTo("rule deleted");
        assertThat(e.silenced()).isFalse();
        assertThat(t.state().phase()).isEqualTo(AlertPhase.HEALTHY);
        assertThat(machine.forceResolve(t.state(), T0 + 2 * MIN, "again", false).event())
                .isEmpty();
        assertThat(machine.forceResolve(null, T0, "none", false).event()).isEmpty();
    }
}
