package dev.vigil.bench.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.CheckType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the probe throughput harness at tiny scale (a few monitors, one 10 s window, targets in this JVM) for every
 * check type so it cannot rot. Figures are not asserted (a loaded CI machine is not a benchmark); that it measured
 * something, and that nothing went wrong on the harness's side, is. The four runs go at once (each has its own
 * targets and scheduler; a few dozen probes a window): most of a run is waiting for window boundaries.
 */
@Execution(ExecutionMode.CONCURRENT)
class ProbeThroughputBenchTest {
    /** Failures a loaded machine may cause; anything else (blocked, tls, dns, assertion) is a harness bug. */
    private static final Set<String> TIMING_FAILURES = Set.of("network_failure/timeout", "network_failure/connect_timeout");

    /** One directory for every run: the harness reads it from a system property, shared by the concurrent runs. */
    @TempDir
    static Path results;

    @BeforeAll
    static void resultsDir() {
        System.setProperty("vigil.results.dir", results.toString());
    }

    @AfterAll
    static void clearResultsDir() {
        System.clearProperty("vigil.results.dir");
    }

    @Test
    void harnessRunsAndReportsEveryFigure() throws Exception {
        Map<String, Object> r = run(new ProbeThroughputBench.Options(20, 10, 10, 16, 4, true, 1, 0));
        assertThat(r).containsKeys("probesPerSec", "probesPerCpuSec", "maxHeapUsedMiB", "skippedWindows",
                "referenceRequestsPerSec", "probeCpuCostVsReference");
        assertMeasured(r, 20, "probe-throughput-20");
    }

    @Test
    void tcpBannerChecks() throws Exception {
        Map<String, Object> r = run(new ProbeThroughputBench.Options(8, 10, 10, 16, 4, true, 1, 0, CheckType.TCP));
        assertThat(r).containsKeys("referenceConnectsPerSec", "referenceConnectsPerCpuSec", "probeVsReference");
        assertMeasured(r, 8, "probe-throughput-tcp-8");
    }

    @Test
    void tlsHandshakesTrustingTheGeneratedCa() throws Exception {
        Map<String, Object> r = run(new ProbeThroughputBench.Options(8, 10, 10, 16, 4, true, 1, 0, CheckType.TLS));
        assertThat(r).containsKeys("referenceHandshakesPerSec", "referenceHandshakesPerCpuSec", "probeVsReference");
        assertMeasured(r, 8, "probe-throughput-tls-8");
    }

    @Test
    void dnsQueriesToTheLocalResponder() throws Exception {
        Map<String, Object> r = run(new ProbeThroughputBench.Options(8, 10, 10, 16, 4, true, 1, 0, CheckType.DNS));
        assertThat(r).containsKeys("referenceQueriesPerSec", "referenceQueriesPerCpuSec", "probeVsReference");
        assertMeasured(r, 8, "probe-throughput-dns-8");
    }

    private Map<String, Object> run(ProbeThroughputBench.Options o) throws Exception {
        return ProbeThroughputBench.run(o);
    }

    @SuppressWarnings("unchecked")
    private void assertMeasured(Map<String, Object> r, int monitors, String name) throws Exception {
        assertThat(r).containsKeys("probesPerSec", "probesPerCpuSec", "maxHeapUsedMiB", "skippedWindows",
                "maxScheduleLagMs", "probeCpuCostVsReference", "harnessErrors");
        assertThat((Long) r.get("expectedProbes")).isEqualTo(monitors);
        assertThat((Long) r.get("probes")).isPositive();
        assertThat((Long) r.get("successes")).isPositive();
        assertThat((Long) r.get("harnessErrors")).as("harness errors %s", r.get("harnessErrorsByKind")).isZero();
        assertThat(((Map<String, Long>) r.get("failures")).keySet()).isSubsetOf(TIMING_FAILURES);
        assertThat(Files.readString(results.resolve(name + ".json")))
                .contains("\"name\":\"" + name + "\"").contains("\"probesPerSec\"");
    }
}
