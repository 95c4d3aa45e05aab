package dev.vigil.notifier.support;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import java.util.List;
import java.util.Map;

/** Alert events for tests: topology-style ids (incident/state/sequence). */
public final class TestEvents {
    public static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    private TestEvents() {}

    public static AlertEvent event(String fingerprint, AlertState state, Severity severity, int sequence) {
        String incident = AlertEvent.incidentIdFor(fingerprint, T0);
        return new AlertEvent(
                1,
                AlertEvent.topologyEventId(incident, state, sequence),
                fingerprint,
                incident,
                state,
                severity,
                "checkout-api",
                "service",
                "checkout-api is down in 2 of 3 regions",
                Map.of("dashboard", "https://grafana.example.test/d/checkout"),
                Map.of("region", "us-east"),
                sequence,
                T0,
                T0 + sequence * 60_000L,
                AlertSource.PROBE,
                false,
                List.of());
    }

    public static AlertEvent opened(String fingerprint, Severity severity) {
        return event(fingerprint, AlertState.OPENED, severity, 1);
    }

    /**
     * The query API's acknowledgement of {@code incident}: same fingerprint, incident, severity, service, source,
     * links and attributes, summary "Acknowledged by &lt;by&gt;", event id {@code <incidentId>/acknowledged/<atMs>}.
     */
    public static AlertEvent acknowledged(AlertEvent incident, String by, long atMs) {
        Map<String, String> attributes = new java.util.LinkedHashMap<>(incident.attributes());
        attributes.put("acknowledgedBy", by);
        return new AlertEvent(
                1,
                incident.incidentId() + "/acknowledged/" + atMs,
                incident.fingerprint(),
                incident.incidentId(),
                AlertState.ACKNOWLEDGED,
                incident.severity(),
                incident.service(),
                incident.componentType(),
                "Acknowledged by " + by,
                incident.links(),
                attributes,
                incident.occurrences(),
                incident.firstSeen(),
                Math.max(incident.lastSeen(), atMs),
                incident.source(),
                false,
                List.of());
    }

    /** The same event from another source (e.g. an application's). */
    public static AlertEvent withSource(AlertEvent e, dev.vigil.schemas.contract.AlertSource source) {
        return new AlertEvent(
                e.schemaVersion(),
                e.eventId(),
                e.fingerprint(),
                e.incidentId(),
                e.state(),
                e.severity(),
                e.service(),
                e.componentType(),
                e.summary(),
                e.links(),
                e.attributes(),
                e.occurrences(),
                e.firstSeen(),
                e.lastSeen(),
                source,
                e.silenced(),
                e.channels());
    }

    public static AlertEvent with(
            AlertEvent e, String service, Map<String, String> attributes, List<String> channels, boolean silenced) {
        return new AlertEvent(
                1,
                e.eventId(),
                e.fingerprint(),
                e.incidentId(),
                e.state(),
                e.severity(),
                service,
                e.componentType(),
                e.summary(),
                e.links(),
                attributes,
                e.occurrences(),
                e.firstSeen(),
                e.lastSeen(),
                e.source(),
                silenced,
                channels);
    }

    public static AlertEvent withSummary(
            AlertEvent e, String summary, Map<String, String> attributes, Map<String, String> links) {
        return new AlertEvent(
                1,
                e.eventId(),
                e.fingerprint(),
                e.incidentId(),
                e.state(),
                e.severity(),
                e.service(),
                e.componentType(),
                summary,
                links,
                attributes,
                e.occurrences(),
                e.firstSeen(),
                e.lastSeen(),
                e.source(),
                e.silenced(),
                e.channels());
    }
}
