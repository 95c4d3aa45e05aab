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
    /** Counter of group messages delivered, tagged with the channel. */
    public static final String GROUP_MESSAGES = "vigil.notifier.group.messages";
    /** Counter of the events group messages carried, tagged with the channel. */
    public static final String GROUP_EVENTS = "vigil.notifier.group.events";

    private io.micrometer.core.instrument.Counter groupMessages;
    private io.micrometer.core.instrument.Counter groupEvents;

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
        if (sender.rendersGroups()) {
            groupMessages = meters.counter(GROUP_MESSAGES, "channel", channel);
            groupEvents = meters.counter(GROUP_EVENTS, "channel", channel);
        }
    }

    /** Whether this channel shows several events of a grouped route in one message. */
    public boolean rendersGroups() {
        return sender.rendersGroups();
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

    /** One event of a group: what {@link #deliver} takes for it. */
    public record Member(AlertEvent event, List<String> routed) {}

    /**
     * Delivers the events a grouped route's wait gathered for this channel in one message: each event is claimed
     * for this channel as always, the events whose claims are ours go out together, and every such claim is settled
     * by the one send (naming the group message). An event already delivered here is folded; one whose claim
     * another sender holds takes the single path (it waits for that sender, then folds or sends alone). A transient
     * failure releases every claim and the group is tried again (claimed afresh); giving up dead-letters each event.
     * A group of one is an ordinary delivery. Completes with one result per member, in order.
     */
    public Mono<List<ChannelResult>> deliverGroup(List<Member> members) {
        if (members.size() == 1) {
            Member m = members.get(0);
            return deliver(m.event(), m.routed()).map(List::of);
        }
        Instant first = clock.instant();
        return groupAttempt(members, 1, first).doOnNext(results -> {
            for (ChannelResult r : results) {
                finals.computeIfAbsent(r.outcome(), this::deliveries).increment();
            }
        });
    }

    /** The claims of one group attempt and, when some were ours, what the send gave. */
    private record GroupStep(List<Claim> claims, List<Integer> ours, String groupId, SendStage.Sent sent) {}

    private Mono<List<ChannelResult>> groupAttempt(List<Member> members, int n, Instant first) {
        Mono<GroupStep> step = reactor.core.publisher.Flux.fromIterable(members)
                .flatMapSequential(m -> claims.claim(m.event().eventId(), channel))
                .collectList()
                .flatMap(cs -> {
                    List<Integer> ours = new java.util.ArrayList<>();
                    for (int i = 0; i < cs.size(); i++) {
                        if (cs.get(i).status() == Claim.Status.CLAIMED) {
                            ours.add(i);
                            resent(cs.get(i));
                        }
                    }
                    if (ours.isEmpty()) {
                        return Mono.just(new GroupStep(cs, ours, null, null));
                    }
                    String groupId = ours.size() == 1
                            ? null
                            : groupId(ours.stream()
                                    .map(i -> members.get(i).event().eventId())
                                    .toList());
                    Notification note = ours.size() == 1
                            ? new Notification(members.get(ours.get(0)).event(), channel, null)
                            : Notification.group(
                                    ours.stream()
                                            .map(i -> members.get(i).event())
                                            .toList(),
                                    channel,
                                    groupId);
                    return sender.send(note).map(sent -> new GroupStep(cs, ours, groupId, sent));
                });
        return lane.submit(step).flatMap(s -> {
            Mono<List<ChannelResult>> ours =
                    s.ours().isEmpty() ? Mono.just(List.of()) : settleGroup(members, n, first, s);
            return ours.flatMap(settled -> {
                java.util.Iterator<ChannelResult> sentOnes = settled.iterator();
                List<Mono<ChannelResult>> results = new java.util.ArrayList<>();
                for (int i = 0; i < members.size(); i++) {
                    Member m = members.get(i);
                    results.add(
                            switch (s.claims().get(i).status()) {
                                case DUPLICATE -> Mono.just(new ChannelResult(
                                        channel,
                                        FinalOutcome.DEDUPLICATED,
                                        n - 1,
                                        "already delivered within the dedupe window"));
                                    // another sender holds it: the single path waits for it, then folds or sends alone
                                case BUSY -> attempt(m.event(), m.routed(), n, first, Mono.empty());
                                case CLAIMED -> Mono.just(sentOnes.next());
                            });
                }
                return reactor.core.publisher.Flux.mergeSequential(results).collectList();
            });
        });
    }

    /**
     * The id of the message carrying these events here: derived from the channel and the event ids, so a resend of
     * the same group (after a transient failure, or by another instance) is the same message (an e-mail keeps its
     * Message-ID).
     */
    String groupId(List<String> eventIds) {
        StringBuilder sb = new StringBuilder(channel);
        new java.util.TreeSet<>(eventIds).forEach(id -> sb.append('\n').append(id));
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(sb.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return "group-" + java.util.HexFormat.of().formatHex(digest, 0, 16);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Settles every claim of one group send; completes with their results, in member order. */
    private Mono<List<ChannelResult>> settleGroup(List<Member> members, int n, Instant first, GroupStep s) {
        SendStage.Sent sent = s.sent();
        DeliveryOutcome o = sent.outcome();
        if (o instanceof DeliveryOutcome.Transient t && t.retryAfter() != null) {
            lane.holdOff(t.retryAfter());
        } else if (o instanceof DeliveryOutcome.Delivered ok && ok.slowDown() != null) {
            lane.holdOff(ok.slowDown());
        }
        sendTimers.computeIfAbsent(kind(o), this::sendTimer).record(sent.latencyMs(), TimeUnit.MILLISECONDS);
        RetryPolicy.Decision d = policy.decide(o, n, first, clock.instant());
        Settlement settlement = d instanceof RetryPolicy.Done
                ? Settlement.DELIVERED
                : d instanceof RetryPolicy.GiveUp ? Settlement.DEAD : Settlement.RELEASED;
        List<Member> ours = s.ours().stream().map(members::get).toList();
        Mono<Void> settled = reactor.core.publisher.Flux.fromIterable(s.ours())
                .flatMap(i -> {
                    AlertEvent e = members.get(i).event();
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
                            error(o),
                            s.groupId());
                    return records.settle(s.claims().get(i), attempt, settlement);
                })
                .then();
        if (d instanceof RetryPolicy.Done) {
            return settled.then(deadLetters.delivered(channel)).then(Mono.fromSupplier(() -> {
                if (ours.size() > 1) {
                    groupMessages.increment();
                    groupEvents.increment(ours.size());
                    LOG.info("group message {} to {} carried {} events", s.groupId(), channel, ours.size());
                }
                if (n > 1) {
                    heals.record(SelfHeals.DELIVERY_RETRY_SUCCEEDED);
                }
                return ours.stream()
                        .map(m -> new ChannelResult(channel, FinalOutcome.DELIVERED, n, null))
                        .toList();
            }));
        }
        if (d instanceof RetryPolicy.GiveUp g) {
            return settled.then(reactor.core.publisher.Flux.fromIterable(ours)
                            .concatMap(m -> deadLetters.deadLetter(m.event(), channel, g.reason(), n, m.routed()))
                            .then())
                    .thenReturn(ours.stream()
                            .map(m -> new ChannelResult(channel, FinalOutcome.DEAD_LETTERED, n, g.reason()))
                            .toList());
        }
        Duration wait = ((RetryPolicy.RetryIn) d).delay();
        return settled.then(Mono.delay(wait, timer)).then(Mono.defer(() -> groupAttempt(ours, n + 1, first)));
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
