package dev.vigil.streams.alerting;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.failure;
import static dev.vigil.streams.Fixtures.heartbeat;
import static dev.vigil.streams.Fixtures.success;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.Aggregation;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertRule;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Comparison;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.Fixtures;
import dev.vigil.streams.metrics.MetricAggregate;
import dev.vigil.streams.topology.StoreNames;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.Test;

class AlertingTopologyTest {
    static final long MIN = 60_000L;
    static final List<String> ONE = List.of("eu-west");
    static final List<String> THREE = List.of("eu-west", "us-east", "ap-south");

    static MonitorDefinition monitor(String id, int intervalSeconds, List<String> regions) {
        return new MonitorDefinition(
                1,
                id,
                null,
                "https://example.com/" + id,
                null,
                intervalSeconds,
                2500,
                regions,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    static ProbeResult tls(String monitorId, String region, long windowStart, int daysLeft) {
        ProbeResult ok = success(monitorId, region, windowStart);
        return new ProbeResult(
                1,
                ok.monitorId(),
                ok.region(),
                ok.workerId(),
                ok.windowStart(),
                ok.startedAt(),
                ok.outcome(),
                null,
                200,
                40,
                41,
                10L,
                0,
                null,
                daysLeft,
                null,
                null,
                null,
                null,
                ok.requestId());
    }

    static List<String> log(List<AlertEvent> events) {
        return events.stream()
                .map(e -> e.state().wire() + ":" + e.severity().wire() + (e.silenced() ? ":silenced" : ""))
                .toList();
    }

    /** One-region monitor; each {@code 'F'} / {@code 'O'} is a failing / ok window. */
    static void windows(AlertingHarness h, String id, long intervalMs, String pattern) {
        for (int i = 0; i < pattern.length(); i++) {
            long w = W0 + i * intervalMs;
            h.result(pattern.charAt(i) == 'F' ? failure(id, "eu-west", w) : success(id, "eu-west", w));
        }
    }

    static AlertingHarness started() {
        AlertingHarness h = new AlertingHarness(W0 - 30_000);
        return h;
    }

    @Test
    void flappingTargetProducesOneOpenedAndOneResolved() {
        try (var h = started()) {
            h.define(monitor("flappy", 60, ONE));
            h.wallClockTo(W0 - 20_000);
            windows(h, "flappy", MIN, "FOFOO");
            var records = h.alerts.readRecordsToList();
            // event time is ahead of this driver's wall clock: the record timestamp is capped at wall clock
            assertThat(records).allMatch(r -> r.timestamp() == W0 - 20_000);
            List<AlertEvent> out = records.stream().map(r -> r.value()).toList();
            assertThat(log(out)).containsExactly("opened:critical", "resolved:critical");
            assertThat(out).allMatch(e -> e.fingerprint().equals("monitor/flappy") && e.source() == AlertSource.PROBE);
            assertThat(out.get(0).incidentId()).isEqualTo("monitor/flappy@" + W0);
            assertThat(out.get(0).links())
                    .containsEntry("incident", "http://localhost:8084/#/incident/monitor%2Fflappy")
                    .containsEntry("monitor", "http://localhost:8084/#/monitors/flappy");
            assertThat(out.get(1).occurrences()).isEqualTo(2);
        }
    }

    @Test
    void sixtyMinuteOutageWithTwoMinuteEvaluationsPagesOpenedThreeRemindersResolved() {
        try (var h = new AlertingHarness(W0 + 3 * 3600_000L)) { // replaying the past: wall clock is ahead
            h.define(monitor("api", 120, ONE));
            h.wallClockTo(h.wallClock() + 10_000);
            windows(h, "api", 2 * MIN, "F".repeat(30) + "OO");
            var records = h.alerts.readRecordsToList();
            assertThat(log(records.stream().map(r -> r.value()).toList()))
                    .containsExactly(
                            "opened:critical",
                            "reminder:critical",
                            "reminder:critical",
                            "reminder:critical",
                            "resolved:critical");
            assertThat(records).allMatch(r -> r.key().equals("monitor/api"));
            assertThat(records.get(1).timestamp()).isEqualTo(W0 + 16 * MIN); // event time, not wall clock
            assertThat(records).extracting(r -> r.value().eventId()).doesNotHaveDuplicates();
            KeyValueStore<String, AlertStateRecord> store = h.driver.getKeyValueStore(StoreNames.MONITOR_ALERTS_STORE);
            assertThat(store.get("monitor/api").phase()).isEqualTo(AlertPhase.HEALTHY);
        }
    }

    @Test
    void degradedTwiceOpensAtWarningAndDownEscalatesAtOnce() {
        try (var h = started()) {
            h.define(monitor("shop", 60, THREE));
            h.wallClockTo(W0 - 20_000);
            for (int i = 0; i < 2; i++) { // 1 of 3 failing: degraded
                long w = W0 + i * MIN;
                h.result(failure("shop", "eu-west", w));
                h.result(success("shop", "us-east", w));
                h.result(success("shop", "ap-south", w));
            }
            long w = W0 + 2 * MIN; // 3 of 3 failing: down
            THREE.forEach(r -> h.result(failure("shop", r, w)));
            assertThat(log(h.alerts.readValuesToList())).containsExactly("opened:warning", "escalated:critical");
        }
    }

    @Test
    void silencedOutagePagesNothing() {
        try (var h = started()) {
            h.silences.pipeInput(
                    "maint",
                    new Silence(
                            1,
                            "maint",
                            "monitor/api*",
                            null,
                            null,
                            W0 - MIN,
                            W0 + 3 * 3600_000L,
                            "ops",
                            "planned maintenance",
                            W0 - 2 * MIN));
            h.define(monitor("api", 120, ONE));
            h.wallClockTo(W0 - 20_000);
            windows(h, "api", 2 * MIN, "F".repeat(30) + "OO");
            List<AlertEvent> out = h.alerts.readValuesToList();
            assertThat(out).hasSize(5).allMatch(AlertEvent::silenced);
        }
    }

    @Test
    void outageThatOutlivesItsSilencePagesOnce() {
        try (var h = started()) {
            h.silences.pipeInput(
                    "maint",
                    new Silence(1, "maint", null, "api", null, W0 - MIN, W0 + 21 * MIN, "ops", "deploy", W0 - 2 * MIN));
            h.define(monitor("api", 120, ONE));
            h.wallClockTo(W0 - 20_000);
            windows(h, "api", 2 * MIN, "F".repeat(20) + "OO");
            List<AlertEvent> out = h.alerts.readValuesToList();
            assertThat(out.stream()
                            .filter(e -> e.state() == AlertState.OPENED && !e.silenced())
                            .count())
                    .isEqualTo(1);
            assertThat(log(out))
                    .containsExactly(
                            "opened:critical:silenced",
                            "reminder:critical:silenced",
                            "opened:critical",
                            "reminder:critical",
                            "resolved:critical");
        }
    }

    @Test
    void tlsExpiryOpensAWarningThatResolvesOnRenewal() {
        try (var h = started()) {
            h.define(monitor("tls-site", 60, ONE));
            h.wallClockTo(W0 - 20_000);
            int[] days = {30, 10, 9, 200, 200};
            for (int i = 0; i < days.length; i++) {
                h.result(tls("tls-site", "eu-west", W0 + i * MIN, days[i]));
            }
            List<AlertEvent> out = h.alerts.readValuesToList();
            assertThat(log(out)).containsExactly("opened:warning", "resolved:warning");
            assertThat(out).allMatch(e -> e.fingerprint().equals("monitor/tls-site/tls"));
        }
    }

    @Test
    void deletingAMonitorResolvesItsOpenAlert() {
        try (var h = started()) {
            h.define(monitor("gone", 60, ONE));
            h.wallClockTo(W0 - 20_000);
            windows(h, "gone", MIN, "FF");
            h.monitors.pipeInput("gone", null, W0 + 2 * MIN);
            List<AlertEvent> out = h.alerts.readValuesToList();
            assertThat(log(out)).containsExactly("opened:critical", "resolved:critical");
            assertThat(out.get(1).summary()).isEqualTo("Resolved: monitor deleted");
        }
    }

    // ---- workers ----

    @Test
    void deadWorkerOpensAWarningAndResolvesWhenItBeatsAgain() {
        try (var h = started()) {
            long t = h.wallClock();
            h.heartbeats.pipeInput("w-1", heartbeat("w-1", "us-east", t), t);
            h.wallClockTo(t + 301_000 + 1_000);
            List<AlertEvent> opened = h.alerts.readValuesToList();
            assertThat(log(opened)).containsExactly("opened:warning");
            assertThat(opened.get(0).fingerprint()).isEqualTo("worker/us-east/w-1");
            assertThat(opened.get(0).source()).isEqualTo(AlertSource.HEARTBEAT);
            long back = h.wallClock();
            h.heartbeats.pipeInput("w-1", heartbeat("w-1", "us-east", back), back);
            h.wallClockTo(back + 5_000);
            assertThat(log(h.alerts.readValuesToList())).containsExactly("resolved:warning");
        }
    }

    // ---- metrics ----

    static DomainMetric metric(String name, String status, Double durationMs, long ts) {
        return new DomainMetric(1, "shop", name, status, "/cart", null, durationMs, null, ts);
    }

    @Test
    void metricWindowsAggregatePerMinuteAndStatusClass() {
        try (var h = started()) {
            h.metric(metric("http_request", "200", 100.0, W0 + 1_000));
            h.metric(metric("http_request", "201", 300.0, W0 + 2_000));
            h.metric(metric("http_request", "503", 50.0, W0 + 3_000));
            h.metric(metric("http_request", "200", 10.0, W0 + MIN + 1));
            WindowStore<String, MetricAggregate> store = h.driver.getWindowStore(StoreNames.METRIC_WINDOWS_STORE);
            MetricAggregate ok = store.fetch("shop/http_request/2xx", W0);
            assertThat(ok.count()).isEqualTo(2);
            assertThat(ok.errorCount()).isZero();
            assertThat(ok.histogram().max()).isEqualTo(300.0);
            assertThat(store.fetch("shop/http_request/5xx", W0).errorCount()).isEqualTo(1);
            assertThat(store.fetch("shop/http_request/2xx", W0 + MIN).count()).isEqualTo(1);
        }
    }

    @Test
    void dlqRuleFiresWhenTheMinuteClosesAndResolvesOnWallClockWhenQuiet() {
        try (var h = started()) {
            h.metric(metric("dlq_routed", "archived", null, W0 + 10_000));
            assertThat(h.alerts.isEmpty()).as("minute not closed yet").isTrue();
            h.metric(metric("dlq_routed", "archived", null, W0 + MIN + 5_000)); // watermark passes W0+1min
            List<AlertEvent> opened = h.alerts.readValuesToList();
            assertThat(log(opened)).containsExactly("opened:critical");
            assertThat(opened.get(0).fingerprint()).isEqualTo("rule/dlq-routed/shop");
            assertThat(opened.get(0).firstSeen()).isEqualTo(W0 + MIN);
            assertThat(opened.get(0).source()).isEqualTo(AlertSource.METRIC);
            // silence: after 10 minutes without dead letters (and an idle task), wall clock closes the minutes
            h.wallClockTo(W0 + 13 * MIN + 10_000);
            assertThat(log(h.alerts.readValuesToList())).containsExactly("resolved:critical");
        }
    }

    @Test
    void aSeriesThatFallsQuietIsEvaluatedOnStreamTimeWhileOtherAppsKeepTheTaskBusy() {
        try (var h = started()) {
            h.metric(metric("dlq_routed", "archived", null, W0 + 10_000));
            List<AlertEvent> out = new ArrayList<>();
            for (long t = W0 + 30_000; t <= W0 + 15 * MIN; t += 30_000) {
                h.metrics.pipeInput(
                        "busy/http_request",
                        new DomainMetric(1, "busy", "http_request", "200", "/", null, 5.0, null, t),
                        t);
                h.wallClockTo(h.wallClock() + 2_000); // punctuations, but never idle
                out.addAll(h.alerts.readValuesToList());
            }
            assertThat(out)
                    .filteredOn(e -> e.fingerprint().equals("rule/dlq-routed/shop"))
                    .extracting(e -> e.state().wire())
                    .containsExactly("opened", "resolved");
        }
    }

    @Test
    void ratioRuleFiresOnSyntheticStreamAndNotOnTheBoundary() {
        try (var h = started()) {
            // minute 0..4: exactly 5 % 5xx (boundary), minute 5..9: 10 %
            for (int m = 0; m < 10; m++) {
                int errors = m < 5 ? 1 : 2;
                for (int i = 0; i < 20; i++) {
                    h.metric(metric("http_request", i < errors ? "500" : "200", 20.0, W0 + m * MIN + i * 100));
                }
            }
            h.metric(metric("http_request", "200", 20.0, W0 + 10 * MIN + 6_000));
            // (the spike rule also fires here: 10 errors in 5 min against an empty trailing hour)
            List<AlertEvent> out = h.alerts.readValuesToList().stream()
                    .filter(e -> e.fingerprint().startsWith("rule/http-5xx-ratio/"))
                    .toList();
            assertThat(out)
                    .extracting(e -> e.fingerprint() + ":" + e.state().wire())
                    .containsExactly("rule/http-5xx-ratio/shop:opened");
            assertThat(out.get(0).firstSeen()).isGreaterThan(W0 + 5 * MIN); // not while exactly 5 %
        }
    }

    @Test
    void editedRuleTakesEffectWithoutRestartAndDeletingItResolvesItsAlert() {
        try (var h = started()) {
            AlertRule signups = new AlertRule(
                    1,
                    "signups",
                    "shop",
                    "inquiry_submitted",
                    List.of(),
                    Aggregation.COUNT,
                    1,
                    Comparison.GT,
                    2.0,
                    1,
                    Severity.WARNING,
                    "{app}: {events} inquiries in {window} min",
                    true);
            h.rules.pipeInput("signups", signups);
            for (int i = 0; i < 3; i++) {
                h.metric(metric("inquiry_submitted", "ok", null, W0 + i));
            }
            h.metric(metric("inquiry_submitted", "ok", null, W0 + MIN + 6_000));
            assertThat(log(h.alerts.readValuesToList())).containsExactly("opened:warning");

            h.rules.pipeInput("signups", null); // deleted
            h.wallClockTo(h.wallClock() + 2_000);
            List<AlertEvent> out = h.alerts.readValuesToList();
            assertThat(log(out)).containsExactly("resolved:warning");
            assertThat(out.get(0).summary()).isEqualTo("Resolved: rule signups was deleted");
        }
    }

    @Test
    void aMetricWhoseKeyDoesNotMatchIsDeadLettered() {
        try (var h = started()) {
            h.metrics.pipeInput("wrong/key", metric("http_request", "200", 1.0, W0));
            assertThat(h.deadLetters.readValuesToList()).singleElement().satisfies(d -> assertThat(d.reason())
                    .contains("appId/metricName"));
        }
    }

    // ---- replay ----

    static void scenario(AlertingHarness h) {
        h.silences.pipeInput("m", new Silence(1, "m", "monitor/b", null, null, W0, W0 + 20 * MIN, "ops", "x", W0));
        h.define(monitor("a", 60, ONE));
        h.define(monitor("b", 60, ONE));
        h.wallClockTo(W0 - 20_000);
        String a = "FFOFFFFFFFFFFFFFFFFFFOOFO";
        String b = "OFFFFFFFFFFFFFFFFFFFFFFFOO";
        for (int i = 0; i < Math.max(a.length(), b.length()); i++) {
            long w = W0 + i * MIN;
            if (i < a.length()) {
                h.result(a.charAt(i) == 'F' ? failure("a", "eu-west", w) : success("a", "eu-west", w));
            }
            if (i < b.length()) {
                h.result(b.charAt(i) == 'F' ? failure("b", "eu-west", w) : success("b", "eu-west", w));
            }
            for (int k = 0; k < 30; k++) {
                h.metric(metric(
                        "http_request", k < (i % 7 == 0 ? 6 : 0) ? "503" : "200", 100.0 + k * 120, w + k * 1000));
            }
        }
    }

    @Test
    void replayingTheSameInputGivesByteIdenticalAlertStreams() {
        List<String> first = run(AlertingTopologyTest::scenario);
        List<String> second = run(AlertingTopologyTest::scenario);
        assertThat(first).hasSizeGreaterThan(4).isEqualTo(second);
    }

    private static List<String> run(Consumer<AlertingHarness> input) {
        try (var h = started()) {
            var raw = h.rawAlerts();
            input.accept(h);
            List<String> out = new ArrayList<>();
            raw.readRecordsToList()
                    .forEach(r -> out.add(r.key() + " " + r.timestamp() + " " + Arrays.toString(r.value())));
            return out;
        }
    }

    @Test
    void fixturesWindowIsMinuteAligned() {
        assertThat(W0 % MIN).isZero();
        assertThat(Fixtures.INTERVAL_MS).isEqualTo(MIN);
    }
}
