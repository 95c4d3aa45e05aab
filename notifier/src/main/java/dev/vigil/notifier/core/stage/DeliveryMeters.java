package dev.vigil.notifier.core.stage;

import dev.vigil.kit.ops.SelfHeals;
import dev.vigil.notifier.core.Claim;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.FinalOutcome;
import dev.vigil.notifier.core.SendStage;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One channel's delivery meters, shared by its stages and its grouped path so both count alike.
 *
 * <p>Two recoveries count as self-heals: a delivery that got through after at least one transient failure
 * ({@link SelfHeals#DELIVERY_RETRY_SUCCEEDED}, once per delivery however many retries it took), and a send made on a
 * claim taken over from a sender whose lease ran out ({@link SelfHeals#CLAIM_RESENT}, once per such send, whatever
 * its outcome: the delivery is moving again, and its later retries count as any other).
 */
public final class DeliveryMeters {
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryMeters.class);
    /** Counter of final outcomes, tagged with the channel and the outcome. */
    public static final String DELIVERIES = "vigil.notifier.deliveries";
    /** Timer of sends, tagged with the channel and what the send gave. */
    public static final String SEND = "vigil.notifier.send";
    /** Counter of group messages delivered, tagged with the channel. */
    public static final String GROUP_MESSAGES = "vigil.notifier.group.messages";
    /** Counter of the events group messages carried, tagged with the channel. */
    public static final String GROUP_EVENTS = "vigil.notifier.group.events";
    /** The outcomes of one send, as {@link #kind} names them. */
    private static final List<String> SEND_KINDS = List.of("delivered", "transient", "permanent");

    private final String channel;
    private final MeterRegistry meters;
    private final SelfHeals heals;
    private final Map<FinalOutcome, Counter> finals = new ConcurrentHashMap<>();
    private final Map<String, Timer> sendTimers = new ConcurrentHashMap<>();
    private final Counter groupMessages;
    private final Counter groupEvents;

    /** @param groups whether the channel shows several events in one message (only then are group counters kept) */
    public DeliveryMeters(String channel, MeterRegistry meters, boolean groups) {
        this.channel = channel;
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
        groupMessages = groups ? meters.counter(GROUP_MESSAGES, "channel", channel) : null;
        groupEvents = groups ? meters.counter(GROUP_EVENTS, "channel", channel) : null;
    }

    /** Counts a final outcome of this channel. */
    public void finished(FinalOutcome outcome) {
        finals.computeIfAbsent(outcome, this::deliveries).increment();
    }

    /** A delivery got through after a transient failure. */
    public void retrySucceeded() {
        heals.record(SelfHeals.DELIVERY_RETRY_SUCCEEDED);
    }

    /** Times one send by what it gave. */
    public void sent(SendStage.Sent sent) {
        sendTimers
                .computeIfAbsent(kind(sent.outcome()), this::sendTimer)
                .record(sent.latencyMs(), TimeUnit.MILLISECONDS);
    }

    /** A send on a claim its previous holder left unsettled: the delivery it abandoned is moving again. */
    public void resent(Claim c) {
        if (c.takenOver()) {
            LOG.info(
                    "sent {} to {} again on a claim taken over from {}, whose lease ran out before it settled",
                    c.eventId(),
                    channel,
                    c.takenOverFrom());
            heals.record(SelfHeals.CLAIM_RESENT);
        }
    }

    /** A group message carrying {@code events} events got through. */
    public void groupDelivered(int events) {
        groupMessages.increment();
        groupEvents.increment(events);
    }

    /** How the send timer's and the attempt log's outcome name what a send gave. */
    public static String kind(DeliveryOutcome o) {
        if (o instanceof DeliveryOutcome.Delivered) {
            return "delivered";
        }
        return o instanceof DeliveryOutcome.Transient ? "transient" : "permanent";
    }

    private Counter deliveries(FinalOutcome o) {
        return meters.counter(
                DELIVERIES, "channel", channel, "outcome", o.name().toLowerCase(Locale.ROOT));
    }

    private Timer sendTimer(String kind) {
        return Timer.builder(SEND).tag("channel", channel).tag("outcome", kind).register(meters);
    }
}
