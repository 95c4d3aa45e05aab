package dev.vigil.kit.kafka;

import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.json.JsonSerde;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way a Vigil service follows a compacted topic it needs whole (the monitors, silences, acknowledgements): one
 * consumer of its own, no group, every partition assigned and read from the beginning, {@code read_committed} (the
 * topics are written in transactions), on a thread of its own, for as long as the service runs.
 *
 * <ul>
 *   <li><b>Caught up</b> once every partition was read up to the end it had when reading began ({@link #isCaughtUp},
 *       {@link #awaitCaughtUp}): services hold back what depends on the topic until then, so a restart never acts on
 *       half of it. A topic that does not exist yet is looked for again until it appears; it counts as caught up at
 *       once only where the caller says an absent topic holds nothing ({@link MissingTopic#HOLDS_NOTHING}).</li>
 *   <li><b>The map</b>: key to latest value, a tombstone removes the key ({@link #get}, {@link #values}); a caller
 *       that keeps its own copy (a scheduler, a catalogue) turns it off and listens instead ({@link Listener}).</li>
 *   <li><b>Bad records</b>: a value that cannot be decoded is skipped and logged by position (never its bytes), and the
 *       key keeps its previous value: one bad record must not lift a silence or drop a monitor.</li>
 *   <li><b>Faults</b>: a broker slow to answer, being replaced or unreachable only pauses it; it retries with a short
 *       pause and carries on from where it was. Partitions added to the topic later are read from their beginning.</li>
 * </ul>
 *
 * @param <V> the decoded value
 */
public final class CompactedTopicView<V> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CompactedTopicView.class);

    /** What an absent topic means to the caller. */
    public enum MissingTopic {
        /** Nothing was written yet: the view counts as caught up and picks the topic up when it appears. */
        HOLDS_NOTHING,
        /** Someone else creates it: not caught up until it exists and was read. */
        WAIT
    }

    /** Called on the view's thread, in record order. */
    public interface Listener<V> {
        /** {@code key} now has {@code value} (new or changed). */
        default void upserted(String key, V value) {}

        /** A tombstone for {@code key}. */
        default void removed(String key) {}

        /** A value that could not be decoded was skipped (the key keeps its previous value). */
        default void skipped(ConsumerRecord<String, byte[]> record, RuntimeException cause) {}

        /**
         * After a poll that changed the values, with a live view of them (to rebuild a snapshot; empty when the view
         * keeps no values).
         */
        default void changed(Collection<V> values) {}

        /** Once, when the view first caught up. */
        default void caughtUp() {}
    }

    /**
     * @param name            the view's name in logs and its thread's name
     * @param missingTopic    what an absent topic means
     * @param keepValues      whether the view keeps its own map (off when the listener keeps the copy)
     * @param poll            the longest a poll waits
     * @param pause           the wait before retrying after a broker error or while the topic does not exist
     * @param metadataRefresh how often the view looks for partitions added to the topic
     */
    public record Options(
            String name,
            MissingTopic missingTopic,
            boolean keepValues,
            Duration poll,
            Duration pause,
            Duration metadataRefresh) {
        public static Options of(String name, MissingTopic missingTopic, boolean keepValues) {
            return new Options(
                    name,
                    missingTopic,
                    keepValues,
                    Duration.ofMillis(500),
                    Duration.ofSeconds(1),
                    Duration.ofMinutes(1));
        }
    }

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

    private final Consumer<String, byte[]> consumer;
    private final String topic;
    private final Function<ConsumerRecord<String, byte[]>, V> decode;
    private final Listener<V> listener;
    private final Options options;
    private final Map<String, V> values = new ConcurrentHashMap<>();
    private final CountDownLatch caughtUp = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long skipped;
    private Set<TopicPartition> assigned = Set.of();
    private Map<TopicPartition, Long> catchUpTo;
    private long lookedForPartitionsAt;
    private boolean toldMissing;

    /**
     * The consumer settings of a view: the connection settings a service was given ({@code connection}: security,
     * client DNS lookup …; producer-only keys are left out) with the view's own on top.
     */
    public static Map<String, Object> consumerProperties(
            String bootstrapServers, String clientId, Map<String, ?> connection) {
        Map<String, Object> p = new HashMap<>();
        connection.forEach((k, v) -> {
            if (ConsumerConfig.configNames().contains(k)) {
                p.put(k, v);
            }
        });
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // the topics are compacted and created by their owner: a metadata request must never create one as a plain one
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) CALL_TIMEOUT.toMillis());
        p.put(ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        return p;
    }

    /** A view over a consumer of its own made from {@link #consumerProperties}. */
    public static <V> CompactedTopicView<V> of(
            Map<String, Object> consumerProperties,
            String topic,
            Function<ConsumerRecord<String, byte[]>, V> decode,
            Listener<V> listener,
            Options options) {
        return new CompactedTopicView<>(
                new KafkaConsumer<>(consumerProperties, new StringDeserializer(), new ByteArrayDeserializer()),
                topic,
                decode,
                listener,
                options);
    }

    /**
     * Over any consumer (a test's {@code MockConsumer}); the view owns it and closes it.
     *
     * @param decode the value of a record that is not a tombstone; null to ignore the record, an exception to skip it
     */
    public CompactedTopicView(
            Consumer<String, byte[]> consumer,
            String topic,
            Function<ConsumerRecord<String, byte[]>, V> decode,
            Listener<V> listener,
            Options options) {
        this.consumer = consumer;
        this.topic = topic;
        this.decode = decode;
        this.listener = listener;
        this.options = options;
        this.thread = new Thread(this::run, options.name());
        this.thread.setDaemon(true);
    }

    public CompactedTopicView<V> start() {
        thread.start();
        return this;
    }

    public boolean isCaughtUp() {
        return caughtUp.getCount() == 0;
    }

    /** True once caught up (see the class comment), false when {@code timeout} passed first. */
    public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
        return caughtUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The latest value of {@code key}; null when none (or when the view keeps no values). */
    public V get(String key) {
        return key == null ? null : values.get(key);
    }

    /** A live view of the values; copy it for a snapshot. Empty when the view keeps no values. */
    public Collection<V> values() {
        return Collections.unmodifiableCollection(values.values());
    }

    public int size() {
        return values.size();
    }

    /** Values skipped because they could not be decoded. */
    public long skipped() {
        return skipped;
    }

    public String topic() {
        return topic;
    }

    private void run() {
        try {
            while (running) {
                try {
                    step();
                } catch (WakeupException e) {
                    // close() asked us to stop
                } catch (KafkaException e) {
                    LOG.warn(
                            "{}: reading {} failed ({}: {}); retrying",
                            options.name(),
                            topic,
                            e.getClass().getSimpleName(),
                            e.getMessage());
                    pause();
                }
            }
        } catch (RuntimeException e) {
            LOG.error("{}: following {} stopped", options.name(), topic, e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void step() {
        if (assigned.isEmpty() && !assign()) {
            pause();
            return;
        }
        if (catchUpTo == null && !isCaughtUp()) {
            // apart from the assignment, so a broker slow to give the ends makes only this call again
            catchUpTo = new HashMap<>(consumer.endOffsets(assigned));
        }
        boolean changed = false;
        for (ConsumerRecord<String, byte[]> r : consumer.poll(options.poll())) {
            changed |= apply(r);
        }
        if (changed) {
            listener.changed(values());
        }
        if (!isCaughtUp()) {
            catchUpTo.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
            if (catchUpTo.isEmpty()) {
                markCaughtUp();
            }
        } else if (System.currentTimeMillis() - lookedForPartitionsAt
                >= options.metadataRefresh().toMillis()) {
            addNewPartitions();
        }
    }

    /** Assigns every partition from the beginning; false while the topic has none (does not exist). */
    private boolean assign() {
        List<TopicPartition> partitions = partitions();
        if (partitions.isEmpty()) {
            if (!toldMissing) {
                LOG.info("{}: topic {} does not exist yet; looking again until it does", options.name(), topic);
                toldMissing = true;
            }
            if (options.missingTopic() == MissingTopic.HOLDS_NOTHING && !isCaughtUp()) {
                markCaughtUp(); // nothing written yet: nothing can have been missed
            }
            return false;
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        assigned = new HashSet<>(partitions);
        return true;
    }

    private void addNewPartitions() {
        lookedForPartitionsAt = System.currentTimeMillis();
        List<TopicPartition> now = partitions();
        List<TopicPartition> added = new ArrayList<>();
        for (TopicPartition tp : now) {
            if (!assigned.contains(tp)) {
                added.add(tp);
            }
        }
        if (added.isEmpty()) {
            return;
        }
        Set<TopicPartition> all = new HashSet<>(assigned);
        all.addAll(added);
        consumer.assign(all);
        consumer.seekToBeginning(added);
        assigned = all;
        LOG.info("{}: {} gained {} partition(s), read from their beginning", options.name(), topic, added.size());
    }

    private List<TopicPartition> partitions() {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, CALL_TIMEOUT);
        List<TopicPartition> partitions = new ArrayList<>();
        if (infos != null) {
            infos.forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
        }
        return partitions;
    }

    private void markCaughtUp() {
        lookedForPartitionsAt = System.currentTimeMillis();
        caughtUp.countDown();
        LOG.info(
                "{}: {} read up to where it ended at the start ({} partition(s))",
                options.name(),
                topic,
                assigned.size());
        listener.caughtUp();
    }

    private boolean apply(ConsumerRecord<String, byte[]> r) {
        String key = r.key();
        if (key == null) {
            return false;
        }
        if (r.value() == null) {
            boolean had = values.remove(key) != null;
            listener.removed(key);
            return had || !options.keepValues();
        }
        V v;
        try {
            v = decode.apply(r);
        } catch (RuntimeException e) {
            skipped++;
            LOG.warn("{}: skipping {}-{}@{}: {}", options.name(), r.topic(), r.partition(), r.offset(), describe(e));
            listener.skipped(r, e);
            return false;
        }
        if (v == null) {
            return false;
        }
        if (options.keepValues()) {
            values.put(key, v);
        }
        listener.upserted(key, v);
        return true;
    }

    /** What a log may say of a bad record: the contract's own messages name the field, never the value. */
    private static String describe(RuntimeException e) {
        if (e instanceof ContractViolation || e instanceof JsonSerde.PoisonRecordException) {
            return e.getMessage();
        }
        return "not readable (" + e.getClass().getSimpleName() + ")";
    }

    private void pause() {
        try {
            Thread.sleep(options.pause().toMillis());
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
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
