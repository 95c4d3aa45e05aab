package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.Severity;
import java.util.List;
import java.util.Map;

/**
 * Builds the dead-letter envelope and the {@code notifier/delivery-failing/<channel>} alert for an undeliverable
 * page, and the {@code resolved} that ends that alert once the channel delivers again.
 */
public final class DeliveryFailing {
    public static final String FINGERPRINT_PREFIX = "notifier/delivery-failing";
    public static final String SOURCE = "notifier";
    /** The contract's bound on an event's channel override. */
    private static final int MAX_CHANNELS = 8;

    private DeliveryFailing() {}

    /** True for the notifier's own failure alerts: their failure is dead-lettered but raises nothing (no loops). */
    public static boolean isOwn(AlertEvent e) {
        return e.fingerprint().startsWith(FINGERPRINT_PREFIX);
    }

    public static DeadLetter envelope(
            AlertEvent e, String channel, String reason, int attempts, String topic, long nowMs) {
        return new DeadLetter(
                1,
                SOURCE,
                "channel " + channel + ": " + reason,
                null,
                topic,
                null,
                null,
                e.fingerprint(),
                dev.vigil.schemas.json.Json.string(e),
                null,
                null,
                channel,
                e.eventId(),
                attempts,
                nowMs);
    }

    /** A new failing alert for {@code channel}, told to {@code others}, starting now. */
    public static FailingChannel candidate(String channel, List<String> others, long nowMs) {
        String fingerprint = FINGERPRINT_PREFIX + "/" + channel;
        return new FailingChannel(
                channel,
                AlertEvent.incidentIdFor(fingerprint, nowMs),
                nowMs,
                others.stream().limit(MAX_CHANNELS).toList());
    }

    /** The opened alert of a new failing alert (what {@link #opened} builds for a channel with none open). */
    public static AlertEvent alert(AlertEvent failed, String channel, String reason, List<String> others, long nowMs) {
        return opened(candidate(channel, others, nowMs), failed, reason, nowMs);
    }

    /**
     * One alert per failing channel, with the application-event id {@code fingerprint/opened}: further failures on
     * the same channel fold into it for the dedupe window instead of paging once per undeliverable event.
     */
    public static AlertEvent opened(FailingChannel open, AlertEvent failed, String reason, long nowMs) {
        String summary = truncate(
                ("Notifications to channel " + open.channel() + " are failing (" + failed.fingerprint() + " "
                                + failed.state().wire() + "): " + reason)
                        .replaceAll("\\p{Cntrl}", " "),
                300);
        return event(
                open,
                AlertState.OPENED,
                summary,
                Map.of("failedChannel", open.channel(), "failedEventId", truncate(failed.eventId(), 256)),
                nowMs);
    }

    /**
     * The end of the channel's failing alert: the same incident and override as its opened, and the
     * application-event id {@code fingerprint/resolved}.
     */
    public static AlertEvent resolved(FailingChannel open, long nowMs) {
        return event(
                open,
                AlertState.RESOLVED,
                "Notifications to channel " + open.channel() + " are delivered again",
                Map.of("failedChannel", open.channel()),
                nowMs);
    }

    private static AlertEvent event(
            FailingChannel open, AlertState state, String summary, Map<String, String> attributes, long nowMs) {
        String fingerprint = open.fingerprint();
        // another instance's clock may be behind the one that opened it; lastSeen must not precede firstSeen
        long last = Math.max(nowMs, open.firstSeen());
        return new AlertEvent(
                1,
                AlertEvent.appEventId(fingerprint, state),
                fingerprint,
                open.incidentId(),
                state,
                Severity.CRITICAL,
                "vigil-notifier",
                "service",
                summary,
                Map.of(),
                attributes,
                1,
                open.firstSeen(),
                last,
                AlertSource.APP,
                false,
                open.recipients());
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
