package dev.vigil.notifier.channel.webhook;

import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.channel.Presentation;
import dev.vigil.notifier.channel.StatusMapping;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.json.Json;
import java.net.URI;
import java.time.Clock;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * Generic webhook: the AlertEvent JSON (text fields cleaned like every other channel's), signed over the send time
 * and the exact body bytes in {@code X-Vigil-Signature: t=<unix seconds>,v1=<hex>} ({@link WebhookSignature});
 * the receiver dedupes on {@code X-Vigil-Event-Id}. Each attempt is signed afresh, so a retry carries a current
 * {@code t}.
 */
public final class WebhookNotifier implements Notifier {
    public static final String HEADER_EVENT_ID = "X-Vigil-Event-Id";
    private final URI url;
    private final WebhookSignature signature;
    private final HttpSender http;
    private final Clock clock;

    public WebhookNotifier(URI url, WebhookSignature signature, HttpSender http, Clock clock) {
        this.url = url;
        this.signature = signature;
        this.http = http;
        this.clock = clock;
    }

    @Override
    public Mono<DeliveryOutcome> send(Notification n) {
        AlertEvent e = Presentation.clean(n.event());
        byte[] body = Json.bytes(e);
        Map<String, String> headers = Map.of(
                WebhookSignature.HEADER,
                signature.header(clock.instant().getEpochSecond(), body),
                HEADER_EVENT_ID,
                e.eventId());
        return http.postJson(url, headers, body).map(r -> StatusMapping.map("webhook", r, clock));
    }
}
