package dev.vigil.notifier.core;

import dev.vigil.kit.retry.Backoff;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Stage 1: claim (eventId, channel). A store outage is retried without end (with a capped backoff): the event
 * stays uncommitted, the consumer's in-flight bound pauses consumption, and nothing is lost or sent unclaimed.
 */
public final class ClaimStage {
    private static final Logger LOG = LoggerFactory.getLogger(ClaimStage.class);
    /** Waits between attempts while the delivery store is away: jittered, 200 ms growing to at most 5 s. */
    static final Backoff STORE_RETRY = Backoff.jittered(Duration.ofMillis(200), 2.0, Duration.ofSeconds(5));

    private final DeliveryLog log;
    private final Scheduler timer;

    public ClaimStage(DeliveryLog log, Scheduler timer) {
        this.log = log;
        this.timer = timer;
    }

    public Mono<Claim> claim(String eventId, String channel) {
        return untilStored(() -> log.claim(eventId, channel), timer, "claim " + channel);
    }

    /**
     * Runs {@code work}, and on an error runs it again after {@link #STORE_RETRY}, without end. Costs one
     * operator on the happy path (unlike {@code retryWhen}, which builds its companion on every subscription).
     */
    static <T> Mono<T> untilStored(java.util.function.Supplier<Mono<T>> work, Scheduler timer, String what) {
        return attempt(work, timer, what, 0);
    }

    private static <T> Mono<T> attempt(java.util.function.Supplier<Mono<T>> work, Scheduler timer, String what, int n) {
        return Mono.defer(work).onErrorResume(e -> {
            if (n % 10 == 0) {
                LOG.warn("delivery store unavailable ({}), retrying: {}", what, e.toString());
            }
            return Mono.delay(STORE_RETRY.delay(n + 1), timer)
                    .then(Mono.defer(() -> attempt(work, timer, what, n + 1)));
        });
    }
}
