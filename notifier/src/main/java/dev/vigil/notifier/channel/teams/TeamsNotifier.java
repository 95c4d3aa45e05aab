package dev.vigil.notifier.channel.teams;

import dev.vigil.kit.http.TransientStatus;
import dev.vigil.notifier.channel.HttpReply;
import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.channel.StatusMapping;
import dev.vigil.notifier.channel.template.MessageTemplate;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.notifier.core.Text;
import dev.vigil.schemas.json.Json;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import reactor.core.publisher.Mono;

/**
 * Microsoft Teams through a Workflows webhook (the "Post to a channel when a webhook request is received"
 * template: trigger "When a Teams webhook request is received", action "Post card in a chat or channel"): one
 * {@code POST} of a {@link TeamsMessage} (Adaptive Card) per notification.
 *
 * <p>Statuses: 200 and 202 delivered (the Workflows trigger answers 202 Accepted; it runs the flow afterwards, so
 * a card the flow later fails to post is not seen here); 429 and 5xx transient, with Retry-After honoured; 408
 * transient; 400, 401, 403, 404 and every other 4xx permanent (invalid payload, a revoked signature, a deleted or
 * turned-off workflow). A retired Office 365 connector URL answers 200 with "Microsoft Teams endpoint returned
 * HTTP error 429" in its body when throttled: that is transient too. A network error is transient.
 *
 * <p>The workflow URL is a secret (its {@code sig} query parameter signs the request). It is never logged, never
 * in {@link #toString()} (which names only the host) and never in an outcome's reason: vendor text and client
 * errors are scrubbed of the URL, its path, its query and each query value before they are cut short.
 *
 * <p>References: <a href="https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using">Create
 * and send messages</a> (Workflows, the Adaptive Card envelope, rate limiting and the connectors' 200-with-429 body),
 * <a href="https://learn.microsoft.com/en-us/connectors/teams/">Microsoft Teams connector</a> (message size limit,
 * "Request Entity Too Large").
 */
public final class TeamsNotifier implements Notifier {
    static final String REDACTED = "[redacted]";
    static final String CONNECTOR_THROTTLED = "Microsoft Teams endpoint returned HTTP error 429";
    private static final String VENDOR = "teams";
    /** Path segments and query values this long are scrubbed on their own (shorter ones: "invoke", "1.0"). */
    static final int ID_MIN = 16;

    private final URI workflowUrl;
    private final List<String> secrets;
    private final HttpSender http;
    private final Clock clock;
    private final MessageTemplate template;

    public TeamsNotifier(URI workflowUrl, HttpSender http, Clock clock) {
        this(workflowUrl, http, clock, null);
    }

    /** @param template the summary TextBlock's template (see {@link TeamsMessage#DEFAULT_TEMPLATE}), or null */
    public TeamsNotifier(URI workflowUrl, HttpSender http, Clock clock, String template) {
        this.workflowUrl = Objects.requireNonNull(workflowUrl, "workflowUrl");
        this.secrets = secretParts(workflowUrl);
        this.http = Objects.requireNonNull(http, "http");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.template = template == null ? null : TeamsMessage.template(template);
    }

    @Override
    public boolean rendersGroups() {
        return true;
    }

    @Override
    public Mono<DeliveryOutcome> send(Notification n) {
        return Mono.defer(() -> {
                    byte[] body = Json.bytes(
                            n.isGroup()
                                    ? TeamsMessage.group(n.group(), n.groupId())
                                    : TeamsMessage.build(n.event(), template));
                    return http.postJson(workflowUrl, Map.of(), body).map(this::outcome);
                })
                .onErrorResume(e -> Mono.just(new DeliveryOutcome.Transient(scrub(describe(e)), null, null)));
    }

    DeliveryOutcome outcome(HttpReply raw) {
        // scrubbed before anything is cut short, so no truncated reason ends in a piece of the URL
        HttpReply reply = new HttpReply(raw.status(), raw.headers(), scrub(raw.body()));
        if (reply.status() >= 200
                && reply.status() < 300
                && reply.body() != null
                && reply.body().contains(CONNECTOR_THROTTLED)) {
            return new DeliveryOutcome.Transient(
                    VENDOR + " answered HTTP " + reply.status() + " but throttled the message (" + CONNECTOR_THROTTLED
                            + ")",
                    TransientStatus.retryAfter(reply.header("retry-after"), clock),
                    reply.status());
        }
        return StatusMapping.map(VENDOR, reply, clock);
    }

    /** The text with the URL and each of its secret-bearing parts replaced, longest first. */
    String scrub(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String t = text;
        for (String s : secrets) {
            t = t.replace(s, REDACTED);
        }
        return t;
    }

    /**
     * The URL as written and decoded, its path and query (raw and decoded), every query value and every path
     * segment long enough to be an id or a signature ({@value #ID_MIN}+ characters: a workflow id has 32, a
     * {@code sig} 43): whatever of it a vendor or a client error might echo.
     */
    static List<String> secretParts(URI u) {
        Set<String> parts = new LinkedHashSet<>();
        add(parts, u.toString());
        add(parts, u.toASCIIString());
        add(parts, u.getRawPath());
        add(parts, u.getPath());
        add(parts, u.getRawQuery());
        add(parts, u.getQuery());
        add(parts, u.getRawSchemeSpecificPart());
        if (u.getRawPath() != null) {
            for (String seg : u.getRawPath().split("/")) {
                if (seg.length() >= ID_MIN) {
                    add(parts, seg);
                }
            }
        }
        if (u.getRawQuery() != null) {
            for (String pair : u.getRawQuery().split("&")) {
                int eq = pair.indexOf('=');
                String value = eq < 0 ? pair : pair.substring(eq + 1);
                if (value.length() >= ID_MIN) {
                    add(parts, value);
                    try {
                        add(parts, URLDecoder.decode(value, StandardCharsets.UTF_8));
                    } catch (IllegalArgumentException ignored) {
                        // not valid percent-encoding: the raw value is scrubbed already
                    }
                }
            }
        }
        List<String> sorted = new ArrayList<>(parts);
        sorted.sort(Comparator.comparingInt(String::length).reversed());
        return List.copyOf(sorted);
    }

    private static void add(Set<String> parts, String s) {
        if (s != null && s.length() >= 8) {
            parts.add(s);
        }
    }

    private static String describe(Throwable e) {
        String m = e.getMessage();
        return VENDOR + " send failed: " + e.getClass().getSimpleName() + (m == null ? "" : ": " + Text.oneLine(m));
    }

    /** The host only: the path and query of a workflow URL are its secret. */
    @Override
    public String toString() {
        return "TeamsNotifier[" + workflowUrl.getHost() + "]";
    }
}
