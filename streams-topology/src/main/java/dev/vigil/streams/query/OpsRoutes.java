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
                // a client shut down after a fatal stream-thread error never recovers by itself: unhealthy, so a
                // supervisor restarts the process; every other state (starting, rebalancing) is only not ready
                .get("/health", req -> Mono.just(failed(backend.state())
                        ? HttpResult.unavailable("Kafka Streams stopped after a fatal error (state " + backend.state()
                                + "); the log says why", req.path())
                        : HttpResult.ok(Map.of("status", "ok"))))
                .get("/ready", req -> Mono.just(backend.ready()
                        ? HttpResult.ok(Map.of("status", "ready", "streams", backend.state()))
                        : HttpResult.unavailable("Kafka Streams is " + backend.state(), req.path())))
                .get("/metrics", req -> Mono.fromSupplier(() -> HttpResult.text(200,
                        "text/plain; version=0.0.4; charset=utf-8", prometheusScrape.get())))
                .get("/v1/openapi.json", req -> Mono.just(new HttpResult(200, HttpResult.JSON, openapi, Map.of())));
    }

    /** Kafka Streams' {@code PENDING_ERROR} and {@code ERROR}: the states a client reaches only after shutting down on a fatal error. */
    static boolean failed(String streamsState) {
        return "ERROR".equals(streamsState) || "PENDING_ERROR".equals(streamsState);
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
