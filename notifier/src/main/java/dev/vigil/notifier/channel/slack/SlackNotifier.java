package dev.vigil.notifier.channel.slack;

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
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * Slack incoming webhook. 400/403/404/410 (invalid payload, revoked or deleted webhook) are permanent; 429 with
 * Retry-After and 5xx are transient (the shared mapping).
 */
public final class SlackNotifier implements Notifier {
    private final URI webhook;
    private final HttpSender http;
    private final Clock clock;
    private final MessageTemplate template;

    public SlackNotifier(URI webhook, HttpSender http, Clock clock) {
        this(webhook, http, clock, null);
    }

    /** @param template the main text's template (see {@link SlackMessage#DEFAULT_TEMPLATE}), or null for today's */
    public SlackNotifier(URI webhook, HttpSender http, Clock clock, String template) {
        this.webhook = webhook;
        this.http = http;
        this.clock = clock;
        this.template = template == null ? null : SlackMessage.template(template);
    }

    @Override
    public Mono<DeliveryOutcome> send(Notification n) {
        byte[] body = Json.bytes(
                n.isGroup() ? SlackMessage.group(n.group(), n.groupId()) : SlackMessage.build(n.event(), template));
        return http.postJson(webhook, Map.of(), body).map(this::outcome);
    }

    @Override
    public boolean rendersGroups() {
        return true;
    }

    DeliveryOutcome outcome(HttpReply reply) {
        return StatusMapping.map("slack", reply, clock);
    }
}
