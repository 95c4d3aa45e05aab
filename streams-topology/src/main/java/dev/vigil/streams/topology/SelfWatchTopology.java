package dev.vigil.streams.topology;

import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.streams.alerting.AlertEmitter;
import dev.vigil.streams.alerting.AlertStateRecord;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.selfwatch.CanaryProcessor;
import dev.vigil.streams.selfwatch.DeadLetterWatch;
import dev.vigil.streams.selfwatch.RegionWatch;
import dev.vigil.streams.selfwatch.RegionWatchProcessor;
import dev.vigil.streams.selfwatch.SignalSplitter;
import dev.vigil.streams.selfwatch.WatchSignal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * Vigil's watch over itself: heartbeats and dead letters re-keyed through the internal signals topic
 * ({@code selfWatch.signalsTopic}, {@code <application.id>-selfwatch-signals}) into the region watch, keyed by region,
 * which writes each region's picture to {@code vigil.regions} and raises the self-alerts. Each heartbeat becomes one
 * signal per region it concerns (its own and each region it says monitors name), each dead letter one signal under one
 * key. Call after {@code WorkerHealthTopology.addTo}: it attaches to the heartbeats source.
 */
public final class SelfWatchTopology {
    public static final String HEARTBEAT_SIGNALS = "selfwatch-heartbeat-signals";
    public static final String HEARTBEAT_SIGNALS_SINK = "selfwatch-heartbeat-signals-sink";
    public static final String DEAD_LETTERS_SOURCE = "selfwatch-dead-letters-source";
    public static final String DEAD_LETTER_SIGNALS = "selfwatch-dead-letter-signals";
    public static final String DEAD_LETTER_SIGNALS_SINK = "selfwatch-dead-letter-signals-sink";
    public static final String SIGNALS_SOURCE = "selfwatch-signals-source";
    public static final String REGION_WATCH = "selfwatch-region-watch";
    public static final String REGIONS_SINK = "selfwatch-regions-sink";
    public static final String ALERTS_SINK = "selfwatch-alerts-sink";

    private SelfWatchTopology() {}

    /**
     * The topics the self-watch needs beyond the shared ones, to create when missing before the application starts:
     * its internal signals topic (the application's own, as Kafka Streams' repartition topics are; one partition, since
     * a few regions and one dead-letter key are all it carries; kept an hour) and the compacted regions topic.
     *
     * @param replication empty for the broker's default
     */
    public static List<NewTopic> topics(TopologyConfig cfg, Optional<Short> replication) {
        return List.of(
                new NewTopic(cfg.selfWatch().signalsTopic(), Optional.of(1), replication)
                        .configs(Map.of("cleanup.policy", "delete", "retention.ms", "3600000")),
                new NewTopic(cfg.topics().regions(), Optional.of(1), replication)
                        .configs(Map.of("cleanup.policy", "compact")));
    }

    public static Topology addTo(
            Topology topology, TopologyConfig cfg, AlertingConfig alerting, AlertEmitter.Counters counters) {
        String signals = cfg.selfWatch().signalsTopic();
        var signalSerde = new JsonSerde<>(WatchSignal.class);
        // one sink per sub-topology (heartbeats, dead letters): a shared sink would merge them
        topology.addProcessor(HEARTBEAT_SIGNALS, SignalSplitter::heartbeats, WorkerHealthTopology.HEARTBEATS_SOURCE);
        topology.addSink(HEARTBEAT_SIGNALS_SINK, signals, Serdes.String().serializer(), signalSerde, HEARTBEAT_SIGNALS);
        // dead letters are read as bytes: one that cannot be decoded must not become a dead letter again
        topology.addSource(
                DEAD_LETTERS_SOURCE,
                Serdes.String().deserializer(),
                Serdes.ByteArray().deserializer(),
                cfg.topics().deadLetter());
        topology.addProcessor(DEAD_LETTER_SIGNALS, SignalSplitter::deadLetters, DEAD_LETTERS_SOURCE);
        topology.addSink(
                DEAD_LETTER_SIGNALS_SINK, signals, Serdes.String().serializer(), signalSerde, DEAD_LETTER_SIGNALS);

        topology.addSource(SIGNALS_SOURCE, Serdes.String().deserializer(), signalSerde, signals);
        topology.addProcessor(
                REGION_WATCH,
                () -> new RegionWatchProcessor(
                        cfg, alerting, StoreNames.regionWatch(), REGIONS_SINK, ALERTS_SINK, counters),
                SIGNALS_SOURCE);
        // a few entries (one per region, one burst), written a few times per heartbeat interval
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.SELFWATCH_REGIONS_STORE),
                                Serdes.String(),
                                new JsonSerde<>(RegionWatch.class))
                        .withCachingDisabled(),
                REGION_WATCH);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.SELFWATCH_DEAD_LETTERS_STORE),
                                Serdes.String(),
                                new JsonSerde<>(DeadLetterWatch.class))
                        .withCachingDisabled(),
                REGION_WATCH);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.SELFWATCH_ALERTS_STORE),
                                Serdes.String(),
                                new JsonSerde<>(AlertStateRecord.class))
                        .withCachingDisabled(),
                REGION_WATCH);
        topology.addSink(
                REGIONS_SINK,
                cfg.topics().regions(),
                Serdes.String().serializer(),
                VigilSerdes.regionStatus(),
                REGION_WATCH);
        topology.addSink(
                ALERTS_SINK,
                cfg.topics().alerts(),
                Serdes.String().serializer(),
                VigilSerdes.alertEvent(),
                REGION_WATCH);

        // the end-to-end canary: its verdicts on to the notifier, in the verdict sub-topology (with its own sink)
        topology.addProcessor(
                CanaryProcessor.NODE,
                () -> new CanaryProcessor(alerting.canaryMonitorId()),
                VerdictTopology.VERDICTS_NODE);
        topology.addSink(
                CanaryProcessor.SINK,
                cfg.topics().alerts(),
                Serdes.String().serializer(),
                VigilSerdes.alertEvent(),
                CanaryProcessor.NODE);
        return topology;
    }
}
