package dev.vigil.ingest.quota;

import dev.vigil.kit.http.HttpProblem;
import dev.vigil.schemas.contract.DomainMetric;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The distinct metric series an app may have live at once. A series is a metric's name, status, pathname and labels;
 * it is live while it was written within {@code idleExpiry}. The rule: a batch that would bring its app above
 * {@code maxPerApp} live series is refused whole (429 {@code series-limit}, Retry-After: when the oldest live series
 * expires), nothing of it published; series the app already has are always accepted. Each app's memory is at most
 * {@code maxPerApp} 64-bit digests with their last write time, and apps are the configured ones, so the memory is
 * bounded whatever the traffic.
 */
public final class SeriesLimiter {
    private final int maxPerApp;
    private final long idleExpiryMs;
    private final Map<String, LinkedHashMap<Long, Long>> byApp = new ConcurrentHashMap<>();

    public SeriesLimiter(int maxPerApp, long idleExpiryMs) {
        this.maxPerApp = maxPerApp;
        this.idleExpiryMs = idleExpiryMs;
    }

    /** Records the batch's series for {@code app}, or throws 429 recording nothing. */
    public void admit(String app, Collection<DomainMetric> metrics, long nowMs) {
        Set<Long> batch = new HashSet<>();
        metrics.forEach(m -> batch.add(digest(m)));
        if (batch.isEmpty()) {
            return;
        }
        LinkedHashMap<Long, Long> live = byApp.computeIfAbsent(app, a -> new LinkedHashMap<>(16, 0.75f, true));
        synchronized (live) {
            expire(live, nowMs);
            int fresh = 0;
            for (Long s : batch) {
                if (!live.containsKey(s)) {
                    fresh++;
                }
            }
            if (live.size() + fresh > maxPerApp) {
                long oldest = live.isEmpty() ? nowMs : live.values().iterator().next();
                long waitMs = Math.max(1000, oldest + idleExpiryMs - nowMs);
                int seconds = (int) Math.min(Integer.MAX_VALUE, (waitMs + 999) / 1000);
                throw new HttpProblem(
                        429,
                        "series-limit",
                        "Too many series",
                        "this batch would give the app " + (live.size() + fresh) + " live metric series, more than the "
                                + maxPerApp + " allowed (a series is live while written within the last "
                                + idleExpiryMs / 1000 + " s); nothing of it was accepted",
                        Map.of("retryAfterSeconds", seconds));
            }
            batch.forEach(s -> live.put(s, nowMs));
        }
    }

    /** Live series of {@code app} (for metrics and tests). */
    public int size(String app) {
        LinkedHashMap<Long, Long> live = byApp.get(app);
        if (live == null) {
            return 0;
        }
        synchronized (live) {
            return live.size();
        }
    }

    /** Drops series idle for too long; access order keeps the least recently written first. */
    private void expire(LinkedHashMap<Long, Long> live, long nowMs) {
        Iterator<Map.Entry<Long, Long>> it = live.entrySet().iterator();
        while (it.hasNext()) {
            if (it.next().getValue() + idleExpiryMs > nowMs) {
                return;
            }
            it.remove();
        }
    }

    static long digest(DomainMetric m) {
        StringBuilder key = new StringBuilder();
        key.append(m.metricName())
                .append('\u0000')
                .append(m.status())
                .append('\u0000')
                .append(m.pathname());
        if (m.labels() != null) {
            new TreeMap<>(m.labels())
                    .forEach(
                            (k, v) -> key.append('\u0000').append(k).append('=').append(v));
        }
        try {
            byte[] d =
                    MessageDigest.getInstance("SHA-256").digest(key.toString().getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(d).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
