package dev.vigil.notifier.core;

import java.time.Duration;
import java.time.Instant;
import java.util.function.DoubleSupplier;

/**
 * Pure retry decisions (SPEC section 8): exponential backoff with full jitter — a uniformly random wait in
 * [0, min(cap, base × multiplier^(attempt-1))] — never shorter than the vendor's Retry-After, within a delivery
 * deadline counted from the first attempt.
 */
public final class RetryPolicy {
    private final Duration base;
    private final double multiplier;
    private final Duration cap;
    private final Duration deadline;
    private final DoubleSupplier random;

    public RetryPolicy(Duration base, double multiplier, Duration cap, Duration deadline, DoubleSupplier random) {
        this.base = base;
        this.multiplier = multiplier;
        this.cap = cap;
        this.deadline = deadline;
        this.random = random;
    }

    public sealed interface Decision {
    }

    public record Done() implements Decision {
    }

    public record RetryIn(Duration delay) implements Decision {
    }

    public record GiveUp(String reason) implements Decision {
    }

    /** The ceiling of the jittered wait before attempt {@code attempt + 1}. */
    public Duration ceiling(int attempt) {
        double ms = base.toMillis() * Math.pow(multiplier, Math.max(0, attempt - 1));
        return ms >= cap.toMillis() ? cap : Duration.ofMillis((long) ms);
    }

    public Duration backoff(int attempt, Duration retryAfter) {
        long jittered = (long) (random.getAsDouble() * ceiling(attempt).toMillis());
        Duration d = Duration.ofMillis(jittered);
        return retryAfter != null && retryAfter.compareTo(d) > 0 ? retryAfter : d;
    }

    public Decision decide(DeliveryOutcome outcome, int attempt, Instant firstAttempt, Instant now) {
        if (outcome instanceof DeliveryOutcome.Delivered) {
            return new Done();
        }
        if (outcome instanceof DeliveryOutcome.Permanent p) {
            return new GiveUp("permanent failure: " + p.reason());
        }
        DeliveryOutcome.Transient t = (DeliveryOutcome.Transient) outcome;
        Duration wait = backoff(attempt, t.retryAfter());
        Instant giveUpAt = firstAttempt.plus(deadline);
        if (now.plus(wait).isAfter(giveUpAt)) {
            return new GiveUp("delivery deadline of " + deadline + " passed after " + attempt
                    + " attempts; last error: " + t.reason());
        }
        return new RetryIn(wait);
    }
}
