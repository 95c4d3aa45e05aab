package dev.vigil.bench.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the Alertmanager harness at tiny scale so it cannot rot; skipped where Debian's prometheus-alertmanager is not
 * installed (CI). Figures are not asserted (speed is measured, not tested).
 */
class AlertmanagerBenchTest {
    @TempDir
    Path results;

    @Test
    void harnessRunsEndToEndAndGetsOneNotificationPerAlert() throws Exception {
        assumeTrue(AlertmanagerBench.available(AlertmanagerBench.DEFAULT_BINARY), AlertmanagerBench.SKIP_MESSAGE);
        System.setProperty("vigil.results.dir", results.toString());
        try {
            Map<String, Object> r = AlertmanagerBench.run(
                    new AlertmanagerBench.Options(AlertmanagerBench.DEFAULT_BINARY, 200, 50, 2, 100, 1, 20, 1));
            assertThat(r)
                    .containsKeys(
                            "deliveries_per_s",
                            "am_cpu_seconds",
                            "deliveries_per_cpu_s",
                            "p50_ms",
                            "p99_ms",
                            "version");
            assertThat(r.get("events")).isEqualTo(200);
            assertThat((int) r.get("paced_events")).isEqualTo(100);
            // group_by: ['...'] gives every alert its own group, hence its own notification: 20 warm-up alerts,
            // 100 of the paced warm-up (100/s for 1 s), the burst's 200 and the paced phase's 100
            assertThat(r.get("notifications")).isEqualTo(420L);
            assertThat(r.get("max_alerts_per_notification")).isEqualTo(1);
            assertThat(r.get("duplicates")).isEqualTo(0L);
            assertThat(Files.readString(results.resolve("alertmanager-throughput.json")))
                    .contains("\"deliveries_per_s\"");
        } finally {
            System.clearProperty("vigil.results.dir");
        }
    }

    @Test
    void aMissingBinaryIsNotAvailable() {
        assertThat(AlertmanagerBench.available(Path.of("/nonexistent/prometheus-alertmanager")))
                .isFalse();
    }
}
