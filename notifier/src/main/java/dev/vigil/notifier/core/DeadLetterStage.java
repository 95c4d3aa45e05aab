package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.util.retry.Retry;

/**
 * Dead-letters an undeliverable notification with its reason and raises {@code notifier/delivery-failing} on the
 * other channels (not for the notifier's own failure alerts, so a broken channel cannot loop). Completes only
 * when both are durably written, so the event's offset is never committed before.
 */
public final class DeadLetterStage {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterStage.class);
    private final Escalations escalations;
    private final Routes routes;
    private final String alertsTopic;
    private final Clock clock;
    private final Scheduler timer;

    public DeadLetterStage(Escalations escalations, Routes routes, String alertsTopic, Clock clock, Scheduler timer) {
        this.escalations = escalations;
        this.routes = routes;
        this.alertsTopic = alertsTopic;
        this.clock = clock;
        this.timer = timer;
    }

    public Mono<Void> deadLetter(AlertEvent e, String channel, String reason, int attempts, List<String> routed) {
        long now = clock.millis();
        LOG.error("DEAD-LETTER notification eventId={} channel={} attempts={}: {}", e.eventId(), channel, attempts, reason);
        Mono<Void> dl = Mono.defer(() -> escalations.deadLetter(e.fingerprint(),
                DeliveryFailing.envelope(e, channel, reason, attempts, alertsTopic, now)));
        Mono<Void> raise = DeliveryFailing.isOwn(e) ? Mono.empty()
                : Mono.defer(() -> escalations.raise(DeliveryFailing.alert(e, channel, reason,
                        routes.othersThan(channel, routed), now)));
        return dl.then(raise).retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(200))
                .maxBackoff(Duration.ofSeconds(5)).scheduler(timer)
                .doBeforeRetry(s -> LOG.warn("cannot write dead letter yet, retrying: {}", s.failure().toString())));
    }
}
