package dev.vigil.ingest.heartbeat;

import dev.vigil.ingest.config.IngestConfig;
import dev.vigil.kit.kafka.CompactedTopicView;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link HeartbeatCatalog} in step with the compacted monitors topic through the service kit's
 * {@link CompactedTopicView}. The catalog is ready once the topic was read up to the end it had when reading began;
 * until then heartbeat pings are answered 503 (ingest cannot yet tell a valid token from a wrong one). After that it
 * follows the topic for as long as ingest runs; a broker outage only pauses it (the copy stays as it was). The topic is
 * created by its owner, so ingest waits for it rather than calling an absent topic empty.
 *
 * <p>Records that break the contract are skipped (the view logs their position, never their value): the previous
 * definition of that monitor, if any, stays in force, as in the topology, which dead-letters them.
 */
public final class MonitorsFollower implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MonitorsFollower.class);

    private final CompactedTopicView<MonitorDefinition> view;

    public MonitorsFollower(IngestConfig.Kafka kafka, HeartbeatCatalog catalog) {
        String topic = kafka.topics().monitors();
        JsonSerde<MonitorDefinition> serde = VigilSerdes.monitorDefinition();
        this.view = CompactedTopicView.of(
                CompactedTopicView.consumerProperties(
                        kafka.bootstrapServers(), kafka.transactionalIdPrefix() + "-monitors", kafka.properties()),
                topic,
                r -> serde.deserialize(topic, r.value()),
                new CompactedTopicView.Listener<>() {
                    @Override
                    public void upserted(String key, MonitorDefinition value) {
                        catalog.apply(key, value);
                    }

                    @Override
                    public void removed(String key) {
                        catalog.apply(key, null);
                    }

                    @Override
                    public void caughtUp() {
                        catalog.markReady();
                        LOG.info(
                                "heartbeat monitors: {} read ({} pingable); heartbeat pings accepted",
                                topic,
                                catalog.size());
                    }
                },
                CompactedTopicView.Options.of("ingest-monitors", CompactedTopicView.MissingTopic.WAIT, false));
    }

    public MonitorsFollower start() {
        view.start();
        return this;
    }

    @Override
    public void close() {
        view.close();
    }
}
