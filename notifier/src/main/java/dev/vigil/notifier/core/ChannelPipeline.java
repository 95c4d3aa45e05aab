package dev.vigil.notifier.core;

import dev.vigil.kit.ops.SelfHeals;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * One channel's delivery of one event, in the spirit of Alertmanager's notify stages:
 * claim → send (through the channel's own lane) → record, looping on transient failures (release, back off,
 * claim again) until delivered, dead-lettered, or found already delivered by someone else.
 *
 * <p>Two recoveries count as self-heals: a delivery that got through after at least one transient failure
 * ({@link SelfHeals#DELIVERY_RETRY_SUCCEEDED}, once per delivery however many retries it took), and a send made on a
 * claim taken over from a sender whose lease ran out ({@link SelfHeals#CLAIM_RESENT}, once per such send, whatever
 * its outcome: the delivery is moving again, and its later retries count as any other).
 */
public final class ChannelPipeline {
    private static final Logger LOG = LoggerFactory.getLogger(ChannelPipeline.class);
    /** The outcomes of one send, as {@link #kind} names them. */
    private static final List<String> SEND_KINDS = List.of("delivered", "transient", "permanent");

    private final String channel;
    private final ClaimStage claims;
    private final ChannelLane lane;
    private final SendStage sender;
    private final RecordStage records;
    private final DeadLetterStage deadLetters;
    private final RetryPolicy policy;
    private final Clock clock;
    private final Scheduler timer;
    private final Duration busyRetry;
    private final MeterRegistry meters;
    private final SelfHeals heals;
    private final java.util.Map<String, Timer> sendTimers = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Map<FinalOutcome, io.micrometer.core.instrument.Counter> finals =
            new java.util.concurrent.ConcurrentHashMap<>();

    public ChannelPipeline(
            String channel,
            ClaimStage claims,
            ChannelLane lane,
            SendStage sender,
            RecordStage records,
            DeadLetterStage deadLetters,
            RetryPolicy policy,
            Clock clock,
            Scheduler timer,
            Duration busyRetry,
            MeterRegistry meters) {
        this.channel = channel;
        this.claims = claims;
        this.lane = lane;
        this.sender = sender;
        this.records = records;
        this.deadLetters = deadLetters;
        this.policy = policy;
        this.clock = clock;
        this.timer = timer;
        this.busyRetry = busyRetry;
        this.meters = meters;
        this.heals = new SelfHeals(meters, SelfHeals.DELIVERY_RETRY_SUCCEEDED, SelfHeals.CLAIM_RESENT);
        // Every outcome's counter and every send timer exist from the start: a channel that has sent nothing yet
        // reads 0 on the dashboard, not "No data" (which looks like a broken scrape).
        for (FinalOutcome o : FinalOutcome.values()) {
            finals.put(o, deliveries(o));
        }
        for (String kind : SEND_KINDS) {
            sendTimers.put(kind, sendTimer(kind));
        }
    }

    private io.micrometer.core.instrument.Counter deliveries(FinalOutcome o) {
        return meters.counter(
                "vigil.notifier.deliveries",
                "channel",
                channel,
                "outcome",
                o.name().toLowerCase(java.util.Locale.ROOT));
    }

    private Timer sendTimer(String kind) {
        return Timer.builder("vigil.notifier.send")
                .tag("channel", channel)
                .tag("outcome", kind)
                .register(meters);
    }

    public String channel() {
        return channel;
    }

    public Mono<ChannelResult> deliver(AlertEvent e, List<String> routed) {
        return deliver(e, routed, Mono.empty());
    }

    /**
     * @param incidentRecorded completes when the event's incident row exists; only a vendor id waits for it, so
     *                         the incident upsert runs alongside the claim and the send instead of before them
     */
    public Mono<ChannelResult> deliver(AlertEvent e, List<String> routed, Mono<Void> incidentRecorded) {
        return Mono.deferContextual(context -> {
            io.opentelemetry.api.trace.Span span = DeliveryTrace.start(context, e, channel);
            return attempt(e, routed, 1, clock.instant(), incidentRecorded)
                    .doOnNext(r -> {
                        finals.computeIfAbsent(r.outcome(), this::deliveries).increment();
                        // only a transient failure leads to another send, so a second send means one was retried
                        if (r.outcome() == FinalOutcome.DELIVERED && r.attempts() > 1) {
                            heals.record(SelfHeals.DELIVERY_RETRY_SUCCEEDED);
                        }
                        DeliveryTrace.end(span, e, r);
                    })
                    .doOnError(err -> DeliveryTrace.fail(span, err));
        });
    }

    /** A claim and, when it was ours, what the send gave. */
    private record Step(Claim claim, SendStage.Sent sent) {}

    /**
     * The claim is taken inside the lane, right before the send, so time spent queued behind a rate limit never
     * eats into the claim's lease.
     */
    private Mono<ChannelResult> attempt(AlertEvent e, List<String> routed, int n, Instant first, Mono<Void> incident) {
        Mono<Step> step = claims.claim(e.eventId(), channel)
                .flatMap(c -> c.status() != Claim.Status.CLAIMED
                        ? Mono.just(new Step(c, null))
                        : vendorRef(e)
                                .flatMap(ref -> sender.send(new Notification(e, channel, ref.orElse(null))))
                                .doOnNext(sent -> resent(c))
                                .map(sent -> new Step(c, sent)));
        return lane.submit(step).flatMap(s -> switch (s.claim().status()) {
            case DUPLICATE -> Mono.just(new ChannelResult(
                    channel, FinalOutcome.DEDUPLICATED, n - 1, "already delivered within the dedupe window"));
            case BUSY -> Mono.delay(busyRetry, timer).then(Mono.defer(() -> attempt(e, routed, n, first, incident)));
            case CLAIMED -> settle(e, routed, n, first, s.claim(), s.sent(), incident);
        });
    }

    /** A send on a claim its previous holder left unsettled: the delivery it abandoned is moving again. */
    private void resent(Claim c) {
        if (c.takenOver()) {
            LOG.info(
                    "sent {} to {} again on a claim taken over from {}, whose lease ran out before it settled",
                    c.eventId(),
                    channel,
                    c.takenOverFrom());
            heals.record(SelfHeals.CLAIM_RESENT);
        }
    }

    private Mono<java.util.Optional<String>> vendorRef(AlertEvent e) {
        Mono<String> ref = sender.usesVendorRef() && e.state() != AlertState.OPENED
                ? records.vendorRef(e.incidentId(), e.fingerprint(), channel)
                : Mono.empty();
        return ref.map(java.util.Optional::of).defaultIfEmpty(java.util.Optional.empty());
    }

    private Mono<ChannelResult> settle(
            AlertEvent e,
            List<String> routed,
            int n,
            Instant first,
            Claim c,
            SendStage.Sent sent,
            Mono<Void> incident) {
        DeliveryOutcome o = sent.outcome();
        if (o instanceof DeliveryOutcome.Transient t && t.retryAfter() != null) {
            lane.holdOff(t.retryAfter());
        } else if (o instanceof DeliveryOutcome.Delivered ok && ok.slowDown() != null) {
            lane.holdOff(ok.slowDown());
        }
        sendTimers.computeIfAbsent(kind(o), this::sendTimer).record(sent.latencyMs(), TimeUnit.MILLISECONDS);
        RetryPolicy.Decision d = policy.decide(o, n, first, clock.instant());
        Attempt attempt = new Attempt(
                e.eventId(),
                e.incidentId(),
                e.fingerprint(),
                e.state(),
                channel,
                n,
                kind(o),
                o.httpStatus(),
                sent.latencyMs(),
                error(o));
        if (d instanceof RetryPolicy.Done) {
            String vendorRef = ((DeliveryOutcome.Delivered) o).vendorRef();
            Mono<Void> ref = vendorRef == null
                    ? Mono.empty()
                    : incident.then(records.saveVendorRef(e.incidentId(), e.fingerprint(), channel, vendorRef));
            // the channel works: a delivery-failing alert it has open ends here
            return ref.then(records.settle(c, attempt, Settlement.DELIVERED))
                    .then(deadLetters.delivered(channel))
                    .thenReturn(new ChannelResult(channel, FinalOutcome.DELIVERED, n, null));
        }
        if (d instanceof RetryPolicy.GiveUp g) {
            return records.settle(c, attempt, Settlement.DEAD)
                    .then(deadLetters.deadLetter(e, channel, g.reason(), n, routed))
                    .thenReturn(new ChannelResult(channel, FinalOutcome.DEAD_LETTERED, n, g.reason()));
        }
        Duration wait = ((RetryPolicy.RetryIn) d).delay();
        return records.settle(c, attempt, Settlement.RELEASED)
                .then(Mono.delay(wait, timer))
                .then(Mono.defer(() -> attempt(e, routed, n + 1, first, incident)));
    }

    static String kind(DeliveryOutcome o) {
        if (o instanceof DeliveryOutcome.Delivered) {
            return "delivered";
        }
        return o instanceof DeliveryOutcome.Transient ? "transient" : "permanent";
    }

    private static String error(DeliveryOutcome o) {
        if (o instanceof DeliveryOutcome.Transient t) {
            return t.reason();
        }
        if (o instanceof DeliveryOutcome.Permanent p) {
            return p.reason();
        }
        return null;
    }
}
