package dev.vigil.notifier.channel.pagerduty;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import reactor.core.publisher.Mono;

/**
 * PagerDuty Events API v2: one {@code POST} of an alert event ({@link PagerDutyEvent}) per notification to
 * {@value #DEFAULT_EVENTS} (or the configured events URL). {@code opened}, {@code reminder} and {@code escalated}
 * trigger, {@code acknowledged} acknowledges, {@code resolved} resolves; the {@code dedup_key} is the incident id,
 * so PagerDuty itself folds the triggers of one incident into one alert and nothing needs storing
 * ({@link #usesVendorRef()} is false).
 *
 * <p>Statuses, per PagerDuty's "Response Codes &amp; Retry Logic": 202 (any 2xx) delivered; 400 permanent (the
 * event is invalid; the reason carries PagerDuty's {@code message} and {@code errors}, truncated); 429 transient
 * (PagerDuty throttles per routing key, about 120 events a minute, and asks for a retry after some time; a
 * Retry-After is honoured when present); 408 and 5xx transient; any other 4xx permanent (the shared
 * {@link StatusMapping}). A network error is transient too.
 *
 * <p>The routing key is a secret: it goes only into the request body. It never appears in {@link #toString()},
 * in an outcome's reason (vendor text is scrubbed of it before it is cut short, so not even a prefix survives) or
 * in an exception this class raises.
 *
 * <p>References: <a href="https://developer.pagerduty.com/docs/events-api-v2/overview/">Events API v2 Overview</a>
 * (response codes and retry logic), <a href="https://developer.pagerduty.com/docs/events-api-v2/trigger-events/">Send
 * an Alert Event</a>, <a href="https://github.com/PagerDuty/developer-docs/blob/main/docs/events-API-v2/05-Rate-Limits.md">Events
 * API Rate Limits</a> (per integration key, 429), and the error response schema
 * ({@code status}, {@code message}, {@code errors}) in
 * <a href="https://github.com/PagerDuty/api-schema/blob/main/reference/events-v2/openapiv3.json">the Events API v2
 * OpenAPI description</a>.
 */
public final class PagerDutyNotifier implements Notifier {
    static final String DEFAULT_EVENTS = "https://events.pagerduty.com/v2/enqueue";
    public static final URI DEFAULT_EVENTS_URL = URI.create(DEFAULT_EVENTS);
    /** How much of PagerDuty's error text a reason keeps. */
    static final int ERRORS_MAX = 300;

    static final String REDACTED = "[redacted]";
    private static final String VENDOR = "pagerduty";

    private final URI eventsUrl;
    private final String routingKey;
    private final Pattern routingKeyPattern;
    private final HttpSender http;
    private final Clock clock;
    private final MessageTemplate template;

    public PagerDutyNotifier(URI eventsUrl, String routingKey, HttpSender http, Clock clock) {
        this(eventsUrl, routingKey, http, clock, null);
    }

    /** @param template the summary's template (see {@link PagerDutyEvent#DEFAULT_TEMPLATE}), or null for today's */
    public PagerDutyNotifier(URI eventsUrl, String routingKey, HttpSender http, Clock clock, String template) {
        this.eventsUrl = Objects.requireNonNull(eventsUrl, "eventsUrl");
        if (routingKey == null || routingKey.isBlank()) {
            throw new IllegalArgumentException("a PagerDuty routing key is required");
        }
        this.routingKey = routingKey;
        this.routingKeyPattern = Pattern.compile(Pattern.quote(routingKey.strip()), Pattern.CASE_INSENSITIVE);
        this.http = Objects.requireNonNull(http, "http");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.template = template == null ? null : PagerDutyEvent.template(template);
    }

    @Override
    public Mono<DeliveryOutcome> send(Notification n) {
        return Mono.defer(() -> {
                    byte[] body = Json.bytes(PagerDutyEvent.build(n.event(), routingKey, template));
                    return http.postJson(eventsUrl, Map.of(), body).map(this::outcome);
                })
                .onErrorResume(e -> Mono.just(new DeliveryOutcome.Transient(scrub(describe(e)), null, null)));
    }

    DeliveryOutcome outcome(HttpReply raw) {
        // scrubbed before anything is cut short, so a truncated reason cannot end in a prefix of the key
        HttpReply reply = new HttpReply(raw.status(), raw.headers(), scrub(raw.body()));
        if (reply.status() == 400) {
            return new DeliveryOutcome.Permanent(
                    VENDOR + " rejected the event as invalid (HTTP 400)" + errors(reply.body()), 400);
        }
        return StatusMapping.map(VENDOR, reply, clock);
    }

    /**
     * ": message: error; error" from PagerDuty's error answer, one line, at most {@value #ERRORS_MAX} characters; the
     * shared body excerpt when the answer is not that JSON.
     */
    static String errors(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        try {
            JsonNode root = Json.tree(body.getBytes(StandardCharsets.UTF_8));
            String message = root.path("message").asText("");
            if (!message.isBlank()) {
                sb.append(message.strip());
            }
            JsonNode errors = root.path("errors");
            if (errors.isArray()) {
                StringBuilder list = new StringBuilder();
                for (JsonNode err : errors) {
                    String t = err.isTextual() ? err.asText() : err.toString();
                    if (!t.isBlank()) {
                        list.append(list.length() == 0 ? "" : "; ").append(t.strip());
                    }
                }
                if (list.length() > 0) {
                    sb.append(sb.length() == 0 ? "" : ": ").append(list);
                }
            } else if (errors.isTextual() && !errors.asText().isBlank()) {
                sb.append(sb.length() == 0 ? "" : ": ").append(errors.asText().strip());
            }
        } catch (RuntimeException notJson) {
            return StatusMapping.snippet(body);
        }
        if (sb.length() == 0) {
            return StatusMapping.snippet(body);
        }
        return ": "
                + Text.truncate(
                        PagerDutyEvent.oneLine(Text.stripInvisible(sb.toString()))
                                .strip(),
                        ERRORS_MAX);
    }

    /** The text with every occurrence of the routing key (any letter case) replaced. */
    String scrub(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        return routingKeyPattern.matcher(text).replaceAll(Matcher.quoteReplacement(REDACTED));
    }

    private static String describe(Throwable e) {
        String m = e.getMessage();
        return VENDOR + " send failed: " + e.getClass().getSimpleName() + (m == null ? "" : ": " + Text.oneLine(m));
    }

    /** Where events go; never the routing key. */
    @Override
    public String toString() {
        return "PagerDutyNotifier[" + eventsUrl + ", routingKey=" + REDACTED + "]";
    }
}
