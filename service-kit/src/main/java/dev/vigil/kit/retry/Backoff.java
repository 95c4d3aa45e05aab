package dev.vigil.kit.retry;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.ObjIntConsumer;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.util.retry.Retry;

/**
 * The one backoff every Vigil retry uses: exponential with full jitter (a uniformly random wait in
 * {@code [0, min(cap, base × multiplier^(attempt-1))]}, so that many clients failing together do not come back
 * together), never shorter than the server's {@code Retry-After} when it gave one. Deadlines belong to the caller,
 * which knows when it started ({@link #exceeds}).
 */
public final class Backoff {
    private final Duration base;
    private final double multiplier;
    private final Duration cap;
    private final DoubleSupplier random;

    /**
     * @param random uniform in [0, 1); tests pass a fixed value
     * @throws IllegalArgumentException for a non-positive base or cap, a cap below the base, or a multiplier below 1
     */
    public Backoff(Duration base, double multiplier, Duration cap, DoubleSupplier random) {
        if (base == null || base.isNegative() || base.isZero()) {
            throw new IllegalArgumentException("backoff base must be positive, was " + base);
        }
        if (cap == null || cap.compareTo(base) < 0) {
            throw new IllegalArgumentException("backoff cap must be at least the base (" + base + "), was " + cap);
        }
        if (!(multiplier >= 1.0)) {
            throw new IllegalArgumentException("backoff multiplier must be at least 1, was " + multiplier);
        }
        this.base = base;
        this.multiplier = multiplier;
        this.cap = cap;
        this.random = random;
    }

    /** Full jitter from a thread-local random source. */
    public static Backoff jittered(Duration base, double multiplier, Duration cap) {
        return new Backoff(
                base, multiplier, cap, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** The ceiling of the wait after failed attempt {@code attempt} (1 for the first failure). */
    public Duration ceiling(int attempt) {
        double ms = base.toMillis() * Math.pow(multiplier, Math.max(0, attempt - 1));
        return ms >= cap.toMillis() ? cap : Duration.ofMillis((long) ms);
    }

    /** The wait after failed attempt {@code attempt}: jittered below the ceiling, at least {@code retryAfter}. */
    public Duration delay(int attempt, Duration retryAfter) {
        Duration d = Duration.ofMillis(
                (long) (random.getAsDouble() * ceiling(attempt).toMillis()));
        return retryAfter != null && retryAfter.compareTo(d) > 0 ? retryAfter : d;
    }

    /** {@link #delay(int, Duration)} without a server's hint. */
    public Duration delay(int attempt) {
        return delay(attempt, null);
    }

    /**
     * A Reactor {@code retryWhen} spec that retries without end, waiting {@link #delay(int)} before each retry on
     * {@code timer} and telling {@code beforeRetry} the failure and the retry's number (1 for the first).
     */
    public Retry forever(Scheduler timer, ObjIntConsumer<Throwable> beforeRetry) {
        return Retry.from(signals -> signals.concatMap(signal -> {
            int retry = (int) Math.min(Integer.MAX_VALUE, signal.totalRetries() + 1);
            beforeRetry.accept(signal.failure(), retry);
            return Mono.delay(delay(retry), timer);
        }));
    }

    /** Whether waiting {@code wait} from {@code elapsed} into an operation would pass its {@code deadline}. */
    public static boolean exceeds(Duration elapsed, Duration wait, Duration deadline) {
        return elapsed.plus(wait).compareTo(deadline) > 0;
    }
}
