package dev.vigil.streams.topology;

import dev.vigil.schemas.contract.IncidentNote;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.streams.alerting.AlertStateRecord;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.incident.IncidentLogProcessor;
import dev.vigil.streams.incident.IncidentTimeline;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * Every incident in one place: {@code vigil.alerts} (every source's events, the topology's own among them) and
 * {@code vigil.incident-notes} (the notifier's deliveries, unacknowledgements), both keyed by fingerprint and read
 * together in one sub-topology, into each incident's timeline ({@link StoreNames#TIMELINE_STORE}) and the alert state
 * of incidents the topology does not decide on ({@link StoreNames#EXTERNAL_ALERTS_STORE}, one of
 * {@link StoreNames#ALERT_STORES}). Added by {@code AlertingTopology.addTo}.
 */
public final class IncidentTopology {
    public static final String ALERTS_LOG_SOURCE = "incident-alerts-source";
    public static final String NOTES_SOURCE = "incident-notes-source";
    public static final String INCIDENT_LOG = "incident-log";
    /** How long a timeline, and an ended incident only its sender knew, stay after their last change. */
    public static final Duration RETENTION = Duration.ofDays(7);

    private IncidentTopology() {}

    /**
     * The notes topic, created when missing with as many partitions as the alerts topic ({@code alertsPartitions}):
     * one fingerprint's events and notes must meet in one task.
     */
    public static List<NewTopic> topics(TopologyConfig cfg, int alertsPartitions, Optional<Short> replication) {
        return List.of(new NewTopic(cfg.topics().incidentNotes(), Optional.of(alertsPartitions), replication));
    }

    public static Topology addTo(Topology topology, TopologyConfig cfg) {
        topology.addSource(
                ALERTS_LOG_SOURCE,
                Serdes.String().deserializer(),
                VigilSerdes.alertEvent().deserializer(),
                cfg.topics().alerts());
        topology.addSource(
                NOTES_SOURCE,
                Serdes.String().deserializer(),
                new JsonSerde<>(IncidentNote.class).deserializer(),
                cfg.topics().incidentNotes());
        topology.addProcessor(
                INCIDENT_LOG,
                () -> new IncidentLogProcessor(
                        new IncidentLogProcessor.Stores(StoreNames.TIMELINE_STORE, StoreNames.EXTERNAL_ALERTS_STORE),
                        RETENTION),
                ALERTS_LOG_SOURCE,
                NOTES_SOURCE);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.TIMELINE_STORE),
                                Serdes.String(),
                                new JsonSerde<>(IncidentTimeline.class))
                        .withCachingEnabled(),
                INCIDENT_LOG);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.EXTERNAL_ALERTS_STORE),
                                Serdes.String(),
                                new JsonSerde<>(AlertStateRecord.class))
                        .withCachingDisabled(),
                INCIDENT_LOG);
        return topology;
    }
}
