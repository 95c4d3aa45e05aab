package dev.vigil.ingest.publish;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * One HTTP request's records on their way into a transaction. Exactly one party decides its outcome:
 * either the deadline timer (before the lane commits to committing it: the answer is UNAVAILABLE and the
 * lane must abort), or the lane (after it has claimed the request: the answer is the transaction's fate).
 */
final class PendingRequest {
    private static final int WAITING = 0;
    private static final int CLAIMED = 1;
    private static final int EXPIRED = 2;

    final List<ProducerRecord<String, byte[]>> records;
    final CompletableFuture<PublishResult> result = new CompletableFuture<>();
    private final AtomicInteger state = new AtomicInteger(WAITING);
    private volatile ScheduledFuture<?> deadline;

    PendingRequest(List<ProducerRecord<String, byte[]>> records) {
        this.records = records;
    }

    void deadline(ScheduledFuture<?> timer) {
        this.deadline = timer;
    }

    /** Deadline reached: answers UNAVAILABLE unless the lane already claimed the request. */
    void expire() {
        if (state.compareAndSet(WAITING, EXPIRED)) {
            result.complete(PublishResult.UNAVAILABLE);
        }
    }

    boolean expired() {
        return state.get() == EXPIRED;
    }

    /** The lane takes the decision; false if the deadline already answered. */
    boolean claim() {
        return state.compareAndSet(WAITING, CLAIMED);
    }

    /** Only after {@link #claim()} succeeded. */
    void complete(PublishResult outcome) {
        ScheduledFuture<?> timer = deadline;
        if (timer != null) {
            timer.cancel(false);
        }
        result.complete(outcome);
    }
}
