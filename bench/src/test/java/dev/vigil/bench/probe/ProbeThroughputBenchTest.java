package dev.vigil.bench.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.CheckType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the probe throughput harness at tiny scale (a few monitors, one 10 s window, targets in this JVM) for every
 * check type so it cannot rot. Figures are not asserted (a loaded CI machine is not a benchmark); that it measured
 * something, and that nothing went wrong on the harness's side, is. The four runs go at once (each has its own
 * targets and scheduler, a few dozen probes a window): most of a run is waiting for window boundaries.
 */
class ProbeThroughputBenchTest {
    /** Failures a loaded machine may cause; anything else (blocked, tls, dns, assertion) is a harness bug. */
    private static final Set<String> TIMING_FAILURES =
            Set.of("network_failure/timeout", "network_failure/connect_timeout");

    @TempDir
    Path results;

    @Test
    void everyCheckTypeIsMeasuredAndReported() throws Exception {
        ExecutorService runs = Executors.newFixedThreadPool(4);
        System.setProperty("vigil.results.dir", results.toString());
        try {
            Future<Map<String, Object>> http = runs.submit(
                    () -> ProbeThroughputBench.run(new ProbeThroughputBench.Options(20, 10, 10, 16, 4, true, 1, 0)));
            Future<Map<String, Object>> tcp = runs.submit(() -> ProbeThroughputBench.run(
                    new ProbeThroughputBench.Options(8, 10, 10, 16, 4, true, 1, 0, CheckType.TCP)));
            Future<Map<String, Object>> tls = runs.submit(() -> ProbeThroughputBench.run(
                    new ProbeThroughputBench.Options(8, 10, 10, 16, 4, true, 1, 0, CheckType.TLS)));
            Future<Map<String, Object>> dns = runs.submit(() -> ProbeThroughputBench.run(
                    new ProbeThroughputBench.Options(8, 10, 10, 16, 4, true, 1, 0, CheckType.DNS)));

            Map<String, Object> h = http.get();
            assertThat(h)
                    .as("http")
                    .containsKeys(
                            "probesPerSec",
                            "probesPerCpuSec",
                            "maxHeapUsedMiB",
                            "skippedWindows",
                            "referenceRequestsPerSec",
                            "probeCpuCostVsReference");
            assertMeasured(h, 20, "probe-throughput-20");

            Map<String, Object> t = tcp.get();
            assertThat(t)
                    .as("tcp: banner checks")
                    .containsKeys("referenceConnectsPerSec", "referenceConnectsPerCpuSec", "probeVsReference");
            assertMeasured(t, 8, "probe-throughput-tcp-8");

            Map<String, Object> s = tls.get();
            assertThat(s)
                    .as("tls: handshakes trusting the generated CA")
                    .containsKeys("referenceHandshakesPerSec", "referenceHandshakesPerCpuSec", "probeVsReference");
            assertMeasured(s, 8, "probe-throughput-tls-8");

            Map<String, Object> d = dns.get();
            assertThat(d)
                    .as("dns: queries to the local responder")
                    .containsKeys("referenceQueriesPerSec", "referenceQueriesPerCpuSec", "probeVsReference");
            assertMeasured(d, 8, "probe-throughput-dns-8");
        } finally {
            runs.shutdownNow();
            System.clearProperty("vigil.results.dir");
        }
    }

    @SuppressWarnings("unchecked")
    private void assertMeasured(Map<String, Object> r, int monitors, String name) throws Exception {
        assertThat(r)
                .containsKeys(
                        "probesPerSec",
                        "probesPerCpuSec",
                        "maxHeapUsedMiB",
                        "skippedWindows",
                        "maxScheduleLagMs",
                        "probeCpuCostVsReference",
                        "harnessErrors");
        assertThat((Long) r.get("expectedProbes")).as(name).isEqualTo(monitors);
        assertThat((Long) r.get("probes")).as(name).isPositive();
        assertThat((Long) r.get("successes")).as(name).isPositive();
        assertThat((Long) r.get("harnessErrors"))
                .as("%s harness errors %s", name, r.get("harnessErrorsByKind"))
                .isZero();
        assertThat(((Map<String, Long>) r.get("failures")).keySet()).as(name).isSubsetOf(TIMING_FAILURES);
        assertThat(Files.readString(results.resolve(name + ".json")))
                .contains("\"name\":\"" + name + "\"")
                .contains("\"probesPerSec\"");
    }
}
