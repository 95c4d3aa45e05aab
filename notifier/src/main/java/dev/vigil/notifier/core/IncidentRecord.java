package dev.vigil.notifier.core;

/**
 * An incident as the notifier recorded it: its latest severity and state, first and last seen (epoch ms),
 * occurrences, and where it came from ({@code source}, null for rows recorded before sources were kept).
 */
public record IncidentRecord(
        String incidentId,
        String fingerprint,
        String service,
        String severity,
        String state,
        long firstSeen,
        long lastSeen,
        int occurrences,
        String source) {}
