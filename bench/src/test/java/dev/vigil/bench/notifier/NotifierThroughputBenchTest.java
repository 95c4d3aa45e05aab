package dev.vigil.bench.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the notifier harness at tiny scale so it cannot rot; figures are not asserted (speed is measured, not tested). */
class NotifierThroughputBenchTest {
    @TempDir
    Path results;

    @BeforeEach
    void resultsHere() {
        System.setProperty("vigil.results.dir", results.toString());
    }

    @AfterEach
    void resultsBack() {
        System.clearProperty("vigil.results.dir");
    }

    @Test
    void harnessRunsEndToEndAndReportsEveryFigure() throws Exception {
        Map<String, Object> r =
                NotifierThroughputBench.run(new NotifierThroughputBench.Options(200, 100, 1, 1, 50, 1, false));
        assertThat(r)
                .containsKeys(
                        "deliveries_per_s",
                        "p50_ms",
                        "p99_ms",
                        "reference",
                        "reference_claims_per_s",
                        "ratio_to_reference",
                        "pg_cpu_seconds",
                        "deliveries_per_cpu_s_with_pg",
                        "paced_jvm_cpu_pct",
                        "burst_us_notifier",
                        "burst_us_postgres",
                        "deliveries_per_cpu_s_without_driver");
        assertThat(r.get("notifier")).isEqualTo("in-jvm");
        assertThat(r.get("events")).isEqualTo(200);
        assertThat(r.get("duplicates")).isEqualTo(0L);
        assertThat((int) r.get("paced_events")).isEqualTo(100);
        assertThat(Files.readString(results.resolve("notifier-throughput.json")))
                .contains("\"deliveries_per_s\"");
    }

    @Test
    void harnessCostsANotifierProcessOfItsOwnApartFromTheBrokerAndTheDriver() throws Exception {
        Map<String, Object> r =
                NotifierThroughputBench.run(new NotifierThroughputBench.Options(200, 100, 1, 0, 50, 0, true));
        assertThat(r.get("notifier")).isEqualTo("process");
        assertThat(r)
                .containsKeys(
                        "notifier_cpu_seconds",
                        "deliveries_per_notifier_cpu_s",
                        "deliveries_per_notifier_pg_cpu_s",
                        "deliveries_per_notifier_pg_broker_cpu_s",
                        "burst_us_notifier_process_jit",
                        "burst_us_notifier_process_gc",
                        "burst_us_notifier_process_threads",
                        "paced_cpu_pct_notifier_process",
                        "p99_ms")
                // this JVM holds no notifier: neither its threads nor its meters are here to read
                .doesNotContainKeys("deliveries_per_jvm_cpu_s", "burst_us_notifier", "batch_claims_avg_rows");
        assertThat((double) r.get("notifier_cpu_seconds")).isPositive();
        assertThat(r.get("duplicates")).isEqualTo(0L);
        assertThat((int) r.get("paced_events")).isEqualTo(100);
    }
}
