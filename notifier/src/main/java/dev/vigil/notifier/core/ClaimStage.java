package dev.vigil.notifier.core;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.util.retry.Retry;

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
        return Mono.defer(() -> log.claim(eventId, channel))
                .retryWhen(storeRetry(timer, "claim " + channel));
    }

    static Retry storeRetry(Scheduler timer, String what) {
        return Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(200))
                .maxBackoff(Duration.ofSeconds(5))
                .scheduler(timer)
                .doBeforeRetry(s -> {
                    if (s.totalRetries() % 10 == 0) {
                        LOG.warn("delivery store unavailable ({}), retrying: {}", what, s.failure().toString());
                    }
                });
    }
}
