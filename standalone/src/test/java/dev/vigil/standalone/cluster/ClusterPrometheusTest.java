package dev.vigil.standalone.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.vigil.standalone.cli.CliRun;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The cluster's prometheus.yml, parsed back: a job per service kind with a static target on the very port each
 * instance is given, no broker, the compose stack's job names; and the path taken when prometheus is not installed.
 */
class ClusterPrometheusTest {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private final StringWriter printed = new StringWriter();
    private final PrintWriter out = new PrintWriter(printed, true);

    /** job name to (target address to labels), from the YAML text. */
    private static Map<String, Map<String, Map<String, String>>> jobs(JsonNode yaml) {
        Map<String, Map<String, Map<String, String>>> jobs = new LinkedHashMap<>();
        for (JsonNode job : yaml.path("scrape_configs")) {
            assertThat(job.path("metrics_path").asText("/metrics"))
                    .as("metrics_path (default /metrics)")
                    .isEqualTo("/metrics");
            Map<String, Map<String, String>> targets = new LinkedHashMap<>();
            for (JsonNode sc : job.path("static_configs")) {
                Map<String, String> labels = new LinkedHashMap<>();
                sc.path("labels")
                        .fields()
                        .forEachRemaining(
                                e -> labels.put(e.getKey(), e.getValue().asText()));
                sc.path("targets").forEach(t -> targets.put(t.asText(), labels));
            }
            jobs.put(job.path("job_name").asText(), targets);
        }
        return jobs;
    }

    @Test
    void withoutARulesFileTheConfigLoadsNoRules() throws Exception {
        ClusterPrometheus prometheus = ClusterPrometheus.forCluster(
                        ClusterLayout.standard(dir.resolve("c"), 21000),
                        new ProcessTable(dir.resolve("run"), dir.resolve("logs")),
                        Optional.empty(),
                        out)
                .withRules(dir.resolve("no-such-rules.yml"));
        assertThat(new YAMLMapper().readTree(prometheus.config()).has("rule_files"))
                .isFalse();
    }

    @Test
    void theConfigScrapesEveryServiceInstanceOnItsOwnPortAndNoBroker() throws Exception {
        ClusterLayout layout = ClusterLayout.standard(dir.resolve("cluster"), 21000);
        LocalCluster cluster = new LocalCluster(layout, REPO, out, "target/classes" + java.io.File.pathSeparator + "x");
        ClusterPrometheus prometheus = cluster.prometheus(Optional.of(Path.of("/usr/bin/prometheus")));

        JsonNode yaml = new YAMLMapper().readTree(prometheus.config());
        // the checkout's alert rules for Vigil's own metrics, loaded from beside prometheus.yml
        assertThat(yaml.path("rule_files").toString()).isEqualTo("[\"vigil-rules.yml\"]");
        assertThat(prometheus.rulesFile()).isEqualTo(prometheus.configFile().resolveSibling("vigil-rules.yml"));
        assertThat(yaml.path("global").path("scrape_interval").asText()).isEqualTo("5s");
        assertThat(yaml.path("global").path("scrape_timeout").asText()).isEqualTo("4s");
        Map<String, Map<String, Map<String, String>>> jobs = jobs(yaml);

        assertThat(jobs.keySet())
                .containsExactly("vigil-streams", "vigil-notifier", "vigil-ingest", "vigil-probe-worker", "prometheus");
        assertThat(jobs.get("vigil-streams").keySet()).containsExactly("127.0.0.1:21031", "127.0.0.1:21032");
        assertThat(jobs.get("vigil-notifier").keySet()).containsExactly("127.0.0.1:21041", "127.0.0.1:21042");
        assertThat(jobs.get("vigil-ingest").keySet()).containsExactly("127.0.0.1:21051", "127.0.0.1:21052");
        assertThat(jobs.get("vigil-probe-worker").keySet())
                .containsExactly("127.0.0.1:21061", "127.0.0.1:21062", "127.0.0.1:21063");
        assertThat(jobs.get("prometheus").keySet()).containsExactly("127.0.0.1:21070");
        assertThat(jobs.get("vigil-probe-worker").values())
                .extracting(l -> l.get("region"))
                .containsExactly("us-east", "eu-west", "asia-east");

        // every service process is a target, on the port LocalCluster gives it as VIGIL_HTTP_PORT (where /metrics is)
        List<String> processes = new ArrayList<>();
        jobs.forEach((job, targets) -> targets.forEach((address, labels) -> {
            if (!job.equals("prometheus")) {
                processes.add(labels.get("process"));
                assertThat(address).isEqualTo("127.0.0.1:" + cluster.port(labels.get("process")));
                assertThat(job).isEqualTo("vigil-" + labels.get("service"));
            }
        }));
        assertThat(processes).containsExactlyInAnyOrderElementsOf(cluster.serviceNames());
        // the brokers expose no Prometheus metrics: none of their ports is a target
        for (int node = 1; node <= 3; node++) {
            assertThat(prometheus.config())
                    .doesNotContain(":" + layout.brokerPort(node))
                    .doesNotContain(":" + layout.controllerPort(node));
        }
    }

    @Test
    void theJobsAndLabelsAreTheComposeStacks() throws Exception {
        ClusterPrometheus prometheus = ClusterPrometheus.forCluster(
                ClusterLayout.standard(dir, 19000),
                new ProcessTable(dir.resolve("run"), dir.resolve("logs")),
                Optional.empty(),
                out);
        Map<String, Map<String, Map<String, String>>> cluster = jobs(new YAMLMapper().readTree(prometheus.config()));
        Map<String, Map<String, Map<String, String>>> compose = jobs(new YAMLMapper()
                .readTree(REPO.resolve("docker/prometheus/prometheus.yml").toFile()));
        assertThat(cluster.keySet()).containsExactlyInAnyOrderElementsOf(compose.keySet());
        compose.forEach((job, targets) -> targets.values().forEach(labels -> cluster.get(job)
                .values()
                .forEach(ours -> assertThat(ours.keySet()).as(job).containsAll(labels.keySet()))));
    }

    @Test
    void theProcessRunsTheBinaryOnLoopbackWithItsDataUnderTheDataDir() {
        ClusterLayout layout = ClusterLayout.standard(dir, 21000);
        ClusterPrometheus prometheus = ClusterPrometheus.forCluster(
                layout, new ProcessTable(layout.run(), layout.logs()), Optional.of(Path.of("/opt/p/prometheus")), out);
        assertThat(prometheus.spec().name()).isEqualTo("prometheus");
        assertThat(prometheus.spec().command())
                .containsExactly(
                        "/opt/p/prometheus",
                        "--config.file=" + dir.resolve("prometheus/prometheus.yml"),
                        "--storage.tsdb.path=" + dir.resolve("prometheus/data"),
                        "--web.listen-address=127.0.0.1:21070");
        assertThat(prometheus.url()).isEqualTo("http://127.0.0.1:21070");
    }

    @Test
    void withoutTheBinaryUpSaysSoInOneLineAndStartsNothing() throws Exception {
        Path emptyBin = Files.createDirectories(dir.resolve("bin"));
        Optional<Path> found = ClusterPrometheus.locate(emptyBin.toString(), dir.resolve("usr-bin-prometheus"));
        assertThat(found).isEmpty();

        ClusterLayout layout = ClusterLayout.standard(dir.resolve("cluster"), 21000);
        ProcessTable processes = new ProcessTable(layout.run(), layout.logs());
        ClusterPrometheus prometheus = ClusterPrometheus.forCluster(layout, processes, found, out);
        assertThat(prometheus.installed()).isFalse();
        assertThat(prometheus.start()).isFalse();

        assertThat(printed.toString().lines().toList())
                .containsExactly(
                        "prometheus: not installed (no prometheus on"
                                + " the PATH, no /usr/bin/prometheus), skipped; `apt-get install prometheus` installs Debian's");
        assertThat(prometheus.configFile()).doesNotExist();
        assertThat(processes.names()).isEmpty();
        assertThat(prometheus.running()).isFalse();
    }

    @Test
    void theBinaryIsTheFirstExecutableOnThePathElseTheDebianOne() throws Exception {
        Path a = Files.createDirectories(dir.resolve("a"));
        Path b = Files.createDirectories(dir.resolve("b"));
        Path c = Files.createDirectories(dir.resolve("c"));
        Files.writeString(a.resolve("prometheus"), "not executable");
        Path inB = Files.writeString(b.resolve("prometheus"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(inB, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path debian = Files.writeString(c.resolve("debian-prometheus"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(debian, PosixFilePermissions.fromString("rwxr-xr-x"));

        assertThat(ClusterPrometheus.locate(a + ":" + b, debian)).contains(inB);
        assertThat(ClusterPrometheus.locate(a + "::" + c, debian)).contains(debian);
        assertThat(ClusterPrometheus.locate(null, debian)).contains(debian);
        assertThat(ClusterPrometheus.locate(a.toString(), c.resolve("none"))).isEmpty();
    }

    @Test
    void checkDashboardWithoutARunningPrometheusChecksNothing() {
        CliRun run = CliRun.vigil("cluster", "check-dashboard", "--data-dir", dir.toString(), "--base-port", "21000");
        assertThat(run.exit()).as(run.err()).isEqualTo(3);
        assertThat(run.err()).contains("Prometheus is not running");
        assertThat(run.out()).doesNotContain("PASS").doesNotContain("FAIL");
    }

    /** A stand-in for Prometheus's targets API with one target down: the wait names it, the check is not run. */
    @Test
    void aTargetThatIsNotUpIsNamedAndNothingIsChecked() throws Exception {
        String targets =
                """
                {"status":"success","data":{"activeTargets":[
                  {"labels":{"job":"vigil-streams"},"scrapeUrl":"http://127.0.0.1:21031/metrics","health":"up","lastError":""},
                  {"labels":{"job":"vigil-notifier"},"scrapeUrl":"http://127.0.0.1:21041/metrics","health":"down",
                   "lastError":"connection refused"}],"droppedTargets":[]}}
                """;
        DisposableServer stand = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .route(r -> r.get("/api/v1/targets", (req, res) -> res.sendString(Mono.just(targets))))
                .bindNow();
        ProcessTable processes = new ProcessTable(dir.resolve("run"), dir.resolve("logs"));
        try {
            // the process table must hold a live "prometheus": a sleep stands in for it, naming the data directory
            // (as $0) like every command the launcher runs
            processes.start(new ProcessSpec(
                    ClusterPrometheus.NAME,
                    List.of("sh", "-c", "sleep 60", dir.resolve("p").toString()),
                    Map.of()));
            ClusterPrometheus prometheus = new ClusterPrometheus(
                    dir.resolve("p"),
                    stand.port(),
                    List.of(
                            new ClusterPrometheus.Job(
                                    "vigil-streams",
                                    List.of(new ClusterPrometheus.Target("127.0.0.1:21031", Map.of()))),
                            new ClusterPrometheus.Job(
                                    "vigil-notifier",
                                    List.of(new ClusterPrometheus.Target("127.0.0.1:21041", Map.of())))),
                    processes,
                    Optional.of(Path.of("/usr/bin/prometheus")),
                    out);
            StringWriter errors = new StringWriter();
            int exit = ClusterCommand.checkDashboard(
                    prometheus,
                    REPO.resolve("docker/grafana/dashboards/vigil.json"),
                    Map.of(),
                    Duration.ofSeconds(1),
                    out,
                    new PrintWriter(errors, true));
            assertThat(exit).isEqualTo(3);
            // 3 targets expected (the two jobs and Prometheus itself), 2 listed, 1 of them down
            assertThat(errors.toString())
                    .contains("prometheus: 2 of 3 targets not up within 1 s; it lists 2 targets;"
                            + " vigil-notifier http://127.0.0.1:21041/metrics: down (connection refused)")
                    .contains("dashboard check: not run (exit 3)");
            assertThat(printed.toString()).doesNotContain("PASS").doesNotContain("FAIL");
        } finally {
            processes.stop(ClusterPrometheus.NAME, Duration.ofSeconds(5));
            stand.disposeNow(Duration.ofSeconds(5));
        }
    }
}
