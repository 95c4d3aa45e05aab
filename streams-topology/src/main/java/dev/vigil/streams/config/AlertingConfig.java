package dev.vigil.streams.config;

import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.topic.Topics;
import java.time.Duration;

/**
 * Settings of the alerting half of the topology (metric windows, rules, alert state machine, silences).
 * Every field may be null in YAML and gets its default here; problems name the key path under
 * {@code alerting.}.
 *
 * @param alertsTopic where alert events go ({@code vigil.alerts})
 * @param alertRulesTopic compacted metric rules ({@code vigil.alert-rules})
 * @param silencesTopic compacted silences ({@code vigil.silences})
 * @param metricsTopic domain metrics ({@code vigil.metrics})
 * @param debounceMinutes time between notifications of one incident (15)
 * @param healthyToResolve healthy evaluations in a row that resolve an incident (2)
 * @param queryBaseUrl public base URL of the query API, for the links in alerts
 * @param metricRetentionDays how long one-minute metric windows are kept (90)
 * @param metricGraceMs how far event time must pass a minute's end before the minute is closed and rules run (5 s)
 * @param idleCloseMs how long a task must have seen no metric before wall clock closes minutes, so absent data
 *                    is noticed without letting wall clock race ahead of a replay (30 s)
 * @param punctuationIntervalMs wall-clock punctuation period (idle closing, rule deletions, worker recovery) (1 s)
 */
public record AlertingConfig(String alertsTopic, String alertRulesTopic, String silencesTopic, String metricsTopic,
                             Integer debounceMinutes, Integer healthyToResolve, String queryBaseUrl,
                             Integer metricRetentionDays, Long metricGraceMs, Long idleCloseMs,
                             Long punctuationIntervalMs) {

    public AlertingConfig {
        alertsTopic = topic("alertsTopic", alertsTopic, Topics.ALERTS);
        alertRulesTopic = topic("alertRulesTopic", alertRulesTopic, Topics.ALERT_RULES);
        silencesTopic = topic("silencesTopic", silencesTopic, Topics.SILENCES);
        metricsTopic = topic("metricsTopic", metricsTopic, Topics.METRICS);
        debounceMinutes = range("debounceMinutes", debounceMinutes, 15, 1, 1440);
        healthyToResolve = range("healthyToResolve", healthyToResolve, 2, 1, 100);
        queryBaseUrl = queryBaseUrl == null ? "http://localhost:8084" : queryBaseUrl;
        if (!(queryBaseUrl.startsWith("http://") || queryBaseUrl.startsWith("https://")) || queryBaseUrl.contains("?")) {
            throw new ContractViolation("queryBaseUrl", "must be an http(s) URL without a query string");
        }
        metricRetentionDays = range("metricRetentionDays", metricRetentionDays, 90, 1, 3650);
        metricGraceMs = metricGraceMs == null ? 5_000L : metricGraceMs;
        if (metricGraceMs < 0 || metricGraceMs > 600_000) {
            throw new ContractViolation("metricGraceMs", "must be between 0 and 600000");
        }
        idleCloseMs = idleCloseMs == null ? 30_000L : idleCloseMs;
        if (idleCloseMs < 0 || idleCloseMs > 3_600_000) {
            throw new ContractViolation("idleCloseMs", "must be between 0 and 3600000");
        }
        punctuationIntervalMs = punctuationIntervalMs == null ? 1_000L : punctuationIntervalMs;
        if (punctuationIntervalMs < 10 || punctuationIntervalMs > 60_000) {
            throw new ContractViolation("punctuationIntervalMs", "must be between 10 and 60000");
        }
    }

    public static AlertingConfig defaults() {
        return new AlertingConfig(null, null, null, null, null, null, null, null, null, null, null);
    }

    public Duration metricRetention() {
        return Duration.ofDays(metricRetentionDays);
    }

    private static String topic(String key, String value, String fallback) {
        if (value == null) {
            return fallback;
        }
        if (!value.matches("[a-zA-Z0-9._-]{1,249}")) {
            throw new ContractViolation(key, "must be a valid Kafka topic name");
        }
        return value;
    }

    private static int range(String key, Integer value, int fallback, int min, int max) {
        int v = value == null ? fallback : value;
        if (v < min || v > max) {
            throw new ContractViolation(key, "must be between " + min + " and " + max);
        }
        return v;
    }
}
