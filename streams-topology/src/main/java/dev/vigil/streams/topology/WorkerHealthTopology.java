package dev.vigil.streams.topology;

import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.health.HeartbeatProcessor;
import dev.vigil.streams.health.WorkerHealth;
import dev.vigil.streams.health.WorkerHealthUpdate;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/** Worker health from {@code vigil.heartbeats}: latest per worker, evaluated on wall clock. */
public final class WorkerHealthTopology {
    public static final String HEARTBEATS_SOURCE = "heartbeats-source";
    public static final String HEARTBEAT_PROCESSOR = "heartbeat-processor";
    /** Attach consumers of worker health updates (values {@link WorkerHealthUpdate}, key worker id) to this node. */
    public static final String HEALTH_UPDATES_NODE = "worker-health-updates";

    public static final String DEAD_LETTER_SINK = "heartbeat-dead-letter-sink";

    private WorkerHealthTopology() {}

    public static Topology addTo(Topology topology, TopologyConfig cfg) {
        topology.addSource(
                HEARTBEATS_SOURCE,
                Serdes.String().deserializer(),
                VigilSerdes.workerHeartbeat(),
                cfg.topics().heartbeats());
        topology.addProcessor(
                HEARTBEAT_PROCESSOR,
                () -> new HeartbeatProcessor(
                        cfg.workers(), StoreNames.WORKER_HEALTH_STORE, HEALTH_UPDATES_NODE, DEAD_LETTER_SINK),
                HEARTBEATS_SOURCE);
        topology.addProcessor(
                HEALTH_UPDATES_NODE,
                () -> new MappingNode<String, WorkerHealthUpdate, WorkerHealthUpdate>(update -> update),
                HEARTBEAT_PROCESSOR);
        topology.addSink(
                DEAD_LETTER_SINK,
                cfg.topics().deadLetter(),
                Serdes.String().serializer(),
                VigilSerdes.deadLetter(),
                HEARTBEAT_PROCESSOR);
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                                Stores.persistentKeyValueStore(StoreNames.WORKER_HEALTH_STORE),
                                Serdes.String(),
                                new JsonSerde<>(WorkerHealth.class))
                        .withCachingDisabled(),
                HEARTBEAT_PROCESSOR);
        return topology;
    }
}
