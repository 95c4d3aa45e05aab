package dev.vigil.notifier.core;

import dev.vigil.kit.retry.Backoff;
import java.time.Duration;
import java.time.Instant;
import java.util.function.DoubleSupplier;

/**
 * Pure retry decisions (docs/design.md#notifier): the service kit's {@link Backoff} — exponential with full jitter, a
 * uniformly random wait in [0, min(cap, base × multiplier^(attempt-1))], never shorter than the vendor's
 * Retry-After — within a delivery deadline counted from the first attempt.
 */
public final class RetryPolicy {
    private final Backoff backoff;
    private final Duration deadline;

    public RetryPolicy(Duration base, double multiplier, Duration cap, Duration deadline, DoubleSupplier random) {
        this.backoff = new Backoff(base, multiplier, cap, random);
        this.deadline = deadline;
    }

    public sealed interface Decision {}

    public record Done() implements Decision {}

    public record RetryIn(Duration delay) implements Decision {}

    public record GiveUp(String reason) implements Decision {}

    /** The ceiling of the jittered wait before attempt {@code attempt + 1}. */
    public Duration ceiling(int attempt) {
        return backoff.ceiling(attempt);
    }

    public Duration backoff(int attempt, Duration retryAfter) {
        return backoff.delay(attempt, retryAfter);
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
        if (Backoff.exceeds(Duration.between(firstAttempt, now), wait, deadline)) {
            return new GiveUp("delivery deadline of " + deadline + " passed after " + attempt
                    + " attempts; last error: " + t.reason());
        }
        return new RetryIn(wait);
    }
}
