package dev.vigil.notifier.http;

import dev.vigil.schemas.json.Json;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import dev.vigil.kit.http.ServerGuard;
import dev.vigil.kit.http.ServerLimits;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerResponse;

/** {@code GET /health}, {@code GET /ready}, {@code GET /metrics}; anything else is a problem+json 404. */
public final class HealthServer implements AutoCloseable {
    private final DisposableServer server;

    public HealthServer(String host, int port, BooleanSupplier ready, Supplier<Map<String, Object>> details,
                        PrometheusMeterRegistry registry) {
        this.server = ServerGuard.apply(HttpServer.create().host(host).port(port), ServerLimits.defaults(host), "notifier", registry)
                // Answers are written from boundedElastic: one completing synchronously on the event loop for a
                // keep-alive request queued behind an answer in flight stops Reactor Netty 1.3.7 reading the
                // connection (reactor-netty#4347); scraping the registry is not event-loop work either.
                .route(r -> r
                        .get("/health", (req, res) -> json(res, 200, Map.of("status", "ok")))
                        .get("/ready", (req, res) -> {
                            boolean ok = ready.getAsBoolean();
                            Map<String, Object> body = new java.util.TreeMap<>(details.get());
                            body.put("status", ok ? "ready" : "starting");
                            return json(res, ok ? 200 : 503, body);
                        })
                        .get("/metrics", (req, res) -> res.header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                                .sendString(Mono.fromSupplier(registry::scrape)).then().subscribeOn(Schedulers.boundedElastic()))
                        .route(x -> true, (req, res) -> problem(res, 404, "Not Found",
                                "no such endpoint; try /health, /ready or /metrics")))
                .bindNow();
    }

    public int port() {
        return server.port();
    }

    private static Mono<Void> json(HttpServerResponse res, int status, Object body) {
        return res.status(status).header("Content-Type", "application/json")
                .sendByteArray(Mono.just(Json.bytes(body))).then().subscribeOn(Schedulers.boundedElastic());
    }

    static Mono<Void> problem(HttpServerResponse res, int status, String title, String detail) {
        byte[] body = Json.bytes(Map.of("type", "about:blank", "title", title, "status", status, "detail", detail));
        return res.status(status).header("Content-Type", "application/problem+json")
                .sendByteArray(Mono.just(body)).then().subscribeOn(Schedulers.boundedElastic());
    }

    @Override
    public void close() {
        server.disposeNow();
    }

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
