package dev.vigil.probe.schedule;

import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the compacted {@code vigil.monitors} topic from the beginning on its own thread (no consumer
 * group: every worker needs every monitor) and applies each record to the scheduler: a definition adds
 * or changes a monitor, a tombstone removes it. A record that breaks the contract goes to the dead-letter
 * callback and reading goes on. {@link #ready()} turns true once the topic has been read up to the end
 * offsets seen at start.
 */
public final class KafkaMonitorFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaMonitorFeed.class);
    public static final String SOURCE = "probe-worker";

    private final org.apache.kafka.clients.consumer.Consumer<String, byte[]> consumer;
    private final String topic;
    private final MonitorSink sink;
    private final Consumer<DeadLetter> deadLetters;
    private final Thread thread;
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private volatile boolean running = true;

    public KafkaMonitorFeed(String bootstrapServers, String clientId, String topic, MonitorSink sink,
                            Consumer<DeadLetter> deadLetters) {
        this(new KafkaConsumer<>(consumerProperties(bootstrapServers, clientId), new StringDeserializer(),
                new ByteArrayDeserializer()), topic, sink, deadLetters);
    }

    private static Properties consumerProperties(String bootstrapServers, String clientId) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        return p;
    }

    /** Over any consumer (a test's {@code MockConsumer}); the feed owns it and closes it. */
    KafkaMonitorFeed(org.apache.kafka.clients.consumer.Consumer<String, byte[]> consumer, String topic, MonitorSink sink,
                     Consumer<DeadLetter> deadLetters) {
        this.consumer = consumer;
        this.topic = topic;
        this.sink = sink;
        this.deadLetters = deadLetters;
        this.thread = new Thread(this::run, "vigil-monitor-feed");
        this.thread.setDaemon(true);
    }

    public KafkaMonitorFeed start() {
        thread.start();
        return this;
    }

    public org.apache.kafka.clients.consumer.Consumer<String, byte[]> consumer() {
        return consumer;
    }

    public boolean ready() {
        return caughtUp.getCount() == 0;
    }

    private void run() {
        try {
            List<TopicPartition> partitions = awaitPartitions();
            if (partitions == null) {
                return;
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = retrying("end offsets of " + topic, () -> consumer.endOffsets(partitions));
            if (end == null) {
                return;
            }
            end = new HashMap<>(end);
            while (running) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    apply(r);
                }
                if (caughtUp.getCount() > 0) {
                    end.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
                    if (end.isEmpty()) {
                        LOG.info("monitor definitions loaded from {}", topic);
                        caughtUp.countDown();
                    }
                }
            }
        } catch (WakeupException e) {
            if (running) {
                throw e;
            }
        } catch (RuntimeException e) {
            LOG.error("monitor feed stopped", e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /**
     * Calls {@code call} until it returns without a retriable Kafka error (a broker slow to answer or being replaced
     * must not stop the feed for good); null when the feed is closed meanwhile.
     */
    private <T> T retrying(String what, java.util.function.Supplier<T> call) {
        while (running) {
            try {
                return call.get();
            } catch (org.apache.kafka.common.errors.RetriableException e) {
                LOG.warn("monitor feed: {} not available yet ({}); retrying", what, e.getMessage());
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
        }
        return null;
    }

    /** Waits (bounded only by close) for the topic to exist. */
    private List<TopicPartition> awaitPartitions() {
        while (running) {
            var infos = retrying("metadata of " + topic, () -> consumer.partitionsFor(topic, Duration.ofSeconds(10)));
            if (infos != null && !infos.isEmpty()) {
                return infos.stream().map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            }
            LOG.warn("topic {} does not exist yet; waiting", topic);
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    private void apply(ConsumerRecord<String, byte[]> r) {
        String key = r.key();
        if (r.value() == null) {
            if (key != null) {
                sink.remove(key);
            }
            return;
        }
        try {
            MonitorDefinition def = Json.read(r.value(), MonitorDefinition.class);
            if (key != null && !key.equals(def.id())) {
                throw new ContractViolation("id", "must equal the record key");
            }
            sink.upsert(def);
        } catch (ContractViolation e) {
            LOG.warn("poison monitor definition at {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), e.getMessage());
            deadLetters.accept(DeadLetter.poison(SOURCE, "invalid MonitorDefinition: " + e.getMessage(), e, r.topic(),
                    r.partition(), r.offset(), key == null ? null : key.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    r.value(), System.currentTimeMillis()));
        }
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
