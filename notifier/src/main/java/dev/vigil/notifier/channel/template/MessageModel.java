package dev.vigil.notifier.channel.template;

import dev.vigil.notifier.channel.Presentation;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a channel's message template may show: a stable, documented view of one alert event (the notifier README
 * lists every field). Built from the cleaned event ({@link Presentation#clean}), so no field holds bidi controls or
 * zero-width characters. Its texts are raw: the template renders each one through its vendor's escaper.
 *
 * @param title             the shared one-line title, e.g. {@code [CRITICAL] checkout-api: checkout-api is down}
 * @param summary           the event's summary (for an acknowledgement: "Acknowledged by …")
 * @param severity          {@code critical}, {@code warning} or {@code info}
 * @param severityUpper     the same in capitals, e.g. {@code CRITICAL}
 * @param state             {@code opened}, {@code reminder}, {@code escalated}, {@code resolved} or {@code acknowledged}
 * @param source            {@code probe}, {@code metric}, {@code heartbeat} or {@code app}
 * @param service           the service the event is about
 * @param component         the component type, empty when the event names none
 * @param fingerprint       the monitor's (or application alert's) fingerprint
 * @param incidentId        the incident every event of one outage shares
 * @param eventId           this event's id
 * @param occurrences       how many times the incident has fired
 * @param firstSeen         when the incident started, ISO-8601 UTC ({@code 2026-01-01T00:00:00Z})
 * @param lastSeen          the latest occurrence (for a resolution: when it resolved), ISO-8601 UTC
 * @param links             the event's links that may be rendered as links (absolute http(s), see
 *                          {@link Presentation#isSafeLink}), a link named {@code runbook} first
 * @param attributes        the event's attributes in their order
 * @param acknowledgedBy    who acknowledged (on an acknowledgement), else empty
 * @param acknowledgedUntil until when an acknowledgement holds (ISO-8601), else empty
 * @param isOpened          the incident just opened
 * @param isReminder        a reminder of a still-firing incident
 * @param isEscalated       the incident's severity rose
 * @param isResolution      the incident resolved
 * @param isAcknowledgement someone acknowledged the incident
 * @param hasLinks          {@code links} is not empty
 * @param hasAttributes     {@code attributes} is not empty
 */
public record MessageModel(
        String title,
        String summary,
        String severity,
        String severityUpper,
        String state,
        String source,
        String service,
        String component,
        String fingerprint,
        String incidentId,
        String eventId,
        int occurrences,
        String firstSeen,
        String lastSeen,
        List<Link> links,
        List<Attribute> attributes,
        String acknowledgedBy,
        String acknowledgedUntil,
        boolean isOpened,
        boolean isReminder,
        boolean isEscalated,
        boolean isResolution,
        boolean isAcknowledgement,
        boolean hasLinks,
        boolean hasAttributes) {

    /** The link named so is listed first: the first thing a person paged at night should open. */
    public static final String RUNBOOK = "runbook";

    /** One link: its label and its URL. */
    public record Link(String name, String url) {}

    /** One attribute: its name and value. */
    public record Attribute(String name, String value) {}

    public MessageModel {
        links = List.copyOf(links);
        attributes = List.copyOf(attributes);
    }

    /** The model of {@code event}, cleaned first (the same instance when there is nothing to clean). */
    public static MessageModel of(AlertEvent event) {
        AlertEvent e = Presentation.clean(event);
        List<Link> links = new ArrayList<>();
        e.links().forEach((name, url) -> {
            if (Presentation.isSafeLink(url)) {
                links.add(new Link(name, url));
            }
        });
        for (int i = 0; i < links.size(); i++) {
            if (links.get(i).name().equals(RUNBOOK)) {
                links.add(0, links.remove(i));
                break;
            }
        }
        List<Attribute> attributes = new ArrayList<>();
        e.attributes().forEach((name, value) -> attributes.add(new Attribute(name, value)));
        boolean ack = e.state() == AlertState.ACKNOWLEDGED;
        String until = ack ? Presentation.acknowledgedUntil(e) : null;
        return new MessageModel(
                Presentation.title(e),
                e.summary(),
                e.severity().wire(),
                e.severity().wire().toUpperCase(Locale.ROOT),
                e.state().wire(),
                e.source().wire(),
                e.service(),
                e.componentType() == null ? "" : e.componentType(),
                e.fingerprint(),
                e.incidentId(),
                e.eventId(),
                e.occurrences(),
                Presentation.time(e.firstSeen()),
                Presentation.time(e.lastSeen()),
                links,
                attributes,
                ack ? Presentation.acknowledgedBy(e, "") : "",
                until == null ? "" : until,
                e.state() == AlertState.OPENED,
                e.state() == AlertState.REMINDER,
                e.state() == AlertState.ESCALATED,
                e.state() == AlertState.RESOLVED,
                ack,
                !links.isEmpty(),
                !attributes.isEmpty());
    }

    /**
     * Models of every state, with and without links and attributes: rendering a template against all of them enters
     * each of its sections, normal and inverted, so a misspelt name anywhere in it is found at start-up.
     */
    static List<MessageModel> samples() {
        List<MessageModel> samples = new ArrayList<>();
        for (AlertState state : AlertState.values()) {
            for (boolean full : new boolean[] {true, false}) {
                samples.add(of(sample(state, full)));
            }
        }
        return samples;
    }

    private static AlertEvent sample(AlertState state, boolean full) {
        long t0 = 1_767_225_600_000L;
        Map<String, String> links = new LinkedHashMap<>();
        Map<String, String> attributes = new LinkedHashMap<>();
        if (full) {
            links.put("dashboard", "https://grafana.example.com/d/checkout");
            links.put(RUNBOOK, "https://runbooks.example.com/checkout");
            attributes.put("region", "eu-west");
            if (state == AlertState.ACKNOWLEDGED) {
                attributes.put(Presentation.ACKNOWLEDGED_BY, "alice");
                attributes.put(Presentation.ACKNOWLEDGED_UNTIL, "2026-01-01T02:00:00Z");
            }
        }
        String fingerprint = "probe/checkout-api/http";
        String incident = AlertEvent.incidentIdFor(fingerprint, t0);
        return new AlertEvent(
                1,
                AlertEvent.topologyEventId(incident, state, 3),
                fingerprint,
                incident,
                state,
                Severity.CRITICAL,
                "checkout-api",
                full ? "service" : null,
                "checkout-api is down in 2 of 3 regions",
                links,
                attributes,
                3,
                t0,
                t0 + 120_000L,
                AlertSource.PROBE,
                false,
                List.of());
    }
}
