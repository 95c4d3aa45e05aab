package dev.vigil.notifier.consume;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.IncidentNote;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** Timeline notes through the one writer: every note written once, each fingerprint's in order, none left at close. */
class KafkaEscalationsNotesTest {
    private static IncidentNote note(String fingerprint, int i) {
        return new IncidentNote(
                1,
                IncidentNote.UNACKNOWLEDGED,
                fingerprint,
                fingerprint + "@1",
                "e-" + i,
                AlertState.OPENED,
                (long) i,
                "ops",
                null,
                null);
    }

    private static KafkaEscalations escalations(MockProducer<byte[], byte[]> producer) {
        return new KafkaEscalations(producer, "dlq", "alerts", "escalations", "notes");
    }

    @Test
    void notesFromManyThreadsAreAllWrittenOnceAndInOrderPerFingerprint() throws Exception {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        KafkaEscalations notes = escalations(producer);
        int threads = 4;
        int each = 2_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String fp = "monitor/notes-" + t;
            Thread w = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < each; i++) {
                    notes.note(note(fp, i));
                }
            });
            w.start();
            writers.add(w);
        }
        start.countDown();
        for (Thread w : writers) {
            w.join(TimeUnit.SECONDS.toMillis(30));
        }
        notes.close();

        List<ProducerRecord<byte[], byte[]>> sent = producer.history();
        assertThat(sent).hasSize(threads * each);
        assertThat(sent).allSatisfy(r -> assertThat(r.topic()).isEqualTo("notes"));
        Map<String, List<Long>> byFingerprint = sent.stream()
                .map(r -> Json.read(r.value(), IncidentNote.class))
                .collect(Collectors.groupingBy(
                        IncidentNote::fingerprint, Collectors.mapping(IncidentNote::at, Collectors.toList())));
        assertThat(byFingerprint).hasSize(threads);
        byFingerprint.forEach((fp, ats) -> {
            assertThat(ats).hasSize(each);
            assertThat(ats).isSorted();
            assertThat(ats).doesNotHaveDuplicates();
        });
        assertThat(new String(sent.get(0).key(), StandardCharsets.UTF_8)).startsWith("monitor/notes-");
        assertThat(notes.droppedNotes()).isZero();
    }

    @Test
    void aBrokerThatTakesNothingCostsTheNotesBeyondTheBoundAndNeverBlocksTheCaller() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        MockProducer<byte[], byte[]> stuck =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer()) {
                    @Override
                    public synchronized Future<RecordMetadata> send(
                            ProducerRecord<byte[], byte[]> record, Callback callback) {
                        try {
                            // as a send waiting for metadata of a broker that is down
                            release.await(30, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return super.send(record, callback);
                    }
                };
        KafkaEscalations notes = escalations(stuck);
        int offered = KafkaEscalations.MAX_QUEUED_NOTES + 500;
        for (int i = 0; i < offered; i++) {
            notes.note(note("monitor/stuck", i));
        }
        // the caller got here while the writer's send is blocked: the note in that send and the queue make the
        // bound, and the rest were dropped
        assertThat(notes.droppedNotes()).isEqualTo(500L);
        release.countDown();
        notes.close();
        assertThat(stuck.history()).hasSize(KafkaEscalations.MAX_QUEUED_NOTES);
    }
}
