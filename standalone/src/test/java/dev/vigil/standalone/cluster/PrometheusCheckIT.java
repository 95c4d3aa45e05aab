package dev.vigil.standalone.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.net.LocalPorts;
import dev.vigil.kit.ops.OpsRoutes;
import dev.vigil.kit.ops.OpsServer;
import dev.vigil.probe.http.ProbeMetrics;
import dev.vigil.standalone.dashboard.DashboardQueries;
import dev.vigil.standalone.dashboard.SeriesNames;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's real {@code prometheus}, started as {@code vigil cluster up} starts it (same config writer, process
 * table, wait for targets and check), scraping one real ops server: a probe worker's meters
 * ({@link ProbeMetrics}, as the worker registers them at start) on {@link OpsServer}. The Grafana dashboard is then
 * checked through that Prometheus: what the worker exposes must be found there, {@code up} too, and the other
 * services' metrics are reported missing. Skips when prometheus is not installed, except under CI ({@code CI} set,
 * {@code .ci/run} installs it), where it fails. Takes about 10 s (one 5 s scrape interval and start-up).
 */
class PrometheusCheckIT {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path DASHBOARD = REPO.resolve("docker/grafana/dashboards/vigil.json");

    @TempDir
    Path dir;

    private Path binary;
    private ProbeMetrics metrics;
    private OpsServer ops;
    private ProcessTable processes;
    private ClusterPrometheus prometheus;
    private final StringWriter printed = new StringWriter();
    private final PrintWriter out = new PrintWriter(printed, true);

    @BeforeEach
    void startPrometheusScrapingAnOpsServer() throws IOException {
        Optional<Path> found = ClusterPrometheus.locate();
        String ci = System.getenv("CI");
        if (found.isEmpty() && ci != null && !ci.isBlank() && !ci.equals("false")) {
            throw new IllegalStateException(
                    "CI is set but prometheus is not installed: .ci/run installs Debian's" + " prometheus package");
        }
        Assumptions.assumeTrue(
                found.isPresent(),
                "prometheus not installed (no prometheus on the PATH, no " + ClusterPrometheus.DEBIAN_BINARY
                        + "): apt-get install prometheus");
        binary = found.get();

        metrics = new ProbeMetrics();
        metrics.bindGauges(() -> 0, () -> 0);
        ops = OpsServer.start("127.0.0.1", 0, "probe", metrics.registry(), OpsRoutes.of(metrics.registry()));
        processes = new ProcessTable(dir.resolve("run"), dir.resolve("logs"));
        prometheus = new ClusterPrometheus(
                dir.resolve("prometheus"),
                LocalPorts.free(),
                List.of(new ClusterPrometheus.Job(
                        "vigil-probe-worker",
                        List.of(new ClusterPrometheus.Target(
                                "127.0.0.1:" + ops.port(),
                                Map.of("service", "probe-worker", "process", "probe-test", "region", "test-region"))))),
                processes,
                Optional.of(binary),
                out);
        assertThat(prometheus.start()).isTrue();
    }

    @AfterEach
    void stop() {
        System.out.print(printed);
        if (processes != null) {
            processes.stop(ClusterPrometheus.NAME, Duration.ofSeconds(10));
            assertThat(prometheus.running()).isFalse();
        }
        if (ops != null) {
            ops.close();
        }
    }

    /** The end of Prometheus's own log, for a failure's message. */
    private String prometheusLog() {
        try {
            List<String> lines = Files.readAllLines(processes.log(ClusterPrometheus.NAME));
            return "\n--- prometheus log (last 20 lines) ---\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "\n(no prometheus log: " + e.getMessage() + ")";
        }
    }

    @Test
    void theDashboardIsCheckedThroughARealPrometheus() throws Exception {
        StringWriter errors = new StringWriter();
        int exit = ClusterCommand.checkDashboard(
                prometheus, DASHBOARD, Map.of(), Duration.ofSeconds(60), out, new PrintWriter(errors, true));
        String report = printed.toString();
        assertThat(report)
                .as(report + errors + prometheusLog())
                .contains("prometheus: every target up (2, scraped every 5 s)");
        assertThat(errors.toString()).as(report).isEmpty();

        // what the worker's /metrics has and the dashboard queries: each must have reached Prometheus
        Set<String> queried = DashboardQueries.read(DASHBOARD).metrics();
        Set<String> exposed = SeriesNames.scrape(
                        HttpClient.newHttpClient(),
                        URI.create("http://127.0.0.1:" + ops.port() + "/metrics"),
                        Duration.ofSeconds(5))
                .names();
        Set<String> expectedPresent = new TreeSet<>(queried);
        expectedPresent.retainAll(exposed);
        expectedPresent.add("up");
        assertThat(expectedPresent)
                .contains(
                        "vigil_probe_published_total",
                        "vigil_probe_skipped_windows_total",
                        "vigil_probe_schedule_lag_seconds_bucket",
                        "vigil_probe_in_flight",
                        "vigil_probe_monitors");
        List<String> missing =
                report.lines().filter(l -> l.startsWith("MISSING")).toList();
        for (String metric : expectedPresent) {
            assertThat(missing).as(report).noneMatch(l -> l.contains(": " + metric + " is in"));
        }
        // the other services are not scraped here: their metrics are missing, said the Prometheus way
        assertThat(missing)
                .as(report)
                .anyMatch(l ->
                        l.contains("vigil_notifier_deliveries_total is in none of the series names Prometheus holds"));
        assertThat(report)
                .containsPattern("read +http://127\\.0\\.0\\.1:\\d+/api/v1/label/__name__/values\\?start=\\d+");
        assertThat(report).contains("FAIL: ").contains("dashboard check: exit 1");
        assertThat(exit).isEqualTo(1);
    }

    @Test
    void aDashboardOfWhatIsScrapedPasses() throws Exception {
        Path board = Files.writeString(
                dir.resolve("board.json"),
                """
                {"title": "Probe board", "panels": [
                  {"type": "stat", "title": "Up", "targets": [{"refId": "A", "expr": "up{job=~\\"vigil-.*\\"}"}]},
                  {"type": "timeseries", "title": "Published", "targets": [
                    {"refId": "A", "expr": "sum by (region) (rate(vigil_probe_published_total[$__rate_interval]))"}]}]}
                """);
        StringWriter errors = new StringWriter();
        int exit = ClusterCommand.checkDashboard(
                prometheus, board, Map.of(), Duration.ofSeconds(60), out, new PrintWriter(errors, true));
        assertThat(printed.toString())
                .as(printed + "" + errors + prometheusLog())
                .contains("PASS: 2 queries, 2 metrics: 2 present, 0 missing; 1 sources read")
                .contains("dashboard check: exit 0");
        assertThat(exit).isZero();
    }

    @Test
    void prometheusAcceptsTheClustersConfig() throws Exception {
        ClusterPrometheus cluster = ClusterPrometheus.forCluster(
                        ClusterLayout.standard(dir.resolve("c"), 21000), processes, Optional.of(binary), out)
                .withRules(REPO.resolve(ClusterPrometheus.RULES));
        Path config = Files.writeString(dir.resolve("cluster-prometheus.yml"), cluster.config());
        Files.copy(REPO.resolve(ClusterPrometheus.RULES), dir.resolve("vigil-rules.yml"));
        Path promtool = binary.resolveSibling("promtool");
        Assumptions.assumeTrue(Files.isExecutable(promtool), "no promtool beside " + binary);
        Process check = new ProcessBuilder(promtool.toString(), "check", "config", config.toString())
                .redirectErrorStream(true)
                .start();
        assertThat(check.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String said = new String(check.getInputStream().readAllBytes());
        assertThat(check.exitValue()).as(said).isZero();
        assertThat(said).contains("SUCCESS");
        // promtool checks the rule files the config names too
        assertThat(said).containsPattern("SUCCESS: \\d+ rules found");
    }
}
