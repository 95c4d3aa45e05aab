package dev.vigil.streams.topology;

import dev.vigil.streams.alerting.MetricAlertProcessor;
import dev.vigil.streams.alerting.MonitorAlertProcessor;
import dev.vigil.streams.alerting.WorkerAlertProcessor;
import dev.vigil.streams.selfwatch.RegionWatchProcessor;
import dev.vigil.streams.uptime.UptimeProcessor;
import dev.vigil.streams.verdict.VerdictProcessor;
import java.util.List;

/**
 * The name of every state store: the topology gives each processor the names of the stores it owns or reads, and the
 * query side reads stores by these names. A store's name is also its changelog's ({@code <application.id>-<name>-
 * changelog}) and its directory under the state dir, so a name never changes.
 */
public final class StoreNames {
    /** Monitor definitions (id → definition), co-partitioned with the probe results. */
    public static final String DEFINITIONS_STORE = "monitor-definitions";
    /** Windows collecting results (monitor id and window start → the window's results so far). */
    public static final String PENDING_STORE = "verdict-pending";
    /** Each monitor's silent-window cursor (id → next window start it is responsible for). */
    public static final String CURSOR_STORE = "verdict-cursor";
    /** Each monitor's newest verdict (id → verdict); no changelog, rebuilt from the history. */
    public static final String STATUS_STORE = "monitor-status-latest";
    /** Every verdict (window store: id, window start → verdict). */
    public static final String HISTORY_STORE = "verdict-history";
    /** Daily uptime counts (id and UTC epoch day → counts). */
    public static final String UPTIME_STORE = "uptime-daily";
    /** Each worker's latest heartbeat and health. */
    public static final String WORKER_HEALTH_STORE = "worker-health";
    /** One-minute metric windows: window store, key {@code appId/metricName/statusClass}. */
    public static final String METRIC_WINDOWS_STORE = "metric-windows";

    public static final String METRIC_SERIES_STORE = "metric-series";
    public static final String MONITOR_RULE_STATE_STORE = "monitor-rule-state";
    public static final String MONITOR_ALERTS_STORE = "alert-state-monitor";
    public static final String METRIC_ALERTS_STORE = "alert-state-metric";
    public static final String WORKER_ALERTS_STORE = "alert-state-worker";
    /** The worker alerts' own copy of each worker's latest health, from the heartbeat processor's updates. */
    public static final String WORKER_ALERT_HEALTH_STORE = "worker-alert-health";
    /** Vigil's self-alerts (blind regions, skipping workers, dead letters), in the region watch's sub-topology. */
    public static final String SELFWATCH_ALERTS_STORE = "alert-state-selfwatch";
    /** The region watch's picture of each region (region → workers, monitors naming it, blindness). */
    public static final String SELFWATCH_REGIONS_STORE = "selfwatch-regions";
    /** The current burst of dead letters (one entry). */
    public static final String SELFWATCH_DEAD_LETTERS_STORE = "selfwatch-dead-letters";
    /**
     * Incidents only their senders know (applications, Alertmanager, the notifier's delivery-failing), folded from
     * their events on {@code vigil.alerts}, keyed by fingerprint.
     */
    public static final String EXTERNAL_ALERTS_STORE = "alert-state-external";
    /** Each fingerprint's current (or last) incident's timeline, from {@code vigil.alerts} and the incident notes. */
    public static final String TIMELINE_STORE = "incident-timelines";
    /** Every alert state store, values alert state records keyed by fingerprint (for {@code GET /v1/alerts}). */
    public static final List<String> ALERT_STORES = List.of(
            MONITOR_ALERTS_STORE,
            METRIC_ALERTS_STORE,
            WORKER_ALERTS_STORE,
            SELFWATCH_ALERTS_STORE,
            EXTERNAL_ALERTS_STORE);
    /** Global store of published metric rules (id → alert rule); effective rules add the shipped defaults. */
    public static final String RULES_STORE = "alert-rules";
    /** Global store of silences (id → silence). */
    public static final String SILENCES_STORE = "silences";
    /** Global store of acknowledgements (fingerprint → ack). */
    public static final String ACKS_STORE = "acks";
    /** Global store of the regions' pictures ({@code vigil.regions}: region → region status). */
    public static final String REGIONS_STORE = "regions";
    /**
     * Global store of the monitors whose latest verdict is down ({@code vigil.monitor-status}, filtered: monitor id →
     * verdict), which holds the notifications of the monitors that depend on them.
     */
    public static final String MONITORS_DOWN_STORE = "monitors-down";
    /** Global store of escalation climbs ({@code vigil.escalations}: fingerprint → escalation status). */
    public static final String ESCALATIONS_STORE = "escalations";

    private StoreNames() {}

    public static VerdictProcessor.Stores verdict() {
        return new VerdictProcessor.Stores(DEFINITIONS_STORE, PENDING_STORE, CURSOR_STORE, STATUS_STORE, HISTORY_STORE);
    }

    public static UptimeProcessor.Stores uptime() {
        return new UptimeProcessor.Stores(UPTIME_STORE, SILENCES_STORE);
    }

    public static MonitorAlertProcessor.Stores monitorAlerts() {
        return new MonitorAlertProcessor.Stores(
                MONITOR_RULE_STATE_STORE,
                MONITOR_ALERTS_STORE,
                SILENCES_STORE,
                ACKS_STORE,
                REGIONS_STORE,
                MONITORS_DOWN_STORE);
    }

    public static MetricAlertProcessor.Stores metricAlerts() {
        return new MetricAlertProcessor.Stores(
                METRIC_WINDOWS_STORE,
                METRIC_SERIES_STORE,
                RULES_STORE,
                METRIC_ALERTS_STORE,
                SILENCES_STORE,
                ACKS_STORE);
    }

    public static WorkerAlertProcessor.Stores workerAlerts() {
        return new WorkerAlertProcessor.Stores(
                WORKER_ALERT_HEALTH_STORE, WORKER_ALERTS_STORE, SILENCES_STORE, ACKS_STORE, REGIONS_STORE);
    }

    public static RegionWatchProcessor.Stores regionWatch() {
        return new RegionWatchProcessor.Stores(
                SELFWATCH_REGIONS_STORE,
                SELFWATCH_DEAD_LETTERS_STORE,
                SELFWATCH_ALERTS_STORE,
                SILENCES_STORE,
                ACKS_STORE);
    }
}
