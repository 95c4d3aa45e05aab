package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.IncidentNote;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The port where each event's final outcome per channel is noted for its incident's timeline (the query API's
 * {@code /v1/alerts/{fingerprint}/timeline}). A note is what a person reads after the fact, not a page: the
 * dispatcher does not wait for it and a note lost in a crash loses no delivery.
 */
@FunctionalInterface
public interface IncidentNotes {
    void note(IncidentNote note);

    static IncidentNotes none() {
        return n -> {};
    }

    /** The contract's longest delivery detail. */
    int DETAIL_MAX = 300;

    /** A URL in a vendor's error keeps its scheme and host only: paths and queries of webhooks hold their secrets. */
    Pattern URL = Pattern.compile("(https?://[^/\\s\"']+)[^\\s\"']*");

    /** The note of {@code r}, or null when no channel was routed (Vigil's own liveness events, an ended tier). */
    static IncidentNote of(AlertEvent e, EventResult r, long nowMs) {
        if (r.channels().isEmpty()) {
            return null;
        }
        List<IncidentNote.Delivery> rows = r.channels().stream()
                .limit(IncidentNote.MAX_DELIVERIES)
                .map(c -> new IncidentNote.Delivery(
                        c.channel(), c.outcome().name().toLowerCase(Locale.ROOT), c.attempts(), detail(c.reason())))
                .toList();
        return new IncidentNote(
                1,
                IncidentNote.DELIVERIES,
                e.fingerprint(),
                e.incidentId(),
                e.eventId(),
                e.state(),
                nowMs,
                null,
                null,
                rows);
    }

    private static String detail(String reason) {
        return reason == null
                ? null
                : Text.truncate(URL.matcher(Text.oneLine(reason)).replaceAll("$1/…"), DETAIL_MAX);
    }
}
