package dev.vigil.probe.schedule;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.SkipReason;
import dev.vigil.schemas.window.Windows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
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
 * is skipped and counted, never queued; so is a window when the in-flight limit is reached, a window the
 * timer fired too late for, and, on shutdown, a window whose probe had not started yet. Each skip is
 * published as a skipped result with its reason ({@link ProbeResult#skipped}) through the same sink as
 * results: never a fake failure, and never silence, so a verdict can tell Vigil's gap from the target's.
 *
 * <p>Time comes from the given Reactor {@link Scheduler} ({@code now()} and delayed tasks), so tests
 * drive it with a {@code VirtualTimeScheduler}. Monitor changes may arrive from any thread.
 */
public final class ProbeScheduler implements MonitorSink, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProbeScheduler.class);

    /** Skipped results published for the windows one late firing missed; older ones are only counted. */
    static final int MAX_LATE_RESULTS = 3;
    /** How long a shutdown may spend publishing its skipped results, so a drain stays quick at any fleet size. */
    static final Duration SHUTDOWN_SKIPS_BUDGET = Duration.ofSeconds(2);

    private final String region;
    private final String workerId;
    private final Scheduler timer;
    private final BiFunction<MonitorDefinition, Long, Mono<ProbeResult>> prober;
    private final Consumer<ProbeResult> sink;
    private final ScheduleListener listener;
    private final Scheduler work;
    private final Semaphore permits;
    private final Map<String, Entry> entries = new HashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong started = new AtomicLong();
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
    public ProbeScheduler(
            String region,
            String workerId,
            Scheduler timer,
            BiFunction<MonitorDefinition, Long, Mono<ProbeResult>> prober,
            Consumer<ProbeResult> sink,
            int concurrency,
            ScheduleListener listener) {
        this(
                region,
                workerId,
                timer,
                prober,
                sink,
                concurrency,
                listener,
                reactor.core.scheduler.Schedulers.immediate());
    }

    /**
     * @param work where probes are started (request set-up runs there), so the timer thread only keeps
     *             time; {@code Schedulers.immediate()} starts them on the timer thread (deterministic tests)
     */
    public ProbeScheduler(
            String region,
            String workerId,
            Scheduler timer,
            BiFunction<MonitorDefinition, Long, Mono<ProbeResult>> prober,
            Consumer<ProbeResult> sink,
            int concurrency,
            ScheduleListener listener,
            Scheduler work) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1");
        }
        this.region = region;
        this.workerId = workerId;
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
        long timeout = def.timeoutMs();
        long ws = Windows.windowStart(now, interval);
        long at = Windows.scheduledAt(def.id(), ws, interval, timeout);
        if (at < now) {
            long joinUntil = lateJoinDeadline(def.id(), ws, interval, timeout);
            if (e.lastProbedWindow >= ws || now >= joinUntil) {
                // This window was probed already, or a probe now could miss its verdict: begin at the next boundary.
                ws += interval;
                at = Windows.scheduledAt(def.id(), ws, interval, timeout);
            } else {
                // Joining late (a worker that just started): halfway to the join deadline, so the monitors whose
                // start has just passed are spread over the time they have left instead of all starting now.
                at = now + (joinUntil - now) / 2;
            }
        }
        plan(e, ws, at, now);
    }

    /**
     * Until when a probe of {@code monitorId} may still join the window starting at {@code ws}: its result must reach
     * the verdict before the monitor's own collection deadline (its scheduled start + the probe's timeout + the
     * pipeline's grace). A probe started by then finishes within its timeout and leaves half the default grace for
     * the way through Kafka. So a worker that starts (or restarts after a crash) mid-window contributes to that
     * window for the monitors whose start has only just passed, instead of waiting for the next one; with a grace
     * configured below the default, such a first result may arrive late and is then counted so.
     */
    static long lateJoinDeadline(String monitorId, long ws, long interval, long timeout) {
        return Windows.scheduledAt(monitorId, ws, interval, timeout) + Windows.DEFAULT_GRACE_MS / 2;
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
        boolean start;
        List<ProbeResult> skips = new ArrayList<>(1);
        synchronized (this) {
            if (closing || e.generation != gen || entries.get(e.def.id()) != e) {
                return;
            }
            def = e.def;
            long interval = def.intervalMs();
            long timeout = def.timeoutMs();
            long now = now();
            long planned = Windows.scheduledAt(def.id(), ws, interval, timeout);
            // Plan the next window from the boundary; if the timer was so late that windows passed, skip them.
            long next = ws + interval;
            long current = Windows.windowStart(now, interval);
            if (current > next) {
                long missed = (current - next) / interval;
                skipped.addAndGet(missed);
                listener.skipped(SkipReason.LATE, missed);
                // Only the latest few are published: a timer stalled for hours must not flood the results topic,
                // and older windows were decided long ago anyway.
                for (long w = Math.max(next, current - MAX_LATE_RESULTS * interval); w < current; w += interval) {
                    skips.add(skippedResult(def, w, now, SkipReason.LATE));
                }
                next = current;
            }
            plan(e, next, Windows.scheduledAt(def.id(), next, interval, timeout), now);
            if (e.lastProbedWindow >= ws) {
                start = false;
            } else if (e.running.get()) {
                skips.add(skip(def, ws, now, SkipReason.OVERRUN));
                start = false;
            } else if (!permits.tryAcquire()) {
                skips.add(skip(def, ws, now, SkipReason.OVERLOADED));
                start = false;
            } else {
                e.running.set(true);
                e.lastProbedWindow = ws;
                inFlight.incrementAndGet();
                started.incrementAndGet();
                listener.lag(Math.max(0, now - planned));
                start = true;
            }
        }
        // Handed on outside the lock: the sink may serialise and enqueue.
        skips.forEach(r -> hand(def, r));
        if (!start) {
            return;
        }
        Mono.defer(() -> prober.apply(def, ws))
                .subscribeOn(work)
                .doFinally(s -> finished(e))
                .subscribe(
                        result -> hand(def, result), ex -> LOG.error("probe of {} failed unexpectedly", def.id(), ex));
    }

    private void hand(MonitorDefinition def, ProbeResult result) {
        try {
            sink.accept(result);
        } catch (RuntimeException ex) {
            LOG.error("result of {} could not be handed on", def.id(), ex);
        }
    }

    private ProbeResult skip(MonitorDefinition def, long ws, long now, SkipReason reason) {
        skipped.incrementAndGet();
        listener.skipped(reason, 1);
        return skippedResult(def, ws, now, reason);
    }

    private ProbeResult skippedResult(MonitorDefinition def, long ws, long now, SkipReason reason) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        return ProbeResult.skipped(
                def.id(),
                region,
                workerId,
                ws,
                now,
                def.type(),
                reason,
                new UUID(r.nextLong(), r.nextLong()).toString());
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

    /**
     * Windows not probed since the scheduler started for want of capacity or time (overloaded, overrun, late), each one
     * also a skipped result or counted; a shutdown's skips are not among them (the listener still hears of them).
     */
    public long skippedWindows() {
        return skipped.get();
    }

    /** Probes started since the scheduler started. */
    public long probesStarted() {
        return started.get();
    }

    /**
     * Stops planning new probes and completes when every in-flight probe has finished (and been handed on). Each
     * monitor whose probe of the current window was still to come gets a skipped result ({@code shutting_down}), so
     * the window's verdict knows the gap is the worker's; publishing them stops after
     * {@link #SHUTDOWN_SKIPS_BUDGET} whatever the fleet's size.
     */
    public Mono<Void> drain(Duration timeout) {
        List<MonitorDefinition> pending = new ArrayList<>();
        long now;
        synchronized (this) {
            now = now();
            if (!closing) {
                closing = true;
                for (Entry e : entries.values()) {
                    e.timer.dispose();
                    MonitorDefinition def = e.def;
                    long ws = Windows.windowStart(now, def.intervalMs());
                    if (e.lastProbedWindow < ws
                            && Windows.scheduledAt(def.id(), ws, def.intervalMs(), def.timeoutMs()) > now) {
                        pending.add(def);
                    }
                }
            }
        }
        publishShutdownSkips(pending, now);
        if (inFlight.get() == 0) {
            drained.complete(null);
        }
        return Mono.fromFuture(drained).timeout(timeout).onErrorResume(ex -> {
            LOG.warn("{} probes still in flight after {}; shutting down without them", inFlight.get(), timeout);
            return Mono.empty();
        });
    }

    private void publishShutdownSkips(List<MonitorDefinition> pending, long now) {
        if (pending.isEmpty()) {
            return;
        }
        long until = System.nanoTime() + SHUTDOWN_SKIPS_BUDGET.toNanos();
        int sent = 0;
        for (MonitorDefinition def : pending) {
            if (System.nanoTime() > until) {
                break;
            }
            hand(def, skippedResult(def, Windows.windowStart(now, def.intervalMs()), now, SkipReason.SHUTTING_DOWN));
            sent++;
        }
        // not in skippedWindows(): a worker that is leaving is not a worker skipping probes (the heartbeats' count,
        // which Vigil's watch pages on); the gap it leaves is its region's to report, if no other worker serves it
        listener.skipped(SkipReason.SHUTTING_DOWN, pending.size());
        if (sent < pending.size()) {
            LOG.warn(
                    "shutting down: {} of {} skipped results were not published within {}",
                    pending.size() - sent,
                    pending.size(),
                    SHUTDOWN_SKIPS_BUDGET);
        }
    }

    @Override
    public void close() {
        drain(Duration.ofSeconds(30)).block();
    }
}
