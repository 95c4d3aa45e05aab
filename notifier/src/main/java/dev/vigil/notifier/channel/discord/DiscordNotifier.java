package dev.vigil.notifier.channel.discord;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.http.TransientStatus;
import dev.vigil.notifier.channel.HttpReply;
import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.channel.StatusMapping;
import dev.vigil.notifier.channel.template.MessageTemplate;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.schemas.json.Json;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * Discord webhook with {@code wait=true} (so a 2xx means the message exists). A 429 carries {@code retry_after}
 * (seconds, fractional) in its JSON body, preferred over the Retry-After header. A success that reports an empty
 * rate-limit bucket ({@code X-RateLimit-Remaining: 0}) holds the channel until {@code X-RateLimit-Reset-After}.
 */
public final class DiscordNotifier implements Notifier {
    private final URI webhook;
    private final HttpSender http;
    private final Clock clock;
    private final MessageTemplate template;

    public DiscordNotifier(URI webhook, HttpSender http, Clock clock) {
        this(webhook, http, clock, null);
    }

    /** @param template the embed description's template (see {@link DiscordMessage#DEFAULT_TEMPLATE}), or null */
    public DiscordNotifier(URI webhook, HttpSender http, Clock clock, String template) {
        this.webhook = withWait(webhook);
        this.http = http;
        this.clock = clock;
        this.template = template == null ? null : DiscordMessage.template(template);
    }

    static URI withWait(URI u) {
        String s = u.toString();
        if (s.contains("wait=")) {
            return u;
        }
        return URI.create(s + (u.getRawQuery() == null ? "?" : "&") + "wait=true");
    }

    @Override
    public boolean rendersGroups() {
        return true;
    }

    @Override
    public Mono<DeliveryOutcome> send(Notification n) {
        byte[] body = Json.bytes(
                n.isGroup() ? DiscordMessage.group(n.group(), n.groupId()) : DiscordMessage.build(n.event(), template));
        return http.postJson(webhook, Map.of(), body).map(this::outcome);
    }

    DeliveryOutcome outcome(HttpReply reply) {
        DeliveryOutcome o = StatusMapping.map("discord", reply, clock);
        if (o instanceof DeliveryOutcome.Delivered d && "0".equals(reply.header("x-ratelimit-remaining"))) {
            // the bucket is empty: wait for its reset instead of earning a 429
            Duration reset = TransientStatus.retryAfter(reply.header("x-ratelimit-reset-after"), clock);
            if (reset != null) {
                return new DeliveryOutcome.Delivered(d.httpStatus(), d.vendorRef(), reset);
            }
        }
        if (reply.status() == 429 && o instanceof DeliveryOutcome.Transient t) {
            Duration fromBody = retryAfterFromBody(reply.body());
            if (fromBody != null) {
                return new DeliveryOutcome.Transient(t.reason(), fromBody, t.httpStatus());
            }
        }
        return o;
    }

    static Duration retryAfterFromBody(String body) {
        try {
            JsonNode n = Json.tree(body.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                    .path("retry_after");
            if (n.isNumber() && n.asDouble() >= 0 && n.asDouble() < 86_400) {
                return Duration.ofMillis((long) Math.ceil(n.asDouble() * 1000));
            }
        } catch (RuntimeException e) {
            // not JSON: fall back to the header
        }
        return null;
    }
}
