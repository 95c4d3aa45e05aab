package dev.vigil.streams.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.contract.Status;
import dev.vigil.streams.alerting.AlertStateMachine;
import dev.vigil.streams.alerting.AlertStateRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MonitorRulesTest {
    static final long T0 = 1_767_225_600_000L;
    static final long MIN = 60_000L;
    static final List<String> REGIONS = List.of("asia-east", "eu-west", "us-east");
    static final AlertLinks LINKS = new AlertLinks("http://vigil.test:8084/");
    static final MonitorDefinition DEF = new MonitorDefinition(
            1,
            "checkout-api",
            "Checkout API",
            "https://checkout.example.com/health",
            null,
            60,
            null,
            REGIONS,
            null,
            14,
            null,
            "checkout",
            "api",
            Map.of("runbook", "https://wiki.example.com/runbooks/checkout"),
            true);

    final MonitorRules rules = new MonitorRules(LINKS);

    static RegionResult ok() {
        return new RegionResult(Outcome.SUCCESS, null, 200, 120);
    }

    static RegionResult fail() {
        return new RegionResult(Outcome.NETWORK_FAILURE, ErrorKind.CONNECT_TIMEOUT, null, null);
    }

    static MonitorStatus verdict(long windowStart, Status status) {
        Map<String, RegionResult> regions = new HashMap<>();
        List<String> missing = List.of();
        switch (status) {
            case UP -> REGIONS.forEach(r -> regions.put(r, ok()));
            case DOWN -> {
                regions.put("us-east", fail());
                regions.put("eu-west", fail());
                regions.put("asia-east", ok());
            }
            case DEGRADED -> {
                regions.put("us-east", fail());
                regions.put("eu-west", ok());
                missing = List.of("asia-east");
            }
            case UNKNOWN -> missing = REGIONS;
        }
        return new MonitorStatus(
                1, "checkout-api", windowStart, status, missing.isEmpty(), regions, missing, windowStart + 20_000);
    }

    /** Feeds verdicts through the rules and one state machine per fingerprint, like the alert processor. */
    final class Pipeline {
        final AlertStateMachine machine = new AlertStateMachine();
        MonitorRuleState state = MonitorRuleState.INITIAL;
        final Map<String, AlertStateRecord> alerts = new HashMap<>();
        final List<AlertEvent> events = new ArrayList<>();
        final List<Evaluation> evaluations = new ArrayList<>();

        Pipeline verdicts(Status... statuses) {
            long w = state.lastWindowStart() < 0 ? T0 : state.lastWindowStart() + MIN;
            for (Status s : statuses) {
                AlertStateRecord availability = alerts.get(Fingerprints.monitor("checkout-api"));
                var r = rules.onVerdict(state, DEF, verdict(w, s), availability != null && availability.isOpen());
                state = r.state();
                for (Evaluation ev : r.evaluations()) {
                    evaluations.add(ev);
                    var t = machine.apply(alerts.get(ev.fingerprint()), ev, false);
                    if (t.state() != null) {
                        alerts.put(ev.fingerprint(), t.state());
                    }
                    t.event().ifPresent(events::add);
                }
                w += MIN;
            }
            return this;
        }

        List<String> log(String fingerprint) {
            return events.stream()
                    .filter(e -> e.fingerprint().equals(fingerprint))
                    .map(e -> e.state().wire() + ":" + e.severity().wire())
                    .toList();
        }
    }

    static final String AVAIL = "monitor/checkout-api";
    static final String NO_DATA = "monitor/checkout-api/no-data";

    static Stream<Arguments> availabilityScenarios() {
        return Stream.of(
                Arguments.of(
                        "down opens at the definition's severity", List.of(Status.DOWN), List.of("opened:critical")),
                Arguments.of("one degraded is not a breach", List.of(Status.UP, Status.DEGRADED, Status.UP), List.of()),
                Arguments.of(
                        "degraded twice in a row opens at warning",
                        List.of(Status.DEGRADED, Status.DEGRADED),
                        List.of("opened:warning")),
                Arguments.of(
                        "degraded, unknown, degraded is not two in a row",
                        List.of(Status.DEGRADED, Status.UNKNOWN, Status.DEGRADED),
                        List.of()),
                Arguments.of(
                        "degraded twice then down escalates at once",
                        List.of(Status.DEGRADED, Status.DEGRADED, Status.DOWN),
                        List.of("opened:warning", "escalated:critical")),
                Arguments.of(
                        "down then degraded stays open at critical (no de-escalation), up up resolves",
                        List.of(Status.DOWN, Status.DEGRADED, Status.DEGRADED, Status.UP, Status.UP),
                        List.of("opened:critical", "resolved:critical")),
                Arguments.of(
                        "while resolving, one degraded flaps back (a breach) and does not resolve",
                        List.of(Status.DOWN, Status.UP, Status.DEGRADED, Status.UP),
                        List.of("opened:critical")),
                Arguments.of(
                        "unknown neither breaches nor heals",
                        List.of(Status.DOWN, Status.UP, Status.UNKNOWN, Status.UP),
                        List.of("opened:critical", "resolved:critical")),
                Arguments.of(
                        "flapping fail ok fail ok ok: one opened one resolved",
                        List.of(Status.DOWN, Status.UP, Status.DOWN, Status.UP, Status.UP),
                        List.of("opened:critical", "resolved:critical")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("availabilityScenarios")
    void availability(String name, List<Status> verdicts, List<String> expected) {
        var p = new Pipeline().verdicts(verdicts.toArray(Status[]::new));
        assertThat(p.log(AVAIL)).containsExactlyElementsOf(expected);
    }

    @Test
    void unknownEvaluatesNothingForAvailability() {
        var r = rules.onVerdict(MonitorRuleState.INITIAL, DEF, verdict(T0, Status.UNKNOWN), true);
        assertThat(r.evaluations()).noneMatch(e -> e.fingerprint().equals(AVAIL));
    }

    @Test
    void degradedWhileOpenIsABreachAtWarningEvenTheFirstTime() {
        var r = rules.onVerdict(MonitorRuleState.INITIAL, DEF, verdict(T0, Status.DEGRADED), true);
        assertThat(r.evaluations())
                .filteredOn(e -> e.fingerprint().equals(AVAIL))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.breach()).isTrue();
                    assertThat(e.severity()).isEqualTo(Severity.WARNING);
                });
    }

    @Test
    void noDataAfterThreeUnknownsHealedByAnyDecidedVerdict() {
        var p = new Pipeline().verdicts(Status.UNKNOWN, Status.UNKNOWN);
        assertThat(p.log(NO_DATA)).isEmpty();
        p.verdicts(Status.UNKNOWN);
        assertThat(p.log(NO_DATA)).containsExactly("opened:warning");
        p.verdicts(Status.UNKNOWN, Status.DEGRADED, Status.DOWN);
        assertThat(p.log(NO_DATA)).containsExactly("opened:warning", "resolved:warning");
        assertThat(p.log(AVAIL)).containsExactly("opened:critical");
    }

    @Test
    void twoUnknownsThenDataThenUnknownsCountsAfresh() {
        var p = new Pipeline().verdicts(Status.UNKNOWN, Status.UNKNOWN, Status.UP, Status.UNKNOWN, Status.UNKNOWN);
        assertThat(p.log(NO_DATA)).isEmpty();
        assertThat(p.state.consecutiveUnknown()).isEqualTo(2);
    }

    @Test
    void evaluationsCarryTheVerdictsWindowAsTimeAndDescribeTheMonitor() {
        var r = rules.onVerdict(MonitorRuleState.INITIAL, DEF, verdict(T0, Status.DOWN), false);
        Evaluation ev = r.evaluations().get(0);
        assertThat(ev.at()).isEqualTo(T0);
        assertThat(ev.service()).isEqualTo("checkout");
        assertThat(ev.summary()).isEqualTo("Checkout API is down: failing in eu-west, us-east");
        assertThat(ev.links())
                .containsEntry("incident", "http://vigil.test:8084/#/incident/monitor%2Fcheckout-api")
                .containsEntry("monitor", "http://vigil.test:8084/#/monitors/checkout-api")
                .containsEntry("runbook", "https://wiki.example.com/runbooks/checkout")
                .allSatisfy((name, url) -> assertThat(url).doesNotContain("/v1/"));
        assertThat(ev.attributes())
                .containsEntry("monitorId", "checkout-api")
                .containsEntry("status", "down")
                .containsEntry("failingRegions", "eu-west,us-east")
                .containsEntry("component", "api");
        var degraded = rules.onVerdict(MonitorRuleState.INITIAL, DEF, verdict(T0, Status.DEGRADED), true);
        assertThat(degraded.evaluations().get(0).summary())
                .isEqualTo("Checkout API is degraded: failing in us-east; no result from asia-east");
    }

    @Test
    void theAttributesSilencesSeeAreTheEvaluationsOwnAndSplitIntoDefinitionAndPerWindowOnes() {
        for (Status status : Status.values()) {
            MonitorStatus v = verdict(T0, status);
            var r = rules.onVerdict(MonitorRuleState.INITIAL, DEF, v, true, true);
            r.evaluations().forEach(ev -> assertThat(ev.attributes()).isEqualTo(MonitorRules.attributes(DEF, v)));
            Map<String, String> fixed = new HashMap<>(MonitorRules.attributes(DEF, v));
            fixed.keySet().removeAll(MonitorRules.PER_WINDOW_ATTRIBUTES);
            assertThat(fixed).as(status.wire()).isEqualTo(MonitorRules.definitionAttributes(DEF));
        }
    }

    @Test
    void aDuplicateOrLateVerdictIsIgnored() {
        var first = rules.onVerdict(MonitorRuleState.INITIAL, DEF, verdict(T0 + MIN, Status.DEGRADED), false);
        var dup = rules.onVerdict(first.state(), DEF, verdict(T0 + MIN, Status.DEGRADED), false);
        var late = rules.onVerdict(first.state(), DEF, verdict(T0, Status.DEGRADED), false);
        assertThat(dup.evaluations()).isEmpty();
        assertThat(dup.state()).isEqualTo(first.state());
        assertThat(late.evaluations()).isEmpty();
    }

    @Test
    void aVerdictOfAnotherMonitorIsRefused() {
        MonitorStatus other =
                new MonitorStatus(1, "other", T0, Status.UP, true, Map.of("us-east", ok()), List.of(), T0);
        assertThatThrownBy(() -> rules.onVerdict(MonitorRuleState.INITIAL, DEF, other, false))
                .isInstanceOf(IllegalArgumentException.class);
    }

    static ProbeResult probe(long windowStart, String region, Integer tlsDaysLeft) {
        return new ProbeResult(
                1,
                "checkout-api",
                region,
                "w-1",
                windowStart,
                windowStart + 100,
                Outcome.SUCCESS,
                null,
                200,
                50,
                60,
                10L,
                0,
                null,
                tlsDaysLeft,
                null,
                null,
                null,
                null,
                "req-" + region + windowStart);
    }

    static Stream<Arguments> tlsDays() {
        return Stream.of(
                Arguments.of(30, false),
                Arguments.of(15, false),
                Arguments.of(14, true),
                Arguments.of(1, true),
                Arguments.of(0, true),
                Arguments.of(-3, true));
    }

    @ParameterizedTest(name = "{0} days left -> breach {1}")
    @MethodSource("tlsDays")
    void tlsBreachesWithinTheWarnDays(int days, boolean breach) {
        var r = rules.onProbeResult(MonitorRuleState.INITIAL, DEF, probe(T0, "us-east", days));
        assertThat(r.evaluations()).singleElement().satisfies(e -> {
            assertThat(e.fingerprint()).isEqualTo("monitor/checkout-api/tls");
            assertThat(e.breach()).isEqualTo(breach);
            if (breach) {
                assertThat(e.severity()).isEqualTo(Severity.WARNING);
            }
            assertThat(e.attributes()).containsEntry("tlsDaysLeft", Integer.toString(days));
        });
    }

    @Test
    void tlsEvaluatesOncePerWindowAcrossRegionsAndIgnoresPlainHttpAndLateResults() {
        MonitorRuleState s = MonitorRuleState.INITIAL;
        var a = rules.onProbeResult(s, DEF, probe(T0, "us-east", 40));
        var b = rules.onProbeResult(a.state(), DEF, probe(T0, "eu-west", 40));
        var c = rules.onProbeResult(b.state(), DEF, probe(T0, "asia-east", 10));
        var d = rules.onProbeResult(c.state(), DEF, probe(T0, "asia-east", 9));
        assertThat(a.evaluations()).hasSize(1);
        assertThat(b.evaluations()).isEmpty();
        assertThat(c.evaluations()).singleElement().matches(Evaluation::breach);
        assertThat(d.evaluations()).isEmpty();
        var late = rules.onProbeResult(
                rules.onProbeResult(d.state(), DEF, probe(T0 + MIN, "us-east", 40))
                        .state(),
                DEF,
                probe(T0, "us-east", 2));
        assertThat(late.evaluations()).isEmpty();
        assertThat(rules.onProbeResult(s, DEF, probe(T0, "us-east", null)).evaluations())
                .isEmpty();
    }

    @Test
    void tlsAlertOpensAndResolvesThroughTheStateMachine() {
        AlertStateMachine machine = new AlertStateMachine();
        MonitorRuleState s = MonitorRuleState.INITIAL;
        AlertStateRecord alert = null;
        List<AlertState> out = new ArrayList<>();
        int[] days = {20, 12, 11, 10, 90, 90};
        for (int i = 0; i < days.length; i++) {
            var r = rules.onProbeResult(s, DEF, probe(T0 + i * MIN, "us-east", days[i]));
            s = r.state();
            for (Evaluation ev : r.evaluations()) {
                var t = machine.apply(alert, ev, false);
                alert = t.state();
                t.event().ifPresent(e -> out.add(e.state()));
            }
        }
        assertThat(out).containsExactly(AlertState.OPENED, AlertState.RESOLVED);
    }

    @Test
    void workerDeathIsAWarningAndAliveIsHealthy() {
        WorkerRules w = new WorkerRules(LINKS);
        Evaluation dead = w.onHealth("us-east", "probe 7@host", true, T0, T0 + 400_000);
        assertThat(dead.fingerprint()).isEqualTo("worker/us-east/probe_7_host");
        assertThat(dead.breach()).isTrue();
        assertThat(dead.severity()).isEqualTo(Severity.WARNING);
        assertThat(dead.summary()).contains("no heartbeat for 400 s");
        assertThat(dead.attributes()).containsEntry("workerId", "probe 7@host");
        Evaluation alive = w.onHealth("us-east", "probe 7@host", false, T0 + 401_000, T0 + 401_000);
        assertThat(alive.breach()).isFalse();
        assertThat(alive.fingerprint()).isEqualTo(dead.fingerprint());

        AlertStateMachine m = new AlertStateMachine();
        var t1 = m.apply(null, dead, false);
        var t2 = m.apply(t1.state(), alive, false);
        var t3 = m.apply(t2.state(), w.onHealth("us-east", "probe 7@host", false, T0 + 411_000, T0 + 411_000), false);
        assertThat(t1.event().orElseThrow().state()).isEqualTo(AlertState.OPENED);
        assertThat(t2.event()).isEmpty();
        assertThat(t3.event().orElseThrow().state()).isEqualTo(AlertState.RESOLVED);
    }

    @Test
    void leavingOutHealthyEvaluationsOfClosedIncidentsChangesNothingElse() {
        java.util.Random random = new java.util.Random(7);
        Status[] statuses = Status.values();
        for (int run = 0; run < 200; run++) {
            MonitorRuleState state = MonitorRuleState.INITIAL;
            long w = T0;
            for (int i = 0; i < 30; i++) {
                MonitorStatus v = verdict(w, statuses[random.nextInt(statuses.length)]);
                boolean availabilityOpen = random.nextBoolean();
                boolean noDataOpen = random.nextBoolean();
                var all = rules.onVerdict(state, DEF, v, availabilityOpen);
                var lean = rules.onVerdict(state, DEF, v, availabilityOpen, noDataOpen);
                assertThat(lean.state()).isEqualTo(all.state());
                assertThat(lean.evaluations())
                        .isEqualTo(all.evaluations().stream()
                                .filter(ev -> ev.breach()
                                        || (ev.fingerprint().equals(Fingerprints.monitor(DEF.id()))
                                                ? availabilityOpen
                                                : noDataOpen))
                                .toList());
                state = all.state();
                w += random.nextInt(4) == 0 ? -MIN : MIN; // now and then a verdict out of order
            }
        }
    }

    @Test
    void fingerprintsAreValidAndLinksAreBoundedAndQueryFree() {
        assertThat(Fingerprints.monitor("a")).isEqualTo("monitor/a");
        assertThat(Fingerprints.metricRule("dlq-routed", "shop")).isEqualTo("rule/dlq-routed/shop");
        assertThat(Fingerprints.worker("eu-west", "x".repeat(300))).hasSize("worker/eu-west/".length() + 128);
        Map<String, String> many = new HashMap<>();
        for (int i = 0; i < 8; i++) {
            many.put("l" + i, "https://example.com/" + i);
        }
        assertThat(LINKS.monitor("monitor/a", "a", many))
                .hasSize(8)
                .containsKeys("incident", "monitor")
                .allSatisfy((name, url) -> assertThat(url).doesNotContain("?"));
        // a definition's own link never replaces the console's
        assertThat(LINKS.monitor("monitor/a", "a", Map.of("incident", "https://elsewhere.test/")))
                .containsEntry("incident", "http://vigil.test:8084/#/incident/monitor%2Fa");
        assertThat(LINKS.incident("app/shop/checkout failed")).endsWith("/#/incident/app%2Fshop%2Fcheckout%20failed");
        assertThat(LINKS.metric("rule/x/shop", "shop", "checkout_failed"))
                .containsEntry("metric", "http://vigil.test:8084/#/metrics/shop/checkout_failed");
        assertThatThrownBy(() -> new AlertLinks("http://x/?a=b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AlertLinks("ftp://x")).isInstanceOf(IllegalArgumentException.class);
    }
}
