package dev.vigil.streams.alerting;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.contract.Severity;
import java.util.Map;

/**
 * The alert state of one fingerprint: the value of the changelog-backed alert store, serialised with the
 * shared {@link dev.vigil.schemas.json.Json} mapper. After a resolution the record stays (phase
 * {@code healthy}) and describes the last incident, so {@code GET /v1/alerts?state=all} can show it.
 *
 * @param incidentId {@code fingerprint@firstBreach} of the current (or last) incident
 * @param severity the incident's highest severity so far (never lowered: no de-escalation message)
 * @param firstSeen event time of the incident's first breach
 * @param lastSeen event time of the incident's latest breach
 * @param lastNotified event time of the latest emitted notification (silenced or not), the debounce anchor
 * @param lastEvaluated event time of the latest evaluation applied; older evaluations are ignored
 * @param occurrences breach evaluations in this incident
 * @param consecutiveHealthy healthy evaluations in a row while resolving
 * @param sequence notifications emitted in this incident (the last event's sequence number; 1 = the first opened)
 * @param silenced whether the latest evaluation was under a silence
 * @param paged whether a notification of this incident has gone out unsilenced (someone was paged); while
 *              false and the incident is open, the first unsilenced evaluation emits an {@code opened}
 * @param held while the monitor's parent ({@code dependsOn}) is down, the hold on this incident's notifications
 *             (null when none): the {@code opened}, reminders and escalations it would send are owed, not sent, until
 *             the parent recovers. {@code sequence} is 0 while not even the {@code opened} went out.
 */
public record AlertStateRecord(
        String fingerprint,
        String incidentId,
        AlertPhase phase,
        Severity severity,
        String service,
        String componentType,
        String summary,
        Map<String, String> links,
        Map<String, String> attributes,
        AlertSource source,
        long firstSeen,
        long lastSeen,
        long lastNotified,
        long lastEvaluated,
        int occurrences,
        int consecutiveHealthy,
        int sequence,
        boolean silenced,
        boolean paged,
        @JsonInclude(JsonInclude.Include.NON_NULL) Held held) {

    public AlertStateRecord {
        Require.matches("fingerprint", fingerprint, Require.FINGERPRINT, "<rule-or-service>/<subject>");
        Require.text("incidentId", incidentId, 256);
        Require.present("phase", phase);
        Require.present("severity", severity);
        Require.text("service", service, 100);
        Require.text("summary", summary, 300);
        links = Require.stringMap("links", links, 8, 32, 2048);
        attributes = Require.stringMap("attributes", attributes, 16, 64, 256);
        Require.present("source", source);
        if (lastSeen < firstSeen) {
            throw new ContractViolation("lastSeen", "must not be before firstSeen");
        }
        Require.range("occurrences", occurrences, 1, Integer.MAX_VALUE);
        Require.range("consecutiveHealthy", consecutiveHealthy, 0, Integer.MAX_VALUE);
        Require.range("sequence", sequence, 0, Integer.MAX_VALUE);
    }

    /** Not held: the shape before dependencies existed. */
    public AlertStateRecord(
            String fingerprint,
            String incidentId,
            AlertPhase phase,
            Severity severity,
            String service,
            String componentType,
            String summary,
            Map<String, String> links,
            Map<String, String> attributes,
            AlertSource source,
            long firstSeen,
            long lastSeen,
            long lastNotified,
            long lastEvaluated,
            int occurrences,
            int consecutiveHealthy,
            int sequence,
            boolean silenced,
            boolean paged) {
        this(
                fingerprint,
                incidentId,
                phase,
                severity,
                service,
                componentType,
                summary,
                links,
                attributes,
                source,
                firstSeen,
                lastSeen,
                lastNotified,
                lastEvaluated,
                occurrences,
                consecutiveHealthy,
                sequence,
                silenced,
                paged,
                null);
    }

    /**
     * Why an incident's notifications are held: the monitor depends on {@code dependsOn}, whose latest verdict is down.
     *
     * @param reason for people: {@code depends on <parent>, which is down}
     */
    public record Held(String dependsOn, String reason) {
        public Held {
            Require.slug("dependsOn", dependsOn);
            reason = reason == null ? "depends on " + dependsOn + ", which is down" : reason;
        }

        /** The hold of a monitor whose parent {@code parent} is down. */
        public static Held by(String parent) {
            return new Held(parent, null);
        }
    }

    /** True while the incident is open (firing or resolving). */
    public boolean isOpen() {
        return phase.isOpen();
    }
}
