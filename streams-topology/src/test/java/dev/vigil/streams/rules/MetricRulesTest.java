package dev.vigil.streams.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.Aggregation;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertRule;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Comparison;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.alerting.AlertStateMachine;
import dev.vigil.streams.alerting.AlertStateRecord;
import dev.vigil.streams.metrics.MetricAggregate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricRulesTest {
    static final long T0 = 1_767_225_600_000L; // a minute boundary
    static final long MIN = 60_000L;
    static final String APP = "shop";

    final MetricRules rules = new MetricRules(new AlertLinks("http://vigil.test:8084"));

    /** One-minute windows built by adding DomainMetrics, like the window aggregator does. */
    static final class Traffic {
        final Map<String, MetricAggregate> windows = new HashMap<>();

        Traffic add(String metric, int minute, String status, int n, Double durationMs) {
            for (int i = 0; i < n; i++) {
                DomainMetric m = new DomainMetric(
                        1, APP, metric, status, "/x", null, durationMs, null, T0 + minute * MIN + i % 60_000);
                windows.computeIfAbsent(
                                m.appId() + "/" + metric + "/" + m.statusClass() + "@" + minute,
                                k -> MetricAggregate.windowFor(m))
                        .add(m);
            }
            return this;
        }

        Traffic requests(int minute, int ok, int errors) {
            add(DomainMetric.HTTP_REQUEST, minute, "200", ok, 100.0);
            return add(DomainMetric.HTTP_REQUEST, minute, "503", errors, 100.0);
        }

        List<MetricAggregate> all() {
            return new ArrayList<>(windows.values());
        }
    }

    MetricRules.Outcome eval(AlertRule rule, int endMinute, Traffic t) {
        return rules.evaluate(rule, APP, T0 + endMinute * MIN, t.all());
    }

    /** Evaluates the rule at each minute end in [from, to] through the state machine; returns the events. */
    List<AlertEvent> run(AlertRule rule, Traffic t, int fromMinute, int toMinute) {
        AlertStateMachine machine = new AlertStateMachine();
        AlertStateRecord state = null;
        List<AlertEvent> out = new ArrayList<>();
        for (int m = fromMinute; m <= toMinute; m++) {
            Evaluation ev = eval(rule, m, t).evaluation().orElseThrow();
            var tr = machine.apply(state, ev, false);
            state = tr.state();
            tr.event().ifPresent(out::add);
        }
        return out;
    }

    static List<AlertState> states(List<AlertEvent> events) {
        return events.stream().map(AlertEvent::state).toList();
    }

    // ---- dlq_routed: any in 10 min, critical ----

    @Test
    void dlqRuleFiresOnOneAndResolvesWhenItLeavesTheTenMinuteWindow() {
        Traffic t = new Traffic().add(DomainMetric.DLQ_ROUTED, 3, "archived", 1, null);
        assertThat(eval(DefaultRules.DLQ_ROUTED, 3, t).breach()).isFalse(); // minute 3 not closed yet
        var o = eval(DefaultRules.DLQ_ROUTED, 4, t);
        assertThat(o.breach()).isTrue();
        assertThat(o.evaluation().orElseThrow().severity()).isEqualTo(Severity.CRITICAL);
        assertThat(o.evaluation().orElseThrow().fingerprint()).isEqualTo("rule/dlq-routed/shop");
        assertThat(eval(DefaultRules.DLQ_ROUTED, 13, t).breach()).isTrue(); // [3, 13) still holds minute 3
        assertThat(eval(DefaultRules.DLQ_ROUTED, 14, t).breach()).isFalse();
        List<AlertEvent> events = run(DefaultRules.DLQ_ROUTED, t, 1, 20);
        assertThat(states(events)).containsExactly(AlertState.OPENED, AlertState.RESOLVED);
        assertThat(events.get(0).lastSeen()).isEqualTo(T0 + 4 * MIN);
        assertThat(events.get(1).lastSeen()).isEqualTo(T0 + 13 * MIN);
        assertThat(events.get(0).source()).isEqualTo(AlertSource.METRIC);
        assertThat(events.get(0).summary())
                .isEqualTo("shop: 1 message(s) routed to the dead-letter queue in the last 10 min");
    }

    @Test
    void dlqRuleBoundaryZeroEventsDoesNotFire() {
        Traffic t = new Traffic().add(DomainMetric.HTTP_REQUEST, 0, "500", 50, 10.0); // other metrics do not count
        var o = eval(DefaultRules.DLQ_ROUTED, 10, t);
        assertThat(o.value()).isZero();
        assertThat(o.breach()).isFalse();
    }

    // ---- http_request 5xx ratio > 5 % over 5 min with >= 20 requests, critical ----

    @Test
    void ratioRuleFiresAboveFivePercentAndResolves() {
        Traffic t = new Traffic();
        for (int m = 0; m < 5; m++) {
            t.requests(m, 18, 2); // 10 %
        }
        for (int m = 5; m < 20; m++) {
            t.requests(m, 40, 0);
        }
        var o = eval(DefaultRules.HTTP_5XX_RATIO, 5, t);
        assertThat(o.value()).isEqualTo(0.1);
        assertThat(o.events()).isEqualTo(100);
        assertThat(o.breach()).isTrue();
        assertThat(o.evaluation().orElseThrow().summary())
                .isEqualTo("shop: 10% of 100 requests failed with 5xx in the last 5 min");
        assertThat(states(run(DefaultRules.HTTP_5XX_RATIO, t, 1, 20)))
                .containsExactly(AlertState.OPENED, AlertState.RESOLVED);
    }

    @Test
    void ratioRuleBoundaryExactlyFivePercentDoesNotFire() {
        Traffic t = new Traffic().requests(0, 19, 1).requests(1, 19, 1).requests(2, 38, 2); // 4 of 80 = 5 %
        var o = eval(DefaultRules.HTTP_5XX_RATIO, 5, t);
        assertThat(o.value()).isEqualTo(0.05);
        assertThat(o.breach()).isFalse();
        t.requests(3, 0, 1); // 5 of 81 > 5 %
        assertThat(eval(DefaultRules.HTTP_5XX_RATIO, 5, t).breach()).isTrue();
    }

    @Test
    void ratioRuleBoundaryNineteenRequestsDoNotFireEvenAllFailing() {
        Traffic t = new Traffic().requests(2, 0, 19);
        var o = eval(DefaultRules.HTTP_5XX_RATIO, 5, t);
        assertThat(o.value()).isEqualTo(1.0);
        assertThat(o.events()).isEqualTo(19);
        assertThat(o.breach()).isFalse();
        t.requests(4, 1, 0);
        assertThat(eval(DefaultRules.HTTP_5XX_RATIO, 5, t).breach()).isTrue();
    }

    @Test
    void ratioRuleOnlyLooksAtTheLastFiveMinutes() {
        Traffic t = new Traffic().requests(0, 0, 50).requests(5, 100, 0);
        assertThat(eval(DefaultRules.HTTP_5XX_RATIO, 5, t).breach()).isTrue();
        assertThat(eval(DefaultRules.HTTP_5XX_RATIO, 6, t).breach()).isFalse();
    }

    // ---- http_request p95 > 2,500 ms over 5 min, warning ----

    @Test
    void latencyRuleFiresWhenP95IsAboveAndResolves() {
        Traffic t = new Traffic();
        for (int m = 0; m < 5; m++) {
            t.add(DomainMetric.HTTP_REQUEST, m, "200", 18, 200.0).add(DomainMetric.HTTP_REQUEST, m, "200", 2, 2700.0);
        }
        for (int m = 5; m < 20; m++) {
            t.add(DomainMetric.HTTP_REQUEST, m, "200", 20, 200.0);
        }
        var o = eval(DefaultRules.HTTP_P95_LATENCY, 5, t); // 100 requests, 10 at 2700: p95 = 2700
        assertThat(o.value()).isCloseTo(2700, org.assertj.core.data.Percentage.withPercentage(1));
        assertThat(o.breach()).isTrue();
        assertThat(o.evaluation().orElseThrow().severity()).isEqualTo(Severity.WARNING);
        assertThat(states(run(DefaultRules.HTTP_P95_LATENCY, t, 1, 20)))
                .containsExactly(AlertState.OPENED, AlertState.RESOLVED);
    }

    @Test
    void latencyRuleBoundaryP95ExactlyAtThresholdDoesNotFire() {
        // all at 2500: p95 exactly met
        Traffic all = new Traffic().add(DomainMetric.HTTP_REQUEST, 1, "200", 40, 2500.0);
        assertThat(eval(DefaultRules.HTTP_P95_LATENCY, 5, all).breach()).isFalse();
        // mixed: the 38th of 40 (p95) is 2500, with faster and slower requests around it
        Traffic mixed = new Traffic()
                .add(DomainMetric.HTTP_REQUEST, 1, "200", 30, 120.0)
                .add(DomainMetric.HTTP_REQUEST, 2, "200", 8, 2500.0)
                .add(DomainMetric.HTTP_REQUEST, 3, "500", 2, 9000.0);
        var o = eval(DefaultRules.HTTP_P95_LATENCY, 5, mixed);
        assertThat(o.events()).isEqualTo(40);
        assertThat(o.breach()).isFalse();
        // a few percent above fires
        Traffic above = new Traffic()
                .add(DomainMetric.HTTP_REQUEST, 1, "200", 30, 120.0)
                .add(DomainMetric.HTTP_REQUEST, 2, "200", 8, 2600.0)
                .add(DomainMetric.HTTP_REQUEST, 3, "500", 2, 9000.0);
        assertThat(eval(DefaultRules.HTTP_P95_LATENCY, 5, above).breach()).isTrue();
    }

    @Test
    void latencyRuleBoundaryNineteenTimedRequestsDoNotFire() {
        Traffic t = new Traffic()
                .add(DomainMetric.HTTP_REQUEST, 1, "200", 19, 9000.0)
                .add(DomainMetric.HTTP_REQUEST, 1, "200", 30, null); // untimed requests do not count
        var o = eval(DefaultRules.HTTP_P95_LATENCY, 5, t);
        assertThat(o.events()).isEqualTo(19);
        assertThat(o.breach()).isFalse();
        t.add(DomainMetric.HTTP_REQUEST, 2, "200", 1, 9000.0);
        assertThat(eval(DefaultRules.HTTP_P95_LATENCY, 5, t).breach()).isTrue();
    }

    // ---- spike: 5-min count >= 3x trailing 60-min per-5-min average and >= minEvents, warning ----

    static Traffic baseline() {
        Traffic t = new Traffic();
        for (int m = 0; m < 60; m++) {
            t.requests(m, 50, 1); // 5 errors per 5 minutes
        }
        return t;
    }

    @Test
    void spikeRuleFiresAtThreeTimesTheTrailingAverageAndResolves() {
        Traffic t = baseline();
        for (int m = 60; m < 65; m++) {
            t.requests(m, 50, m == 60 ? 11 : 1); // 15 in [60, 65) = 3x the average of 5
        }
        for (int m = 65; m < 80; m++) {
            t.requests(m, 50, 1);
        }
        var o = eval(DefaultRules.HTTP_ERROR_SPIKE, 65, t);
        assertThat(o.events()).isEqualTo(15);
        assertThat(o.value()).isEqualTo(3.0);
        assertThat(o.breach()).isTrue(); // >= 3x: exactly 3x fires
        assertThat(o.evaluation().orElseThrow().summary())
                .isEqualTo("shop: 15 5xx responses in 5 min, 3x the trailing hour's average");
        assertThat(states(run(DefaultRules.HTTP_ERROR_SPIKE, t, 61, 80)))
                .containsExactly(AlertState.OPENED, AlertState.RESOLVED);
    }

    @Test
    void spikeRuleBoundaryJustBelowThreeTimesDoesNotFire() {
        Traffic t = baseline();
        t.requests(60, 0, 14); // 14 < 15
        var o = eval(DefaultRules.HTTP_ERROR_SPIKE, 65, t);
        assertThat(o.value()).isLessThan(3.0);
        assertThat(o.breach()).isFalse();
    }

    @Test
    void spikeRuleBoundaryMinEventsMinusOneDoesNotFire() {
        Traffic quiet = new Traffic();
        for (int m = 0; m < 60; m += 10) {
            quiet.requests(m, 10, 1); // 6 errors per hour: average 0.5 per 5 minutes
        }
        quiet.requests(61, 0, 9); // 18x the average but only 9 events
        var o = eval(DefaultRules.HTTP_ERROR_SPIKE, 65, quiet);
        assertThat(o.value()).isEqualTo(18.0);
        assertThat(o.events()).isEqualTo(9);
        assertThat(o.breach()).isFalse();
        quiet.requests(62, 0, 1);
        assertThat(eval(DefaultRules.HTTP_ERROR_SPIKE, 65, quiet).breach()).isTrue();
    }

    @Test
    void spikeAgainstAnEmptyHourIsInfiniteButStillNeedsMinEvents() {
        Traffic t = new Traffic().requests(61, 0, 10);
        var o = eval(DefaultRules.HTTP_ERROR_SPIKE, 65, t);
        assertThat(o.value()).isInfinite();
        assertThat(o.breach()).isTrue();
        assertThat(o.evaluation().orElseThrow().attributes()).containsEntry("value", "inf");
        assertThat(eval(DefaultRules.HTTP_ERROR_SPIKE, 65, new Traffic()).value())
                .isZero();
    }

    // ---- general ----

    @Test
    void lookbackIsBoundedByTheRuleWindow() {
        assertThat(MetricRules.lookbackMinutes(DefaultRules.DLQ_ROUTED)).isEqualTo(10);
        assertThat(MetricRules.lookbackMinutes(DefaultRules.HTTP_5XX_RATIO)).isEqualTo(5);
        assertThat(MetricRules.lookbackMinutes(DefaultRules.HTTP_ERROR_SPIKE)).isEqualTo(65);
    }

    @Test
    void countSumAndComparatorsOfCustomRules() {
        AlertRule sum = new AlertRule(
                1,
                "big-orders",
                "shop",
                "inquiry_submitted",
                List.of(),
                Aggregation.SUM,
                2,
                Comparison.GTE,
                100.0,
                1,
                Severity.INFO,
                "{app} {metric} sum {value} over {window} min ({rule})",
                true);
        Traffic t = new Traffic();
        for (int i = 0; i < 4; i++) {
            DomainMetric m = new DomainMetric(1, APP, "inquiry_submitted", "ok", null, 25.0, null, null, T0 + i);
            t.windows.computeIfAbsent("k", k -> MetricAggregate.windowFor(m)).add(m);
        }
        var o = rules.evaluate(sum, APP, T0 + 2 * MIN, t.all());
        assertThat(o.value()).isEqualTo(100.0);
        assertThat(o.breach()).isTrue(); // gte: exactly met fires
        assertThat(o.evaluation().orElseThrow().summary())
                .isEqualTo("shop inquiry_submitted sum 100 over 2 min (big-orders)");

        AlertRule low = new AlertRule(
                1,
                "low-traffic",
                "*",
                "http_request",
                List.of(),
                Aggregation.COUNT,
                5,
                Comparison.LT,
                10.0,
                0,
                Severity.WARNING,
                "{app}: only {events} requests",
                true);
        assertThat(rules.evaluate(
                                low,
                                APP,
                                T0 + 5 * MIN,
                                new Traffic().requests(0, 9, 0).all())
                        .breach())
                .isTrue();
        assertThat(rules.evaluate(
                                low,
                                APP,
                                T0 + 5 * MIN,
                                new Traffic().requests(0, 10, 0).all())
                        .breach())
                .isFalse();
    }

    @Test
    void disabledRuleEvaluatesToNothing() {
        AlertRule off = Json.read(
                Json.string(DefaultRules.DLQ_ROUTED).replace("\"enabled\":true", "\"enabled\":false"), AlertRule.class);
        var o = eval(off, 5, new Traffic().add(DomainMetric.DLQ_ROUTED, 1, "x", 3, null));
        assertThat(o.breach()).isFalse();
        assertThat(o.evaluation()).isEmpty();
    }

    @Test
    void badCallsAreRefused() {
        assertThatThrownBy(() -> rules.evaluate(DefaultRules.DLQ_ROUTED, APP, T0 + 1, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        AlertRule onlyOther = new AlertRule(
                1,
                "r",
                "other",
                "http_request",
                List.of(),
                Aggregation.COUNT,
                5,
                Comparison.GT,
                1.0,
                1,
                Severity.INFO,
                "s",
                true);
        assertThatThrownBy(() -> rules.evaluate(onlyOther, APP, T0, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shippedRulesAreValidContractsThatRoundTrip() {
        assertThat(DefaultRules.all()).hasSize(4).extracting(AlertRule::id).doesNotHaveDuplicates();
        for (AlertRule r : DefaultRules.all()) {
            assertThat(Json.read(Json.bytes(r), AlertRule.class)).isEqualTo(r);
            assertThat(r.appliesTo("any-app")).isTrue();
        }
    }
}
