package dev.vigil.streams.incident;

import java.util.ArrayList;
import java.util.List;

/**
 * The timeline of a fingerprint's current (or last) incident: the value of {@code incident-timelines}, keyed by
 * fingerprint. A new incident id starts a new timeline. The first line (the page that opened it) always stays; past
 * {@link #MAX_ENTRIES} the oldest of the rest give way and are counted in {@code dropped}.
 *
 * @param updatedAt wall-clock time of the last change, for retention
 */
public record IncidentTimeline(
        String fingerprint, String incidentId, List<TimelineEntry> entries, int dropped, long updatedAt) {
    public static final int MAX_ENTRIES = 200;

    public IncidentTimeline {
        entries = List.copyOf(entries);
    }

    /** This timeline with {@code add} appended, or a new one when {@code incidentId} is another incident's. */
    public static IncidentTimeline append(
            IncidentTimeline current, String fingerprint, String incidentId, List<TimelineEntry> add, long now) {
        if (current == null || !current.incidentId().equals(incidentId)) {
            current = new IncidentTimeline(fingerprint, incidentId, List.of(), 0, now);
        }
        List<TimelineEntry> all = new ArrayList<>(current.entries());
        all.addAll(add);
        int dropped = current.dropped();
        while (all.size() > MAX_ENTRIES) {
            all.remove(1);
            dropped++;
        }
        return new IncidentTimeline(fingerprint, incidentId, all, dropped, now);
    }
}
