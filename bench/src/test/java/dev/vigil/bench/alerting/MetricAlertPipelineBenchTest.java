package dev.vigil.bench.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the metric alerting benchmark at tiny scale so the harness cannot rot; asserts no speed. */
class MetricAlertPipelineBenchTest {

    @TempDir
    Path results;

    @Test
    void harnessRunsEndToEndAndWritesItsResult() throws Exception {
        var r = MetricAlertPipelineBench.run(new MetricAlertPipelineBench.Options(3_000, 5, 10, 5, 20, 1, results));
        assertThat(r.metrics()).isEqualTo(3_000);
        assertThat(r.latencySamples()).isEqualTo(5);
        assertThat(r.metricsPerSecond()).isPositive();
        assertThat(r.rawPipeRecordsPerSecond()).isPositive();
        assertThat(r.latencyP99Ms()).isGreaterThanOrEqualTo(r.latencyP50Ms());
        assertThat(r.line()).startsWith("RESULT streams-metric-alerts metrics=3000 ");
        var json = Json.tree(Files.readAllBytes(results.resolve("streams-metric-alerts.json")));
        assertThat(json.path("metrics").asLong()).isEqualTo(3_000);
        assertThat(json.path("processingGuarantee").asText()).isEqualTo("exactly_once_v2");
    }

    @Test
    void generatedMetricsAreSpreadOverTheSpanAndKeyedBySeries() {
        var o = new MetricAlertPipelineBench.Options(1_000, 4, 10, 1, 1, 1, results);
        var batch = MetricAlertPipelineBench.metrics(o, 0);
        assertThat(batch).hasSize(1_000);
        assertThat(batch.get(0).timestamp()).isZero();
        assertThat(batch.get(999).timestamp()).isLessThan(10 * 60_000L).isGreaterThan(9 * 60_000L);
        assertThat(batch)
                .extracting(r -> r.key())
                .containsOnly("app-0/http_request", "app-1/http_request", "app-2/http_request", "app-3/http_request");
    }
}
