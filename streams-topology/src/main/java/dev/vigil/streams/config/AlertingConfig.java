package dev.vigil.streams.config;

import dev.vigil.kit.config.Problems;
import java.time.Duration;

/**
 * Settings of the alerting half of the topology (metric windows, rules, alert state machine, silences); its topics
 * are under {@code kafka.topics} with every other. Every field may be null in YAML and gets its default here;
 * problems name the key path under {@code alerting.}.
 *
 * @param debounce            time between notifications of one incident (15m)
 * @param healthyToResolve    healthy evaluations in a row that resolve an incident (2)
 * @param queryBaseUrl        the older name of {@code console.publicUrl}, where pages link (empty: not set here)
 * @param metricRetention     how long one-minute metric windows are kept (90d)
 * @param metricGrace         how far event time must pass a minute's end before the minute is closed and rules run (5s)
 * @param idleClose           how long a task must have seen no metric before wall clock closes minutes, so absent data
 *                            is noticed without letting wall clock race ahead of a replay (30s)
 * @param punctuationInterval wall-clock punctuation period (idle closing, rule deletions, worker recovery) (1s)
 * @param canaryMonitorId     the end-to-end canary monitor whose verdicts go to the notifier as {@code vigil/canary}
 *                            events (vigil-canary; empty: none; inert until a monitor of that id exists)
 */
public record AlertingConfig(
        Duration debounce,
        Integer healthyToResolve,
        String queryBaseUrl,
        Duration metricRetention,
        Duration metricGrace,
        Duration idleClose,
        Duration punctuationInterval,
        String canaryMonitorId) {

    public AlertingConfig {
        Problems p = new Problems();
        debounce = p.duration("debounce", debounce, Duration.ofMinutes(15), Duration.ofMinutes(1), Duration.ofDays(1));
        healthyToResolve = p.range("healthyToResolve", healthyToResolve, 2, 1, 100);
        queryBaseUrl = queryBaseUrl == null ? "" : queryBaseUrl.strip();
        p.check(
                queryBaseUrl.isEmpty()
                        || (queryBaseUrl.startsWith("http://") || queryBaseUrl.startsWith("https://"))
                                && !queryBaseUrl.contains("?")
                                && !queryBaseUrl.contains("#"),
                "queryBaseUrl",
                "must be an http(s) URL without a query string or fragment");
        metricRetention = p.duration(
                "metricRetention", metricRetention, Duration.ofDays(90), Duration.ofDays(1), Duration.ofDays(3650));
        metricGrace =
                p.duration("metricGrace", metricGrace, Duration.ofSeconds(5), Duration.ZERO, Duration.ofMinutes(10));
        idleClose = p.duration("idleClose", idleClose, Duration.ofSeconds(30), Duration.ZERO, Duration.ofHours(1));
        punctuationInterval = p.duration(
                "punctuationInterval",
                punctuationInterval,
                Duration.ofSeconds(1),
                Duration.ofMillis(10),
                Duration.ofMinutes(1));
        canaryMonitorId = canaryMonitorId == null ? DEFAULT_CANARY_MONITOR_ID : canaryMonitorId.strip();
        p.check(
                canaryMonitorId.isEmpty() || canaryMonitorId.matches("[a-z0-9][a-z0-9._-]{0,127}"),
                "canaryMonitorId",
                "must be a monitor id (lower-case slug) or empty");
        p.throwIfAny();
    }

    public static final String DEFAULT_CANARY_MONITOR_ID = "vigil-canary";

    /** Whether {@code monitorId} is the end-to-end canary's (never, when the canary is off). */
    public boolean isCanary(String monitorId) {
        return !canaryMonitorId.isEmpty() && canaryMonitorId.equals(monitorId);
    }

    /** The shape without the canary's monitor id (its default). */
    public AlertingConfig(
            Duration debounce,
            Integer healthyToResolve,
            String queryBaseUrl,
            Duration metricRetention,
            Duration metricGrace,
            Duration idleClose,
            Duration punctuationInterval) {
        this(
                debounce,
                healthyToResolve,
                queryBaseUrl,
                metricRetention,
                metricGrace,
                idleClose,
                punctuationInterval,
                null);
    }

    /** Where pages link: the console's URL as the service resolved it, else a local console's. */
    public String consoleUrl() {
        return queryBaseUrl.isEmpty() ? "http://localhost:8084" : queryBaseUrl;
    }

    public static AlertingConfig defaults() {
        return new AlertingConfig(null, null, null, null, null, null, null);
    }

    /** The same settings with pages linking to the console at {@code url}. */
    public AlertingConfig withQueryBaseUrl(String url) {
        return new AlertingConfig(
                debounce,
                healthyToResolve,
                url,
                metricRetention,
                metricGrace,
                idleClose,
                punctuationInterval,
                canaryMonitorId);
    }
}
