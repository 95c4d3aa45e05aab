package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Dead-letters an undeliverable notification with its reason and raises {@code notifier/delivery-failing} on the
 * other channels (not for the notifier's own failure alerts, so a broken channel cannot loop); resolves that alert
 * on the channel's next successful delivery. Completes only when everything is durably written, so the event's
 * offset is never committed before.
 *
 * <p>Which channels have a failing alert open lives in the delivery log, not in memory: any instance, also after
 * a restart, resolves it. The mark is kept before the opened is raised and removed only after the resolved is, so a
 * crash in between costs at most a repeated alert (folded by the dedupe window), never one that stays open.
 */
public final class DeadLetterStage {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterStage.class);
    private final Escalations escalations;
    private final Routes routes;
    private final DeliveryLog log;
    private final String alertsTopic;
    private final Clock clock;
    private final Scheduler timer;
    private final Coalescer recoveries = new Coalescer();

    public DeadLetterStage(
            Escalations escalations, Routes routes, DeliveryLog log, String alertsTopic, Clock clock, Scheduler timer) {
        this.escalations = escalations;
        this.routes = routes;
        this.log = log;
        this.alertsTopic = alertsTopic;
        this.clock = clock;
        this.timer = timer;
    }

    public Mono<Void> deadLetter(AlertEvent e, String channel, String reason, int attempts, List<String> routed) {
        long now = clock.millis();
        LOG.error(
                "DEAD-LETTER notification eventId={} channel={} attempts={}: {}",
                e.eventId(),
                channel,
                attempts,
                reason);
        Mono<Void> dl = untilWritten(
                () -> escalations.deadLetter(
                        e.fingerprint(), DeliveryFailing.envelope(e, channel, reason, attempts, alertsTopic, now)),
                "dead letter");
        if (DeliveryFailing.isOwn(e)) {
            return dl;
        }
        FailingChannel candidate = DeliveryFailing.candidate(channel, routes.othersThan(channel, routed), now);
        // while the channel's alert is open, every failure re-raises that same alert (incident, override), which
        // the dedupe window folds
        return dl.then(ClaimStage.untilStored(() -> log.openFailing(candidate), timer, "failing " + channel))
                .flatMap(open -> untilWritten(
                        () -> escalations.raise(DeliveryFailing.opened(open, e, reason, now)),
                        "delivery-failing alert"));
    }

    /**
     * Called after each successful delivery on {@code channel}: if the channel has a failing alert open whose
     * opened has been dispatched, raises its {@code resolved} and closes it. Successes arriving together share one
     * look-up.
     */
    public Mono<Void> delivered(String channel) {
        return recoveries.run(
                channel, () -> ClaimStage.untilStored(() -> log.dispatchedFailing(channel), timer, "failing " + channel)
                        .flatMap(found -> found.map(this::resolve).orElse(Mono.empty())));
    }

    private Mono<Void> resolve(FailingChannel open) {
        return untilWritten(
                        () -> escalations.raise(DeliveryFailing.resolved(open, clock.millis())),
                        "delivery-failing resolution")
                .then(ClaimStage.untilStored(
                        () -> log.closeFailing(open.channel(), open.incidentId()), timer, "failing " + open.channel()))
                .doOnSuccess(v -> LOG.info(
                        "channel {} delivers again: resolved its delivery-failing alert {} on {}",
                        open.channel(),
                        open.incidentId(),
                        open.recipients()));
    }

    private Mono<Void> untilWritten(java.util.function.Supplier<Mono<Void>> write, String what) {
        return Mono.defer(write)
                .retryWhen(ClaimStage.STORE_RETRY.forever(
                        timer,
                        (failure, retry) -> LOG.warn("cannot write {} yet, retrying: {}", what, failure.toString())));
    }
}
