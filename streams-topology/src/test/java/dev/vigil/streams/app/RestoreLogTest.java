package dev.vigil.streams.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class RestoreLogTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final RestoreLog log = new RestoreLog(registry, Duration.ofSeconds(1), clock::get);
    private final TopicPartition history = new TopicPartition("vigil-streams-verdict-history-changelog", 3);

    @Test
    void eachFinishedRestorationIsTimedAndCountedPerStore() {
        log.onRestoreStart(history, "verdict-history", 0, 5_000);
        log.onBatchRestored(history, "verdict-history", 2_000, 2_000);
        clock.addAndGet(Duration.ofMillis(1_500).toNanos());
        log.onRestoreEnd(history, "verdict-history", 5_000);

        var timer = registry.get("vigil.streams.restore")
                .tag("store", "verdict-history")
                .timer();
        assertThat(timer.count()).isEqualTo(1);
        assertThat(timer.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(1_500.0);
        assertThat(registry.get("vigil.streams.restore.records")
                        .tag("store", "verdict-history")
                        .counter()
                        .count())
                .isEqualTo(5_000.0);
        assertThat(log.inProgress()).isZero();
    }

    @Test
    void partitionsOfOneStoreAreTimedApartAndASuspendedOneIsForgotten() {
        TopicPartition other = new TopicPartition(history.topic(), 4);
        log.onRestoreStart(history, "verdict-history", 0, 10);
        clock.addAndGet(Duration.ofMillis(100).toNanos());
        log.onRestoreStart(other, "verdict-history", 0, 10);
        log.onRestoreSuspended(history, "verdict-history", 3);
        clock.addAndGet(Duration.ofMillis(200).toNanos());
        log.onRestoreEnd(other, "verdict-history", 10);
        // an end without a start (a listener registered late) records nothing
        log.onRestoreEnd(history, "verdict-history", 10);

        var timer = registry.get("vigil.streams.restore")
                .tag("store", "verdict-history")
                .timer();
        assertThat(timer.count()).isEqualTo(1);
        assertThat(timer.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(200.0);
        assertThat(log.inProgress()).isZero();
    }
}
