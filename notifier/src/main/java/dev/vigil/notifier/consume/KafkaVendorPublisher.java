package dev.vigil.notifier.consume;

import dev.vigil.notifier.core.VendorAcknowledgements;
import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AuditRecord;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Writes an acknowledgement made in a vendor's tool: the ack to {@code vigil.acks} (keyed by fingerprint), the
 * {@code acknowledged} notice to {@code vigil.alerts} and the audit record to {@code vigil.audit}, through the
 * notifier's idempotent acks=all producer; completes when the broker has all three. Not one transaction: a failure
 * part-way is retried whole, and every record is keyed and identified so that writing it again changes nothing.
 */
public final class KafkaVendorPublisher implements VendorAcknowledgements.Publisher {
    private final KafkaProducer<byte[], byte[]> producer;
    private final String acksTopic;
    private final String alertsTopic;
    private final String auditTopic;

    public KafkaVendorPublisher(
            KafkaProducer<byte[], byte[]> producer, String acksTopic, String alertsTopic, String auditTopic) {
        this.producer = producer;
        this.acksTopic = acksTopic;
        this.alertsTopic = alertsTopic;
        this.auditTopic = auditTopic;
    }

    @Override
    public Mono<Void> publish(Ack ack, AlertEvent notice, AuditRecord audit) {
        // the ack first: by the time the notice is dispatched, the incident's reminders are already held
        return send(acksTopic, ack.fingerprint(), Json.bytes(ack))
                .then(send(alertsTopic, notice.fingerprint(), Json.bytes(notice)))
                .then(send(auditTopic, audit.target(), Json.bytes(audit)));
    }

    private Mono<Void> send(String topic, String key, byte[] value) {
        ProducerRecord<byte[], byte[]> record =
                new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value);
        return Mono.<Void>create(sink -> producer.send(record, (meta, e) -> {
                    if (e != null) {
                        sink.error(e);
                    } else {
                        sink.success();
                    }
                }))
                .subscribeOn(Schedulers.boundedElastic());
    }
}
