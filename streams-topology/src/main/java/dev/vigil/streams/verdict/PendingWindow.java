package dev.vigil.streams.verdict;

import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import dev.vigil.streams.store.StoreKeys;
import java.util.Map;
import java.util.TreeMap;

/** The results collected so far for one (monitor, window) whose verdict is not yet emitted. */
public record PendingWindow(String monitorId, long windowStart, Map<String, RegionResult> results) {
    public PendingWindow {
        results = results == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(results));
    }

    public static PendingWindow empty(String monitorId, long windowStart) {
        return new PendingWindow(monitorId, windowStart, Map.of());
    }

    public PendingWindow with(String region, RegionResult result) {
        var copy = new TreeMap<>(results);
        copy.put(region, result);
        return new PendingWindow(monitorId, windowStart, copy);
    }

    /** Store key: monitor id, a separator that sorts after every slug character, and the zero-padded window start. */
    public static String key(String monitorId, long windowStart) {
        return StoreKeys.of(monitorId, windowStart, 19);
    }

    public static String prefix(String monitorId) {
        return StoreKeys.prefix(monitorId);
    }
}
