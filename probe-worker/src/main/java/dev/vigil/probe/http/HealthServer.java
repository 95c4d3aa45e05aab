package dev.vigil.probe.http;

import dev.vigil.schemas.json.Json;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import dev.vigil.kit.http.ServerGuard;
import dev.vigil.kit.http.ServerLimits;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerResponse;

/** {@code GET /health}, {@code /ready} and {@code /metrics} (Prometheus text) on a small Reactor Netty server. */
public final class HealthServer implements AutoCloseable {
    private final DisposableServer server;

    /**
     * @param readiness null when ready, else why not (shown in the 503 problem detail)
     */
    public HealthServer(String host, int port, Supplier<String> readiness, Supplier<String> scrape) {
        this.server = ServerGuard.apply(HttpServer.create().host(host).port(port), ServerLimits.defaults(host), "probe", null)
                // Answers are written from boundedElastic: one completing synchronously on the event loop for a
                // keep-alive request queued behind an answer in flight stops Reactor Netty 1.3.7 reading the
                // connection (reactor-netty#4347); scraping the registry is not event-loop work either.
                .route(r -> r
                        .get("/health", (req, res) -> json(res, HttpResponseStatus.OK, Map.of("status", "ok")))
                        .get("/ready", (req, res) -> {
                            String notReady = readiness.get();
                            return notReady == null
                                    ? json(res, HttpResponseStatus.OK, Map.of("status", "ready"))
                                    : problem(res, HttpResponseStatus.SERVICE_UNAVAILABLE, "not-ready", "Not ready", notReady);
                        })
                        .get("/metrics", (req, res) -> res.header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                                .sendString(Mono.fromSupplier(scrape)).then().subscribeOn(Schedulers.boundedElastic()))
                        .route(req -> true, (req, res) -> problem(res, HttpResponseStatus.NOT_FOUND, "not-found",
                                "Not found", "no such endpoint; try /health, /ready or /metrics")))
                .bindNow(Duration.ofSeconds(10));
    }

    static Publisher<Void> json(HttpServerResponse res, HttpResponseStatus status, Object body) {
        return res.status(status).header("Content-Type", "application/json")
                .sendByteArray(Mono.just(Json.bytes(body))).then().subscribeOn(Schedulers.boundedElastic());
    }

    static Publisher<Void> problem(HttpServerResponse res, HttpResponseStatus status, String type, String title,
                                   String detail) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", "https://vigil.dev/problems/" + type);
        p.put("title", title);
        p.put("status", status.code());
        p.put("detail", detail);
        return res.status(status).header("Content-Type", "application/problem+json")
                .sendByteArray(Mono.just(Json.string(p).getBytes(StandardCharsets.UTF_8))).then()
                .subscribeOn(Schedulers.boundedElastic());
    }

    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }
}
