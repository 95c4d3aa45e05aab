package dev.vigil.ingest.publish;

import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One transactional producer owned by one thread. Requests queued while a transaction commits are
 * grouped into the next transaction (group commit), so the per-transaction cost is shared.
 *
 * <p>Per group: begin, send every record, flush, check every send. Only when every send is acknowledged
 * and every request of the group is still waiting for its answer does the lane claim them and commit;
 * any failure or expiry before that aborts the transaction, so read_committed consumers never see any of
 * its records and each request of the group is answered UNAVAILABLE. After commit was requested the
 * outcome is decided by the commit alone (retried until it resolves, within the commit-resolve bound).
 */
final class TransactionalLane implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionalLane.class);
    private static final long IDLE_POLL_MS = 50;
    private static final long BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final String name;
    private final Supplier<Producer<String, byte[]>> factory;
    private final BlockingQueue<PendingRequest> queue;
    private final int maxRecordsPerTransaction;
    private final long commitResolveTimeoutMs;
    private final Timer commitTimer;
    private final Timer abortTimer;
    private final java.util.function.Function<Producer<String, byte[]>, AutoCloseable> onNewProducer;
    private AutoCloseable producerMetrics;
    private volatile boolean running = true;
    private volatile boolean ready;
    private volatile boolean busy;
    private Producer<String, byte[]> producer;
    private boolean initialized;
    private boolean abortPending;
    private final Thread thread;

    TransactionalLane(
            String name,
            Supplier<Producer<String, byte[]>> factory,
            int queueCapacity,
            int maxRecordsPerTransaction,
            long commitResolveTimeoutMs,
            Timer commitTimer,
            Timer abortTimer,
            java.util.function.Function<Producer<String, byte[]>, AutoCloseable> onNewProducer) {
        this.name = name;
        this.factory = factory;
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.maxRecordsPerTransaction = maxRecordsPerTransaction;
        this.commitResolveTimeoutMs = commitResolveTimeoutMs;
        this.commitTimer = commitTimer;
        this.abortTimer = abortTimer;
        this.onNewProducer = onNewProducer;
        this.thread = new Thread(this, name);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    boolean offer(PendingRequest request) {
        return running && queue.offer(request);
    }

    int queued() {
        return queue.size();
    }

    /** Queued requests, plus one while a transaction is open: an idle lane has load 0. */
    int load() {
        return queue.size() + (busy ? 1 : 0);
    }

    /** Producer initialised and not stuck on an abort. */
    boolean ready() {
        return ready;
    }

    /** Stops taking work, finishes what is queued (bounded by each request's deadline), closes the producer. */
    void stopAccepting() {
        running = false;
    }

    void close(long waitMs) {
        running = false;
        try {
            thread.join(waitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            thread.interrupt();
        }
    }

    @Override
    public void run() {
        try {
            while (running || !queue.isEmpty()) {
                if (!usable()) {
                    dropExpired();
                    if (!running) {
                        break;
                    }
                    LockSupport.parkNanos(BACKOFF_NANOS);
                    continue;
                }
                List<PendingRequest> group = nextGroup();
                if (!group.isEmpty()) {
                    busy = true;
                    try {
                        publish(group);
                    } finally {
                        busy = false;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            for (PendingRequest r; (r = queue.poll()) != null; ) {
                r.expire();
            }
            closeProducer();
        }
    }

    private boolean usable() {
        try {
            if (producer == null) {
                producer = factory.get();
                initialized = false;
                producerMetrics = onNewProducer.apply(producer);
            }
            if (!initialized) {
                producer.initTransactions();
                initialized = true;
                abortPending = false;
            }
            if (abortPending) {
                producer.abortTransaction();
                abortPending = false;
            }
            ready = true;
            return true;
        } catch (TimeoutException e) {
            // Broker unreachable: both initTransactions and abortTransaction may be retried after a timeout.
            ready = false;
            return false;
        } catch (KafkaException | IllegalStateException e) {
            LOG.warn(
                    "lane {}: producer unusable ({}); recreating it",
                    name,
                    e.getClass().getSimpleName());
            ready = false;
            closeProducer();
            return false;
        }
    }

    private List<PendingRequest> nextGroup() throws InterruptedException {
        List<PendingRequest> group = new ArrayList<>();
        PendingRequest first = queue.poll(IDLE_POLL_MS, TimeUnit.MILLISECONDS);
        if (first == null) {
            return group;
        }
        int records = 0;
        for (PendingRequest r = first; r != null; ) {
            if (!r.expired()) {
                group.add(r);
                records += r.records.size();
            }
            PendingRequest next = queue.peek();
            if (next == null || records + next.records.size() > maxRecordsPerTransaction) {
                break;
            }
            r = queue.poll();
        }
        return group;
    }

    private void publish(List<PendingRequest> group) {
        long start = System.nanoTime();
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        try {
            producer.beginTransaction();
            for (PendingRequest r : group) {
                for (var record : r.records) {
                    sends.add(producer.send(record));
                }
            }
            producer.flush();
            for (Future<RecordMetadata> f : sends) {
                f.get(0, TimeUnit.MILLISECONDS); // flush returned: each send is complete, successfully or not
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.debug("lane {}: send failed, aborting the transaction", name, e);
            answerAndAbort(group, start);
            return;
        }
        boolean allClaimed = true;
        for (PendingRequest r : group) {
            allClaimed &= r.claim();
        }
        if (!allClaimed) {
            // A request's deadline answered it UNAVAILABLE: its records must not become visible, so neither may the
            // rest.
            answerAndAbort(group, start);
            return;
        }
        commit(group, start);
    }

    private void commit(List<PendingRequest> group, long start) {
        long deadline = System.currentTimeMillis() + commitResolveTimeoutMs;
        while (true) {
            try {
                producer.commitTransaction();
                commitTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                group.forEach(r -> r.complete(PublishResult.ACKNOWLEDGED));
                return;
            } catch (TimeoutException e) {
                // The commit may already be completing on the coordinator: only a retried commit can tell.
                if (System.currentTimeMillis() >= deadline) {
                    LOG.error(
                            "lane {}: commit outcome still unknown after {} ms; answering unavailable "
                                    + "(the records may still become visible: a resend can duplicate them)",
                            name,
                            commitResolveTimeoutMs);
                    group.forEach(r -> r.complete(PublishResult.UNAVAILABLE));
                    closeProducer();
                    return;
                }
            } catch (KafkaException | IllegalStateException e) {
                // Commit refused before it was written (abortable error) or producer fenced: not committed.
                LOG.warn(
                        "lane {}: commit failed ({}), transaction aborted",
                        name,
                        e.getClass().getSimpleName());
                group.forEach(r -> r.complete(PublishResult.UNAVAILABLE));
                abortOrReset();
                abortTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                return;
            }
        }
    }

    private void answerAndAbort(List<PendingRequest> group, long start) {
        // Commit was never requested, so nothing of the group can become visible: answer before aborting.
        for (PendingRequest r : group) {
            if (r.claim() || !r.expired()) {
                r.complete(PublishResult.UNAVAILABLE);
            }
        }
        abortOrReset();
        abortTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }

    private void abortOrReset() {
        try {
            producer.abortTransaction();
        } catch (TimeoutException e) {
            abortPending = true;
            ready = false;
        } catch (KafkaException | IllegalStateException e) {
            // Fatal (fenced, epoch bumped by the coordinator's own abort): a new producer re-initialises and
            // thereby aborts whatever this transactional id left open.
            closeProducer();
        }
    }

    private void dropExpired() {
        queue.removeIf(PendingRequest::expired);
    }

    private void closeProducer() {
        ready = false;
        if (producerMetrics != null) {
            try {
                producerMetrics.close();
            } catch (Exception e) {
                LOG.debug("lane {}: unbinding metrics failed", name, e);
            }
            producerMetrics = null;
        }
        if (producer != null) {
            try {
                producer.close(java.time.Duration.ZERO);
            } catch (RuntimeException e) {
                LOG.debug("lane {}: close failed", name, e);
            }
            producer = null;
            initialized = false;
            abortPending = false;
        }
    }
}
