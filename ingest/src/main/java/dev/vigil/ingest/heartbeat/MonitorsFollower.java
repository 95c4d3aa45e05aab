package dev.vigil.ingest.heartbeat;

import dev.vigil.ingest.config.IngestConfig;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link HeartbeatCatalog} in step with the compacted monitors topic, on its own thread: one consumer, no
 * group, every partition assigned and read from the beginning, {@code read_committed}. The catalog is ready once every
 * partition was read up to the end it had when reading began; until then heartbeat pings are answered 503 (ingest
 * cannot yet tell a valid token from a wrong one). After that it follows the topic for as long as ingest runs; a
 * broker outage only pauses it (the copy stays as it was and the consumer reconnects by itself).
 *
 * <p>Records that break the contract are skipped and logged with their position (never their value): the previous
 * definition of that monitor, if any, stays in force, as in the topology, which dead-letters them.
 */
public final class MonitorsFollower implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MonitorsFollower.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
    private static final long BACKOFF_MS = 1_000;

    private final String topic;
    private final HeartbeatCatalog catalog;
    private final KafkaConsumer<String, byte[]> consumer;
    private final JsonSerde<dev.vigil.schemas.contract.MonitorDefinition> serde = VigilSerdes.monitorDefinition();
    private final Thread thread;
    private volatile boolean running = true;
    private Map<TopicPartition, Long> catchUpTo;
    private boolean toldMissing;

    public MonitorsFollower(IngestConfig.Kafka kafka, HeartbeatCatalog catalog) {
        this.topic = kafka.topics().monitors();
        this.catalog = catalog;
        this.consumer = new KafkaConsumer<>(consumerProps(kafka), new StringDeserializer(), new ByteArrayDeserializer());
        this.thread = new Thread(this::run, "ingest-monitors");
        this.thread.setDaemon(true);
    }

    /**
     * Consumer settings: the connection settings of {@code kafka.properties} (security, client DNS lookup …) apply
     * here too, the producer-only ones are left out.
     */
    static Map<String, Object> consumerProps(IngestConfig.Kafka kafka) {
        Map<String, Object> p = new HashMap<>();
        kafka.properties().forEach((k, v) -> {
            if (ConsumerConfig.configNames().contains(k)) {
                p.put(k, v);
            }
        });
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, kafka.transactionalIdPrefix() + "-monitors");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // the catalogue is a compacted topic someone else creates: never let a metadata request create it as a plain one
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) CALL_TIMEOUT.toMillis());
        p.put(ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        return p;
    }

    public MonitorsFollower start() {
        thread.start();
        return this;
    }

    private void run() {
        try {
            while (running) {
                try {
                    if (catchUpTo == null) {
                        assign();
                        continue;
                    }
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(POLL)) {
                        apply(r);
                    }
                    if (!catalog.ready() && caughtUp()) {
                        catalog.markReady();
                        LOG.info("heartbeat monitors: {} read from {} ({} pingable); heartbeat pings accepted",
                                topic, catchUpTo.size() + " partition(s)", catalog.size());
                    }
                } catch (WakeupException e) {
                    // close() asked us to stop
                } catch (KafkaException e) {
                    LOG.warn("heartbeat monitors: reading {} failed ({}); retrying", topic, e.getClass().getSimpleName());
                    pause();
                }
            }
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** Assigns every partition of the topic from the beginning and notes the ends to catch up with. */
    private void assign() {
        List<TopicPartition> partitions = consumer.partitionsFor(topic, CALL_TIMEOUT).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        if (partitions.isEmpty()) {
            if (!toldMissing) {
                LOG.info("heartbeat monitors: topic {} does not exist yet; heartbeat pings wait for it", topic);
                toldMissing = true;
            }
            pause();
            return;
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        catchUpTo = consumer.endOffsets(partitions, CALL_TIMEOUT);
    }

    private boolean caughtUp() {
        for (var e : catchUpTo.entrySet()) {
            if (consumer.position(e.getKey(), CALL_TIMEOUT) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private void apply(ConsumerRecord<String, byte[]> r) {
        if (r.value() == null) {
            catalog.apply(r.key(), null);
            return;
        }
        try {
            catalog.apply(r.key(), serde.deserialize(topic, r.value()));
        } catch (JsonSerde.PoisonRecordException e) {
            // the record may be anything someone could write to the topic: say which one, not what it said
            LOG.warn("heartbeat monitors: skipping {}-{}@{}: not a valid monitor definition ({})", topic, r.partition(),
                    r.offset(), dev.vigil.ingest.route.SafeFailure.describe(e));
        } catch (RuntimeException e) {
            LOG.warn("heartbeat monitors: skipping {}-{}@{}: not a monitor definition ({})", topic, r.partition(),
                    r.offset(), e.getClass().getSimpleName());
        }
    }

    private void pause() {
        try {
            Thread.sleep(BACKOFF_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
