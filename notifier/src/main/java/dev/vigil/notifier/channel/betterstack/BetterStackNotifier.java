package dev.vigil.notifier.channel.betterstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.notifier.channel.HttpReply;
import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.channel.Presentation;
import dev.vigil.notifier.channel.StatusMapping;
import dev.vigil.notifier.channel.template.MessageTemplate;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.notifier.core.Text;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.json.Json;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * BetterStack Uptime incidents: {@code opened} (and an escalation of an incident BetterStack has not seen)
 * creates an incident and hands its id back for the incident record; {@code resolved} resolves that incident
 * (409 "already resolved" counts as delivered); reminders create nothing (the incident is already paging).
 * A {@code resolved} without the id of an incident this channel opened ({@link Notification#vendorRef()}, looked
 * up for the event's own incident and fingerprint) calls nothing: there is nothing of ours to resolve.
 *
 * <p>{@code acknowledged} acknowledges the incident this channel opened, found the same way, with
 * {@code POST {base}/api/v2/incidents/{id}/acknowledge} and {@code {"acknowledged_by": "<name>"}} (the event's
 * {@code acknowledgedBy} attribute, else {@code vigil}); see
 * <a href="https://betterstack.com/docs/uptime/api/acknowledge-an-ongoing-incident/">Acknowledge an ongoing
 * incident</a> in BetterStack's Uptime API. 409 (already acknowledged) counts as delivered; without the id of an
 * incident of ours it calls nothing.
 *
 * <p>How the incident reaches the on-call person (phone call, SMS, e-mail, push) follows the page's severity through
 * {@link OnCallReach}: by default a critical page rings the phone.
 */
public final class BetterStackNotifier implements Notifier {
    public static final int DESCRIPTION_MAX = 10_000;
    private final URI base;
    private final String token;
    private final HttpSender http;
    private final Clock clock;
    private final OnCallReach reach;
    private final MessageTemplate template;

    /**
     * Today's incident description as a template (all of the event's links are listed there; the template's
     * {@code links} are those that may be rendered as links). A channel's {@code template} replaces it.
     */
    public static final String DEFAULT_TEMPLATE =
            """
            {{summary}}

            fingerprint: {{fingerprint}}
            incident: {{incidentId}}
            first seen: {{firstSeen}}
            occurrences: {{occurrences}}{{#links}}
            {{name}}: {{url}}{{/links}}""";

    /** Incident descriptions are plain text: values go in as they are (JSON encoding is all the API needs). */
    public static MessageTemplate template(String source) {
        return MessageTemplate.compile(source, v -> v);
    }

    /** A channel that reaches people as {@link OnCallReach#defaults()} says. */
    public BetterStackNotifier(URI base, String token, HttpSender http, Clock clock) {
        this(base, token, http, clock, OnCallReach.defaults());
    }

    public BetterStackNotifier(URI base, String token, HttpSender http, Clock clock, OnCallReach reach) {
        this(base, token, http, clock, reach, null);
    }

    /** @param template the incident description's template (see {@link #DEFAULT_TEMPLATE}), or null for today's */
    public BetterStackNotifier(
            URI base, String token, HttpSender http, Clock clock, OnCallReach reach, String template) {
        this.reach = reach;
        this.template = template == null ? null : template(template);
        String b = base.toString();
        this.base = URI.create(b.endsWith("/") ? b.substring(0, b.length() - 1) : b);
        this.token = token;
        this.http = http;
        this.clock = clock;
    }

    @Override
    public boolean usesVendorRef() {
        return true;
    }

    @Override
    public Mono<DeliveryOutcome> send(Notification n) {
        AlertEvent e = n.event();
        return switch (e.state()) {
            case OPENED -> create(e);
            case ESCALATED -> n.vendorRef() == null ? create(e) : Mono.just(DeliveryOutcome.delivered(null));
            case REMINDER -> Mono.just(DeliveryOutcome.delivered(null));
            case RESOLVED -> n.vendorRef() == null
                    ? Mono.just(DeliveryOutcome.delivered(null))
                    : resolve(n.vendorRef());
            case ACKNOWLEDGED -> n.vendorRef() == null
                    ? Mono.just(DeliveryOutcome.delivered(null))
                    : acknowledge(n.vendorRef(), Presentation.acknowledgedBy(e, "vigil"));
        };
    }

    private Map<String, String> auth() {
        return Map.of("Authorization", "Bearer " + token);
    }

    private Mono<DeliveryOutcome> create(AlertEvent event) {
        return http.postJson(URI.create(base + "/api/v2/incidents"), auth(), Json.bytes(incident(event)))
                .map(this::created);
    }

    /** The body that creates the incident for {@code event}: name, summary, description and how it reaches people. */
    ObjectNode incident(AlertEvent event) {
        AlertEvent e = Presentation.clean(event);
        ObjectNode body = Json.mapper().createObjectNode();
        body.put("name", Text.truncate(e.service(), 100));
        body.put("summary", Text.truncate(Presentation.title(e), 255));
        StringBuilder d = new StringBuilder(e.summary())
                .append("\n\nfingerprint: ")
                .append(e.fingerprint())
                .append("\nincident: ")
                .append(e.incidentId())
                .append("\nfirst seen: ")
                .append(Presentation.time(e.firstSeen()))
                .append("\noccurrences: ")
                .append(e.occurrences());
        e.links().forEach((k, v) -> d.append('\n').append(k).append(": ").append(v));
        String custom = MessageTemplate.renderOrNull(template, e);
        body.put("description", Text.truncate(custom != null ? custom : d.toString(), DESCRIPTION_MAX));
        var mediums = reach.of(e.severity());
        for (OnCallReach.Medium m : OnCallReach.Medium.values()) {
            body.put(m.wire(), mediums.contains(m));
        }
        return body;
    }

    DeliveryOutcome created(HttpReply reply) {
        DeliveryOutcome o = StatusMapping.map("betterstack", reply, clock);
        if (o instanceof DeliveryOutcome.Delivered) {
            String id = incidentId(reply.body());
            if (id == null) {
                return new DeliveryOutcome.Permanent(
                        "betterstack created an incident but its answer has no data.id", reply.status());
            }
            return new DeliveryOutcome.Delivered(reply.status(), id);
        }
        return o;
    }

    private Mono<DeliveryOutcome> resolve(String incidentId) {
        URI uri = URI.create(base + "/api/v2/incidents/"
                + java.net.URLEncoder.encode(incidentId, StandardCharsets.UTF_8) + "/resolve");
        return http.postJson(uri, auth(), "{\"resolved_by\":\"vigil\"}".getBytes(StandardCharsets.UTF_8))
                .map(this::resolved);
    }

    private Mono<DeliveryOutcome> acknowledge(String incidentId, String by) {
        URI uri = URI.create(base + "/api/v2/incidents/"
                + java.net.URLEncoder.encode(incidentId, StandardCharsets.UTF_8) + "/acknowledge");
        ObjectNode body = Json.mapper().createObjectNode().put("acknowledged_by", Text.truncate(by, 255));
        // 409: already acknowledged (in BetterStack itself, or an earlier attempt of ours): nothing left to do
        return http.postJson(uri, auth(), Json.bytes(body)).map(this::resolved);
    }

    /** The answer to a resolve or an acknowledge: 409 means it is already so, which is what we wanted. */
    DeliveryOutcome resolved(HttpReply reply) {
        if (reply.status() == 409) {
            return DeliveryOutcome.delivered(409);
        }
        return StatusMapping.map("betterstack", reply, clock);
    }

    static String incidentId(String body) {
        try {
            JsonNode id = Json.tree(body.getBytes(StandardCharsets.UTF_8))
                    .path("data")
                    .path("id");
            return id.isMissingNode() || id.isNull() || id.asText().isBlank() ? null : id.asText();
        } catch (RuntimeException ex) {
            return null;
        }
    }
}
