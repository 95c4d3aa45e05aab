package dev.vigil.standalone.monitors;

import dev.vigil.schemas.json.JsonSerde;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a compacted topic whole, as the CLI needs it: from the beginning to its current end, committed records only. */
public final class CompactedTopic {
    private CompactedTopic() {}

    /**
     * The topic's latest value per key (later records win, tombstones delete), read until caught up with the end
     * offsets taken at the start, within {@code timeout}. Records that break the contract are reported to
     * {@code onPoison} and skipped. A topic that does not exist reads as empty.
     *
     * @throws IllegalStateException the end was not reached in time
     */
    public static <T> Map<String, T> read(
            String bootstrapServers,
            String topic,
            Duration timeout,
            JsonSerde<T> serde,
            String clientId,
            Consumer<String> onPoison) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        Map<String, T> values = new TreeMap<>();
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            if (partitions.isEmpty()) {
                return values;
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!caughtUp(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("timed out reading " + topic + " from " + bootstrapServers
                            + " after " + timeout.toSeconds() + " s; is the broker reachable?");
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.value() == null) {
                        values.remove(r.key());
                        continue;
                    }
                    try {
                        values.put(r.key(), serde.deserialize(topic, r.value()));
                    } catch (JsonSerde.PoisonRecordException e) {
                        onPoison.accept("skipping " + topic + "/" + r.partition() + "@" + r.offset() + " (key "
                                + r.key() + "): " + e.getMessage());
                    }
                }
            }
        }
        return values;
    }

    private static boolean caughtUp(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (var e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
