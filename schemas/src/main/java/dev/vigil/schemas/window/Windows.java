package dev.vigil.schemas.window;

import java.nio.charset.StandardCharsets;

/**
 * Window arithmetic shared by the probe worker (when to probe) and the topology (when a window's
 * verdict is due). All times are UTC epoch milliseconds.
 *
 * <ul>
 *   <li>{@code windowStart = floor(t / interval) * interval}: windows are aligned to boundaries, so
 *       scheduling never drifts with completion times;</li>
 *   <li>{@code spread = min(interval / 4, 15 s)}: probe start times are spread over the start of the
 *       window so many monitors do not fire in the same millisecond;</li>
 *   <li>{@code offset = hash(monitorId) mod spread}: deterministic per monitor, the same on every worker;</li>
 *   <li>{@code collectionDeadline = windowStart + spread + timeout + grace}: by then every region's
 *       probe has ended and been published, or it will not count.</li>
 * </ul>
 */
public final class Windows {
    public static final long MAX_SPREAD_MS = 15_000;
    public static final long DEFAULT_GRACE_MS = 5_000;

    private Windows() {
    }

    public static long windowStart(long epochMs, long intervalMs) {
        requirePositive(intervalMs);
        return Math.floorDiv(epochMs, intervalMs) * intervalMs;
    }

    public static long spreadMs(long intervalMs) {
        requirePositive(intervalMs);
        return Math.min(intervalMs / 4, MAX_SPREAD_MS);
    }

    /** Deterministic start offset of {@code monitorId} inside each of its windows, in {@code [0, spread)}. */
    public static long offsetMs(String monitorId, long intervalMs) {
        long spread = spreadMs(intervalMs);
        return spread == 0 ? 0 : Math.floorMod(fnv1a64(monitorId), spread);
    }

    /** When the probe of {@code monitorId} for the window starting at {@code windowStart} should start. */
    public static long scheduledAt(String monitorId, long windowStart, long intervalMs) {
        return windowStart + offsetMs(monitorId, intervalMs);
    }

    /** The first window start strictly after {@code windowStart}. */
    public static long nextWindowStart(long windowStart, long intervalMs) {
        return windowStart(windowStart, intervalMs) + intervalMs;
    }

    /** The latest wall-clock time at which a window's verdict is emitted. */
    public static long collectionDeadline(long windowStart, long intervalMs, long timeoutMs, long graceMs) {
        if (timeoutMs < 0 || graceMs < 0) {
            throw new IllegalArgumentException("timeout and grace must not be negative");
        }
        return windowStart + spreadMs(intervalMs) + timeoutMs + graceMs;
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
}
