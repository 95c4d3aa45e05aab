package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.Severity;
import java.util.List;
import java.util.Map;

/** Builds the dead-letter envelope and the {@code notifier/delivery-failing} alert for an undeliverable page. */
public final class DeliveryFailing {
    public static final String FINGERPRINT_PREFIX = "notifier/delivery-failing";
    public static final String SOURCE = "notifier";

    private DeliveryFailing() {
    }

    /** True for the notifier's own failure alerts: their failure is dead-lettered but raises nothing (no loops). */
    public static boolean isOwn(AlertEvent e) {
        return e.fingerprint().startsWith(FINGERPRINT_PREFIX);
    }

    public static DeadLetter envelope(AlertEvent e, String channel, String reason, int attempts, String topic,
                                      long nowMs) {
        return new DeadLetter(1, SOURCE, "channel " + channel + ": " + reason, null, topic, null, null,
                e.fingerprint(), dev.vigil.schemas.json.Json.string(e), null, null, channel, e.eventId(), attempts,
                nowMs);
    }

    /**
     * One alert per failing channel, with the application-event id {@code fingerprint/opened}: further failures on
     * the same channel fold into it for the dedupe window instead of paging once per undeliverable event.
     */
    public static AlertEvent alert(AlertEvent failed, String channel, String reason, List<String> others, long nowMs) {
        String fingerprint = FINGERPRINT_PREFIX + "/" + channel;
        String eventId = AlertEvent.appEventId(fingerprint, AlertState.OPENED);
        String summary = truncate(("Notifications to channel " + channel + " are failing (" + failed.fingerprint()
                + " " + failed.state().wire() + "): " + reason).replaceAll("\\p{Cntrl}", " "), 300);
        return new AlertEvent(1, eventId, fingerprint, null, AlertState.OPENED, Severity.CRITICAL, "vigil-notifier",
                "service", summary, Map.of(), Map.of("failedChannel", channel,
                "failedEventId", truncate(failed.eventId(), 256)), 1, nowMs, nowMs, AlertSource.APP, false,
                others.stream().limit(8).toList());
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
