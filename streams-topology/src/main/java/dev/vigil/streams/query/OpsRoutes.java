package dev.vigil.streams.query;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/** {@code /health}, {@code /ready}, {@code /metrics} and {@code /v1/openapi.json}. */
public final class OpsRoutes {
    public static final String OPENAPI_RESOURCE = "/openapi/streams-query.json";

    private OpsRoutes() {
    }

    public static RouteTable register(RouteTable routes, QueryBackend backend, Supplier<String> prometheusScrape) {
        byte[] openapi = openApiDocument();
        return routes
                .get("/health", req -> Mono.just(HttpResult.ok(Map.of("status", "ok"))))
                .get("/ready", req -> Mono.just(backend.ready()
                        ? HttpResult.ok(Map.of("status", "ready", "streams", backend.state()))
                        : HttpResult.unavailable("Kafka Streams is " + backend.state(), req.path())))
                .get("/metrics", req -> Mono.fromSupplier(() -> HttpResult.text(200,
                        "text/plain; version=0.0.4; charset=utf-8", prometheusScrape.get())))
                .get("/v1/openapi.json", req -> Mono.just(new HttpResult(200, HttpResult.JSON, openapi, Map.of())));
    }

    public static byte[] openApiDocument() {
        try (InputStream in = OpsRoutes.class.getResourceAsStream(OPENAPI_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + OPENAPI_RESOURCE);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
