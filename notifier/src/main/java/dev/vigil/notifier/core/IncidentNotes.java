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
        if (reason == null) {
            return null;
        }
        String oneLine =
                URL.matcher(reason.replace('\n', ' ').replace('\r', ' ')).replaceAll("$1/…");
        StringBuilder clean = new StringBuilder(Math.min(oneLine.length(), 300));
        for (int i = 0; i < oneLine.length() && clean.length() < 299; i++) {
            char c = oneLine.charAt(i);
            clean.append(c < 0x20 ? ' ' : c);
        }
        return clean.length() < oneLine.length() ? clean + "…" : clean.toString();
    }
}
