package dev.vigil.notifier.core;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.scheduler.Scheduler;

/**
 * One channel's own queue, concurrency limit and pacing, so a slow or rate-limited channel only ever waits on
 * itself. Sends are started at most {@code ratePerSecond} per second (0 = unpaced); a vendor's "slow down"
 * ({@link #holdOff}) pauses this channel's whole queue, as Slack and Discord rate limits are per webhook.
 *
 * <p>A plain queue with a work-in-progress drain loop rather than a {@code Sinks.Many} behind {@code flatMap}: a
 * submission that finds a free slot and no pace to wait for starts at once, on the caller's thread, with no
 * operator chain of its own; the loop also keeps a job that completes synchronously from recursing into the next.
 */
public final class ChannelLane implements AutoCloseable {
    private final String name;
    private final long intervalMs;
    private final int concurrency;
    private final Scheduler timer;
    private final AtomicInteger wip = new AtomicInteger();
    /** Guarded by {@code this}. */
    private final ArrayDeque<Job<?>> queue = new ArrayDeque<>();

    private int active;
    private long nextStartMs;
    private Disposable wakeUp;
    private boolean closed;

    public ChannelLane(String name, double ratePerSecond, int concurrency, Scheduler timer) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("channel " + name + ": concurrency must be at least 1");
        }
        this.name = name;
        this.intervalMs = ratePerSecond <= 0 ? 0 : (long) Math.ceil(1000.0 / ratePerSecond);
        this.concurrency = concurrency;
        this.timer = timer;
    }

    /** Runs {@code work} when this channel has room and its pace allows; the result arrives on the returned Mono. */
    public <T> Mono<T> submit(Mono<T> work) {
        return Mono.create(sink -> {
            boolean refused;
            synchronized (this) {
                refused = closed;
                if (!refused) {
                    queue.add(new Job<>(work, sink));
                }
            }
            if (refused) {
                sink.error(new IllegalStateException("channel " + name + " is closed"));
                return;
            }
            drain();
        });
    }

    /** Pauses the channel: no send starts before {@code delay} from now. */
    public void holdOff(Duration delay) {
        long until = timer.now(TimeUnit.MILLISECONDS) + delay.toMillis();
        synchronized (this) {
            nextStartMs = Math.max(nextStartMs, until);
        }
    }

    public synchronized int queued() {
        return queue.size();
    }

    public String name() {
        return name;
    }

    /** Starts every job that has a slot and whose pace allows, one drain loop at a time. */
    private void drain() {
        if (wip.getAndIncrement() != 0) {
            return;
        }
        do {
            Job<?> job;
            while ((job = next()) != null) {
                job.run(this::finished);
            }
        } while (wip.decrementAndGet() != 0);
    }

    /** The next job to start now, or null (no slot, nothing queued, or the pace makes it wait: a wake-up is set). */
    private Job<?> next() {
        synchronized (this) {
            if (closed || active >= concurrency || queue.isEmpty() || wakeUp != null) {
                return null;
            }
            long now = timer.now(TimeUnit.MILLISECONDS);
            if (nextStartMs > now) {
                wakeUp = timer.schedule(this::wake, nextStartMs - now, TimeUnit.MILLISECONDS);
                return null;
            }
            nextStartMs = now + intervalMs;
            active++;
            return queue.poll();
        }
    }

    private void wake() {
        synchronized (this) {
            wakeUp = null;
        }
        drain();
    }

    private void finished() {
        synchronized (this) {
            active--;
        }
        drain();
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            if (wakeUp != null) {
                wakeUp.dispose();
            }
        }
    }

    private record Job<T>(Mono<T> work, MonoSink<T> sink) {
        /** Subscribes to the work; its one outcome goes to the caller, then {@code done} frees the slot. */
        void run(Runnable done) {
            work.subscribe(new reactor.core.CoreSubscriber<T>() {
                /** Read once: every operator of the work asks for it, often several times per signal. */
                private final reactor.util.context.Context context =
                        sink.contextView() instanceof reactor.util.context.Context c
                                ? c
                                : reactor.util.context.Context.of(sink.contextView());

                private boolean answered;

                @Override
                public void onSubscribe(org.reactivestreams.Subscription s) {
                    s.request(Long.MAX_VALUE);
                }

                @Override
                public void onNext(T value) {
                    answered = true;
                    sink.success(value);
                }

                @Override
                public void onError(Throwable error) {
                    sink.error(error);
                    done.run();
                }

                @Override
                public void onComplete() {
                    if (!answered) {
                        sink.success();
                    }
                    done.run();
                }

                @Override
                public reactor.util.context.Context currentContext() {
                    return context;
                }
            });
        }
    }
}
