package dev.vigil.notifier.consume;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-memory copy of a compacted topic (key → latest value; a tombstone removes the key), read from the beginning
 * on every start by a consumer of its own that assigns every partition (no consumer group: each notifier instance
 * needs all of it). It is the notifier's view of {@code vigil.silences} and {@code vigil.acks}, the topics the
 * topology reads as global stores, so both apply the same records. Reads are {@code read_committed}: the query API
 * writes them in transactions.
 *
 * <p>{@link #awaitCaughtUp} tells when every record written before the start has been read: the notifier routes no
 * event before, so a restart cannot page through a silence it has not yet seen. A topic that does not exist counts as
 * read (it holds nothing) and is looked for again until it appears. An undecodable value is logged by position and
 * skipped, keeping the key's previous value: one bad record must not lift a silence.
 */
public final class CompactedMirror<V> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CompactedMirror.class);
    private static final Duration RETRY = Duration.ofSeconds(2);

    private final String topic;
    private final Function<byte[], V> decode;
    private final java.util.function.Consumer<Collection<V>> onChange;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, V> values = new ConcurrentHashMap<>();
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long undecodable;

    /**
     * @param onChange called on the mirror's thread with the live values after each poll that changed them (to
     *                 rebuild a snapshot)
     */
    public CompactedMirror(String bootstrapServers, String topic, Function<byte[], V> decode,
                           java.util.function.Consumer<Collection<V>> onChange) {
        this.topic = topic;
        this.decode = decode;
        this.onChange = onChange;
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "vigil-notifier-mirror-" + topic);
        this.consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.thread = new Thread(this::run, "vigil-notifier-mirror-" + topic);
        this.thread.setDaemon(true);
    }

    public CompactedMirror<V> start() {
        thread.start();
        return this;
    }

    /** True once every record written before the start has been read (see the class comment). */
    public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        return caughtUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public boolean isCaughtUp() {
        return caughtUp.getCount() == 0;
    }

    public V get(String key) {
        return key == null ? null : values.get(key);
    }

    /** A live view; copy it for a snapshot. */
    public Collection<V> values() {
        return values.values();
    }

    public int size() {
        return values.size();
    }

    /** Values skipped because they could not be decoded. */
    public long undecodable() {
        return undecodable;
    }

    private void run() {
        try {
            List<TopicPartition> partitions = assign();
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            checkCaughtUp(end);
            while (running) {
                if (partitions.isEmpty()) {
                    Thread.sleep(RETRY.toMillis());
                    partitions = assign();
                    end = consumer.endOffsets(partitions);
                    continue;
                }
                boolean changed = false;
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    changed |= apply(r);
                }
                if (changed) {
                    onChange.accept(values.values());
                }
                if (!isCaughtUp()) {
                    checkCaughtUp(end);
                }
            }
        } catch (WakeupException e) {
            if (running) {
                LOG.warn("mirror of {} woken unexpectedly", topic);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("mirror of {} stopped: {}", topic, e.toString());
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** Every partition of the topic from its beginning; none when the topic does not exist (yet). */
    private List<TopicPartition> assign() {
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(topic, Duration.ofSeconds(10));
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            // the broker is not reachable yet: not caught up, try again
            LOG.warn("mirror of {}: no metadata yet ({}); retrying", topic, e.getMessage());
            return List.of();
        }
        List<TopicPartition> partitions = new ArrayList<>();
        if (infos != null) {
            infos.forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
        }
        if (partitions.isEmpty()) {
            // nothing to read yet: nothing can have been missed
            caughtUp.countDown();
            return List.of();
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return partitions;
    }

    private void checkCaughtUp(Map<TopicPartition, Long> end) {
        for (var e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return;
            }
        }
        if (isCaughtUp()) {
            return;
        }
        LOG.info("mirror of {} caught up: {} entries", topic, values.size());
        caughtUp.countDown();
    }

    private boolean apply(ConsumerRecord<byte[], byte[]> r) {
        if (r.key() == null) {
            return false;
        }
        String key = new String(r.key(), StandardCharsets.UTF_8);
        if (r.value() == null) {
            return values.remove(key) != null;
        }
        V v;
        try {
            v = decode.apply(r.value());
        } catch (RuntimeException e) {
            undecodable++;
            LOG.warn("mirror of {}: record {}-{}@{} could not be read and is skipped ({})", topic, r.topic(),
                    r.partition(), r.offset(), e.getClass().getSimpleName());
            return false;
        }
        if (v == null) {
            return false;
        }
        values.put(key, v);
        return true;
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
