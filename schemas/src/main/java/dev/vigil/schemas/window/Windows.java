package dev.vigil.schemas.window;

import java.nio.charset.StandardCharsets;

/**
 * Window arithmetic shared by the probe worker (when to probe) and the topology (when a window's
 * verdict is due): the only place it is done. All times are UTC epoch milliseconds.
 *
 * <ul>
 *   <li>{@code windowStart = floor(t / interval) * interval}: windows are aligned to boundaries, so
 *       scheduling never drifts with completion times;</li>
 *   <li>{@code spread = interval - timeout} (never negative): probe start times are spread over
 *       (nearly) the whole window, so a fleet's peak probe rate is its average rate, and a probe that
 *       starts at the latest offset still ends inside its window;</li>
 *   <li>{@code offset = hash(monitorId) mod spread}: deterministic per monitor, the same on every worker
 *       and in the topology, and the same on a replay;</li>
 *   <li>{@code collectionDeadline = windowStart + offset + timeout + grace}: each monitor's own; by then
 *       every region's probe of that monitor has ended and been published, or it will not count.</li>
 * </ul>
 */
public final class Windows {
    public static final long DEFAULT_GRACE_MS = 5_000;

    /**
     * A probe worker's warm-up, its first minute after a start: the worker counts a timeout then as its own gap, and
     * the region watch gives its heartbeats twice the usual time. One figure, so both sides agree on it.
     */
    public static final long WORKER_WARM_UP_MS = 60_000;

    private Windows() {}

    public static long windowStart(long epochMs, long intervalMs) {
        requirePositive(intervalMs);
        return Math.floorDiv(epochMs, intervalMs) * intervalMs;
    }

    /** The span of a window over which probe start times are spread: {@code interval - timeout}, at least 0. */
    public static long spreadMs(long intervalMs, long timeoutMs) {
        requirePositive(intervalMs);
        requireNotNegative(timeoutMs, 0);
        return Math.max(0, intervalMs - timeoutMs);
    }

    /** Deterministic start offset of {@code monitorId} inside each of its windows, in {@code [0, spread)}. */
    public static long offsetMs(String monitorId, long intervalMs, long timeoutMs) {
        long spread = spreadMs(intervalMs, timeoutMs);
        return spread == 0 ? 0 : Math.floorMod(fnv1a64(monitorId), spread);
    }

    /** When the probe of {@code monitorId} for the window starting at {@code windowStart} should start. */
    public static long scheduledAt(String monitorId, long windowStart, long intervalMs, long timeoutMs) {
        return windowStart + offsetMs(monitorId, intervalMs, timeoutMs);
    }

    /** The first window start strictly after {@code windowStart}. */
    public static long nextWindowStart(long windowStart, long intervalMs) {
        return windowStart(windowStart, intervalMs) + intervalMs;
    }

    /**
     * The wall-clock time at which the verdict of {@code monitorId}'s window starting at {@code windowStart} is
     * decided with what it has: the probe's scheduled start plus its timeout plus the pipeline's grace.
     */
    public static long collectionDeadline(
            String monitorId, long windowStart, long intervalMs, long timeoutMs, long graceMs) {
        requireNotNegative(timeoutMs, graceMs);
        return scheduledAt(monitorId, windowStart, intervalMs, timeoutMs) + timeoutMs + graceMs;
    }

    /** The latest collection deadline any monitor with this interval and timeout can have for the window. */
    public static long latestCollectionDeadline(long windowStart, long intervalMs, long timeoutMs, long graceMs) {
        requireNotNegative(timeoutMs, graceMs);
        long spread = spreadMs(intervalMs, timeoutMs);
        long latestOffset = spread == 0 ? 0 : spread - 1;
        return windowStart + latestOffset + timeoutMs + graceMs;
    }

    /** 64-bit FNV-1a over UTF-8: stable across JVMs and releases, unlike {@code String.hashCode} mixing. */
    static long fnv1a64(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= 0x100000001b3L;
        }
        return h;
    }

    private static void requirePositive(long intervalMs) {
        if (intervalMs <= 0) {
            throw new IllegalArgumentException("interval must be positive, was " + intervalMs);
        }
    }

    private static void requireNotNegative(long timeoutMs, long graceMs) {
        if (timeoutMs < 0 || graceMs < 0) {
            throw new IllegalArgumentException("timeout and grace must not be negative");
        }
    }
}
