package dev.vigil.streams.topology;

import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.AlertRule;
import dev.vigil.schemas.contract.EscalationStatus;
import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.alerting.AlertEmitter;
import dev.vigil.streams.alerting.AlertStateRecord;
import dev.vigil.streams.alerting.MetricAlertProcessor;
import dev.vigil.streams.alerting.MonitorAlertProcessor;
import dev.vigil.streams.alerting.WorkerAlertProcessor;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.health.WorkerHealth;
import dev.vigil.streams.metrics.MetricAggregateSerde;
import dev.vigil.streams.metrics.SeriesState;
import dev.vigil.streams.rules.MonitorRuleStateSerde;
import dev.vigil.streams.trace.HopSpans;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The alerting half of the topology: metric windows and rules, the alert state machine for
 * monitors, metrics and workers, silences, all emitting to {@code vigil.alerts} keyed by fingerprint.
 * Call {@link #addTo} after {@code VerdictTopology.addTo} and {@code WorkerHealthTopology.addTo}: it attaches
 * to their verdict and health-change nodes and reads their definitions and worker-health stores.
 *
 * <p>Alert state lives in three stores, each in the sub-topology (and so the partition) of its input:
 * {@link StoreNames#MONITOR_ALERTS_STORE} (by monitor id's partition), {@link StoreNames#METRIC_ALERTS_STORE} (by
 * {@code appId/metricName}'s partition) and {@link StoreNames#WORKER_ALERTS_STORE} (by worker id's partition); each
 * is keyed by fingerprint. Rules, silences, acknowledgements and the regions' pictures are global stores, so every
 * task sees them all. Vigil's self-alerts are added by {@link SelfWatchTopology}.
 * Store names are part of the changelog topic names: do not rename.
 */
public final class AlertingTopology {
    public static final String METRICS_SOURCE = "metrics-source";
    public static final String METRIC_ALERT_PROCESSOR = "metric-alerts";
    public static final String MONITOR_ALERT_PROCESSOR = "monitor-alerts";
    public static final String WORKER_ALERT_PROCESSOR = "worker-alerts";
    /** One alerts sink per sub-topology: a shared sink would merge the sub-topologies (and force co-partitioning). */
    public static final String MONITOR_ALERTS_SINK = "monitor-alerts-sink";

    public static final String METRIC_ALERTS_SINK = "metric-alerts-sink";
    public static final String WORKER_ALERTS_SINK = "worker-alerts-sink";
    public static final String METRIC_DEAD_LETTER_SINK = "metric-dead-letter-sink";
    public static final String RULES_SOURCE = "alert-rules-source";
    public static final String RULES_UPDATER = "alert-rules-updater";
    public static final String SILENCES_SOURCE = "silences-source";
    public static final String SILENCES_UPDATER = "silences-updater";

    public static final String ACKS_SOURCE = "acks-source";
    public static final String ACKS_UPDATER = "acks-updater";
    public static final String REGIONS_SOURCE = "regions-source";
    public static final String REGIONS_UPDATER = "regions-updater";
    public static final String ESCALATIONS_SOURCE = "escalations-source";
    public static final String ESCALATIONS_UPDATER = "escalations-updater";
    public static final String MONITORS_DOWN_SOURCE = "monitors-down-source";
    public static final String MONITORS_DOWN_UPDATER = "monitors-down-updater";

    private AlertingTopology() {}

    /**
     * The topic this half mirrors but no input of it creates: the notifier's escalation climbs (compacted, one
     * partition, as a global store reads it whole).
     *
     * @param replication empty for the broker's default
     */
    public static List<NewTopic> topics(TopologyConfig cfg, Optional<Short> replication) {
        return List.of(new NewTopic(cfg.topics().escalations(), Optional.of(1), replication)
                .configs(Map.of("cleanup.policy", "compact")));
    }

    public static Topology addTo(
            Topology topology, TopologyConfig cfg, AlertingConfig alerting, MeterRegistry registry) {
        return addTo(topology, cfg, alerting, registry, HopSpans.OFF);
    }

    public static Topology addTo(
            Topology topology, TopologyConfig cfg, AlertingConfig alerting, MeterRegistry registry, HopSpans spans) {
        var counters = new AlertEmitter.Counters(registry);
        Counter late = Counter.builder("vigil.streams.metrics.late")
                .description("metrics for a minute whose rules had already run (kept for queries)")
                .register(registry);
        Counter expired = Counter.builder("vigil.streams.metrics.expired")
                .description("metrics older than the window retention (dropped)")
                .register(registry);

        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.RULES_STORE),
                                Serdes.String(),
                                VigilSerdes.alertRule())
                        .withLoggingDisabled(),
                RULES_SOURCE,
                Serdes.String().deserializer(),
                VigilSerdes.alertRule(),
                cfg.topics().alertRules(),
                RULES_UPDATER,
                () -> new CompactedTopicMirror<>(StoreNames.RULES_STORE, AlertRule::id));
        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.SILENCES_STORE),
                                Serdes.String(),
                                new JsonSerde<>(Silence.class))
                        .withLoggingDisabled(),
                SILENCES_SOURCE,
                Serdes.String().deserializer(),
                new JsonSerde<>(Silence.class),
                cfg.topics().silences(),
                SILENCES_UPDATER,
                () -> new CompactedTopicMirror<>(StoreNames.SILENCES_STORE, Silence::id));
        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.ACKS_STORE),
                                Serdes.String(),
                                new JsonSerde<>(Ack.class))
                        .withLoggingDisabled(),
                ACKS_SOURCE,
                Serdes.String().deserializer(),
                new JsonSerde<>(Ack.class),
                cfg.topics().acks(),
                ACKS_UPDATER,
                () -> new CompactedTopicMirror<>(StoreNames.ACKS_STORE, Ack::fingerprint));
        // the regions' pictures, written by the self-watch: a monitor's missing result from a blind region is Vigil's
        // gap
        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.REGIONS_STORE),
                                Serdes.String(),
                                VigilSerdes.regionStatus())
                        .withLoggingDisabled(),
                REGIONS_SOURCE,
                Serdes.String().deserializer(),
                VigilSerdes.regionStatus(),
                cfg.topics().regions(),
                REGIONS_UPDATER,
                () -> new CompactedTopicMirror<>(StoreNames.REGIONS_STORE, RegionStatus::region));
        // where each incident's escalation climb stands, written by the notifier: the API shows it beside the incident
        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.ESCALATIONS_STORE),
                                Serdes.String(),
                                new JsonSerde<>(EscalationStatus.class))
                        .withLoggingDisabled(),
                ESCALATIONS_SOURCE,
                Serdes.String().deserializer(),
                new JsonSerde<>(EscalationStatus.class),
                cfg.topics().escalations(),
                ESCALATIONS_UPDATER,
                () -> new CompactedTopicMirror<>(StoreNames.ESCALATIONS_STORE, EscalationStatus::fingerprint));

        // the monitors whose latest verdict is down, from the status topic: a child's notifications wait while its
        // parent
        // is down (docs/monitors.md#dependencies), and the parent is usually in another task
        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.MONITORS_DOWN_STORE),
                                Serdes.String(),
                                VigilSerdes.monitorStatus())
                        .withLoggingDisabled(),
                MONITORS_DOWN_SOURCE,
                Serdes.String().deserializer(),
                VigilSerdes.monitorStatus(),
                cfg.topics().monitorStatus(),
                MONITORS_DOWN_UPDATER,
                () -> new DownMonitorsMirror(StoreNames.MONITORS_DOWN_STORE));

        // monitors: the verdict processor's events (verdicts, TLS observations, disabled and deleted monitors), in
        // the verdict sub-topology
        topology.addProcessor(
                MONITOR_ALERT_PROCESSOR,
                () -> new MonitorAlertProcessor(
                        alerting,
                        StoreNames.monitorAlerts(),
                        MONITOR_ALERTS_SINK,
                        counters,
                        cfg.selfWatch().silentRegionAfter(),
                        spans),
                VerdictTopology.VERDICTS_NODE);
        // one small entry per monitor / per monitor fingerprint, touched on every verdict: in memory and changelogged
        // (see VerdictTopology on the choice)
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.inMemoryKeyValueStore(StoreNames.MONITOR_RULE_STATE_STORE),
                                Serdes.String(),
                                new MonitorRuleStateSerde())
                        .withCachingDisabled(),
                MONITOR_ALERT_PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.inMemoryKeyValueStore(StoreNames.MONITOR_ALERTS_STORE),
                                Serdes.String(),
                                new JsonSerde<>(AlertStateRecord.class))
                        .withCachingDisabled(),
                MONITOR_ALERT_PROCESSOR);

        // workers: the heartbeat processor's health updates, in the heartbeat sub-topology; the latest health of each
        // worker (a few entries, written once per heartbeat) is the worker alerts' own, in memory and changelogged
        topology.addProcessor(
                WORKER_ALERT_PROCESSOR,
                () -> new WorkerAlertProcessor(alerting, StoreNames.workerAlerts(), WORKER_ALERTS_SINK, counters),
                WorkerHealthTopology.HEALTH_UPDATES_NODE);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.inMemoryKeyValueStore(StoreNames.WORKER_ALERT_HEALTH_STORE),
                                Serdes.String(),
                                new JsonSerde<>(WorkerHealth.class))
                        .withCachingEnabled(),
                WORKER_ALERT_PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.WORKER_ALERTS_STORE),
                                Serdes.String(),
                                new JsonSerde<>(AlertStateRecord.class))
                        .withCachingDisabled(),
                WORKER_ALERT_PROCESSOR);

        // metrics: one-minute windows and metric rules
        topology.addSource(
                METRICS_SOURCE,
                Serdes.String().deserializer(),
                VigilSerdes.domainMetric(),
                cfg.topics().metrics());
        topology.addProcessor(
                METRIC_ALERT_PROCESSOR,
                () -> new MetricAlertProcessor(
                        alerting,
                        StoreNames.metricAlerts(),
                        METRIC_ALERTS_SINK,
                        METRIC_DEAD_LETTER_SINK,
                        counters,
                        late,
                        expired),
                METRICS_SOURCE);
        topology.addStateStore(
                Stores.windowStoreBuilder(
                                Stores.persistentWindowStore(
                                        StoreNames.METRIC_WINDOWS_STORE,
                                        alerting.metricRetention(),
                                        java.time.Duration.ofMinutes(1),
                                        false),
                                Serdes.String(),
                                new MetricAggregateSerde())
                        .withCachingEnabled(),
                METRIC_ALERT_PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.METRIC_SERIES_STORE),
                                Serdes.String(),
                                new JsonSerde<>(SeriesState.class))
                        .withCachingDisabled(),
                METRIC_ALERT_PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.METRIC_ALERTS_STORE),
                                Serdes.String(),
                                new JsonSerde<>(AlertStateRecord.class))
                        .withCachingDisabled(),
                METRIC_ALERT_PROCESSOR);
        topology.addSink(
                METRIC_DEAD_LETTER_SINK,
                cfg.topics().deadLetter(),
                Serdes.String().serializer(),
                VigilSerdes.deadLetter(),
                METRIC_ALERT_PROCESSOR);

        topology.addSink(
                MONITOR_ALERTS_SINK,
                cfg.topics().alerts(),
                Serdes.String().serializer(),
                VigilSerdes.alertEvent(),
                MONITOR_ALERT_PROCESSOR);
        topology.addSink(
                WORKER_ALERTS_SINK,
                cfg.topics().alerts(),
                Serdes.String().serializer(),
                VigilSerdes.alertEvent(),
                WORKER_ALERT_PROCESSOR);
        topology.addSink(
                METRIC_ALERTS_SINK,
                cfg.topics().alerts(),
                Serdes.String().serializer(),
                VigilSerdes.alertEvent(),
                METRIC_ALERT_PROCESSOR);

        SelfWatchTopology.addTo(topology, cfg, alerting, counters);
        IncidentTopology.addTo(topology, cfg);
        return topology;
    }
}
