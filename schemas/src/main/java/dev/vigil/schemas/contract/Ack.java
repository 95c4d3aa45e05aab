package dev.vigil.schemas.contract;

/**
 * Someone took an incident on: the value of the compacted {@code vigil.acks} topic, keyed by fingerprint (a tombstone
 * unacknowledges). It holds for the incident it names ({@code incidentId}) until {@code until} (null: the end of the
 * incident) and only while the incident is no more severe than when it was acknowledged: an escalation is new
 * information, pages, and ends the acknowledgement.
 */
public record Ack(
        Integer schemaVersion,
        String fingerprint,
        String incidentId,
        String by,
        Long at,
        Long until,
        String comment,
        Severity severity) {
    public Ack {
        schemaVersion = schemaVersion == null ? 1 : Require.schemaVersion(schemaVersion);
        Require.matches("fingerprint", fingerprint, Require.FINGERPRINT, "<rule-or-service>/<subject>");
        Require.text("incidentId", incidentId, 256);
        Require.text("by", by, 100);
        Require.atLeast("at", Require.present("at", at), 0);
        if (until != null && until <= at) {
            throw new ContractViolation("until", "must be after the acknowledgement");
        }
        Require.optionalText("comment", comment, 300);
        Require.present("severity", severity);
    }

    /**
     * Whether this acknowledgement holds at {@code now} for the incident {@code incidentId}, whose severity is now
     * {@code current}: the same incident, not past {@code until}, and no more severe than when acknowledged.
     */
    public boolean holdsFor(String incidentId, Severity current, long now) {
        return incidentId != null
                && current != null
                && incidentId.equals(this.incidentId)
                && (until == null || now < until)
                && !current.isHigherThan(severity);
    }
}
