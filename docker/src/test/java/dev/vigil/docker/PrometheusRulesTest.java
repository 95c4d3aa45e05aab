package dev.vigil.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code prometheus/vigil-rules.yml}, the alert rules for Vigil's own metrics: every rule names series the services
 * really expose (the meters in the sources, the Kafka binders they bind, Prometheus's own {@code up}), the compose
 * Prometheus loads it, and Prometheus's {@code promtool check rules} accepts it (Debian's prometheus package ships
 * promtool; without it the check skips, except under CI, where it fails).
 */
class PrometheusRulesTest {
    static final Path RULES = Repo.docker().resolve("prometheus/vigil-rules.yml");
    /** Kafka Streams' client metric (KafkaStreamsMetrics): stream threads alive, 0 when the instance is not running. */
    static final String STREAMS_THREADS = "kafka_stream_alive_stream_threads";
    /** What the rules must cover, by the series each names. */
    static final Map<String, String> COVERED = Map.of(
            "consumer lag", "kafka_consumer_fetch_manager_records_lag_max",
            "Streams not running", STREAMS_THREADS,
            "notifier delivery failures", "vigil_notifier_send_seconds_count",
            "dead letters", "vigil_notifier_deliveries_total",
            "Streams dead letters", "vigil_streams_dead_letter_records_total",
            "skipped probes", "vigil_probe_skipped_windows_total",
            "canary age", "vigil_canary_age_seconds",
            "a target down", "up");

    private static MeterCatalog catalog;
    private static List<JavaText.Source> sources;
    private static JsonNode rules;

    @BeforeAll
    static void load() {
        sources = JavaText.read(Repo.allMainSources());
        catalog = new MeterCatalog(sources);
        rules = Repo.yaml(RULES);
    }

    private static List<JsonNode> allRules() {
        List<JsonNode> out = new ArrayList<>();
        rules.path("groups").forEach(g -> g.path("rules").forEach(out::add));
        return out;
    }

    private static boolean binds(String binder) {
        return sources.stream().anyMatch(s -> s.code().contains("new " + binder + "("));
    }

    @Test
    void everyRuleNamesOnlySeriesTheServicesExpose() {
        Set<String> vigilSeries = catalog.seriesNames().keySet();
        List<String> problems = new ArrayList<>();
        Set<String> named = new TreeSet<>();
        assertThat(allRules()).hasSizeGreaterThanOrEqualTo(COVERED.size());
        for (JsonNode rule : allRules()) {
            String name = rule.path("alert").asText();
            assertThat(name).as("every rule is an alert").isNotBlank();
            assertThat(rule.path("labels").path("severity").asText()).as(name).isIn("critical", "warning");
            assertThat(rule.path("annotations").path("summary").asText())
                    .as(name)
                    .isNotBlank();
            Set<String> names = DashboardChecks.metricNames(rule.path("expr").asText());
            assertThat(names).as(name + " names a series").isNotEmpty();
            named.addAll(names);
            for (String n : names) {
                boolean known = n.startsWith("vigil_")
                        ? vigilSeries.contains(n)
                        : n.equals(STREAMS_THREADS)
                                ? binds("KafkaStreamsMetrics")
                                : n.startsWith("kafka_")
                                        ? DashboardChecks.KAFKA_CLIENT_SERIES.contains(n) && binds("KafkaClientMetrics")
                                        : DashboardChecks.PROMETHEUS_SERIES.contains(n);
                if (!known) {
                    problems.add(name + ": " + n + " is exposed by no service");
                }
            }
        }
        assertThat(problems).isEmpty();
        COVERED.forEach(
                (what, series) -> assertThat(named).as("a rule for " + what).contains(series));
    }

    @Test
    void theComposePrometheusLoadsTheRules() {
        JsonNode prometheus = Repo.yaml(Repo.docker().resolve("prometheus/prometheus.yml"));
        assertThat(prometheus.path("rule_files").toString()).contains("vigil-rules.yml");
        JsonNode compose = Repo.yaml(Repo.docker().resolve("docker-compose.yml"));
        assertThat(compose.at("/services/prometheus/volumes").toString())
                .contains("./prometheus/vigil-rules.yml:/etc/prometheus/vigil-rules.yml:ro");
    }

    @Test
    void promtoolAcceptsTheRules() throws Exception {
        Path promtool = Path.of("/usr/bin/promtool");
        String ci = System.getenv("CI");
        if (!Files.isExecutable(promtool) && ci != null && !ci.isBlank() && !ci.equals("false")) {
            throw new IllegalStateException("CI is set but promtool is not installed: .ci/run installs Debian's"
                    + " prometheus package, which ships it");
        }
        Assumptions.assumeTrue(Files.isExecutable(promtool), "promtool not installed: apt-get install prometheus");
        Process check = new ProcessBuilder(promtool.toString(), "check", "rules", RULES.toString())
                .redirectErrorStream(true)
                .start();
        assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String said = new String(check.getInputStream().readAllBytes());
        assertThat(check.exitValue()).as(said).isZero();
        assertThat(said).contains("SUCCESS: " + allRules().size() + " rules found");
    }
}
