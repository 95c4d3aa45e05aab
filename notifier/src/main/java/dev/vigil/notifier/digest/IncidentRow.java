package dev.vigil.notifier.digest;

import java.time.Instant;

/**
 * An incident as the notifier recorded it, for the digest.
 *
 * @param resolvedAt   when its resolution was recorded; null while it is open
 * @param acknowledged whether someone took it on (an acknowledgement holds, or a notice of one was sent)
 */
public record IncidentRow(
        String incidentId,
        String fingerprint,
        String service,
        String severity,
        Instant firstSeen,
        Instant resolvedAt,
        boolean acknowledged) {

    public boolean open() {
        return resolvedAt == null;
    }

    /** Vigil's own alerts about itself (worker skipping, region blind, pipeline stalled, canary). */
    public boolean selfAlert() {
        return fingerprint.startsWith("vigil/") || fingerprint.startsWith("notifier/");
    }

    public IncidentRow withAcknowledged(boolean ack) {
        return new IncidentRow(incidentId, fingerprint, service, severity, firstSeen, resolvedAt, ack);
    }
}
