package dev.vigil.ingest.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Sum of the end offsets of some topics: unchanged across a request means it produced nothing at all. */
final class TopicOffsets implements AutoCloseable {
    private final KafkaConsumer<String, byte[]> consumer;
    private final List<TopicPartition> partitions = new ArrayList<>();

    TopicOffsets(Map<String, Object> consumerProps, String... topics) {
        Map<String, Object> props = new java.util.HashMap<>(consumerProps);
        // read_uncommitted: even an aborted transaction moves the log end, so this sees any attempt to produce.
        props.put("isolation.level", "read_uncommitted");
        props.put("group.id", "offsets-" + UUID.randomUUID());
        consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        for (String t : topics) {
            consumer.partitionsFor(t, Duration.ofSeconds(10))
                    .forEach(p -> partitions.add(new TopicPartition(t, p.partition())));
        }
    }

    long total() {
        return consumer.endOffsets(partitions, Duration.ofSeconds(10)).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    @Override
    public void close() {
        consumer.close();
    }
}
