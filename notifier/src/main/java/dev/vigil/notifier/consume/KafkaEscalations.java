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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Dead letters, delivery-failing alerts and escalation climbs through an idempotent, acks=all producer; completes on
 * the broker's ack. Timeline notes go through a queue of their own that one writer at a time drains (see
 * {@link #note}); closing writes what is queued before the producer closes.
 */
public final class KafkaEscalations implements Escalations, TierBoard, IncidentNotes, AutoCloseable {
    /** Notes queued beyond this are dropped (and counted in a warning): a note is for people, not a page. */
    static final int MAX_QUEUED_NOTES = 10_000;

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(KafkaEscalations.class);
    private final Producer<byte[], byte[]> producer;
    private final String deadLetterTopic;
    private final String alertsTopic;
    private final String escalationsTopic;
    private final String notesTopic;
    private final ConcurrentLinkedQueue<IncidentNote> notes = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queuedNotes = new AtomicInteger();
    /** Work in progress: non-zero while a writer drains the notes; it drains again for every note that came meanwhile. */
    private final AtomicInteger writing = new AtomicInteger();

    private final AtomicLong droppedNotes = new AtomicLong();
    private final Scheduler writer = Schedulers.boundedElastic();

    public KafkaEscalations(Producer<byte[], byte[]> producer, String deadLetterTopic, String alertsTopic) {
        this(producer, deadLetterTopic, alertsTopic, Topics.ESCALATIONS);
    }

    public KafkaEscalations(
            Producer<byte[], byte[]> producer, String deadLetterTopic, String alertsTopic, String escalationsTopic) {
        this(producer, deadLetterTopic, alertsTopic, escalationsTopic, Topics.INCIDENT_NOTES);
    }

    /** @param notesTopic where each event's outcome per channel is noted, keyed by fingerprint */
    public KafkaEscalations(
            Producer<byte[], byte[]> producer,
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
     * Queued and not waited for: a note is read later by people, and a lost one loses no page. The queue is written
     * off the caller's thread (a send may wait for metadata) by one writer at a time, so a burst of events costs one
     * hand-over per batch of notes, not one task per note, and the notes of one fingerprint keep their order.
     */
    @Override
    public void note(IncidentNote note) {
        if (queuedNotes.incrementAndGet() > MAX_QUEUED_NOTES) {
            queuedNotes.decrementAndGet();
            long dropped = droppedNotes.incrementAndGet();
            if (dropped == 1 || dropped % 1000 == 0) {
                LOG.warn("{} timeline notes dropped so far: the broker is not taking them", dropped);
            }
            return;
        }
        notes.offer(note);
        if (writing.getAndIncrement() == 0) {
            writer.schedule(this::writeNotes);
        }
    }

    /** Timeline notes dropped because too many were waiting. */
    public long droppedNotes() {
        return droppedNotes.get();
    }

    private void writeNotes() {
        int missed = 1;
        do {
            IncidentNote n;
            while ((n = notes.poll()) != null) {
                write(n);
                // counted until handed to the producer, so a close waits for it
                queuedNotes.decrementAndGet();
            }
            missed = writing.addAndGet(-missed);
        } while (missed != 0);
    }

    private void write(IncidentNote note) {
        try {
            producer.send(new ProducerRecord<>(notesTopic, bytes(note.fingerprint()), Json.bytes(note)), (meta, e) -> {
                if (e != null) {
                    LOG.warn("a timeline note of {} was not written: {}", note.eventId(), e.toString());
                }
            });
        } catch (RuntimeException e) {
            LOG.warn("a timeline note of {} was not written: {}", note.eventId(), e.toString());
        }
    }

    /** Writes the notes still queued (waiting a bounded time for a writer already at work); the producer stays open. */
    @Override
    public void close() {
        if (writing.compareAndSet(0, 1)) {
            writeNotes();
            return;
        }
        // a writer is at work: it drains every note queued before it stops
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (queuedNotes.get() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
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
                .subscribeOn(Schedulers.boundedElastic())
                .then();
    }
}
