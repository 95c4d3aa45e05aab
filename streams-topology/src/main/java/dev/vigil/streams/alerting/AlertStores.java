package dev.vigil.streams.alerting;

import java.util.List;

/**
 * The names of the stores the alerting processors own and read. They are the processors' own: the topology
 * ({@code dev.vigil.streams.topology.AlertingTopology}) registers the stores under these names and the query layer
 * reads them by these names, so neither the processors nor this package depend on the topology that wires them.
 */
public final class AlertStores {
    /** One-minute metric windows: window store, key {@code appId/metricName/statusClass}, {@link dev.vigil.streams.metrics.MetricAggregate}. */
    public static final String METRIC_WINDOWS_STORE = "metric-windows";
    public static final String METRIC_SERIES_STORE = "metric-series";
    public static final String MONITOR_RULE_STATE_STORE = "monitor-rule-state";
    public static final String MONITOR_ALERTS_STORE = "alert-state-monitor";
    public static final String METRIC_ALERTS_STORE = "alert-state-metric";
    public static final String WORKER_ALERTS_STORE = "alert-state-worker";
    /** Every alert state store, values {@link AlertStateRecord} keyed by fingerprint (for {@code GET /v1/alerts}). */
    public static final List<String> ALERT_STORES = List.of(MONITOR_ALERTS_STORE, METRIC_ALERTS_STORE, WORKER_ALERTS_STORE);
    /** Global store of published metric rules (id → alert rule); effective rules add the shipped defaults. */
    public static final String RULES_STORE = "alert-rules";
    /** Global store of silences (id → silence). */
    public static final String SILENCES_STORE = "silences";
    /** Global store of acknowledgements (fingerprint → ack). */
    public static final String ACKS_STORE = "acks";

    private AlertStores() {
    }
}
