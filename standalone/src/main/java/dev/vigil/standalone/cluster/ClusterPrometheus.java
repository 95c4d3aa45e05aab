package dev.vigil.standalone.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.vigil.standalone.dashboard.DashboardCheck;
import dev.vigil.standalone.dashboard.DashboardScrapeCheck.Mode;
import dev.vigil.standalone.dashboard.SeriesNames;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * The cluster's Prometheus: Debian's {@code prometheus} binary (when installed) run as one more process of the
 * cluster, scraping every Vigil service's {@code /metrics} every 5 s, so that the Grafana dashboard's metrics can be
 * checked where Grafana would read them ({@link #checkDashboard}).
 *
 * <p>Files under {@code <data-dir>/prometheus}: {@code prometheus.yml} (written by {@link #start}), the alert rules
 * for Vigil's own metrics copied from the checkout ({@code vigil-rules.yml}, see {@link #withRules}) and {@code data/}
 * (its TSDB). It listens on {@code 127.0.0.1:<base port + 70>}. The jobs and labels are the compose stack's
 * ({@code docker/prometheus/prometheus.yml}: {@code vigil-streams}, {@code vigil-notifier}, {@code vigil-ingest},
 * {@code vigil-probe-worker} with its {@code region}, and {@code prometheus} itself), one static target per process;
 * each target also carries {@code process}, its name in the cluster. The brokers run {@code kafka.Kafka} without
 * a metrics exporter (their metrics are JMX only), so they are not scraped.
 */
public final class ClusterPrometheus {
    public static final String NAME = LocalCluster.PROMETHEUS;
    public static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(5);
    /** Where Debian's package puts the binary, looked at when it is not on the PATH (e.g. under sudo). */
    public static final Path DEBIAN_BINARY = Path.of("/usr/bin/prometheus");
    /** The one metric a stack that has just started may lack, and why: see docker/README.md. */
    public static final String CONSUMER_LAG = "kafka_consumer_fetch_manager_records_lag";

    public static final String CONSUMER_LAG_REASON = "per partition: the Kafka client makes it after a consumer's"
            + " first fetch, and KafkaClientMetrics binds new client metrics every 60 s";

    /** One scrape target: {@code host:port} and the labels Prometheus adds to its series. */
    public record Target(String address, Map<String, String> labels) {
        public Target {
            labels = Map.copyOf(labels);
        }
    }

    /** One scrape job: every target serves {@code /metrics}. */
    public record Job(String name, List<Target> targets) {
        public Job {
            targets = List.copyOf(targets);
        }
    }

    private final Path dir;
    private final int port;
    private final List<Job> jobs;
    private final ProcessTable processes;
    private final Optional<Path> binary;
    private final PrintWriter out;
    /** The alert rules for Vigil's own metrics to copy beside prometheus.yml and load (null: none). */
    private Path rules;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /**
     * @param dir    where prometheus.yml and data/ go
     * @param jobs   the jobs to scrape (the job {@code prometheus}, Prometheus itself, is added)
     * @param binary the prometheus binary; empty: not installed, {@link #start} skips
     */
    ClusterPrometheus(
            Path dir, int port, List<Job> jobs, ProcessTable processes, Optional<Path> binary, PrintWriter out) {
        this.dir = dir.toAbsolutePath().normalize();
        this.port = port;
        this.jobs = List.copyOf(jobs);
        this.processes = processes;
        this.binary = binary;
        this.out = out;
    }

    /** The Prometheus of a cluster: every service instance of {@code layout} a target. */
    static ClusterPrometheus forCluster(
            ClusterLayout layout, ProcessTable processes, Optional<Path> binary, PrintWriter out) {
        return new ClusterPrometheus(
                layout.dataDir().resolve("prometheus"), layout.prometheusPort(), jobs(layout), processes, binary, out);
    }

    /** The scrape jobs of a cluster: one per service kind, one static target per instance (its HTTP port). */
    static List<Job> jobs(ClusterLayout layout) {
        List<Job> jobs = new ArrayList<>();
        jobs.add(new Job(
                "vigil-streams",
                IntStream.rangeClosed(1, layout.streams())
                        .mapToObj(i -> target(layout.streamsPort(i), "streams", LocalCluster.streams(i)))
                        .toList()));
        jobs.add(new Job(
                "vigil-notifier",
                IntStream.rangeClosed(1, layout.notifiers())
                        .mapToObj(i -> target(layout.notifierPort(i), "notifier", LocalCluster.notifier(i)))
                        .toList()));
        jobs.add(new Job(
                "vigil-ingest",
                IntStream.rangeClosed(1, layout.ingests())
                        .mapToObj(i -> target(layout.ingestPort(i), "ingest", LocalCluster.ingest(i)))
                        .toList()));
        // the worker's meters carry no region tag: the region is the target's (the dashboard groups by it)
        jobs.add(new Job(
                "vigil-probe-worker",
                layout.regions().stream()
                        .map(r -> {
                            Target t = target(layout.probePort(r), "probe-worker", LocalCluster.probe(r));
                            Map<String, String> labels = new TreeMap<>(t.labels());
                            labels.put("region", r);
                            return new Target(t.address(), labels);
                        })
                        .toList()));
        return List.copyOf(jobs);
    }

    private static Target target(int port, String service, String process) {
        return new Target("127.0.0.1:" + port, Map.of("service", service, "process", process));
    }

    /**
     * Where the binary is: the first executable {@code prometheus} in {@code pathEnv}'s directories, else
     * {@code fallback} when executable, else empty.
     */
    static Optional<Path> locate(String pathEnv, Path fallback) {
        if (pathEnv != null) {
            for (String d : pathEnv.split(File.pathSeparator)) {
                if (d.isBlank()) {
                    continue;
                }
                Path p = Path.of(d, "prometheus");
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return Optional.of(p.toAbsolutePath());
                }
            }
        }
        return Files.isRegularFile(fallback) && Files.isExecutable(fallback) ? Optional.of(fallback) : Optional.empty();
    }

    /** This machine's prometheus: on the PATH, else Debian's {@code /usr/bin/prometheus}. */
    public static Optional<Path> locate() {
        return locate(System.getenv("PATH"), DEBIAN_BINARY);
    }

    /** Where the rules live in a Vigil checkout (the compose stack's, beside its prometheus.yml). */
    public static final String RULES = "docker/prometheus/vigil-rules.yml";

    /**
     * Loads {@code file} (Prometheus alert rules): {@link #start} copies it beside prometheus.yml as
     * {@code vigil-rules.yml} and the config names it in {@code rule_files}. A file that does not exist is left out.
     */
    public ClusterPrometheus withRules(Path file) {
        this.rules = file != null && Files.isRegularFile(file)
                ? file.toAbsolutePath().normalize()
                : null;
        return this;
    }

    public Path rulesFile() {
        return dir.resolve("vigil-rules.yml");
    }

    public Path configFile() {
        return dir.resolve("prometheus.yml");
    }

    public Path dataDir() {
        return dir.resolve("data");
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public boolean installed() {
        return binary.isPresent();
    }

    /** Every job scraped, Prometheus's own included. */
    List<Job> allJobs() {
        List<Job> all = new ArrayList<>(jobs);
        all.add(new Job(
                "prometheus",
                List.of(new Target("127.0.0.1:" + port, Map.of("service", "prometheus", "process", NAME)))));
        return all;
    }

    /** The text of prometheus.yml. */
    String config() {
        Map<String, Object> global = new LinkedHashMap<>();
        global.put("scrape_interval", SCRAPE_INTERVAL.toSeconds() + "s");
        global.put("scrape_timeout", (SCRAPE_INTERVAL.toSeconds() - 1) + "s");
        global.put("evaluation_interval", "15s");
        List<Object> scrapeConfigs = new ArrayList<>();
        for (Job job : allJobs()) {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("job_name", job.name());
            j.put("metrics_path", "/metrics");
            j.put(
                    "static_configs",
                    job.targets().stream()
                            .map(t -> {
                                Map<String, Object> c = new LinkedHashMap<>();
                                c.put("targets", List.of(t.address()));
                                c.put("labels", new TreeMap<>(t.labels()));
                                return c;
                            })
                            .toList());
            scrapeConfigs.add(j);
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("global", global);
        if (rules != null) {
            root.put("rule_files", List.of(rulesFile().getFileName().toString()));
        }
        root.put("scrape_configs", scrapeConfigs);
        try {
            return "# generated by vigil cluster up: every Vigil service's /metrics (the compose stack's jobs, see\n"
                    + "# docker/prometheus/prometheus.yml); the brokers expose no Prometheus metrics and are not scraped\n"
                    + new YAMLMapper()
                            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                            .writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The process: Debian's binary with the config, the TSDB under the data dir, on loopback only. */
    ProcessSpec spec() {
        Path bin = binary.orElseThrow(() -> new IllegalStateException(notInstalled()));
        return new ProcessSpec(
                NAME,
                List.of(
                        bin.toString(),
                        "--config.file=" + configFile(),
                        "--storage.tsdb.path=" + dataDir(),
                        "--web.listen-address=127.0.0.1:" + port),
                Map.of());
    }

    static String notInstalled() {
        return "prometheus: not installed (no prometheus on the PATH, no " + DEBIAN_BINARY + "), skipped;"
                + " `apt-get install prometheus` installs Debian's";
    }

    /**
     * Writes prometheus.yml and starts Prometheus (a no-op when it runs); without the binary prints one line that
     * it is skipped and how to get it.
     *
     * @return whether Prometheus runs
     */
    public boolean start() {
        if (binary.isEmpty()) {
            out.println(notInstalled());
            out.flush();
            return false;
        }
        LocalCluster.write(configFile(), config());
        try {
            if (rules != null) {
                Files.copy(rules, rulesFile(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            Files.createDirectories(dataDir());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot create " + dataDir() + ": " + e.getMessage(), e);
        }
        ProcessTable.Running r = processes.start(spec());
        out.println("prometheus: " + binary.get() + " pid " + r.pid() + " on " + url() + ", config " + configFile()
                + ", log " + processes.log(NAME));
        out.flush();
        return true;
    }

    public boolean running() {
        return processes.running(NAME).isPresent();
    }

    /** What {@code /api/v1/targets} says of one target. */
    public record TargetHealth(String job, String scrapeUrl, String health, String lastError) {}

    /** The active targets and their health, empty while Prometheus does not answer. */
    List<TargetHealth> targets() {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(url() + "/api/v1/targets?state=active"))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return List.of();
            }
            JsonNode json = new ObjectMapper().readTree(r.body());
            List<TargetHealth> targets = new ArrayList<>();
            json.path("data")
                    .path("activeTargets")
                    .forEach(t -> targets.add(new TargetHealth(
                            t.path("labels").path("job").asText(),
                            t.path("scrapeUrl").asText(),
                            t.path("health").asText(),
                            t.path("lastError").asText())));
            return targets;
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Waits until Prometheus has scraped every target of its config and each answered ({@code health} up).
     *
     * @throws IllegalStateException Prometheus exited, or a target was not up within {@code timeout} (each such
     *                               target and its last error are named)
     */
    public void awaitTargetsUp(Duration timeout) {
        Instant t0 = Instant.now();
        Instant deadline = t0.plus(timeout);
        int expected = allJobs().stream().mapToInt(j -> j.targets().size()).sum();
        while (true) {
            if (!running()) {
                throw new IllegalStateException("prometheus exited; see " + processes.log(NAME));
            }
            List<TargetHealth> targets = targets();
            List<TargetHealth> notUp =
                    targets.stream().filter(t -> !"up".equals(t.health())).toList();
            if (targets.size() == expected && notUp.isEmpty()) {
                out.printf(
                        "prometheus: every target up (%d, scraped every %d s) after %.1f s%n",
                        expected, SCRAPE_INTERVAL.toSeconds(), LocalCluster.seconds(t0));
                out.flush();
                return;
            }
            if (Instant.now().isAfter(deadline)) {
                StringBuilder why = new StringBuilder("prometheus: " + (expected - targets.size() + notUp.size())
                        + " of " + expected + " targets not up within " + timeout.toSeconds() + " s");
                if (targets.size() != expected) {
                    why.append("; it lists ").append(targets.size()).append(" targets");
                }
                notUp.forEach(t -> why.append("; ")
                        .append(t.job())
                        .append(' ')
                        .append(t.scrapeUrl())
                        .append(": ")
                        .append(t.health())
                        .append(t.lastError().isEmpty() ? "" : " (" + t.lastError() + ")"));
                throw new IllegalStateException(why.toString());
            }
            LocalCluster.sleep(500);
        }
    }

    /**
     * {@code vigil check-dashboard --dashboard <dashboard> --prometheus <this>}: the same check, report and exit code
     * ({@link DashboardCheck}), against the names this Prometheus holds from the last 15 minutes.
     */
    public int checkDashboard(Path dashboard, Map<String, String> allowMissing, PrintWriter out, PrintWriter err) {
        URI names = SeriesNames.prometheusUrl(url(), Instant.now().minus(Duration.ofMinutes(15)));
        return DashboardCheck.run(
                dashboard, Mode.PROMETHEUS, List.of(names), allowMissing, Duration.ofSeconds(10), out, err);
    }
}
