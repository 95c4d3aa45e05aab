package dev.vigil.notifier.channel.webhook;

import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.channel.StatusMapping;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.sign.RequestSigner;
import java.net.URI;
import java.time.Clock;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * Generic webhook: the AlertEvent JSON, signed with HMAC-SHA-256 over the exact body bytes in
 * {@code X-Vigil-Signature: v1=<hex>} ({@link RequestSigner#signBody}); the receiver dedupes on
 * {@code X-Vigil-Event-Id}.
 */
public final class WebhookNotifier implements Notifier {
    public static final String HEADER_EVENT_ID = "X-Vigil-Event-Id";
    private final URI url;
    private final RequestSigner signer;
    private final HttpSender http;
    private final Clock clock;

    public WebhookNotifier(URI url, RequestSigner signer, HttpSender http, Clock clock) {
        this.url = url;
        this.signer = signer;
        this.http = http;
        this.clock = clock;
    }

    @Override
    public Mono<DeliveryOutcome> send(Notification n) {
        byte[] body = Json.bytes(n.event());
        Map<String, String> headers = Map.of(
                RequestSigner.HEADER_SIGNATURE, signer.signBody(body),
                RequestSigner.HEADER_TIMESTAMP, String.valueOf(clock.millis()),
                HEADER_EVENT_ID, n.event().eventId());
        return http.postJson(url, headers, body).map(r -> StatusMapping.map("webhook", r, clock));
    }
}
