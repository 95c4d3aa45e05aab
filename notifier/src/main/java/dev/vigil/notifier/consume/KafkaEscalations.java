package dev.vigil.notifier.consume;

import dev.vigil.notifier.core.Escalations;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import reactor.core.publisher.Mono;

/** Dead letters and delivery-failing alerts through an idempotent, acks=all producer; completes on the broker's ack. */
public final class KafkaEscalations implements Escalations {
    private final KafkaProducer<byte[], byte[]> producer;
    private final String deadLetterTopic;
    private final String alertsTopic;

    public KafkaEscalations(KafkaProducer<byte[], byte[]> producer, String deadLetterTopic, String alertsTopic) {
        this.producer = producer;
        this.deadLetterTopic = deadLetterTopic;
        this.alertsTopic = alertsTopic;
    }

    @Override
    public Mono<Void> deadLetter(String key, DeadLetter envelope) {
        return send(new ProducerRecord<>(deadLetterTopic, bytes(key), Json.bytes(envelope)));
    }

    @Override
    public Mono<Void> raise(AlertEvent alert) {
        return send(new ProducerRecord<>(alertsTopic, bytes(alert.fingerprint()), Json.bytes(alert)));
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private Mono<Void> send(ProducerRecord<byte[], byte[]> record) {
        return Mono.<Void>create(sink -> producer.send(record, (meta, e) -> {
                    if (e != null) {
                        sink.error(e);
                    } else {
                        sink.success();
                    }
                }))
                .subscribeOn(reactor.core.scheduler.Schedulers.boundedElastic())
                .then();
    }
}
