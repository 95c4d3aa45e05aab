package dev.vigil.notifier.selfwatch;

import dev.vigil.schemas.contract.AlertEvent;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The notifier's end of the end-to-end canary. Streams turns every decided window of the canary monitor into one
 * {@value #FINGERPRINT} event; {@link #test} takes those out of the stream before routing (they are never claimed,
 * delivered or dead-lettered) and keeps the freshest passing window. A window passes when its verdict is {@code up}
 * or {@code degraded}: the canary proves that the pipeline moves, and a single blind region has its own self-alert.
 *
 * <p>Only the notifier instance that reads the canary's partition can judge it: {@code ownedSince} says since when
 * this instance does (empty while another one does). Before its first passing canary an owner is not fresh (it pings
 * nothing) but not stale either until {@code maxAge} has passed since it took the partition.
 */
public final class CanaryWatch implements Predicate<AlertEvent> {
    public static final String FINGERPRINT = "vigil/canary";
    private final Duration maxAge;
    private final Supplier<OptionalLong> ownedSince;
    private final AtomicLong freshestPassing = new AtomicLong(Long.MIN_VALUE);

    /** What the watch says at one instant. */
    public record Judgement(boolean owner, boolean fresh, boolean stale, double ageSeconds) {
        /** Not the owner: nothing to say (the age is NaN, so no alert rule compares it). */
        static Judgement notOwner() {
            return new Judgement(false, false, false, Double.NaN);
        }
    }

    /**
     * @param maxAge     the bound: older than this, the canary is stale
     * @param ownedSince since when (epoch ms) this instance reads the canary's partition; empty while it does not
     */
    public CanaryWatch(Duration maxAge, Supplier<OptionalLong> ownedSince) {
        if (maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("maxAge must be positive");
        }
        this.maxAge = maxAge;
        this.ownedSince = ownedSince;
    }

    public static boolean isCanary(AlertEvent e) {
        return FINGERPRINT.equals(e.fingerprint());
    }

    /** True for a canary event (consumed here, never routed); keeps its window when it passed. */
    @Override
    public boolean test(AlertEvent e) {
        if (!isCanary(e)) {
            return false;
        }
        String status = e.attributes().getOrDefault("status", "");
        if (status.equals("up") || status.equals("degraded")) {
            long window = windowStart(e);
            freshestPassing.accumulateAndGet(window, Math::max);
        }
        return true;
    }

    private static long windowStart(AlertEvent e) {
        try {
            return Long.parseLong(e.attributes().getOrDefault("windowStart", ""));
        } catch (NumberFormatException ex) {
            return e.firstSeen();
        }
    }

    public Duration maxAge() {
        return maxAge;
    }

    /** The freshest passing window's start (epoch ms), empty before the first. */
    public OptionalLong freshestPassingWindow() {
        long w = freshestPassing.get();
        return w == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(w);
    }

    /**
     * The judgement at {@code nowMs}: fresh while the freshest passing window started at most {@code maxAge} ago;
     * stale once both it and the time this instance took the partition are older than that. The age is the time
     * since the later of the two.
     */
    public Judgement judge(long nowMs) {
        OptionalLong owned = ownedSince.get();
        if (owned.isEmpty()) {
            return Judgement.notOwner();
        }
        long freshest = freshestPassing.get();
        long bound = maxAge.toMillis();
        boolean fresh = freshest != Long.MIN_VALUE && nowMs - freshest <= bound;
        long since = Math.max(freshest, owned.getAsLong());
        long age = Math.max(0, nowMs - since);
        return new Judgement(true, fresh, age > bound, age / 1000.0);
    }
}
