package dev.vigil.notifier.channel;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/** One channel's pooled Reactor Netty client: POST JSON, read a bounded answer. */
public final class HttpSender implements AutoCloseable {
    static final int MAX_BODY = 64 * 1024;
    private final ConnectionProvider pool;
    private final HttpClient client;

    public HttpSender(String name, int maxConnections, Duration timeout) {
        this.pool = ConnectionProvider.builder("vigil-notifier-" + name)
                .maxConnections(Math.max(2, maxConnections))
                .pendingAcquireMaxCount(-1)
                .maxIdleTime(Duration.ofSeconds(30))
                .build();
        this.client = HttpClient.create(pool)
                .responseTimeout(timeout)
                .headers(h -> h.set(HttpHeaderNames.USER_AGENT, "Vigil-Notifier/1"));
    }

    public Mono<HttpReply> postJson(URI uri, Map<String, String> headers, byte[] body) {
        // headers go on the request inside send(): configuring them on the client would copy its whole
        // configuration for every message
        return client.post()
                .uri(uri)
                .send((req, out) -> {
                    req.header(HttpHeaderNames.CONTENT_TYPE, "application/json; charset=utf-8");
                    headers.forEach(req::header);
                    return out.send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(body)));
                })
                .responseSingle((resp, content) -> content.asByteArray()
                        .defaultIfEmpty(new byte[0])
                        .map(bytes -> {
                            Map<String, String> hs = new HashMap<>();
                            resp.responseHeaders()
                                    .forEach(e -> hs.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue()));
                            int n = Math.min(bytes.length, MAX_BODY);
                            return new HttpReply(
                                    resp.status().code(), hs, new String(bytes, 0, n, StandardCharsets.UTF_8));
                        }));
    }

    @Override
    public void close() {
        pool.dispose();
    }
}
