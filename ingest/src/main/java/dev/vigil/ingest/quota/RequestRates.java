package dev.vigil.ingest.quota;

import dev.vigil.kit.http.HttpProblem;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Requests per second per app on one route, as a token bucket: {@code burst} requests at once from an idle bucket,
 * then {@code perSecond} sustained. Over it the request is answered 429 with Retry-After (when the next token is
 * due) before its body is read. One bucket per app that has a key, so the memory is bounded by the configuration.
 */
public final class RequestRates {
    private final String what;
    private final double perSecond;
    private final double burst;
    private final LongSupplier nanos;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    /** @param what the route in words, for the problem detail (e.g. {@code metric}) */
    public RequestRates(String what, int perSecond, int burst, LongSupplier nanos) {
        this.what = what;
        this.perSecond = perSecond;
        this.burst = burst;
        this.nanos = nanos;
    }

    /** Takes one token of {@code app}'s bucket, or throws 429 with the seconds until the next one. */
    public void admit(String app) {
        long waitNanos = buckets.computeIfAbsent(app, a -> new Bucket(burst, nanos.getAsLong()))
                .take();
        if (waitNanos > 0) {
            int seconds = (int) Math.max(1, Math.min(3600, (waitNanos + 999_999_999L) / 1_000_000_000L));
            throw new HttpProblem(
                    429,
                    "rate-limited",
                    "Too many requests",
                    "this app may send " + (long) perSecond + " " + what + " requests per second (bursts of "
                            + (long) burst + "); retry after " + seconds + " s",
                    Map.of("retryAfterSeconds", seconds));
        }
    }

    private final class Bucket {
        private double tokens;
        private long last;

        Bucket(double tokens, long now) {
            this.tokens = tokens;
            this.last = now;
        }

        /** 0 when a token was taken, else the nanoseconds until one is due (nothing taken). */
        synchronized long take() {
            long now = nanos.getAsLong();
            tokens = Math.min(burst, tokens + (now - last) / 1e9 * perSecond);
            last = now;
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            return (long) Math.ceil((1 - tokens) / perSecond * 1e9);
        }
    }
}
