package dev.vigil.streams.rules;

import dev.vigil.schemas.contract.Aggregation;
import dev.vigil.schemas.contract.AlertRule;
import dev.vigil.schemas.contract.Comparison;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.Severity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The four metric rules Vigil ships (docs/design.md#alert-rules), for every application ({@code appId = *}). They are
 * ordinary {@link AlertRule}s: publishing a rule with the same id on {@code vigil.alert-rules} replaces one,
 * and a disabled copy switches it off.
 */
public final class DefaultRules {
    /** Any {@code dlq_routed} in 10 minutes (critical). */
    public static final AlertRule DLQ_ROUTED = new AlertRule(
            1,
            "dlq-routed",
            AlertRule.ANY_APP,
            DomainMetric.DLQ_ROUTED,
            List.of(),
            Aggregation.COUNT,
            10,
            Comparison.GT,
            0.0,
            1,
            Severity.CRITICAL,
            "{app}: {events} message(s) routed to the dead-letter queue in the last {window} min",
            true);

    /** {@code http_request} 5xx ratio above 5 % over 5 minutes with at least 20 requests (critical). */
    public static final AlertRule HTTP_5XX_RATIO = new AlertRule(
            1,
            "http-5xx-ratio",
            AlertRule.ANY_APP,
            DomainMetric.HTTP_REQUEST,
            List.of("5xx"),
            Aggregation.RATIO,
            5,
            Comparison.GT,
            0.05,
            20,
            Severity.CRITICAL,
            "{app}: {percent} of {events} requests failed with 5xx in the last {window} min",
            true);

    /**
     * {@code http_request} p95 duration above 2,500 ms over 5 minutes (warning). At least 20 timed requests, so
     * one slow request on an idle service does not page (the shipped p95 rule names no minimum; this matches the 5xx rule).
     */
    public static final AlertRule HTTP_P95_LATENCY = new AlertRule(
            1,
            "http-p95-latency",
            AlertRule.ANY_APP,
            DomainMetric.HTTP_REQUEST,
            List.of(),
            Aggregation.P95,
            5,
            Comparison.GT,
            2500.0,
            20,
            Severity.WARNING,
            "{app}: p95 request duration {value} ms over the last {window} min (threshold {threshold} ms)",
            true);

    /**
     * A 5-minute count of {@code http_request} 5xx at least 3× the trailing 60-minute per-5-minute average,
     * and at least 10 of them (warning).
     */
    public static final AlertRule HTTP_ERROR_SPIKE = new AlertRule(
            1,
            "http-error-spike",
            AlertRule.ANY_APP,
            DomainMetric.HTTP_REQUEST,
            List.of("5xx"),
            Aggregation.SPIKE,
            5,
            Comparison.GTE,
            3.0,
            10,
            Severity.WARNING,
            "{app}: {events} 5xx responses in {window} min, {value}x the trailing hour's average",
            true);

    private DefaultRules() {}

    public static List<AlertRule> all() {
        return List.of(DLQ_ROUTED, HTTP_5XX_RATIO, HTTP_P95_LATENCY, HTTP_ERROR_SPIKE);
    }

    /**
     * The rules in force: the shipped defaults, each replaced by a published rule with the same id, plus every
     * other published rule. Publishing a default's id with {@code enabled=false} switches it off.
     */
    public static Map<String, AlertRule> effective(ReadOnlyKeyValueStore<String, AlertRule> published) {
        Map<String, AlertRule> rules = new LinkedHashMap<>();
        for (AlertRule r : DefaultRules.all()) {
            rules.put(r.id(), r);
        }
        if (published != null) {
            try (var it = published.all()) {
                it.forEachRemaining(kv -> {
                    if (kv.value != null) {
                        rules.put(kv.key, kv.value);
                    }
                });
            }
        }
        return rules;
    }
}
