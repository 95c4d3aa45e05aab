package dev.vigil.bench;

import dev.vigil.embedded.kafka.EmbeddedKafka;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A background reader of a topic from its end (read_committed): the harnesses' view of a pipeline's output.
 * The constructor returns once the reader is positioned, so nothing produced afterwards is missed.
 */
public final class TopicTail<K, V> implements AutoCloseable {
    /** Called on the reader's thread with each non-empty poll and the {@code System.nanoTime()} it returned at. */
    @FunctionalInterface
    public interface Batch<K, V> {
        void accept(ConsumerRecords<K, V> records, long nanos);
    }

    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread;

    public TopicTail(
            EmbeddedKafka kafka,
            String topic,
            Deserializer<K> keys,
            Deserializer<V> values,
            Duration pollEvery,
            Batch<K, V> onBatch) {
        AtomicBoolean positioned = new AtomicBoolean();
        thread = new Thread(
                () -> {
                    try (var c = new KafkaConsumer<>(
                            kafka.consumerProps("bench-tail-" + topic + "-" + System.nanoTime()), keys, values)) {
                        var parts = c.partitionsFor(topic).stream()
                                .map(p -> new TopicPartition(topic, p.partition()))
                                .toList();
                        c.assign(parts);
                        c.seekToEnd(parts);
                        parts.forEach(c::position);
                        positioned.set(true);
                        while (!stop.get()) {
                            ConsumerRecords<K, V> polled = c.poll(pollEvery);
                            if (!polled.isEmpty()) {
                                onBatch.accept(polled, System.nanoTime());
                            }
                        }
                    }
                },
                "bench-tail-" + topic);
        thread.setDaemon(true);
        thread.start();
        while (!positioned.get() && thread.isAlive()) {
            LockSupport.parkNanos(1_000_000);
        }
    }

    @Override
    public void close() {
        BenchSupport.stopAndJoin(stop, thread);
    }
}
