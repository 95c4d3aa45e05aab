package dev.vigil.notifier.channel.pagerduty;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.notifier.channel.Presentation;
import dev.vigil.notifier.channel.template.MessageTemplate;
import dev.vigil.notifier.core.Text;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The PagerDuty Events API v2 alert event for one Vigil event, built with Jackson (never by concatenation).
 *
 * <p>{@code opened}, {@code reminder} and {@code escalated} are {@code trigger} events with the full payload;
 * {@code acknowledged} is {@code acknowledge} and {@code resolved} is {@code resolve}, each carrying only
 * {@code routing_key}, {@code event_action} and {@code dedup_key}, as PagerDuty's examples show. The
 * {@code dedup_key} is the event's incident id, so PagerDuty folds every trigger of one incident into one alert and
 * the acknowledge and resolve reach that alert (vendor-side idempotency: a resend of the same trigger adds a log
 * entry, never a second page). PagerDuty allows at most 255 characters there; a longer incident id (the contract
 * allows 256) keeps its first 190 characters and appends {@code #} and the SHA-256 of the whole id, the same for
 * every event of the incident.
 *
 * <p>Trigger payload: {@code summary} (the shared title, one line, at most 1024 characters, cut with …),
 * {@code source} (the service, else {@code vigil}), {@code severity} (critical, warning, info map one to one;
 * PagerDuty's {@code error} is unused), {@code timestamp} (ISO-8601: first seen for {@code opened}, last seen
 * for a reminder or escalation), {@code component} (component type, when given), {@code group} (service),
 * {@code class} (the event's source), {@code custom_details} (fingerprint, incident, event id, state, severity,
 * occurrences, first and last seen, attributes); top-level {@code links} ({@code href}, {@code text}) for the
 * event's links that pass {@link Presentation#isSafeLink} (absolute http(s), no user-info, no markup or
 * whitespace characters), and {@code client: "Vigil"}. Every text comes from {@link Presentation#clean} (bidi
 * controls and zero-width characters removed).
 *
 * <p>References: <a href="https://developer.pagerduty.com/docs/events-api-v2/trigger-events/">Send an Alert
 * Event</a> (fields, 1024-character summary, 255-character dedup_key, de-duplication, acknowledge/resolve bodies;
 * source: github.com/PagerDuty/developer-docs, docs/events-API-v2/02-Trigger-Events.md) and
 * <a href="https://developer.pagerduty.com/docs/events-api-v2/overview/">Events API v2 Overview</a> (PD-CEF
 * fields, 512 KB payload limit).
 */
public final class PagerDutyEvent {
    public static final int SUMMARY_MAX = 1024;
    public static final int DEDUP_KEY_MAX = 255;
    public static final String CLIENT = "Vigil";
    public static final String DEFAULT_SOURCE = "vigil";
    /** Line and paragraph separators and every C0/C1 control (tab, DEL and U+0085 included). */
    private static final Pattern LINE_BREAKING = Pattern.compile("[\\p{Cc}\\u2028\\u2029]+");

    /** Today's {@code payload.summary} as a template. A channel's {@code template} replaces it; the rest stays. */
    public static final String DEFAULT_TEMPLATE = "{{title}}";

    private PagerDutyEvent() {}

    /**
     * {@code source} compiled with a plain-text escaper: each value made one line. The rendered summary is made one
     * line and cut to {@value #SUMMARY_MAX} characters as well ({@link #summary}).
     */
    public static MessageTemplate template(String source) {
        return MessageTemplate.compile(source, PagerDutyEvent::oneLine);
    }

    /** {@code trigger}, {@code acknowledge} or {@code resolve}. */
    public static String action(AlertState state) {
        return switch (state) {
            case OPENED, REMINDER, ESCALATED -> "trigger";
            case ACKNOWLEDGED -> "acknowledge";
            case RESOLVED -> "resolve";
        };
    }

    /** The whole request body, routing key included: keep it out of logs. */
    public static ObjectNode build(AlertEvent event, String routingKey) {
        return build(event, routingKey, null);
    }

    /** The body with {@code payload.summary} from {@code template} (null: the default text). */
    public static ObjectNode build(AlertEvent event, String routingKey, MessageTemplate template) {
        AlertEvent e = Presentation.clean(event);
        String action = action(e.state());
        ObjectNode root = Json.mapper().createObjectNode();
        root.put("routing_key", routingKey);
        root.put("event_action", action);
        root.put("dedup_key", dedupKey(e.incidentId()));
        if (!action.equals("trigger")) {
            return root;
        }
        ObjectNode payload = root.putObject("payload");
        String custom = MessageTemplate.renderOrNull(template, e);
        payload.put("summary", summary(custom != null ? custom : Presentation.title(e)));
        String service = oneLine(e.service()).strip();
        payload.put("source", service.isEmpty() ? DEFAULT_SOURCE : service);
        payload.put(
                "severity",
                switch (e.severity()) {
                    case CRITICAL -> "critical";
                    case WARNING -> "warning";
                    case INFO -> "info";
                });
        payload.put("timestamp", Presentation.time(e.state() == AlertState.OPENED ? e.firstSeen() : e.lastSeen()));
        if (e.componentType() != null && !e.componentType().isBlank()) {
            payload.put("component", oneLine(e.componentType()));
        }
        payload.put("group", service.isEmpty() ? DEFAULT_SOURCE : service);
        payload.put("class", e.source().wire());
        ObjectNode details = payload.putObject("custom_details");
        details.put("fingerprint", e.fingerprint());
        details.put("incident", e.incidentId());
        details.put("event", e.eventId());
        details.put("state", e.state().wire());
        details.put("severity", e.severity().wire());
        details.put("occurrences", e.occurrences());
        details.put("first_seen", Presentation.time(e.firstSeen()));
        details.put("last_seen", Presentation.time(e.lastSeen()));
        ObjectNode attributes = details.putObject("attributes");
        e.attributes().forEach(attributes::put);
        ArrayNode links = Json.mapper().createArrayNode();
        for (Map.Entry<String, String> l : e.links().entrySet()) {
            if (Presentation.isSafeLink(l.getValue())) {
                links.addObject().put("href", l.getValue()).put("text", oneLine(l.getKey()));
            }
        }
        if (!links.isEmpty()) {
            root.set("links", links);
        }
        root.put("client", CLIENT);
        return root;
    }

    /** One line (every control, line and paragraph separator becomes a space), at most 1024 characters. */
    public static String summary(String s) {
        return Text.truncate(oneLine(Text.stripInvisible(s)).strip(), SUMMARY_MAX);
    }

    /** The incident id when PagerDuty accepts its length, else a stable shortened form (see the class comment). */
    public static String dedupKey(String incidentId) {
        if (incidentId.length() <= DEDUP_KEY_MAX) {
            return incidentId;
        }
        int keep = DEDUP_KEY_MAX - 1 - 64;
        if (Character.isHighSurrogate(incidentId.charAt(keep - 1))) {
            keep--;
        }
        return incidentId.substring(0, keep) + "#" + sha256(incidentId);
    }

    static String oneLine(String s) {
        return s == null ? "" : LINE_BREAKING.matcher(s).replaceAll(" ");
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
