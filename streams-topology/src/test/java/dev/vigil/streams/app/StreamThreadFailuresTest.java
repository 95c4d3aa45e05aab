package dev.vigil.streams.app;

import static org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
import static org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.ops.SelfHeals;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

class StreamThreadFailuresTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SelfHeals heals = new SelfHeals(registry);

    private double replaced() {
        return heals.count(SelfHeals.STREAMS_THREAD_REPLACED);
    }

    @Test
    void aDeterministicFailureShutsTheClientDownInsteadOfReplayingForEver() {
        var failures = StreamThreadFailures.standard(registry);
        assertThat(failures.handle(new StreamsException(new IllegalStateException("bug in a processor"))))
                .isEqualTo(SHUTDOWN_CLIENT);
        assertThat(failures.handle(new OutOfMemoryError("heap"))).isEqualTo(SHUTDOWN_CLIENT);
        assertThat(replaced()).as("a shutdown is no self-heal").isZero();
    }

    @Test
    void aTransientFailureGetsANewThreadUntilItKeepsComing() {
        var clock = new AtomicLong(Instant.parse("2026-12-02T10:00:00Z").toEpochMilli());
        var failures = new StreamThreadFailures(3, Duration.ofMinutes(10), clock::get, heals);
        var transientFailure = new StreamsException("send failed", new TimeoutException("broker away"));
        for (int i = 0; i < 3; i++) {
            assertThat(failures.handle(transientFailure)).isEqualTo(REPLACE_THREAD);
            assertThat(replaced()).as("each replacement counts once").isEqualTo(i + 1.0);
            clock.addAndGet(60_000);
        }
        assertThat(failures.handle(transientFailure)).isEqualTo(SHUTDOWN_CLIENT);
        assertThat(replaced()).as("the shutdown after them does not count").isEqualTo(3.0);
    }

    @Test
    void replacementsOlderThanTheWindowNoLongerCount() {
        var clock = new AtomicLong(Instant.parse("2026-12-02T10:00:00Z").toEpochMilli());
        var failures = new StreamThreadFailures(2, Duration.ofMinutes(10), clock::get, heals);
        var transientFailure =
                new StreamsException(new org.apache.kafka.common.errors.NotLeaderOrFollowerException("moved"));
        assertThat(failures.handle(transientFailure)).isEqualTo(REPLACE_THREAD);
        assertThat(failures.handle(transientFailure)).isEqualTo(REPLACE_THREAD);
        clock.addAndGet(Duration.ofMinutes(11).toMillis());
        assertThat(failures.handle(transientFailure)).isEqualTo(REPLACE_THREAD);
    }

    @Test
    void onlyRetriableKafkaErrorsCountAsTransient() {
        assertThat(StreamThreadFailures.isTransient(new StreamsException(new TimeoutException("t"))))
                .isTrue();
        assertThat(StreamThreadFailures.isTransient(new RuntimeException(
                        new RuntimeException(new org.apache.kafka.common.errors.DisconnectException("gone")))))
                .isTrue();
        assertThat(StreamThreadFailures.isTransient(new StreamsException("fatal")))
                .isFalse();
        assertThat(StreamThreadFailures.isTransient(new org.apache.kafka.common.errors.SerializationException("bad")))
                .isFalse();
        assertThat(StreamThreadFailures.isTransient(new IllegalArgumentException("bad")))
                .isFalse();
    }

    @Test
    void aTransactionTheBrokersAbortedWhileOneWasAwayGetsANewThread() {
        // as a stream thread saw it after a broker that led its transaction's partitions was down past the timeout
        var aborted = new StreamsException(
                "Error encountered trying to commit a transaction",
                new org.apache.kafka.common.errors.InvalidTxnStateException(
                        "The producer attempted a transactional operation in an invalid state."));
        assertThat(StreamThreadFailures.standard(registry).handle(aborted)).isEqualTo(REPLACE_THREAD);
        assertThat(registry.get(SelfHeals.NAME)
                        .tag(SelfHeals.KIND, SelfHeals.STREAMS_THREAD_REPLACED)
                        .counter()
                        .count())
                .as("the standard handler counts in the service's registry")
                .isEqualTo(1.0);
        assertThat(StreamThreadFailures.isTransient(new StreamsException(
                        new org.apache.kafka.common.errors.InvalidProducerEpochException("epoch"))))
                .isTrue();
    }

    @Test
    void aTransientFailureOfTheGlobalThreadShutsDownUncountedAsKafkaCannotReplaceIt() throws Exception {
        var clock = new AtomicLong(Instant.parse("2026-12-02T10:00:00Z").toEpochMilli());
        var failures = new StreamThreadFailures(3, Duration.ofMinutes(10), clock::get, heals);
        var transientFailure = new StreamsException("restore failed", new TimeoutException("broker away"));
        assertThat(failures.handle(transientFailure, true)).isEqualTo(SHUTDOWN_CLIENT);
        assertThat(replaced()).isZero();
        // told apart by the name Kafka Streams gives that thread
        var answer = new java.util.concurrent.atomic.AtomicReference<Object>();
        Thread global = new Thread(
                () -> answer.set(failures.handle(transientFailure)),
                "vigil-streams-1" + StreamThreadFailures.GLOBAL_THREAD_SUFFIX);
        global.start();
        global.join(10_000);
        assertThat(answer.get()).isEqualTo(SHUTDOWN_CLIENT);
        assertThat(replaced()).isZero();
        assertThat(failures.handle(transientFailure, false)).isEqualTo(REPLACE_THREAD);
        assertThat(replaced()).isEqualTo(1.0);
    }
}
