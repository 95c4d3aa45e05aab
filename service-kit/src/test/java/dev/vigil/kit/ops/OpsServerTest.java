package dev.vigil.kit.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.handler.codec.http.HttpMethod;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The ops endpoints on a server of their own, over loopback HTTP. */
class OpsServerTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicReference<Check> health = new AtomicReference<>(Check.up());
    private final AtomicReference<Check> ready = new AtomicReference<>(Check.up());
    private OpsServer server;
    private HttpAnswers http;

    private void start(OpsRoutes routes) {
        server = OpsServer.start("127.0.0.1", 0, "test", registry, routes);
        http = new HttpAnswers(server.port());
    }

    private void start() {
        start(OpsRoutes.of(registry).health(health::get).readiness(ready::get));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        registry.close();
    }

    @Test
    void healthIs200UntilTheCheckFailsThen503Problem() {
        start();
        var ok = http.get("/health");
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.header("Content-Type")).isEqualTo("application/json");
        assertThat(ok.body()).isEqualTo("{\"status\":\"ok\"}");

        health.set(Check.down("the stream threads are dead"));
        var failing = http.get("/health");
        assertThat(failing.status()).isEqualTo(503);
        assertThat(failing.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(failing.body())
                .isEqualTo("{\"type\":\"https://vigil.dev/problems/unhealthy\",\"title\":\"Unhealthy\","
                        + "\"status\":503,\"detail\":\"the stream threads are dead\",\"instance\":\"/health\"}");
        assertThat(failing.header("Retry-After")).as("none unless configured").isNull();

        health.set(Check.up());
        assertThat(http.get("/health").status()).isEqualTo(200);
    }

    @Test
    void readinessShowsItsDetailsEitherWayAndAsksToRetryWhenConfigured() {
        start(OpsRoutes.of(registry).readiness(ready::get).retryAfter(Duration.ofSeconds(2)));
        ready.set(Check.up(Map.of("instance", "n-1", "inFlight", 3, "paused", false)));
        var ok = http.get("/ready");
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("{\"status\":\"ready\",\"inFlight\":3,\"instance\":\"n-1\",\"paused\":false}");
        assertThat(ok.header("Retry-After")).isNull();

        ready.set(Check.down("no partition is assigned yet", Map.of("instance", "n-1", "inFlight", 0)));
        var notReady = http.get("/ready");
        assertThat(notReady.status()).isEqualTo(503);
        assertThat(notReady.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(notReady.header("Retry-After")).isEqualTo("2");
        // the details are extension members; one named like a standard member ("instance") cannot replace it
        assertThat(notReady.body())
                .isEqualTo(
                        "{\"type\":\"https://vigil.dev/problems/not-ready\",\"title\":\"Not ready\","
                                + "\"status\":503,\"detail\":\"no partition is assigned yet\",\"instance\":\"/ready\",\"inFlight\":0}");
    }

    @Test
    void aCheckThatThrowsOrGivesNothingIsFailing() {
        start(OpsRoutes.of(registry)
                .readiness(() -> {
                    throw new IllegalStateException("boom");
                })
                .health(() -> null));
        var ready = http.get("/ready");
        assertThat(ready.status()).isEqualTo(503);
        assertThat(ready.body()).contains("\"detail\":\"the /ready check failed: IllegalStateException\"");
        assertThat(http.get("/health").status()).isEqualTo(503);
    }

    @Test
    void metricsIsThePrometheusScrapeOfTheRegistry() {
        Counter.builder("vigil.kit.test.hits").register(registry).increment(3);
        start();
        var metrics = http.get("/metrics");
        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.header("Content-Type")).isEqualTo("text/plain; version=0.0.4; charset=utf-8");
        assertThat(metrics.body())
                .contains("# TYPE vigil_kit_test_hits_total counter")
                .contains("vigil_kit_test_hits_total 3.0");
        // the edge guard's own meters land in the same registry
        assertThat(metrics.body()).contains("vigil_http_body_in_flight_bytes{server=\"test\"}");
    }

    @Test
    void aScrapeThatFailsIs500Problem() {
        start(OpsRoutes.of(() -> {
            throw new IllegalStateException("registry closed");
        }));
        var metrics = http.get("/metrics");
        assertThat(metrics.status()).isEqualTo(500);
        assertThat(metrics.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(metrics.body())
                .contains("\"type\":\"https://vigil.dev/problems/metrics-unavailable\"")
                .doesNotContain("registry closed");
    }

    @Test
    void unknownPathIs404ProblemInTheVigilNamespace() {
        start();
        var missing = http.get("/nope?x=1");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.header("Content-Type")).isEqualTo("application/problem+json");
        assertThat(missing.body())
                .isEqualTo(
                        "{\"type\":\"https://vigil.dev/problems/not-found\",\"title\":\"Not found\","
                                + "\"status\":404,\"detail\":\"no such endpoint; try /health, /ready or /metrics\",\"instance\":\"/nope\"}");
        assertThat(http.get("/health/").status()).as("paths match exactly").isEqualTo(404);
    }

    @Test
    void anotherMethodOnAnOpsPathIs405WithAllow() {
        start();
        for (HttpMethod method :
                new HttpMethod[] {HttpMethod.POST, HttpMethod.PUT, HttpMethod.DELETE, HttpMethod.PATCH}) {
            var refused = http.send(method, "/ready");
            assertThat(refused.status()).as(method.name()).isEqualTo(405);
            assertThat(refused.header("Allow")).isEqualTo("GET, HEAD");
            assertThat(refused.header("Content-Type")).isEqualTo("application/problem+json");
            assertThat(refused.body()).contains("\"type\":\"https://vigil.dev/problems/method-not-allowed\"");
        }
        assertThat(http.send(HttpMethod.POST, "/elsewhere").status()).isEqualTo(404);
    }

    @Test
    void headIsAnsweredLikeGetWithoutABody() {
        start();
        var head = http.send(HttpMethod.HEAD, "/health");
        assertThat(head.status()).isEqualTo(200);
        assertThat(head.header("Content-Type")).isEqualTo("application/json");
        assertThat(head.body()).isEmpty();
        assertThat(http.send(HttpMethod.HEAD, "/metrics").status()).isEqualTo(200);
    }
}
