package dev.vigil.streams.deadletter;

import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Where the exception handlers send what they give up on: the topic from {@link DeadLetterHandler#TOPIC_CONFIG}
 * (default {@link Topics#DEAD_LETTER}) and a counter in the registry from {@link DeadLetterHandler#REGISTRY_CONFIG},
 * both read from the handlers' Kafka Streams configuration.
 */
final class DeadLetterSink {
    private final String topic;
    private final Counter counter;

    private DeadLetterSink(String topic, Counter counter) {
        this.topic = topic;
        this.counter = counter;
    }

    /** Before {@code configure}: the default topic, counted nowhere. */
    static DeadLetterSink unconfigured() {
        return new DeadLetterSink(Topics.DEAD_LETTER, null);
    }

    /** @param counter the handler's own meter, registered when the configuration carries a registry */
    static DeadLetterSink of(Map<String, ?> configs, Counter.Builder counter) {
        Object t = configs.get(DeadLetterHandler.TOPIC_CONFIG);
        String topic = t instanceof String s && !s.isBlank() ? s : Topics.DEAD_LETTER;
        return new DeadLetterSink(
                topic,
                configs.get(DeadLetterHandler.REGISTRY_CONFIG) instanceof MeterRegistry registry
                        ? counter.register(registry)
                        : null);
    }

    /** Counts the letter and returns the one record to produce for it, keyed by the source record's raw key. */
    List<ProducerRecord<byte[], byte[]>> send(byte[] key, DeadLetter letter) {
        if (counter != null) {
            counter.increment();
        }
        return List.of(new ProducerRecord<>(topic, null, key, Json.bytes(letter)));
    }
}
