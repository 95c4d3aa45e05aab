package dev.vigil.notifier.core;

import dev.vigil.notifier.core.stage.ClaimStep;
import dev.vigil.notifier.core.stage.DeadLetterStep;
import dev.vigil.notifier.core.stage.Delivery;
import dev.vigil.notifier.core.stage.DeliveryMeters;
import dev.vigil.notifier.core.stage.LaneStage;
import dev.vigil.notifier.core.stage.RetryStep;
import dev.vigil.notifier.core.stage.SendStep;
import dev.vigil.notifier.core.stage.SettleStep;
import dev.vigil.notifier.core.stage.StageList;
import dev.vigil.schemas.contract.AlertEvent;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * One channel's delivery of one event, in the spirit of Alertmanager's notify stages: a named list of stages
 * ({@link #describe()}), run again after the wait a stage asks for (a busy claim, a retry's backoff) until the
 * delivery is delivered, dead-lettered, or found already delivered by someone else. The list is
 * lane[claim → send] → retry → settle → dead-letter: the claim is durable before each send, the settlement follows
 * the retry decision, and a retried send is claimed afresh.
 *
 * <p>Counting final outcomes and tracing wrap the list rather than sit in it: they see every delivery once, however
 * many runs of the list it took.
 */
public final class ChannelPipeline {
    private static final Logger LOG = LoggerFactory.getLogger(ChannelPipeline.class);
    /** Counter of group messages delivered, tagged with the channel. */
    public static final String GROUP_MESSAGES = DeliveryMeters.GROUP_MESSAGES;
    /** Counter of the events group messages carried, tagged with the channel. */
    public static final String GROUP_EVENTS = DeliveryMeters.GROUP_EVENTS;
    /**
     * What the grouped path does, in the single path's terms: each member claimed, one message sent for the ones
     * that are ours, every such claim settled by it.
     */
    private static final List<String> GROUP_STAGES =
            List.of("lane", "claim each", "send one", "retry", "settle each", "dead-letter each");

    private final String channel;
    /** The claim step, shared by the single path and the grouped one. */
    private final ClaimStep claim;

    private final ChannelLane lane;
    private final SendStage sender;
    private final RecordStage records;
    private final DeadLetterStage deadLetters;
    private final RetryPolicy policy;
    private final Clock clock;
    private final Scheduler timer;
    private final DeliveryMeters meters;
    private final StageList stages;

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
        this.claim = new ClaimStep(claims, busyRetry);
        this.lane = lane;
        this.sender = sender;
        this.records = records;
        this.deadLetters = deadLetters;
        this.policy = policy;
        this.clock = clock;
        this.timer = timer;
        this.meters = new DeliveryMeters(channel, meters, sender.rendersGroups());
        this.stages = stages(claim, lane, sender, records, deadLetters, policy, clock, this.meters);
    }

    /**
     * The one place the stage list is assembled: every channel runs the same stages, over its own lane, vendor and
     * meters.
     */
    private static StageList stages(
            ClaimStep claim,
            ChannelLane lane,
            SendStage sender,
            RecordStage records,
            DeadLetterStage deadLetters,
            RetryPolicy policy,
            Clock clock,
            DeliveryMeters meters) {
        return StageList.of(
                new LaneStage(lane, StageList.of(claim, new SendStep(sender, records, meters))),
                new RetryStep(policy, clock),
                new SettleStep(records),
                new DeadLetterStep(deadLetters));
    }

    /** Whether this channel shows several events of a grouped route in one message. */
    public boolean rendersGroups() {
        return sender.rendersGroups();
    }

    public String channel() {
        return channel;
    }

    /** The stages one event's delivery here runs through. */
    public StageList stages() {
        return stages;
    }

    /** The pipeline as data: its stage names joined by arrows. */
    public String describe() {
        return stages.describe();
    }

    /** What a grouped route's message goes through here, in the same terms as {@link #describe()}. */
    public String describeGroup() {
        return String.join(" \u2192 ", GROUP_STAGES);
    }

    @Override
    public String toString() {
        return channel + ": " + describe();
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
            return run(Delivery.first(e, channel, routed, clock.instant(), incidentRecorded))
                    .doOnNext(r -> {
                        meters.finished(r.outcome());
                        // only a transient failure leads to another send, so a second send means one was retried
                        if (r.outcome() == FinalOutcome.DELIVERED && r.attempts() > 1) {
                            meters.retrySucceeded();
                        }
                        DeliveryTrace.end(span, e, r);
                    })
                    .doOnError(err -> DeliveryTrace.fail(span, err));
        });
    }

    /** Runs the stage list, and again after the wait it ends with, until it ends with an outcome. */
    private Mono<ChannelResult> run(Delivery d) {
        return stages.run(d).flatMap(r -> {
            if (r.result() != null) {
                return Mono.just(r.result());
            }
            if (r.again() != null) {
                return Mono.delay(r.again(), timer).then(Mono.defer(() -> run(r.resumed())));
            }
            return Mono.error(new IllegalStateException(
                    "the stages of " + channel + " ended without an outcome or a wait: " + describe()));
        });
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
     *
     * <p>The steps are the single path's ({@link #describeGroup()}), over several claims and one message; the
     * pacing, meters and attempt rows are the single path's own.
     */
    public Mono<List<ChannelResult>> deliverGroup(List<Member> members) {
        if (members.size() == 1) {
            Member m = members.get(0);
            return deliver(m.event(), m.routed()).map(List::of);
        }
        Instant first = clock.instant();
        return groupAttempt(members, 1, first).doOnNext(results -> {
            for (ChannelResult r : results) {
                meters.finished(r.outcome());
            }
        });
    }

    /**
     * Each member as the claim step left it (holding a claim of ours, deduplicated, or to be asked again) and, when
     * some claims were ours, what the send gave.
     */
    private record GroupStep(List<Delivery> claimed, List<Integer> ours, String groupId, SendStage.Sent sent) {}

    private Mono<List<ChannelResult>> groupAttempt(List<Member> members, int n, Instant first) {
        Mono<GroupStep> step = Flux.fromIterable(members)
                .flatMapSequential(m ->
                        claim.apply(Delivery.at(m.event(), channel, m.routed(), n, first, Mono.empty()), Mono::just))
                .collectList()
                .flatMap(cs -> {
                    List<Integer> ours = new ArrayList<>();
                    for (int i = 0; i < cs.size(); i++) {
                        if (!cs.get(i).stopped()) {
                            ours.add(i);
                            meters.resent(cs.get(i).claim());
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
                Iterator<ChannelResult> sentOnes = settled.iterator();
                List<Mono<ChannelResult>> results = new ArrayList<>();
                for (int i = 0; i < members.size(); i++) {
                    Delivery d = s.claimed().get(i);
                    if (d.result() != null) {
                        // already delivered here: folded
                        results.add(Mono.just(d.result()));
                    } else if (d.again() != null) {
                        // another sender holds it: the single path asks again, waits for it, then folds or sends alone
                        results.add(run(d.resumed()));
                    } else {
                        results.add(Mono.just(sentOnes.next()));
                    }
                }
                return Flux.mergeSequential(results).collectList();
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
        LaneStage.paceAfter(lane, sent.outcome());
        meters.sent(sent);
        RetryPolicy.Decision d = policy.decide(sent.outcome(), n, first, clock.instant());
        Settlement settlement = SettleStep.settlement(d);
        List<Member> ours = s.ours().stream().map(members::get).toList();
        // whether a settlement found the channel's delivery-failing alert open, to resolve after a delivered send
        Mono<Boolean> settled = Flux.fromIterable(s.ours())
                .flatMap(i -> records.settle(
                        s.claimed().get(i).claim(),
                        SettleStep.attempt(members.get(i).event(), channel, n, sent, s.groupId()),
                        settlement))
                .reduce(false, (a, b) -> a || b);
        if (d instanceof RetryPolicy.Done) {
            return settled.flatMap(failing -> failing ? deadLetters.delivered(channel) : Mono.<Void>empty())
                    .then(Mono.fromSupplier(() -> {
                        if (ours.size() > 1) {
                            meters.groupDelivered(ours.size());
                            LOG.info("group message {} to {} carried {} events", s.groupId(), channel, ours.size());
                        }
                        if (n > 1) {
                            meters.retrySucceeded();
                        }
                        return ours.stream()
                                .map(m -> new ChannelResult(channel, FinalOutcome.DELIVERED, n, null))
                                .toList();
                    }));
        }
        if (d instanceof RetryPolicy.GiveUp g) {
            return settled.then(Flux.fromIterable(ours)
                            .concatMap(m -> deadLetters.deadLetter(m.event(), channel, g.reason(), n, m.routed()))
                            .then())
                    .thenReturn(ours.stream()
                            .map(m -> new ChannelResult(channel, FinalOutcome.DEAD_LETTERED, n, g.reason()))
                            .toList());
        }
        Duration wait = ((RetryPolicy.RetryIn) d).delay();
        return settled.then(Mono.delay(wait, timer)).then(Mono.defer(() -> groupAttempt(ours, n + 1, first)));
    }
}
