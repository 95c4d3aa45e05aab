package dev.vigil.streams.app;

import static org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
import static org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

class StreamThreadFailuresTest {
    @Test
    void aDeterministicFailureShutsTheClientDownInsteadOfReplayingForEver() {
        var failures = StreamThreadFailures.standard();
        assertThat(failures.handle(new StreamsException(new IllegalStateException("bug in a processor"))))
                .isEqualTo(SHUTDOWN_CLIENT);
        assertThat(failures.handle(new OutOfMemoryError("heap"))).isEqualTo(SHUTDOWN_CLIENT);
    }

    @Test
    void aTransientFailureGetsANewThreadUntilItKeepsComing() {
        var clock = new AtomicLong(Instant.parse("2026-12-02T10:00:00Z").toEpochMilli());
        var failures = new StreamThreadFailures(3, Duration.ofMinutes(10), clock::get);
        var transientFailure = new StreamsException("send failed", new TimeoutException("broker away"));
        for (int i = 0; i < 3; i++) {
            assertThat(failures.handle(transientFailure)).isEqualTo(REPLACE_THREAD);
            clock.addAndGet(60_000);
        }
        assertThat(failures.handle(transientFailure)).isEqualTo(SHUTDOWN_CLIENT);
    }

    @Test
    void replacementsOlderThanTheWindowNoLongerCount() {
        var clock = new AtomicLong(Instant.parse("2026-12-02T10:00:00Z").toEpochMilli());
        var failures = new StreamThreadFailures(2, Duration.ofMinutes(10), clock::get);
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
        assertThat(StreamThreadFailures.standard().handle(aborted)).isEqualTo(REPLACE_THREAD);
        assertThat(StreamThreadFailures.isTransient(new StreamsException(
                        new org.apache.kafka.common.errors.InvalidProducerEpochException("epoch"))))
                .isTrue();
    }
}
