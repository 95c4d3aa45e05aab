package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;
import java.util.Map;

/**
 * One notification about one incident. Key of {@code vigil.alerts} is the fingerprint.
 *
 * <p>{@code eventId} identifies this notification deterministically: for events the topology emits it is
 * {@code incidentId/state/sequence} (a replay yields the same ids, each reminder has its own); for
 * application events it is {@code fingerprint/state}, so a source that re-sends the same firing alert is
 * folded by the notifier's dedupe window and pages again only after it.
 */
public record AlertEvent(
        Integer schemaVersion,
        String eventId,
        String fingerprint,
        String incidentId,
        AlertState state,
        Severity severity,
        String service,
        String componentType,
        String summary,
        Map<String, String> links,
        Map<String, String> attributes,
        Integer occurrences,
        Long firstSeen,
        Long lastSeen,
        AlertSource source,
        Boolean silenced,
        List<String> channels) {

    public AlertEvent {
        schemaVersion = Require.schemaVersion(schemaVersion);
        Require.matches(
                "fingerprint",
                fingerprint,
                Require.FINGERPRINT,
                "<rule-or-service>/<subject> (e.g. monitor/checkout-api)");
        Require.present("state", state);
        Require.present("source", source);
        Require.atLeast("firstSeen", Require.present("firstSeen", firstSeen), 0);
        Require.atLeast("lastSeen", Require.present("lastSeen", lastSeen), 0);
        if (lastSeen < firstSeen) {
            throw new ContractViolation("lastSeen", "must not be before firstSeen");
        }
        incidentId = incidentId == null
                ? incidentIdFor(fingerprint, firstSeen)
                : Require.text("incidentId", incidentId, 256);
        if (eventId == null) {
            if (source != AlertSource.APP) {
                throw new ContractViolation("eventId", "is required for events from source " + source);
            }
            eventId = appEventId(fingerprint, state);
        }
        Require.text("eventId", eventId, 300);
        severity = severity == null ? Severity.INFO : severity;
        Require.text("service", service, 100);
        Require.optionalText("componentType", componentType, 64);
        Require.text("summary", summary, 300);
        if (summary.indexOf('\n') >= 0) {
            throw new ContractViolation("summary", "must be one line");
        }
        links = Require.stringMap("links", links, 8, 32, 2048);
        attributes = Require.stringMap("attributes", attributes, 16, 64, 256);
        occurrences = occurrences == null ? 1 : Require.range("occurrences", occurrences, 1, Integer.MAX_VALUE);
        silenced = silenced != null && silenced;
        channels = Require.list("channels", channels, 8);
        for (int i = 0; i < channels.size(); i++) {
            Require.slug("channels[" + i + "]", channels.get(i));
        }
    }

    /** {@code fingerprint@firstBreachEpochMs}. */
    public static String incidentIdFor(String fingerprint, long firstBreach) {
        return fingerprint + "@" + firstBreach;
    }

    /** Event id of the {@code sequence}-th notification (1-based) of an incident the topology tracks. */
    public static String topologyEventId(String incidentId, AlertState state, int sequence) {
        return incidentId + "/" + state.wire() + "/" + sequence;
    }

    /** Event id of an application's event: the same firing alert re-sent folds into one page per window. */
    public static String appEventId(String fingerprint, AlertState state) {
        return fingerprint + "/" + state.wire();
    }

    /** This event with other links and attributes (checked against the contract's limits like any event's). */
    public AlertEvent withDetails(Map<String, String> links, Map<String, String> attributes) {
        return new AlertEvent(
                schemaVersion,
                eventId,
                fingerprint,
                incidentId,
                state,
                severity,
                service,
                componentType,
                summary,
                links,
                attributes,
                occurrences,
                firstSeen,
                lastSeen,
                source,
                silenced,
                channels);
    }

    /** This event with {@code silenced} set: recorded, not paged (a resolution still reaches the channels paged). */
    public AlertEvent withSilenced() {
        return silenced
                ? this
                : new AlertEvent(
                        schemaVersion,
                        eventId,
                        fingerprint,
                        incidentId,
                        state,
                        severity,
                        service,
                        componentType,
                        summary,
                        links,
                        attributes,
                        occurrences,
                        firstSeen,
                        lastSeen,
                        source,
                        true,
                        channels);
    }

    /** Not a wire field: without {@link JsonIgnore} Jackson would write it as {@code "resolution"}. */
    @JsonIgnore
    public boolean isResolution() {
        return state == AlertState.RESOLVED;
    }
}
