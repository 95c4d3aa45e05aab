package dev.vigil.ingest.quota;

import dev.vigil.kit.http.HttpProblem;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The request body bytes ingest holds at once, shared out by principal: each principal (an app's key on one route, a
 * probe worker's key id, all unknown key ids together, the BetterStack token) may hold at most its share, and the
 * last part of the server's budget is kept for alerts. Without it the budget went first come, first served: one
 * caller's slow bodies could take it all and every page was refused.
 *
 * <p>A request takes from its lease what its buffer holds (the first buffer too, before a body byte has arrived), so
 * what is counted is what is allocated. A principal over its share is answered 429, the server's shared part being
 * full 503; both with Retry-After, nothing read further.
 */
public final class BodyShares {
    /** Which part of the budget a request may draw on. */
    public enum Lane {
        /** Metrics, probe results, worker heartbeats: the shared part only. */
        GENERAL,
        /** Alerts and vendor acknowledgements: the shared part and the reserve. */
        ALERTS
    }

    /** The principal every unknown signing key id is counted as, so none of them holds more than one share. */
    public static final String UNKNOWN_KEY = "key:?";

    private final long total;
    private final long reserved;
    private final long perPrincipal;
    private final AtomicLong used = new AtomicLong();
    private final Map<String, AtomicLong> byPrincipal = new ConcurrentHashMap<>();

    /**
     * @param total        body bytes the server holds at once
     * @param reserved     the part of {@code total} only {@link Lane#ALERTS} may use
     * @param perPrincipal the most one principal may hold
     */
    public BodyShares(long total, long reserved, long perPrincipal) {
        if (total < 1 || reserved < 0 || reserved >= total || perPrincipal < 1) {
            throw new IllegalArgumentException("need 0 <= reserved < total and perPrincipal >= 1");
        }
        this.total = total;
        this.reserved = reserved;
        this.perPrincipal = perPrincipal;
    }

    public Lease lease(String principal, Lane lane) {
        return new Lease(principal, lane);
    }

    /** Bytes held now, over all principals. */
    public long used() {
        return used.get();
    }

    /** Bytes {@code principal} holds now. */
    public long used(String principal) {
        AtomicLong n = byPrincipal.get(principal);
        return n == null ? 0 : n.get();
    }

    private static boolean tryAdd(AtomicLong counter, long n, long limit) {
        while (true) {
            long now = counter.get();
            if (now + n > limit) {
                return false;
            }
            if (counter.compareAndSet(now, now + n)) {
                return true;
            }
        }
    }

    /** One request's hold on the budget; {@link #release} gives everything back (idempotent). */
    public final class Lease {
        private final String principal;
        private final Lane lane;
        private long held;

        private Lease(String principal, Lane lane) {
            this.principal = principal;
            this.lane = lane;
        }

        /** Takes {@code n} more bytes or throws 429 (this principal's share) / 503 (the server's part), taking nothing. */
        public synchronized void take(long n) {
            if (n <= 0) {
                return;
            }
            AtomicLong mine = byPrincipal.computeIfAbsent(principal, k -> new AtomicLong());
            if (!tryAdd(mine, n, perPrincipal)) {
                throw new HttpProblem(
                        429,
                        "body-budget",
                        "Too many requests",
                        "this credential holds as many request bodies as it may at once (" + perPrincipal
                                + " bytes); retry when earlier requests are answered",
                        Map.of("retryAfterSeconds", 1));
            }
            if (!tryAdd(used, n, lane == Lane.ALERTS ? total : total - reserved)) {
                mine.addAndGet(-n);
                throw new HttpProblem(
                        503,
                        "busy",
                        "Server busy",
                        "the server holds as many request bodies as it may; retry shortly",
                        Map.of("retryAfterSeconds", 1));
            }
            held += n;
        }

        public synchronized void release() {
            if (held > 0) {
                used.addAndGet(-held);
                AtomicLong mine = byPrincipal.get(principal);
                if (mine != null) {
                    mine.addAndGet(-held);
                }
                held = 0;
            }
        }

        public synchronized long held() {
            return held;
        }
    }
}
