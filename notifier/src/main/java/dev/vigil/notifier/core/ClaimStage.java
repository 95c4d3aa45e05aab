package dev.vigil.notifier.core;

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
     * Runs {@code work}, and on an error runs it again after a capped exponential backoff, without end. Costs one
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
            long ms = Math.min(5000, 200L << Math.min(n, 5));
            return Mono.delay(Duration.ofMillis(ms), timer).then(Mono.defer(() -> attempt(work, timer, what, n + 1)));
        });
    }

}
