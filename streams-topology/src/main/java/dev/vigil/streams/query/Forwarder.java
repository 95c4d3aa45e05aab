package dev.vigil.streams.query;

import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/** Forwards a query to the instance that owns the key (or gathers from a peer), with a bounded time and body. */
public final class Forwarder implements AutoCloseable {
    /** Largest body accepted from a peer (a whole /v1/status of many monitors fits). */
    public static final int MAX_BODY_BYTES = 64 * 1024 * 1024;

    private final ConnectionProvider pool;
    private final HttpClient client;
    private final Duration timeout;

    /** @param authorization the {@code Authorization} value that identifies this instance to its peers */
    public Forwarder(Duration timeout, String authorization) {
        this(timeout, timeout, authorization);
    }

    /**
     * @param connectTimeout how long to wait for a peer to accept the connection: a peer that does not is stood in
     *                       for by this instance's standby copies, so this stays short
     * @param responseTimeout how long a connected peer may take to answer (a page of 10,000 monitors of a large fleet
     *                        takes seconds on a busy instance)
     * @param authorization the {@code Authorization} value that identifies this instance to its peers
     */
    public Forwarder(Duration connectTimeout, Duration responseTimeout, String authorization) {
        this.timeout = responseTimeout;
        this.pool = ConnectionProvider.builder("vigil-query-forward")
                .maxConnections(64)
                .pendingAcquireTimeout(responseTimeout)
                .build();
        this.client = HttpClient.create(pool)
                .responseTimeout(responseTimeout)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int)
                        Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()))
                .headers(h ->
                        h.set(QueryRequest.FORWARDED_HEADER, "true").set(HttpHeaderNames.AUTHORIZATION, authorization));
    }

    /**
     * GET {@code http://hostPort + uri}; the peer's status, content type, Retry-After and body are passed through.
     * {@code hostPort} comes from Kafka Streams' metadata, never from the request; {@code uri} must be an
     * origin-form path (checked here so no caller can turn it into another host).
     */
    public Mono<HttpResult> get(String hostPort, String uri) {
        if (uri == null
                || !uri.startsWith("/")
                || uri.startsWith("//")
                || uri.indexOf('@') >= 0
                || uri.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
            return Mono.error(new QueryBackend.Unavailable(
                    "refusing to forward a request whose path is not a plain origin-form path"));
        }
        return client.get()
                .uri("http://" + hostPort + uri)
                .responseSingle((res, body) -> body.asByteArray()
                        .defaultIfEmpty(new byte[0])
                        .map(bytes -> {
                            if (res.status().code() == 401) {
                                throw new QueryBackend.Unavailable(
                                        "peer " + hostPort + " refused this instance's credential: "
                                                + "every instance must share the same instance token (auth.instanceTokenEnv)");
                            }
                            if (bytes.length > MAX_BODY_BYTES) {
                                throw new QueryBackend.Unavailable(
                                        "peer " + hostPort + " answered more than " + MAX_BODY_BYTES + " bytes");
                            }
                            Map<String, String> headers = new HashMap<>();
                            String retry = res.responseHeaders().get(HttpHeaderNames.RETRY_AFTER);
                            if (retry != null) {
                                headers.put("Retry-After", retry);
                            }
                            String type = res.responseHeaders().get(HttpHeaderNames.CONTENT_TYPE);
                            return new HttpResult(
                                    res.status().code(), type == null ? HttpResult.JSON : type, bytes, headers);
                        }))
                .timeout(timeout.plusSeconds(1))
                .onErrorMap(
                        e -> !(e instanceof QueryBackend.Unavailable),
                        e -> new QueryBackend.Unavailable(
                                "peer " + hostPort + " did not answer: "
                                        + e.getClass().getSimpleName(),
                                e));
    }

    @Override
    public void close() {
        pool.dispose();
    }
}
