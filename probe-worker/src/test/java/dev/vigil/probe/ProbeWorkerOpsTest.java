package dev.vigil.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.ops.OpsServer;
import dev.vigil.probe.http.ProbeMetrics;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The worker's ops endpoints as {@link ProbeWorker} serves them: readiness as a problem, the worker's meters scraped. */
class ProbeWorkerOpsTest {
    private static HttpResponse<String> get(int port, String path) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void readinessIsAProblemUntilReadyAndMetricsAreScraped() throws Exception {
        AtomicReference<String> notReady = new AtomicReference<>("monitor definitions are still loading");
        var metrics = new ProbeMetrics();
        metrics.bindGauges(() -> 3, () -> 42);
        metrics.record(new ProbeResult(
                1,
                "api",
                "us-east",
                "w-1",
                0L,
                5L,
                Outcome.NETWORK_FAILURE,
                ErrorKind.TIMEOUT,
                null,
                null,
                2500,
                0L,
                0,
                null,
                null,
                null,
                null,
                null,
                null,
                "r-1"));
        metrics.skipped(dev.vigil.schemas.contract.SkipReason.OVERRUN, 2);
        try (var server = OpsServer.start("127.0.0.1", 0, "probe", null, ProbeWorker.ops(metrics, notReady::get))) {
            var health = get(server.port(), "/health");
            assertThat(health.statusCode()).isEqualTo(200);
            // the body every Vigil service answers, and the one Vigil's own health assertion accepts by default
            assertThat(Json.tree(health.body().getBytes()).path("status").asText())
                    .isEqualTo("ok");

            var ready = get(server.port(), "/ready");
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.headers().firstValue("content-type")).hasValue("application/problem+json");
            var problem = Json.tree(ready.body().getBytes());
            assertThat(problem.get("status").asInt()).isEqualTo(503);
            assertThat(problem.get("title").asText()).isEqualTo("Not ready");
            assertThat(problem.get("detail").asText()).contains("still loading");
            assertThat(problem.has("type")).isTrue();

            notReady.set(null);
            assertThat(get(server.port(), "/ready").statusCode()).isEqualTo(200);

            String scrape = get(server.port(), "/metrics").body();
            assertThat(scrape)
                    .contains(
                            "vigil_probe_results_total{error_kind=\"timeout\",outcome=\"network_failure\",type=\"http\"} 1.0")
                    .contains("vigil_probe_skipped_windows_total{reason=\"overrun\"} 2.0")
                    .contains("vigil_probe_in_flight 3.0")
                    .contains("vigil_probe_monitors 42.0")
                    .contains("jvm_memory_used_bytes");
            var missing = get(server.port(), "/nope");
            assertThat(missing.statusCode()).isEqualTo(404);
            assertThat(missing.headers().firstValue("content-type")).hasValue("application/problem+json");
        } finally {
            metrics.close();
        }
    }

    @Test
    void aSkippedResultCountsAsASkippedWindowNeverAsAProbesOutcome() {
        var metrics = new ProbeMetrics();
        try {
            metrics.record(ProbeResult.skipped(
                    "api", "us-east", "w-1", 0L, 5L, null, dev.vigil.schemas.contract.SkipReason.OVERLOADED, "r-1"));
            metrics.skipped(dev.vigil.schemas.contract.SkipReason.SHUTTING_DOWN, 3);
            String scrape = metrics.scrape();
            assertThat(scrape)
                    .contains("vigil_probe_skipped_windows_total{reason=\"overloaded\"} 1.0")
                    .contains("vigil_probe_skipped_windows_total{reason=\"shutting_down\"} 3.0")
                    .doesNotContain("outcome=\"skipped\"")
                    .doesNotContain("vigil_probe_results_total{error_kind=\"none\",outcome=\"network_failure\"");
        } finally {
            metrics.close();
        }
    }
}
