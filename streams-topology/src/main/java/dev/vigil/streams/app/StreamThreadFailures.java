package dev.vigil.streams.app;

import dev.vigil.kit.ops.SelfHeals;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.function.LongSupplier;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The answer to a stream thread that died. A transient cause (a retriable Kafka error, a timeout talking to the
 * brokers, a transaction the brokers aborted while one of them was away) gets a new thread, which resumes from the
 * last commit. Anything else is deterministic — the same input
 * would kill the new thread the same way — and a thread replaced for it would replay and fail for ever, which looks
 * alive and decides nothing: the client shuts down instead, {@code /health} then reports it, and the supervisor
 * restarts the process (or a person looks). Transient failures that keep coming are treated the same once more
 * than {@code maxReplacements} happened within {@code window}.
 *
 * <p>Each replacement counts as a self-heal ({@link SelfHeals#STREAMS_THREAD_REPLACED}); a shutdown does not, as it
 * is left to the supervisor or a person.
 */
public final class StreamThreadFailures implements StreamsUncaughtExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(StreamThreadFailures.class);
    /**
     * How Kafka Streams ends the name of the thread that reads the global stores ({@code <client id>-GlobalStreamThread});
     * Kafka itself tells that thread apart by its name, and its class is internal.
     */
    static final String GLOBAL_THREAD_SUFFIX = "-GlobalStreamThread";

    private final int maxReplacements;
    private final Duration window;
    private final LongSupplier nowMillis;
    private final SelfHeals heals;
    private final ArrayDeque<Long> replacedAt = new ArrayDeque<>();

    /**
     * @param nowMillis wall-clock milliseconds ({@code System::currentTimeMillis}; tests pass their own)
     * @param heals     where each replacement is counted
     */
    public StreamThreadFailures(int maxReplacements, Duration window, LongSupplier nowMillis, SelfHeals heals) {
        this.maxReplacements = maxReplacements;
        this.window = window;
        this.nowMillis = nowMillis;
        this.heals = heals;
    }

    /** Ten replacements in ten minutes, each counted in {@code registry}. */
    public static StreamThreadFailures standard(io.micrometer.core.instrument.MeterRegistry registry) {
        return new StreamThreadFailures(
                10,
                Duration.ofMinutes(10),
                System::currentTimeMillis,
                new SelfHeals(registry, SelfHeals.STREAMS_THREAD_REPLACED));
    }

    @Override
    public StreamThreadExceptionResponse handle(Throwable failure) {
        // Kafka Streams calls this on the thread that died; it can replace a stream thread but not the global one
        return handle(failure, Thread.currentThread().getName().endsWith(GLOBAL_THREAD_SUFFIX));
    }

    /** @param globalThread whether the thread that died reads the global stores (Kafka cannot replace it) */
    synchronized StreamThreadExceptionResponse handle(Throwable failure, boolean globalThread) {
        if (!isTransient(failure)) {
            LOG.error(
                    "stream thread failed on a non-transient error; shutting this Kafka Streams client down (a new"
                            + " thread would fail the same way)",
                    failure);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        if (globalThread) {
            // Kafka would turn a replacement into this shutdown anyway; answering it here keeps the count of
            // replacements to the threads that were replaced
            LOG.error(
                    "the global stream thread failed on a transient error; Kafka Streams cannot replace it, so this"
                            + " client shuts down",
                    failure);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        long now = nowMillis.getAsLong();
        while (!replacedAt.isEmpty() && replacedAt.peekFirst() < now - window.toMillis()) {
            replacedAt.pollFirst();
        }
        if (replacedAt.size() >= maxReplacements) {
            LOG.error(
                    "stream thread failed on a transient error for the {}th time within {}; shutting this Kafka"
                            + " Streams client down",
                    replacedAt.size() + 1,
                    window,
                    failure);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        replacedAt.addLast(now);
        LOG.warn("stream thread failed on a transient error; replacing it", failure);
        heals.record(SelfHeals.STREAMS_THREAD_REPLACED);
        return StreamThreadExceptionResponse.REPLACE_THREAD;
    }

    /**
     * A retriable Kafka error (timeouts and disconnections are ones) anywhere in the cause chain, or a transaction
     * the brokers ended under this thread. The latter happens when a broker that led a partition of the transaction,
     * or its coordinator, goes away for longer than the transaction timeout: the new coordinator aborts it, and the
     * thread's commit then fails with {@link InvalidTxnStateException} (or {@link InvalidProducerEpochException}).
     * Kafka Streams calls that fatal, yet nothing of it was committed: a new thread starts a new producer and
     * resumes from the last commit, which is exactly once as before.
     */
    static boolean isTransient(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 32; t = t.getCause() == t ? null : t.getCause(), depth++) {
            if (t instanceof RetriableException
                    || t instanceof InvalidTxnStateException
                    || t instanceof InvalidProducerEpochException) {
                return true;
            }
        }
        return false;
    }
}
