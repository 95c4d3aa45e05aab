package dev.vigil.probe.schedule;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.window.Windows;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Runs one probe per monitor per window, on window boundaries ({@link Windows}): the probe of window
 * {@code w} starts at {@code w + offset(monitor)}, and the next one is planned from the boundary, never
 * from the completion time, so there is no drift. A window whose predecessor's probe is still running
 * is skipped and counted, never queued; so is a window when the in-flight limit is reached (a probe that
 * could not run for a reason of ours yields no result rather than a fake failure).
 *
 * <p>Time comes from the given Reactor {@link Scheduler} ({@code now()} and delayed tasks), so tests
 * drive it with a {@code VirtualTimeScheduler}. Monitor changes may arrive from any thread.
 */
public final class ProbeScheduler implements MonitorSink, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProbeScheduler.class);

    private final String region;
    private final Scheduler timer;
    private final BiFunction<MonitorDefinition, Long, Mono<ProbeResult>> prober;
    private final Consumer<ProbeResult> sink;
    private final ScheduleListener listener;
    private final Scheduler work;
    private final Semaphore permits;
    private final Map<String, Entry> entries = new HashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong skipped = new AtomicLong();
    private final CompletableFuture<Void> drained = new CompletableFuture<>();
    private volatile boolean closing;

    /** Per monitor; survives updates so an update never re-probes a window or overlaps a running probe. */
    private static final class Entry {
        MonitorDefinition def;
        long generation;
        Disposable timer;
        final AtomicBoolean running = new AtomicBoolean();
        long lastProbedWindow = Long.MIN_VALUE;
    }

    /**
     * @param prober      starts a probe of a monitor for a window start; must not error
     * @param sink        receives every result (called on the thread that completed the probe)
     * @param concurrency the in-flight limit
     */
    public ProbeScheduler(String region, Scheduler timer, BiFunction<MonitorDefinition, Long, Mono<ProbeResult>> prober,
                          Consumer<ProbeResult> sink, int concurrency, ScheduleListener listener) {
        this(region, timer, prober, sink, concurrency, listener, reactor.core.scheduler.Schedulers.immediate());
    }

    /**
     * @param work where probes are started (request set-up runs there), so the timer thread only keeps
     *             time; {@code Schedulers.immediate()} starts them on the timer thread (deterministic tests)
     */
    public ProbeScheduler(String region, Scheduler timer, BiFunction<MonitorDefinition, Long, Mono<ProbeResult>> prober,
                          Consumer<ProbeResult> sink, int concurrency, ScheduleListener listener, Scheduler work) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1");
        }
        this.region = region;
        this.timer = timer;
        this.prober = prober;
        this.sink = sink;
        this.listener = listener;
        this.work = work;
        this.permits = new Semaphore(concurrency);
    }

    private long now() {
        return timer.now(TimeUnit.MILLISECONDS);
    }

    /**
     * Adds or changes a monitor. A definition that does not select this region, is disabled, or is not probed at all
     * (a heartbeat monitor: its results come from pings at ingest) removes it.
     */
    @Override
    public synchronized void upsert(MonitorDefinition def) {
        if (!def.isProbed() || !def.selects(region) || !Boolean.TRUE.equals(def.enabled())) {
            remove(def.id());
            return;
        }
        if (closing) {
            return;
        }
        Entry e = entries.get(def.id());
        if (e != null && e.def.equals(def)) {
            return;
        }
        if (e == null) {
            e = new Entry();
            entries.put(def.id(), e);
        } else {
            e.timer.dispose();
        }
        e.def = def;
        e.generation++;
        long now = now();
        long interval = def.intervalMs();
        long ws = Windows.windowStart(now, interval);
        long at = Windows.scheduledAt(def.id(), ws, interval);
        if (at < now) {
            long joinUntil = lateJoinDeadline(ws, interval);
            if (e.lastProbedWindow >= ws || now >= joinUntil) {
                // This window was probed already, or a probe now could miss its verdict: begin at the next boundary.
                ws += interval;
                at = Windows.scheduledAt(def.id(), ws, interval);
            } else if (now >= ws + Windows.spreadMs(interval)) {
                // Joining late (a worker that just started): the monitors' offsets, scaled into the time left,
                // keep a whole fleet from starting at once.
                at = now + Windows.offsetMs(def.id(), interval) * (joinUntil - now) / (joinUntil - ws);
            }
        }
        plan(e, ws, at, now);
    }

    /**
     * Until when a probe may still join the window starting at {@code ws}: its result must reach the verdict before
     * the window's collection deadline (start + spread + the probe's timeout + the pipeline's grace). A probe started
     * by then finishes within its timeout and leaves half the default grace for the way through Kafka. So a worker
     * that starts (or restarts after a crash) mid-window contributes to that window instead of waiting for the next
     * one; with a grace configured below the default, such a first result may arrive late and is then counted so.
     */
    static long lateJoinDeadline(long ws, long interval) {
        return ws + Windows.spreadMs(interval) + Windows.DEFAULT_GRACE_MS / 2;
    }

    /** Removes a monitor (tombstone). A probe already running finishes and publishes. */
    @Override
    public synchronized void remove(String monitorId) {
        Entry e = entries.remove(monitorId);
        if (e != null) {
            e.timer.dispose();
            e.generation++;
        }
    }

    private void plan(Entry e, long ws, long at, long now) {
        long gen = e.generation;
        e.timer = timer.schedule(() -> fire(e, gen, ws), Math.max(0, at - now), TimeUnit.MILLISECONDS);
    }

    private void fire(Entry e, long gen, long ws) {
        MonitorDefinition def;
        synchronized (this) {
            if (closing || e.generation != gen || entries.get(e.def.id()) != e) {
                return;
            }
            def = e.def;
            long interval = def.intervalMs();
            long now = now();
            long planned = Windows.scheduledAt(def.id(), ws, interval);
            // Plan the next window from the boundary; if the timer was so late that windows passed, skip them.
            long next = ws + interval;
            long current = Windows.windowStart(now, interval);
            if (current > next) {
                long missed = (current - next) / interval;
                skipped.addAndGet(missed);
                listener.skipped(ScheduleListener.SkipReason.LATE, missed);
                next = current;
            }
            plan(e, next, Windows.scheduledAt(def.id(), next, interval), now);
            if (e.lastProbedWindow >= ws) {
                return;
            }
            if (e.running.get()) {
                skip(ScheduleListener.SkipReason.OVERRUN);
                return;
            }
            if (!permits.tryAcquire()) {
                skip(ScheduleListener.SkipReason.OVERLOADED);
                return;
            }
            e.running.set(true);
            e.lastProbedWindow = ws;
            inFlight.incrementAndGet();
            listener.lag(Math.max(0, now - planned));
        }
        Mono.defer(() -> prober.apply(def, ws))
                .subscribeOn(work)
                .doFinally(s -> finished(e))
                .subscribe(result -> {
                    try {
                        sink.accept(result);
                    } catch (RuntimeException ex) {
                        LOG.error("result of {} could not be handed on", def.id(), ex);
                    }
                }, ex -> LOG.error("probe of {} failed unexpectedly", def.id(), ex));
    }

    private void skip(ScheduleListener.SkipReason reason) {
        skipped.incrementAndGet();
        listener.skipped(reason, 1);
    }

    private void finished(Entry e) {
        e.running.set(false);
        permits.release();
        if (inFlight.decrementAndGet() == 0 && closing) {
            drained.complete(null);
        }
    }

    public synchronized int monitorsAssigned() {
        return entries.size();
    }

    public synchronized boolean isAssigned(String monitorId) {
        return entries.containsKey(monitorId);
    }

    public int inFlight() {
        return inFlight.get();
    }

    public long skippedWindows() {
        return skipped.get();
    }

    /** Stops planning new probes and completes when every in-flight probe has finished (and been handed on). */
    public Mono<Void> drain(Duration timeout) {
        synchronized (this) {
            closing = true;
            entries.values().forEach(e -> e.timer.dispose());
        }
        if (inFlight.get() == 0) {
            drained.complete(null);
        }
        return Mono.fromFuture(drained).timeout(timeout).onErrorResume(ex -> {
            LOG.warn("{} probes still in flight after {}; shutting down without them", inFlight.get(), timeout);
            return Mono.empty();
        });
    }

    @Override
    public void close() {
        drain(Duration.ofSeconds(30)).block();
    }
}
