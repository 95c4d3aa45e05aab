package dev.vigil.ingest.auth;

import dev.vigil.ingest.validate.TimeBounds;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Request ids one signing key used within the signature window, bounded in size. An id is remembered until its
 * timestamp has left the window (after that the staleness check refuses it anyway). When the cache is full of ids
 * that are all still inside the window, new requests are refused rather than forgetting a live id, which
 * would reopen the door to its replay. {@link SignatureVerifier} keeps one per key, so a key that fills its cache
 * (a runaway worker, a stolen secret) locks out only itself.
 */
public final class ReplayCache {
    /** Outcome of {@link #remember}. */
    public enum Admission {
        NEW,
        REPLAYED,
        FULL
    }

    private final int capacity;
    private final long windowMs;
    private final LinkedHashMap<String, Long> seen = new LinkedHashMap<>();

    public ReplayCache(int capacity, long windowMs) {
        this.capacity = capacity;
        this.windowMs = windowMs;
    }

    /** Records {@code id} (signed at {@code timestampMs}) unless it was seen; {@code nowMs} evicts expired ids. */
    public synchronized Admission remember(String id, long timestampMs, long nowMs) {
        if (seen.containsKey(id)) {
            return Admission.REPLAYED;
        }
        if (seen.size() >= capacity) {
            evictExpired(nowMs);
            if (seen.size() >= capacity) {
                return Admission.FULL;
            }
        }
        seen.put(id, timestampMs);
        return Admission.NEW;
    }

    /** Forgets an id whose request was not accepted (e.g. Kafka unavailable), so the sender may retry it. */
    public synchronized void forget(String id) {
        seen.remove(id);
    }

    public synchronized int size() {
        return seen.size();
    }

    private void evictExpired(long nowMs) {
        // Insertion order is roughly timestamp order, but skew allows some disorder: scan all.
        Iterator<Map.Entry<String, Long>> it = seen.entrySet().iterator();
        while (it.hasNext()) {
            long ts = it.next().getValue();
            if (!TimeBounds.within(ts, nowMs, windowMs)) {
                it.remove();
            }
        }
    }
}
