package dev.vigil.ingest.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lane's decisions, driven through Kafka's own MockProducer (the real-broker behaviour is covered by
 * the ITs; here the rare paths are forced: commit outcome unknown, deadline racing the commit, fatal errors).
 */
class TransactionalLaneTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<TestProducer> created = new ArrayList<>();
    private TransactionalLane lane;

    /** MockProducer with scripted commit timeouts and an optional gate in flush. */
    static final class TestProducer extends MockProducer<String, byte[]> {
        final AtomicInteger commitTimeouts = new AtomicInteger();
        volatile CountDownLatch flushGate;
        volatile CountDownLatch inFlush = new CountDownLatch(1);

        TestProducer() {
            super(true, null, new StringSerializer(), new ByteArraySerializer());
        }

        @Override
        public synchronized void flush() {
            inFlush.countDown();
            CountDownLatch gate = flushGate;
            if (gate != null) {
                try {
                    gate.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            super.flush();
        }

        @Override
        public void commitTransaction() {
            if (commitTimeouts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new TimeoutException("commit not acknowledged in time");
            }
            super.commitTransaction();
        }
    }

    private TestProducer start(long commitResolveMs, java.util.function.Consumer<TestProducer> setup) {
        lane = new TransactionalLane(
                "test-lane",
                () -> {
                    TestProducer p = new TestProducer();
                    synchronized (created) {
                        if (created.isEmpty()) {
                            setup.accept(p);
                        }
                        created.add(p);
                    }
                    return p;
                },
                16,
                1000,
                commitResolveMs,
                registry.timer("c"),
                registry.timer("a"),
                p -> () -> {});
        lane.start();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(lane::ready);
        return created.get(0);
    }

    private static PendingRequest request(int records) {
        List<ProducerRecord<String, byte[]>> rs = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            rs.add(new ProducerRecord<>("t", "k" + i, new byte[] {(byte) i}));
        }
        return new PendingRequest(rs);
    }

    private static PublishResult result(PendingRequest r) throws Exception {
        return r.result.get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        if (lane != null) {
            lane.close(2000);
        }
    }

    @Test
    void acknowledgesOnlyAfterTheCommit() throws Exception {
        TestProducer p = start(1000, x -> {});
        PendingRequest r = request(3);
        assertThat(lane.offer(r)).isTrue();
        assertThat(result(r)).isEqualTo(PublishResult.ACKNOWLEDGED);
        assertThat(p.transactionCommitted()).isTrue();
        assertThat(p.history()).hasSize(3);
    }

    @Test
    void aFailedSendAbortsAndAnswersUnavailable() throws Exception {
        TestProducer p = start(1000, x -> x.sendException = new KafkaException("broker said no"));
        PendingRequest r = request(2);
        lane.offer(r);
        assertThat(result(r)).isEqualTo(PublishResult.UNAVAILABLE);
        assertThat(p.transactionCommitted()).isFalse();
        assertThat(p.history()).isEmpty();
    }

    @Test
    void aCommitTimeoutIsRetriedUntilTheOutcomeIsKnown() throws Exception {
        TestProducer p = start(5000, x -> x.commitTimeouts.set(2));
        PendingRequest r = request(1);
        lane.offer(r);
        assertThat(result(r))
                .as("the commit may already be completing: only its retry decides")
                .isEqualTo(PublishResult.ACKNOWLEDGED);
        assertThat(p.commitCount()).isEqualTo(1);
    }

    @Test
    void aCommitStillUnknownAfterTheBoundAnswersUnavailableAndReplacesTheProducer() throws Exception {
        start(200, x -> x.commitTimeouts.set(Integer.MAX_VALUE));
        PendingRequest r = request(1);
        lane.offer(r);
        assertThat(result(r)).isEqualTo(PublishResult.UNAVAILABLE);
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(5))
                .until(() -> created.size() == 2 && lane.ready());
        assertThat(created.get(0).closed()).isTrue();
        PendingRequest next = request(1);
        lane.offer(next);
        assertThat(result(next)).isEqualTo(PublishResult.ACKNOWLEDGED);
    }

    @Test
    void aDeadlineThatWinsTheRaceAbortsTheWholeGroup() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        TestProducer p = start(1000, x -> x.flushGate = gate);
        PendingRequest first = request(2);
        lane.offer(first);
        assertThat(p.inFlush.await(5, TimeUnit.SECONDS)).isTrue();
        first.expire(); // the HTTP answer (503) is given before the lane could claim the request
        assertThat(result(first)).isEqualTo(PublishResult.UNAVAILABLE);
        gate.countDown();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(p::transactionAborted);
        assertThat(p.transactionCommitted())
                .as("an answered-503 request must never become visible")
                .isFalse();
        p.flushGate = null;
        PendingRequest later = request(1);
        lane.offer(later);
        assertThat(result(later)).isEqualTo(PublishResult.ACKNOWLEDGED);
    }

    @Test
    void anAbortableCommitFailureAnswersUnavailable() throws Exception {
        TestProducer p = start(1000, x -> x.commitTransactionException = new KafkaException("abortable"));
        PendingRequest r = request(1);
        lane.offer(r);
        assertThat(result(r)).isEqualTo(PublishResult.UNAVAILABLE);
        assertThat(p.transactionCommitted()).isFalse();
    }

    @Test
    void expiredRequestsAreSkippedAndNeverSent() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        TestProducer p = start(1000, x -> x.flushGate = gate);
        PendingRequest blocking = request(1);
        lane.offer(blocking);
        assertThat(p.inFlush.await(5, TimeUnit.SECONDS)).isTrue();
        PendingRequest queued = request(5);
        lane.offer(queued);
        queued.expire();
        gate.countDown();
        assertThat(result(blocking)).isEqualTo(PublishResult.ACKNOWLEDGED);
        assertThat(result(queued)).isEqualTo(PublishResult.UNAVAILABLE);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> lane.queued() == 0);
        assertThat(p.history()).hasSize(1);
    }
}
