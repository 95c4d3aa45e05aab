package dev.vigil.bench.probe;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the probe throughput harness at tiny scale (20 monitors, one 10 s window) so it cannot rot. */
class ProbeThroughputBenchTest {
    @TempDir
    Path results;

    @Test
    void harnessRunsAndReportsEveryFigure() throws Exception {
        System.setProperty("vigil.results.dir", results.toString());
        try {
            Map<String, Object> r = ProbeThroughputBench.run(
                    new ProbeThroughputBench.Options(20, 10, 10, 16, 4, true, 1, 0));
            assertThat(r).containsKeys("probesPerSec", "probesPerCpuSec", "maxHeapUsedMiB", "skippedWindows",
                    "referenceRequestsPerSec", "probeCpuCostVsReference");
            // Figures are not asserted (a loaded CI machine is not a benchmark); that it measured something is.
            assertThat((Long) r.get("expectedProbes")).isEqualTo(20L);
            assertThat((Long) r.get("probes")).isPositive();
            assertThat((Long) r.get("successes")).isPositive();
            assertThat(Files.readString(results.resolve("probe-throughput-20.json")))
                    .contains("\"name\":\"probe-throughput-20\"").contains("\"probesPerSec\"");
        } finally {
            System.clearProperty("vigil.results.dir");
        }
    }
}
