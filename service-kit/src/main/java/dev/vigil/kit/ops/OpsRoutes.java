package dev.vigil.kit.ops;

import dev.vigil.kit.http.FlatJson;
import dev.vigil.kit.http.Problem;
import dev.vigil.kit.http.Replies;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.http.server.HttpServerRoutes;

/**
 * The operations endpoints of every Vigil service, written once: {@code GET} (and {@code HEAD}) {@code /health},
 * {@code /ready} and {@code /metrics}. A service gives its health and readiness as {@link Check} suppliers and its
 * Prometheus registry; the routes are then either mounted on the service's own Reactor Netty server
 * ({@code server.route(r -> { ops.accept(r); ...own routes and catch-all... })}) or served alone by an
 * {@link OpsServer} on a port of their own.
 *
 * <ul>
 *   <li>{@code /health}: 200 {@code {"status":"ok", ...details}}, or 503 problem {@code unhealthy} (a supervisor
 *   should restart the process);</li>
 *   <li>{@code /ready}: 200 {@code {"status":"ready", ...details}}, or 503 problem {@code not-ready} (send no traffic
 *   yet) with the check's details as extension members;</li>
 *   <li>{@code /metrics}: the Prometheus text exposition, scraped off the event loop;</li>
 *   <li>another method on one of these paths: 405 problem {@code method-not-allowed} with {@code Allow: GET, HEAD}.</li>
 * </ul>
 *
 * <p>Checks run on a {@code boundedElastic} thread and may block briefly; one that throws counts as failing. Immutable:
 * each setter returns a copy.
 */
public final class OpsRoutes implements Consumer<HttpServerRoutes> {
    private static final Logger LOG = LoggerFactory.getLogger(OpsRoutes.class);
    public static final String HEALTH = "/health";
    public static final String READY = "/ready";
    public static final String METRICS = "/metrics";
    public static final List<String> PATHS = List.of(HEALTH, READY, METRICS);
    /** The Prometheus text exposition format, as Micrometer's {@code scrape()} writes it. */
    public static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    static final String JSON = "application/json";
    static final String ALLOW = "GET, HEAD";

    private final Supplier<String> scrape;
    private final Supplier<Check> health;
    private final Supplier<Check> readiness;
    private final Duration retryAfter;

    private OpsRoutes(Supplier<String> scrape, Supplier<Check> health, Supplier<Check> readiness, Duration retryAfter) {
        this.scrape = Objects.requireNonNull(scrape, "scrape");
        this.health = Objects.requireNonNull(health, "health");
        this.readiness = Objects.requireNonNull(readiness, "readiness");
        this.retryAfter = retryAfter;
    }

    /** Healthy and ready until told otherwise, scraping {@code registry}. */
    public static OpsRoutes of(PrometheusMeterRegistry registry) {
        return of(registry::scrape);
    }

    /** Healthy and ready until told otherwise; {@code scrape} gives the Prometheus text of {@code /metrics}. */
    public static OpsRoutes of(Supplier<String> scrape) {
        return new OpsRoutes(scrape, Check::up, Check::up, null);
    }

    /** What {@code /health} answers: failing means the process cannot recover by itself. */
    public OpsRoutes health(Supplier<Check> health) {
        return new OpsRoutes(scrape, health, readiness, retryAfter);
    }

    /** What {@code /ready} answers: failing means the service cannot take its work yet (or any more). */
    public OpsRoutes readiness(Supplier<Check> readiness) {
        return new OpsRoutes(scrape, health, readiness, retryAfter);
    }

    /** A {@code Retry-After} (whole seconds, at least 1) on the 503 answers of {@code /health} and {@code /ready}. */
    public OpsRoutes retryAfter(Duration retryAfter) {
        return new OpsRoutes(scrape, health, readiness, retryAfter);
    }

    /**
     * Adds the endpoints to {@code routes}. Reactor Netty tries routes in the order they were added: mount these
     * before a catch-all of the service's own.
     */
    @Override
    public void accept(HttpServerRoutes routes) {
        endpoint(routes, HEALTH, (req, res) -> check(res, HEALTH, health, "ok", "unhealthy", "Unhealthy"));
        endpoint(routes, READY, (req, res) -> check(res, READY, readiness, "ready", "not-ready", "Not ready"));
        endpoint(
                routes,
                METRICS,
                (req, res) -> Replies.offEventLoop(Mono.fromCallable(scrape::get)
                        .flatMap(
                                text -> Replies.write(res, 200, PROMETHEUS_TEXT, text.getBytes(StandardCharsets.UTF_8)))
                        .onErrorResume(e -> {
                            LOG.warn("the Prometheus scrape failed", e);
                            return write(
                                    res,
                                    Problem.of(
                                                    500,
                                                    "metrics-unavailable",
                                                    "Metrics unavailable",
                                                    "the metrics could not be collected; see the service's log")
                                            .at(METRICS),
                                    Map.of());
                        })));
        routes.route(req -> PATHS.contains(rawPath(req)), (req, res) -> {
            res.header(HttpHeaderNames.ALLOW, ALLOW);
            String path = rawPath(req);
            return Replies.problem(
                    res,
                    Problem.of(405, "method-not-allowed", "Method not allowed", path + " answers " + ALLOW + " only")
                            .at(path));
        });
    }

    private static void endpoint(
            HttpServerRoutes routes,
            String path,
            BiFunction<HttpServerRequest, HttpServerResponse, Publisher<Void>> handler) {
        routes.get(path, handler).head(path, handler);
    }

    private Mono<Void> check(
            HttpServerResponse res, String path, Supplier<Check> check, String passing, String type, String title) {
        return Replies.offEventLoop(Mono.fromCallable(() -> run(check, path)).flatMap(c -> {
            if (c.passing()) {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("status", passing);
                c.details().forEach(body::putIfAbsent);
                return Replies.write(res, 200, JSON, FlatJson.object(body));
            }
            if (retryAfter != null) {
                res.header(HttpHeaderNames.RETRY_AFTER, Long.toString(Math.max(1, retryAfter.toSeconds())));
            }
            return write(res, Problem.of(503, type, title, c.reason()).at(path), c.details());
        }));
    }

    private static Check run(Supplier<Check> check, String path) {
        try {
            Check c = check.get();
            return c == null ? Check.down("the " + path + " check gave no answer") : c;
        } catch (RuntimeException e) {
            LOG.warn("the {} check failed", path, e);
            return Check.down("the " + path + " check failed: " + e.getClass().getSimpleName());
        }
    }

    private static Mono<Void> write(HttpServerResponse res, Problem problem, Map<String, ?> extensions) {
        return Replies.write(res, problem.status(), Problem.CONTENT_TYPE, problem.bytes(extensions));
    }

    /** The request path as sent (no query, nothing decoded). */
    static String rawPath(HttpServerRequest req) {
        return new QueryStringDecoder(req.uri()).rawPath();
    }
}
