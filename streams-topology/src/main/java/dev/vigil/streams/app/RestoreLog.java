package dev.vigil.streams.app;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an instance restores from changelogs, and how long it takes: the part of a start or a takeover during which
 * the instance is {@code REBALANCING}, answers 503 and decides nothing for the restoring tasks. Each finished
 * restoration is timed ({@code vigil.streams.restore}, per store) and its records counted
 * ({@code vigil.streams.restore.records}); one that took at least {@code slow} is logged at INFO with its store,
 * partition, records and duration, so that a slow takeover says where its time went.
 *
 * <p>Called from the state updater threads, several at once.
 */
public final class RestoreLog implements StateRestoreListener {
    private static final Logger LOG = LoggerFactory.getLogger(RestoreLog.class);
    private final MeterRegistry registry;
    private final Duration slow;
    private final LongSupplier nanos;
    private final Map<Key, Long> startedAt = new ConcurrentHashMap<>();

    /** @param nanos a monotonic clock ({@code System::nanoTime}; tests pass their own) */
    public RestoreLog(MeterRegistry registry, Duration slow, LongSupplier nanos) {
        this.registry = registry;
        this.slow = slow;
        this.nanos = nanos;
    }

    /** Logs restorations of a second or more. */
    public static RestoreLog standard(MeterRegistry registry) {
        return new RestoreLog(registry, Duration.ofSeconds(1), System::nanoTime);
    }

    @Override
    public void onRestoreStart(TopicPartition partition, String store, long startingOffset, long endingOffset) {
        startedAt.put(new Key(partition, store), nanos.getAsLong());
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long numRestored) {
        // counted once, at the end
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
        Long start = startedAt.remove(new Key(partition, store));
        if (start == null) {
            return;
        }
        long took = nanos.getAsLong() - start;
        Timer.builder("vigil.streams.restore")
                .description("Restoring a state store partition from its changelog")
                .tag("store", store)
                .register(registry)
                .record(Duration.ofNanos(took));
        Counter.builder("vigil.streams.restore.records")
                .description("Records restored from changelogs")
                .tag("store", store)
                .register(registry)
                .increment(totalRestored);
        if (took >= slow.toNanos()) {
            LOG.info(
                    "restored {} partition {} from {}: {} records in {} ms",
                    store,
                    partition.partition(),
                    partition.topic(),
                    totalRestored,
                    took / 1_000_000);
        }
    }

    @Override
    public void onRestoreSuspended(TopicPartition partition, String store, long totalRestored) {
        // the task moved away before it was restored; it starts afresh wherever it goes
        startedAt.remove(new Key(partition, store));
    }

    /** Restorations under way (a test's view). */
    int inProgress() {
        return startedAt.size();
    }

    private record Key(TopicPartition partition, String store) {}
}
