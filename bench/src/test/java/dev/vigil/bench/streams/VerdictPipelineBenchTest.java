package dev.vigil.bench.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the verdict pipeline benchmark at tiny scale so the harness cannot rot; asserts no speed. */
class VerdictPipelineBenchTest {

    @TempDir
    Path results;

    @Test
    void harnessRunsEndToEndAndWritesItsResult() throws Exception {
        var r = VerdictPipelineBench.run(new VerdictPipelineBench.Options(50, 3, 2, 2_000, 1, results));
        assertThat(r.results()).isEqualTo(50 * 3 * 2);
        assertThat(r.latencySamples()).isEqualTo(50);
        assertThat(r.verdictResultsPerSecond()).isPositive();
        assertThat(r.rawPipeRecordsPerSecond()).isPositive();
        assertThat(r.verdictResultsPerCpuSecond()).isPositive();
        assertThat(r.cpuRatio()).isPositive();
        assertThat(r.passThroughRecordsPerSecond()).isPositive();
        assertThat(r.passThroughCpuRatio()).isPositive();
        assertThat(r.roundRatioMedian()).isPositive();
        assertThat(r.roundCpuRatioMedian()).isPositive();
        assertThat(r.latencyP99Ms()).isGreaterThanOrEqualTo(r.latencyP50Ms());
        assertThat(r.line()).startsWith("RESULT streams-verdicts monitors=50 ");
        var json = Json.tree(Files.readAllBytes(results.resolve("streams-verdicts.json")));
        assertThat(json.path("results").asLong()).isEqualTo(300);
        assertThat(json.path("processingGuarantee").asText()).isEqualTo("exactly_once_v2");
        assertThat(json.path("streamsPassThroughRecordsPerSecond").asLong()).isPositive();
    }

    @Test
    void medianOfRoundRatios() {
        assertThat(VerdictPipelineBench.median(java.util.List.of(0.5, 0.1, 0.3)))
                .isEqualTo(0.3);
        assertThat(VerdictPipelineBench.median(java.util.List.of(0.4, 0.1, 0.3, 0.2)))
                .isEqualTo(0.25);
    }

    @Test
    void percentileOfSortedSamples() {
        long[] s = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(dev.vigil.bench.BenchSupport.percentile(s, 0.5)).isEqualTo(5);
        assertThat(dev.vigil.bench.BenchSupport.percentile(s, 0.99)).isEqualTo(10);
    }
}
