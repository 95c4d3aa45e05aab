package dev.vigil.probe.probe;

import io.netty.buffer.Unpooled;
import io.netty.handler.ssl.SslContextBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerResponse;

/** Local Reactor Netty HTTP targets standing in for monitored services. */
final class TestTargets implements AutoCloseable {
    static final int BIG_BODY_BYTES = 10 * 1024 * 1024;

    final Map<String, Map<String, String>> requestHeaders = new ConcurrentHashMap<>();
    final CountDownLatch slowConnectionClosed = new CountDownLatch(1);
    final CountDownLatch bigConnectionClosed = new CountDownLatch(1);
    final AtomicLong bigBytesSent = new AtomicLong();
    final AtomicLong slowResponsesSent = new AtomicLong();
    private final DisposableServer server;

    private TestTargets(HttpServer base) {
        this.server = routes(base).bindNow();
    }

    static TestTargets plain() {
        return new TestTargets(HttpServer.create());
    }

    static TestTargets secure(KeyManagerFactory kmf) throws Exception {
        var ctx = SslContextBuilder.forServer(kmf).build();
        return new TestTargets(HttpServer.create().secure(spec -> spec.sslContext(ctx)));
    }

    private HttpServer routes(HttpServer s) {
        return s.host("127.0.0.1").port(0).route(r -> r.get("/ok", (req, res) -> {
                    requestHeaders.put("/ok", headers(req.requestHeaders()));
                    return json(res, "{\"status\":\"ok\",\"version\":\"1.2.3\"}");
                })
                .get("/down", (req, res) -> json(res, "{\"status\":\"down\"}"))
                .get("/error", (req, res) -> res.status(500).sendString(Mono.just("boom")))
                .get("/slow", (req, res) -> {
                    res.withConnection(c -> c.onDispose(slowConnectionClosed::countDown));
                    return Mono.delay(Duration.ofSeconds(20)).then(Mono.defer(() -> {
                        slowResponsesSent.incrementAndGet();
                        return Mono.from(json(res, "{\"status\":\"ok\"}"));
                    }));
                })
                .get("/redirect/{n}", (req, res) -> {
                    int n = Integer.parseInt(req.param("n"));
                    if (n == 0) {
                        requestHeaders.put("/redirect/0", headers(req.requestHeaders()));
                        return json(res, "{\"status\":\"ok\"}");
                    }
                    return res.status(302)
                            .header("Location", "/redirect/" + (n - 1) + "?token=secret")
                            .header("Set-Cookie", "session=abc; Path=/")
                            .send();
                })
                .get("/to-private", (req, res) -> res.status(302)
                        .header("Location", "http://10.0.0.1/admin")
                        .send())
                .get("/big", (req, res) -> {
                    res.withConnection(c -> c.onDispose(bigConnectionClosed::countDown));
                    byte[] chunk = new byte[8192];
                    java.util.Arrays.fill(chunk, (byte) 'x');
                    return res.header("Content-Length", String.valueOf(BIG_BODY_BYTES))
                            .send(Flux.range(0, BIG_BODY_BYTES / chunk.length)
                                    .map(i -> Unpooled.wrappedBuffer(chunk))
                                    .doOnNext(b -> bigBytesSent.addAndGet(chunk.length)));
                }));
    }

    private static Map<String, String> headers(io.netty.handler.codec.http.HttpHeaders h) {
        Map<String, String> m = new ConcurrentHashMap<>();
        h.forEach(e -> m.put(e.getKey().toLowerCase(java.util.Locale.ROOT), e.getValue()));
        return m;
    }

    private static org.reactivestreams.Publisher<Void> json(HttpServerResponse res, String body) {
        return res.header("Content-Type", "application/json")
                .sendByteArray(Mono.just(body.getBytes(StandardCharsets.UTF_8)));
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    String httpsUrl(String path) {
        return "https://127.0.0.1:" + server.port() + path;
    }

    int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }
}
