package dev.vigil.probe.probe;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * A loopback HTTP target that records every request (method, path, headers, body) and answers by path:
 * {@code /echo} any method, 200 with {@code X-Version} and two {@code Cache-Control} headers; {@code /secure} 401 unless
 * {@code Authorization} is {@code Bearer <token>}; {@code /text} a plain body; {@code /build} two
 * {@code X-Build} headers of 200 {@code a} each (what a hostile target answers to a backtracking pattern); {@code /see-other} 303 and
 * {@code /temporary} 307 to {@code /secure}; {@code /away} 302 to {@code awayUrl}; {@code /slow} never answers.
 */
final class TestHttpServer implements AutoCloseable {
    /** One request as the server saw it; header names lower-case. */
    record Seen(String method, String path, Map<String, String> headers, String body) {}

    final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final DisposableServer server;
    volatile String token = "";
    volatile String awayUrl = "";

    private final String scheme;

    TestHttpServer() {
        this(HttpServer.create(), "http");
    }

    /** The same target over https, with a certificate for 127.0.0.1 and localhost from {@code kmf}. */
    TestHttpServer(javax.net.ssl.KeyManagerFactory kmf) throws javax.net.ssl.SSLException {
        this(secure(kmf), "https");
    }

    private static HttpServer secure(javax.net.ssl.KeyManagerFactory kmf) throws javax.net.ssl.SSLException {
        var ctx = io.netty.handler.ssl.SslContextBuilder.forServer(kmf).build();
        return HttpServer.create().secure(spec -> spec.sslContext(ctx));
    }

    private TestHttpServer(HttpServer base, String scheme) {
        this.scheme = scheme;
        server = base.host("127.0.0.1")
                .port(0)
                .route(r -> r.route(req -> true, this::handle))
                .bindNow();
    }

    private org.reactivestreams.Publisher<Void> handle(HttpServerRequest req, HttpServerResponse res) {
        return req.receive()
                .aggregate()
                .asString(StandardCharsets.UTF_8)
                .defaultIfEmpty("")
                .flatMap(body -> {
                    Map<String, String> headers = new TreeMap<>();
                    req.requestHeaders()
                            .forEach(e -> headers.merge(
                                    e.getKey().toLowerCase(Locale.ROOT), e.getValue(), (a, b) -> a + ", " + b));
                    String path = req.uri().replaceFirst("\\?.*", "");
                    seen.add(new Seen(req.method().name(), path, headers, body));
                    return switch (path) {
                        case "/echo" -> Mono.from(res.header("X-Version", "1.4.2")
                                .addHeader("Cache-Control", "no-store")
                                .addHeader("Cache-Control", "private")
                                .header("Content-Type", "application/json")
                                .sendString(Mono.just("{\"status\":\"ok\"}")));
                        case "/secure" -> ("Bearer " + token).equals(headers.get("authorization"))
                                ? Mono.from(res.sendString(Mono.just("welcome")))
                                : Mono.from(res.status(401)
                                        .header("WWW-Authenticate", "Bearer")
                                        .send());
                        case "/build" -> Mono.from(res.header("X-Build", "a".repeat(200))
                                .addHeader("X-Build", "a".repeat(200))
                                .sendString(Mono.just("ok")));
                        case "/text" -> Mono.from(res.header("Content-Type", "text/plain")
                                .sendString(Mono.just("db: ok, cache: ERROR connection refused")));
                        case "/see-other" -> Mono.from(
                                res.status(303).header("Location", "/echo").send());
                        case "/temporary" -> Mono.from(
                                res.status(307).header("Location", "/secure").send());
                        case "/away" -> Mono.from(
                                res.status(302).header("Location", awayUrl).send());
                        case "/slow" -> Mono.delay(Duration.ofSeconds(20)).then(Mono.from(res.send()));
                        default -> Mono.from(res.status(404).send());
                    };
                });
    }

    String url(String path) {
        return url("127.0.0.1", path);
    }

    /** The URL of {@code path} by another name of the loopback host ({@code localhost}): another origin to a client. */
    String url(String host, String path) {
        return scheme + "://" + host + ":" + server.port() + path;
    }

    Seen last(String path) {
        for (int i = seen.size() - 1; i >= 0; i--) {
            if (seen.get(i).path().equals(path)) {
                return seen.get(i);
            }
        }
        return null;
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }
}
