package dev.vigil.notifier.core.stage;

import dev.vigil.notifier.core.ChannelResult;
import dev.vigil.notifier.core.Claim;
import dev.vigil.notifier.core.FinalOutcome;
import dev.vigil.notifier.core.RetryPolicy;
import dev.vigil.notifier.core.SendStage;
import dev.vigil.schemas.contract.AlertEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * What the stages of one channel's delivery of one event know so far. Immutable: each stage hands the next a copy
 * with what it learnt, so a retry starts from a clean attempt and no stage reads a half-written field.
 *
 * @param routed           every channel the event went to (a dead letter names the others that should hear of it)
 * @param attempt          the number of the send this run makes, from 1
 * @param firstAttempt     when the delivery began: the retry deadline counts from here
 * @param incidentRecorded completes when the event's incident row exists; only saving a vendor id waits for it
 * @param claim            the claim this attempt holds (null before the claim stage)
 * @param sent             what the send gave (null before the send stage)
 * @param decision         what the retry policy made of the send (null before the retry stage)
 * @param result           the channel's final outcome: once set, the remaining stages are skipped
 * @param again            set when this run ends without an outcome and the list is to run again after this wait
 * @param channelFailing   the settlement found the channel's delivery-failing alert open (a delivered send then
 *                         resolves it)
 */
public record Delivery(
        AlertEvent event,
        String channel,
        List<String> routed,
        int attempt,
        Instant firstAttempt,
        Mono<Void> incidentRecorded,
        Claim claim,
        SendStage.Sent sent,
        RetryPolicy.Decision decision,
        ChannelResult result,
        Duration again,
        boolean channelFailing) {

    /** The reason a delivery found already made reports. */
    public static final String ALREADY_DELIVERED = "already delivered within the dedupe window";

    public Delivery {
        routed = List.copyOf(routed);
    }

    /** A delivery about to make its first attempt. */
    public static Delivery first(
            AlertEvent event, String channel, List<String> routed, Instant now, Mono<Void> incidentRecorded) {
        return at(event, channel, routed, 1, now, incidentRecorded);
    }

    /** A delivery about to make attempt {@code attempt} of one that began at {@code firstAttempt}. */
    public static Delivery at(
            AlertEvent event,
            String channel,
            List<String> routed,
            int attempt,
            Instant firstAttempt,
            Mono<Void> incidentRecorded) {
        return new Delivery(
                event, channel, routed, attempt, firstAttempt, incidentRecorded, null, null, null, null, null, false);
    }

    public Delivery withClaim(Claim c) {
        return next(c, sent, decision, result, channelFailing);
    }

    public Delivery withSent(SendStage.Sent s) {
        return next(claim, s, decision, result, channelFailing);
    }

    public Delivery withDecision(RetryPolicy.Decision d) {
        return next(claim, sent, d, result, channelFailing);
    }

    /** This delivery ended here with {@code outcome} after {@code attempts} sends. */
    public Delivery finished(FinalOutcome outcome, int attempts, String reason) {
        return next(claim, sent, decision, new ChannelResult(channel, outcome, attempts, reason), channelFailing);
    }

    /** The claim is settled; {@code failing}: the settlement found the channel's delivery-failing alert open. */
    public Delivery settled(boolean failing) {
        return next(claim, sent, decision, result, failing);
    }

    /** This attempt with what the stages learnt so far; the event, its channel and its attempt stay. */
    private Delivery next(
            Claim claim,
            SendStage.Sent sent,
            RetryPolicy.Decision decision,
            ChannelResult result,
            boolean channelFailing) {
        return new Delivery(
                event,
                channel,
                routed,
                attempt,
                firstAttempt,
                incidentRecorded,
                claim,
                sent,
                decision,
                result,
                again,
                channelFailing);
    }

    /**
     * This run ends without an outcome: the list runs again after {@code wait} as attempt {@code nextAttempt}, with
     * nothing of this run's claim, send or decision carried over (the claim was released or never ours).
     */
    public Delivery againAfter(Duration wait, int nextAttempt) {
        return new Delivery(
                event,
                channel,
                routed,
                nextAttempt,
                firstAttempt,
                incidentRecorded,
                null,
                null,
                null,
                null,
                wait,
                false);
    }

    /** The delivery the next run starts from, once its wait is over. */
    public Delivery resumed() {
        return new Delivery(
                event, channel, routed, attempt, firstAttempt, incidentRecorded, null, null, null, null, null, false);
    }

    /** Whether this run is over: an outcome was reached, or the list is to run again after a wait. */
    public boolean stopped() {
        return result != null || again != null;
    }
}
