package dev.vigil.streams.verdict;

import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import dev.vigil.schemas.contract.SkipReason;
import dev.vigil.streams.store.StoreKeys;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The results collected so far for one (monitor, window) whose verdict is not yet emitted: the regions that probed the
 * target ({@code results}) and the regions whose worker said it did not probe, with why ({@code skipped}). A region is
 * in at most one of the two; a real result replaces a skip.
 */
public record PendingWindow(
        String monitorId, long windowStart, Map<String, RegionResult> results, Map<String, SkipReason> skipped) {
    public PendingWindow {
        results = results == null || results.isEmpty() ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(results));
        skipped = skipped == null || skipped.isEmpty() ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(skipped));
    }

    /** A window without skips. */
    public PendingWindow(String monitorId, long windowStart, Map<String, RegionResult> results) {
        this(monitorId, windowStart, results, null);
    }

    public static PendingWindow empty(String monitorId, long windowStart) {
        return new PendingWindow(monitorId, windowStart, Map.of(), Map.of());
    }

    /** With the region's result, which replaces a skip of the same region. */
    public PendingWindow with(String region, RegionResult result) {
        var copy = new TreeMap<>(results);
        copy.put(region, result);
        if (!skipped.containsKey(region)) {
            return new PendingWindow(monitorId, windowStart, copy, skipped);
        }
        var skips = new TreeMap<>(skipped);
        skips.remove(region);
        return new PendingWindow(monitorId, windowStart, copy, skips);
    }

    /** With the region skipped; callers check first that it has neither a result nor a skip. */
    public PendingWindow withSkip(String region, SkipReason reason) {
        var skips = new TreeMap<>(skipped);
        skips.put(region, reason);
        return new PendingWindow(monitorId, windowStart, results, skips);
    }

    /** True when the region has a result or a skip. */
    public boolean heardFrom(String region) {
        return results.containsKey(region) || skipped.containsKey(region);
    }

    /** Store key: monitor id, a separator that sorts after every slug character, and the zero-padded window start. */
    public static String key(String monitorId, long windowStart) {
        return StoreKeys.of(monitorId, windowStart, 19);
    }

    public static String prefix(String monitorId) {
        return StoreKeys.prefix(monitorId);
    }
}
