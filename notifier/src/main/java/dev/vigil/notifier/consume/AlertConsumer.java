package dev.vigil.notifier.consume;

import dev.vigil.kit.ops.SelfHeals;
import dev.vigil.kit.retry.Backoff;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Kafka → Reactor bridge with real backpressure. One thread owns the {@link KafkaConsumer}: it polls, hands each
 * record to the handler (a Mono that completes when the record reached its final outcome), and commits, on the same
 * thread, only offsets below which everything is finished. When {@code maxInFlight} records are unfinished, all
 * partitions are paused (the consumer keeps polling to stay in the group but receives nothing) until half drained.
 * Each rebalance that took partitions from it and after which it went on counts as a self-heal
 * ({@link RebalanceSurvivals}).
 */
public final class AlertConsumer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AlertConsumer.class);
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String topic;
    private final int maxInFlight;
    private final Function<ConsumerRecord<byte[], byte[]>, Mono<?>> handler;
    private final Duration drainTimeout;
    private final ConcurrentLinkedQueue<Finished> done = new ConcurrentLinkedQueue<>();
    private final Map<TopicPartition, PartitionProgress> progress = new HashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicBoolean assigned = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Thread owner;
    private volatile boolean paused;
    private volatile java.util.function.BooleanSupplier ready = () -> true;
    /** The topic's partition count, known from the first assignment (-1 before). */
    private volatile int partitionCount = -1;
    /** Since when (epoch ms) each partition this consumer holds has been assigned to it. */
    private final Map<Integer, Long> assignedAt = new java.util.concurrent.ConcurrentHashMap<>();

    private long lastCommitNanos;
    /** Commits are batched in time: at most one every this many nanoseconds while running. */
    private static final long COMMIT_INTERVAL_NANOS = 50_000_000L;
    /** Waits before a failed record is handled again: jittered, 500 ms growing to at most 10 s. */
    private static final Backoff RETRY = Backoff.jittered(Duration.ofMillis(500), 2.0, Duration.ofSeconds(10));

    private final Scheduler retries = Schedulers.parallel();
    private final RebalanceSurvivals rebalances;

    /** A finished record, tied to the assignment it was read under (a completion from before a rebalance is dropped). */
    private record Finished(TopicPartition tp, PartitionProgress progress, long offset) {}

    public AlertConsumer(
            Map<String, Object> props,
            String topic,
            int maxInFlight,
            Function<ConsumerRecord<byte[], byte[]>, Mono<?>> handler,
            Duration drainTimeout,
            MeterRegistry meters) {
        this.consumer = new KafkaConsumer<>(
                props,
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer());
        this.topic = topic;
        this.maxInFlight = maxInFlight;
        this.handler = handler;
        this.drainTimeout = drainTimeout;
        this.rebalances = new RebalanceSurvivals(new SelfHeals(meters, SelfHeals.CONSUMER_REBALANCE_SURVIVED));
        this.owner = new Thread(this::loop, "vigil-notifier-consumer");
        this.owner.setDaemon(true);
    }

    public AlertConsumer start() {
        return startAfter(() -> true);
    }

    /**
     * Starts the consumer thread, which reads nothing until {@code ready} answers true (asked every 100 ms, until
     * then or until closed): the notifier waits for its copy of the silences and acknowledgements, so that a restart
     * never routes an event before it knows what mutes it.
     */
    public AlertConsumer startAfter(java.util.function.BooleanSupplier ready) {
        this.ready = ready;
        owner.start();
        return this;
    }

    public KafkaConsumer<byte[], byte[]> kafkaConsumer() {
        return consumer;
    }

    /**
     * Since when (epoch ms) this consumer holds the partition that records keyed {@code key} go to (the producer's
     * default partitioner); empty while another member of the group holds it, or before the first assignment.
     */
    public java.util.OptionalLong assignedSince(String key) {
        int n = partitionCount;
        if (n <= 0) {
            return java.util.OptionalLong.empty();
        }
        int partition = org.apache.kafka.common.utils.Utils.toPositive(org.apache.kafka.common.utils.Utils.murmur2(
                        key.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                % n;
        Long since = assignedAt.get(partition);
        return since == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(since);
    }

    /** Records read and not yet final. */
    public int inFlight() {
        return inFlight.get();
    }

    public boolean isPaused() {
        return paused;
    }

    /** True once the group assigned partitions (or an empty assignment) at least once. */
    public boolean isAssigned() {
        return assigned.get();
    }

    public boolean isRunning() {
        return stopped.getCount() > 0;
    }

    private void loop() {
        try {
            while (running.get() && !ready.getAsBoolean()) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    rebalances.taken(partitions);
                    drainFinished();
                    commitSync();
                    partitions.forEach(progress::remove);
                    partitions.forEach(tp -> assignedAt.remove(tp.partition()));
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    partitions.forEach(tp -> progress.put(tp, new PartitionProgress()));
                    long now = System.currentTimeMillis();
                    partitions.forEach(tp -> assignedAt.put(tp.partition(), now));
                    if (partitionCount < 0) {
                        try {
                            partitionCount = consumer.partitionsFor(topic).size();
                        } catch (RuntimeException e) {
                            LOG.warn("cannot read the partition count of {}: {}", topic, e.toString());
                        }
                    }
                    if (paused) {
                        consumer.pause(partitions);
                    }
                    assigned.set(true);
                    rebalances.assigned();
                }

                @Override
                public void onPartitionsLost(Collection<TopicPartition> partitions) {
                    rebalances.taken(partitions);
                    partitions.forEach(progress::remove);
                    partitions.forEach(tp -> assignedAt.remove(tp.partition()));
                }
            });
            while (running.get()) {
                drainFinished();
                commitAsync();
                adjustPause();
                ConsumerRecords<byte[], byte[]> records;
                try {
                    records = consumer.poll(Duration.ofMillis(50));
                } catch (WakeupException e) {
                    continue;
                }
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    PartitionProgress p = progress.computeIfAbsent(tp, k -> new PartitionProgress());
                    p.read(r.offset());
                    inFlight.incrementAndGet();
                    handle(r, new Finished(tp, p, r.offset()), 0);
                }
            }
            shutdown();
        } catch (RuntimeException e) {
            LOG.error("alert consumer stopped on an unexpected error", e);
        } finally {
            try {
                // leave the group even as a static member, so a clean stop hands the partitions over at once
                consumer.close(org.apache.kafka.clients.consumer.CloseOptions.groupMembershipOperation(
                                org.apache.kafka.clients.consumer.CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                        .withTimeout(Duration.ofSeconds(5)));
            } catch (RuntimeException e) {
                LOG.warn("closing the consumer: {}", e.toString());
            }
            stopped.countDown();
        }
    }

    /**
     * Runs the handler for one record; a failure runs it again after {@link #RETRY}, without end (the
     * record stays uncommitted meanwhile, and the in-flight bound pauses reading). Written out rather than with
     * {@code retryWhen}, which builds its companion publisher for every record although handlers almost never fail.
     */
    private void handle(ConsumerRecord<byte[], byte[]> r, Finished finished, int failures) {
        Mono<?> work;
        try {
            work = handler.apply(r);
        } catch (RuntimeException e) {
            work = Mono.error(e);
        }
        work.subscribe(
                null,
                e -> {
                    LOG.error("handling {}-{}@{} failed, retrying", r.topic(), r.partition(), r.offset(), e);
                    retries.schedule(
                            () -> handle(r, finished, failures + 1),
                            RETRY.delay(failures + 1).toMillis(),
                            TimeUnit.MILLISECONDS);
                },
                () -> {
                    done.add(finished);
                    inFlight.decrementAndGet();
                });
    }

    /** Stop reading, give in-flight work a bounded time to finish, commit what finished. */
    private void shutdown() {
        consumer.pause(consumer.assignment());
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        while (inFlight.get() > 0 && System.nanoTime() < deadline) {
            drainFinished();
            try {
                consumer.poll(Duration.ofMillis(20));
            } catch (WakeupException e) {
                // closing
            }
        }
        drainFinished();
        commitSync();
        if (inFlight.get() > 0) {
            LOG.warn("stopped with {} events unfinished; they are uncommitted and will be redelivered", inFlight.get());
        }
    }

    private void drainFinished() {
        Finished f;
        while ((f = done.poll()) != null) {
            PartitionProgress p = progress.get(f.tp);
            if (p != null && p == f.progress) {
                p.finish(f.offset);
            }
        }
    }

    private Map<TopicPartition, OffsetAndMetadata> committable() {
        Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>();
        progress.forEach((tp, p) -> {
            long c = p.takeCommittable();
            if (c >= 0) {
                out.put(tp, new OffsetAndMetadata(c));
            }
        });
        return out;
    }

    private void commitAsync() {
        long now = System.nanoTime();
        if (now - lastCommitNanos < COMMIT_INTERVAL_NANOS) {
            return;
        }
        lastCommitNanos = now;
        Map<TopicPartition, OffsetAndMetadata> offsets = committable();
        if (!offsets.isEmpty()) {
            consumer.commitAsync(offsets, (o, e) -> {
                if (e != null) {
                    LOG.warn(
                            "offset commit failed (the events will be redelivered and deduplicated): {}", e.toString());
                }
            });
        }
    }

    private void commitSync() {
        Map<TopicPartition, OffsetAndMetadata> offsets = committable();
        if (!offsets.isEmpty()) {
            try {
                consumer.commitSync(offsets, Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                LOG.warn("offset commit failed (the events will be redelivered and deduplicated): {}", e.toString());
            }
        }
    }

    private void adjustPause() {
        int n = inFlight.get();
        if (!paused && n >= maxInFlight) {
            consumer.pause(consumer.assignment());
            paused = true;
            LOG.debug("paused: {} events in flight", n);
        } else if (paused && n <= maxInFlight / 2) {
            consumer.resume(consumer.paused());
            paused = false;
        }
    }

    @Override
    public void close() {
        running.set(false);
        consumer.wakeup();
        try {
            if (!stopped.await(drainTimeout.toMillis() + 15_000, TimeUnit.MILLISECONDS)) {
                LOG.warn("consumer thread did not stop in time");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
