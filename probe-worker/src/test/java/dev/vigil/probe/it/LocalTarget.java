package dev.vigil.probe.it;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** A healthy local HTTP target: {@code GET /health} answers {@code {"status":"ok"}}. */
final class LocalTarget implements AutoCloseable {
    final AtomicLong requests = new AtomicLong();
    private final DisposableServer server;

    LocalTarget() {
        server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .route(r -> r.get("/health", (req, res) -> {
                            requests.incrementAndGet();
                            return res.header("Content-Type", "application/json")
                                    .sendString(Mono.just("{\"status\":\"ok\"}"));
                        })
                        .get("/slow-health", (req, res) -> {
                            requests.incrementAndGet();
                            return res.header("Content-Type", "application/json")
                                    .sendString(
                                            Mono.delay(Duration.ofMillis(1500)).thenReturn("{\"status\":\"ok\"}"));
                        }))
                .bindNow();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }
}
