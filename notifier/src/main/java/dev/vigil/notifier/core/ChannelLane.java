package dev.vigil.notifier.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.util.concurrent.Queues;

/**
 * One channel's own queue, concurrency limit and pacing, so a slow or rate-limited channel only ever waits on
 * itself. Sends are started at most {@code ratePerSecond} per second (0 = unpaced); a vendor's "slow down"
 * ({@link #holdOff}) pauses this channel's whole queue, as Slack and Discord rate limits are per webhook.
 */
public final class ChannelLane implements AutoCloseable {
    private final String name;
    private final long intervalMs;
    private final Scheduler timer;
    private final Sinks.Many<Job<?>> jobs = Sinks.many().unicast().onBackpressureBuffer(Queues.<Job<?>>unboundedMultiproducer().get());
    private final AtomicInteger queued = new AtomicInteger();
    private final Disposable worker;
    private long nextStartMs;

    public ChannelLane(String name, double ratePerSecond, int concurrency, Scheduler timer) {
        this.name = name;
        this.intervalMs = ratePerSecond <= 0 ? 0 : (long) Math.ceil(1000.0 / ratePerSecond);
        this.timer = timer;
        this.worker = jobs.asFlux()
                .flatMap(job -> pace().then(job.run()), concurrency)
                .subscribe();
    }

    /** Runs {@code work} when this channel has room and its pace allows; the result arrives on the returned Mono. */
    public <T> Mono<T> submit(Mono<T> work) {
        return Mono.create(sink -> {
            queued.incrementAndGet();
            Sinks.EmitResult r;
            synchronized (jobs) {
                r = jobs.tryEmitNext(new Job<>(work, sink, queued));
            }
            if (r.isFailure()) {
                queued.decrementAndGet();
                sink.error(new IllegalStateException("channel " + name + " is closed"));
            }
        });
    }

    /** Pauses the channel: no send starts before {@code delay} from now. */
    public void holdOff(Duration delay) {
        long until = timer.now(TimeUnit.MILLISECONDS) + delay.toMillis();
        synchronized (this) {
            nextStartMs = Math.max(nextStartMs, until);
        }
    }

    public int queued() {
        return queued.get();
    }

    public String name() {
        return name;
    }

    private Mono<Void> pace() {
        long now = timer.now(TimeUnit.MILLISECONDS);
        long wait;
        synchronized (this) {
            long start = Math.max(now, nextStartMs);
            nextStartMs = start + intervalMs;
            wait = start - now;
        }
        return wait <= 0 ? Mono.empty() : Mono.delay(Duration.ofMillis(wait), timer).then();
    }

    @Override
    public void close() {
        jobs.tryEmitComplete();
        worker.dispose();
    }

    private record Job<T>(Mono<T> work, MonoSink<T> sink, AtomicInteger queued) {
        Mono<Void> run() {
            queued.decrementAndGet();
            return work.doOnNext(sink::success)
                    .doOnError(sink::error)
                    .switchIfEmpty(Mono.fromRunnable(() -> sink.success()))
                    .onErrorResume(e -> Mono.empty())
                    .then();
        }
    }
}
