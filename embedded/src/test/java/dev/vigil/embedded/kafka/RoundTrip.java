package dev.vigil.embedded.kafka;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Produce-then-consume helpers shared by the broker tests (embedded and Testcontainers). */
final class RoundTrip {
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private RoundTrip() {}

    /** Sends {@code count} records {@code <prefix>-i}, waits for every acknowledgement and returns the values. */
    static List<String> produce(Map<String, Object> producerProps, String topic, String prefix, int count)
            throws Exception {
        List<String> values =
                IntStream.range(0, count).mapToObj(i -> prefix + "-" + i).toList();
        try (var producer = new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
            var acks = values.stream()
                    .map(v -> producer.send(new ProducerRecord<>(topic, v, v)))
                    .toList();
            for (var ack : acks) {
                ack.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
        }
        return values;
    }

    /** Polls until {@code expected} records arrived (failing after {@link #TIMEOUT}), then commits and returns them. */
    static List<ConsumerRecord<String, String>> consume(Map<String, Object> consumerProps, String topic, int expected) {
        List<ConsumerRecord<String, String>> received = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            await().atMost(TIMEOUT)
                    .pollInSameThread()
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(1))
                    .until(() -> {
                        consumer.poll(Duration.ofMillis(200)).forEach(received::add);
                        return received.size() >= expected;
                    });
            // One more short poll: anything beyond `expected` is a duplicate the caller should see.
            consumer.poll(Duration.ofMillis(200)).forEach(received::add);
            consumer.commitSync();
        }
        return received;
    }

    static List<String> values(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).toList();
    }
}
