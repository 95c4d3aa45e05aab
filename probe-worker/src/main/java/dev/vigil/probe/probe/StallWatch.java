package dev.vigil.probe.probe;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * How long this worker's own threads could not run. A daemon thread asks to wake every {@link #TICK_MS} and records
 * by how much each wake-up came late: the time the process was not scheduled (a saturated host, a GC pause, a
 * suspended VM). A probe that timed out while the worker stalled measured the worker as much as its target, so the
 * probe rules ({@link Probes}) publish it as the worker's gap instead of a failure.
 *
 * <p>The worst lateness is kept per wall-clock second for the last {@link #SECONDS} seconds, lock-free: one slot per
 * second holds the second and its worst lateness in one long, so a reader never sees one without the other.
 */
public final class StallWatch implements AutoCloseable {
    /** The worst stall of the worker from {@code fromEpochMs} to {@code toEpochMs}, in ms (0 when none known). */
    @FunctionalInterface
    public interface Stalls {
        long worstMs(long fromEpochMs, long toEpochMs);

        /** No stall ever: for tests and tools that run no watch. */
        Stalls NONE = (from, to) -> 0;
    }

    /** How often the watch asks to wake; lateness under a tick is noise. */
    static final long TICK_MS = 10;
    /** How many seconds of history are kept: longer than any probe's timeout. */
    static final int SECONDS = 256;

    private static final int LATENESS_BITS = 20;
    private static final long LATENESS_MASK = (1L << LATENESS_BITS) - 1;

    private final AtomicLongArray slots = new AtomicLongArray(SECONDS);
    private final Thread thread;
    private volatile boolean running = true;
    /** When the watch last woke (nanoTime): a wake-up overdue now is a stall still going on. */
    private volatile long lastWoke = System.nanoTime();

    private StallWatch() {
        this.thread = new Thread(this::watch, "vigil-stall-watch");
        this.thread.setDaemon(true);
    }

    /** Starts a watch on its own daemon thread. */
    public static StallWatch start() {
        StallWatch watch = new StallWatch();
        watch.thread.start();
        return watch;
    }

    /** The watch's view as {@link Stalls}. */
    public Stalls stalls() {
        return this::worstMs;
    }

    private void watch() {
        long tick = TimeUnit.MILLISECONDS.toNanos(TICK_MS);
        long due = System.nanoTime() + tick;
        while (running) {
            LockSupport.parkNanos(Math.max(0, due - System.nanoTime()));
            long woke = System.nanoTime();
            lastWoke = woke;
            record(System.currentTimeMillis(), TimeUnit.NANOSECONDS.toMillis(Math.max(0, woke - due)));
            due = woke + tick;
        }
    }

    /** Records that the wake-up due just before {@code epochMs} came {@code lateMs} late. */
    void record(long epochMs, long lateMs) {
        long second = epochMs / 1000;
        int slot = (int) Math.floorMod(second, (long) SECONDS);
        long late = Math.min(lateMs, LATENESS_MASK);
        slots.accumulateAndGet(slot, (second << LATENESS_BITS) | late, (held, fresh) -> {
            if ((held >>> LATENESS_BITS) != (fresh >>> LATENESS_BITS)) {
                return fresh; // a new second takes the slot over
            }
            return Math.max(held, fresh);
        });
    }

    /**
     * The worst lateness recorded in the seconds from {@code fromEpochMs} to {@code toEpochMs}, both included, and
     * when that span reaches the present the stall still going on (the watch may not have run since).
     */
    public long worstMs(long fromEpochMs, long toEpochMs) {
        long first = Math.max(fromEpochMs / 1000, toEpochMs / 1000 - SECONDS + 1);
        long worst = 0;
        for (long second = first; second <= toEpochMs / 1000; second++) {
            long held = slots.get((int) Math.floorMod(second, (long) SECONDS));
            if ((held >>> LATENESS_BITS) == second) {
                worst = Math.max(worst, held & LATENESS_MASK);
            }
        }
        if (toEpochMs >= System.currentTimeMillis() - 1000) {
            long overdue = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastWoke) - TICK_MS;
            worst = Math.max(worst, overdue);
        }
        return worst;
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
    }
}
