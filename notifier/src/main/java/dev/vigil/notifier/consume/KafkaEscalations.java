package dev.vigil.notifier.consume;

import dev.vigil.notifier.core.Escalations;
import dev.vigil.notifier.core.IncidentNotes;
import dev.vigil.notifier.core.TierBoard;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.EscalationStatus;
import dev.vigil.schemas.contract.IncidentNote;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import reactor.core.publisher.Mono;

/**
 * Dead letters, delivery-failing alerts and escalation climbs through an idempotent, acks=all producer; completes on
 * the broker's ack.
 */
public final class KafkaEscalations implements Escalations, TierBoard, IncidentNotes {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(KafkaEscalations.class);
    private final KafkaProducer<byte[], byte[]> producer;
    private final String deadLetterTopic;
    private final String alertsTopic;
    private final String escalationsTopic;
    private final String notesTopic;

    public KafkaEscalations(KafkaProducer<byte[], byte[]> producer, String deadLetterTopic, String alertsTopic) {
        this(producer, deadLetterTopic, alertsTopic, Topics.ESCALATIONS);
    }

    public KafkaEscalations(
            KafkaProducer<byte[], byte[]> producer,
            String deadLetterTopic,
            String alertsTopic,
            String escalationsTopic) {
        this(producer, deadLetterTopic, alertsTopic, escalationsTopic, Topics.INCIDENT_NOTES);
    }

    /** @param notesTopic where each event's outcome per channel is noted, keyed by fingerprint */
    public KafkaEscalations(
            KafkaProducer<byte[], byte[]> producer,
            String deadLetterTopic,
            String alertsTopic,
            String escalationsTopic,
            String notesTopic) {
        this.notesTopic = notesTopic;
        this.producer = producer;
        this.deadLetterTopic = deadLetterTopic;
        this.alertsTopic = alertsTopic;
        this.escalationsTopic = escalationsTopic;
    }

    /** Keyed by fingerprint on a compacted topic: the newest climb of each fingerprint is what the console shows. */
    @Override
    public Mono<Void> show(EscalationStatus status) {
        return send(new ProducerRecord<>(escalationsTopic, bytes(status.fingerprint()), Json.bytes(status)));
    }

    @Override
    public Mono<Void> deadLetter(String key, DeadLetter envelope) {
        return send(new ProducerRecord<>(deadLetterTopic, bytes(key), Json.bytes(envelope)));
    }

    @Override
    public Mono<Void> raise(AlertEvent alert) {
        return send(new ProducerRecord<>(alertsTopic, bytes(alert.fingerprint()), Json.bytes(alert)));
    }

    /**
     * Sent off the caller's thread (a send may wait for metadata) and not waited for: a note is read later by people,
     * and a lost one loses no page.
     */
    @Override
    public void note(IncidentNote note) {
        ProducerRecord<byte[], byte[]> record =
                new ProducerRecord<>(notesTopic, bytes(note.fingerprint()), Json.bytes(note));
        reactor.core.scheduler.Schedulers.boundedElastic().schedule(() -> {
            try {
                producer.send(record, (meta, e) -> {
                    if (e != null) {
                        LOG.warn("a timeline note of {} was not written: {}", note.eventId(), e.toString());
                    }
                });
            } catch (RuntimeException e) {
                LOG.warn("a timeline note of {} was not written: {}", note.eventId(), e.toString());
            }
        });
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
