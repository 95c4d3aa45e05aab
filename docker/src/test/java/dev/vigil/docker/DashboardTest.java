package dev.vigil.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The provisioned Grafana dashboard (docker/grafana/dashboards/vigil.json) and its provisioning: it parses,
 * has a uid and title, queries only the provisioned data source, has the panels the issue asks for, and
 * every Vigil metric it queries is registered by a meter in the services' sources.
 */
class DashboardTest {
    private static Stack stack;
    private static JsonNode dashboard;
    private static JsonNode datasources;
    private static JsonNode providers;
    private static MeterCatalog catalog;
    private static boolean kafkaBinderBound;
    private static Set<String> boundBinders;

    @BeforeAll
    static void load() {
        stack = new Stack();
        Path grafana = stack.docker.resolve("grafana");
        dashboard = Repo.json(grafana.resolve("dashboards/vigil.json"));
        datasources = Repo.yaml(grafana.resolve("provisioning/datasources/prometheus.yml"));
        providers = Repo.yaml(grafana.resolve("provisioning/dashboards/vigil.yml"));
        List<JavaText.Source> sources = JavaText.read(Repo.allMainSources());
        catalog = new MeterCatalog(sources);
        boundBinders = new java.util.TreeSet<>();
        java.util.regex.Pattern binder = java.util.regex.Pattern.compile("new\\s+(\\w+Metrics)\\s*\\(");
        sources.forEach(s -> binder.matcher(s.code()).results().forEach(r -> boundBinders.add(r.group(1))));
        kafkaBinderBound = sources.stream()
                .anyMatch(s ->
                        s.code().contains("new KafkaClientMetrics(") || s.code().contains("new KafkaStreamsMetrics("));
    }

    private static String datasourceUid() {
        return datasources.at("/datasources/0/uid").asText();
    }

    @Test
    void dashboardParsesWithUidTitleAndUniquePanelIds() {
        assertThat(new DashboardChecks(dashboard).identity()).isEmpty();
        assertThat(dashboard.path("uid").asText()).isEqualTo("vigil-overview");
    }

    @Test
    void everyPanelHasAQueryOnTheProvisionedPrometheusDataSource() {
        assertThat(datasources.path("datasources")).hasSize(1);
        assertThat(datasources.at("/datasources/0/type").asText()).isEqualTo("prometheus");
        assertThat(datasourceUid()).isNotBlank();
        assertThat(new DashboardChecks(dashboard).queriesAndDatasources(datasourceUid()))
                .isEmpty();
    }

    @Test
    void theDataSourcePointsAtTheComposePrometheusService() {
        String url = datasources.at("/datasources/0/url").asText();
        assertThat(url).isEqualTo("http://prometheus:9090");
        assertThat(stack.compose.at("/services/prometheus/ports/0").asText()).endsWith(":9090");
    }

    @Test
    void theDashboardProviderReadsTheDirectoryComposeMountsTheDashboardInto() {
        String path = providers.at("/providers/0/options/path").asText();
        assertThat(stack.composeChecks().hostPath("grafana", path)).hasValueSatisfying(p -> assertThat(p)
                .isEqualTo(stack.docker.resolve("grafana/dashboards").normalize()));
        assertThat(stack.composeChecks().hostPath("grafana", "/etc/grafana/provisioning/datasources/prometheus.yml"))
                .hasValueSatisfying(p -> assertThat(p).exists());
        assertThat(stack.composeChecks().hostPath("grafana", "/etc/grafana/provisioning/dashboards/vigil.yml"))
                .hasValueSatisfying(p -> assertThat(p).exists());
    }

    @Test
    void thePanelsTheIssueAsksForArePresent() {
        List<String> titles = new DashboardChecks(dashboard).titles();
        for (String wanted : List.of(
                "(?i).*verdicts by status.*",
                "(?i).*services up.*",
                "(?i)probe latency by region.*",
                "(?i)alert transitions.*",
                "(?i)notification outcomes.*",
                "(?i)consumer lag.*")) {
            assertThat(titles).as("a panel matching " + wanted).anyMatch(t -> Pattern.matches(wanted, t));
        }
    }

    @Test
    void everyVigilMetricQueriedIsRegisteredInTheSources() {
        assertThat(catalog.meters()).as("meters found in the sources").hasSizeGreaterThan(10);
        assertThat(kafkaBinderBound).isTrue();
        List<String> problems = new DashboardChecks(dashboard)
                .metrics(catalog, ComposeChecks.targetLabels(stack.prometheus), kafkaBinderBound, boundBinders);
        assertThat(problems).isEmpty();
    }

    @Test
    void vigilCheckDashboardReadsMetricNamesOutOfPromQlAsThisCheckDoes() {
        assertThat(DashboardChecks.sameNameReading(
                        dashboardChecksSource(), dashboardQueriesSource(), "DashboardQueries"))
                .isEmpty();
    }

    private static String dashboardChecksSource() {
        return JavaText.stripComments(
                Repo.text(Repo.root().resolve("docker/src/test/java/dev/vigil/docker/DashboardChecks.java")));
    }

    private static String dashboardQueriesSource() {
        return JavaText.stripComments(Repo.text(
                Repo.mainSources("standalone").resolve("dev/vigil/standalone/dashboard/DashboardQueries.java")));
    }

    // ---- each check catches what it is for ----

    @Test
    void aCopyOfTheNameReadingThatDriftedIsReported() {
        String drifted = dashboardQueriesSource().replaceFirst("\"inf\",\\s*\"nan\"", "\"inf\"");
        assertThat(DashboardChecks.sameNameReading(dashboardChecksSource(), drifted, "DashboardQueries"))
                .singleElement()
                .asString()
                .startsWith("DashboardQueries: PROMQL_WORDS differs from DashboardChecks'");
        String renamed = dashboardQueriesSource().replace(" clean(", " strip(");
        assertThat(DashboardChecks.sameNameReading(dashboardChecksSource(), renamed, "DashboardQueries"))
                .contains("DashboardQueries: clean is not declared")
                .anySatisfy(p -> assertThat(p).startsWith("DashboardQueries: metricNames differs"));
    }

    @Test
    void aMetricNoMeterProducesIsReported() {
        ObjectNode d = dashboard.deepCopy();
        ((ObjectNode) firstTarget(d)).put("expr", "sum(rate(vigil_probe_durations_seconds_bucket[$__rate_interval]))");
        assertThat(new DashboardChecks(d).metrics(catalog, Set.of("job", "instance"), true))
                .anySatisfy(p ->
                        assertThat(p).contains("vigil_probe_durations_seconds_bucket is not produced by any meter"));
    }

    @Test
    void aCounterQueriedWithoutTotalOrABucketOfATimerWithoutHistogramIsReported() {
        ObjectNode d = dashboard.deepCopy();
        ((ObjectNode) firstTarget(d))
                .put(
                        "expr",
                        "rate(vigil_verdict_emitted[5m]) + histogram_quantile(0.9, rate(vigil_notifier_send_seconds_bucket[5m]))");
        List<String> problems = new DashboardChecks(d).metrics(catalog, Set.of("job", "instance"), true);
        assertThat(problems).anySatisfy(p -> assertThat(p).contains("vigil_verdict_emitted is not produced"));
        assertThat(problems)
                .anySatisfy(p -> assertThat(p).contains("vigil_notifier_send_seconds_bucket is not produced"));
    }

    @Test
    void aJvmSeriesWhoseBinderNoServiceBindsIsReported() {
        ObjectNode d = dashboard.deepCopy();
        JsonNode panel = d.path("panels").get(1).deepCopy();
        ((ObjectNode) panel.path("targets").get(0)).put("expr", "sum by (job) (jvm_memory_used_bytes{area=\"heap\"})");
        d.putArray("panels").add(panel);
        assertThat(new DashboardChecks(d).metrics(catalog, Set.of("job"), true, Set.of("JvmGcMetrics")))
                .containsExactly("panel '" + panel.path("title").asText()
                        + "' A: jvm_memory_used_bytes: no service binds JvmMemoryMetrics");
        assertThat(new DashboardChecks(d).metrics(catalog, Set.of("job"), true, Set.of("JvmMemoryMetrics")))
                .isEmpty();
    }

    @Test
    void aLabelThatIsNotATagIsReported() {
        ObjectNode d = dashboard.deepCopy();
        ((ObjectNode) firstTarget(d))
                .put("expr", "sum by (monitor_id) (rate(vigil_verdict_emitted_total{status=\"down\"}[5m]))");
        assertThat(new DashboardChecks(d).metrics(catalog, Set.of("job", "instance"), true))
                .anySatisfy(p -> assertThat(p).contains("label 'monitor_id' is neither a tag"));
    }

    @Test
    void aForeignDataSourceOrAnEmptyQueryIsReported() {
        ObjectNode d = dashboard.deepCopy();
        ((ObjectNode) firstTarget(d))
                .putObject("datasource")
                .put("type", "prometheus")
                .put("uid", "other");
        ((ObjectNode) firstTarget(d)).put("expr", " ");
        List<String> problems = new DashboardChecks(d).queriesAndDatasources(datasourceUid());
        assertThat(problems).anySatisfy(p -> assertThat(p).contains("data source uid 'other' is not the provisioned"));
        assertThat(problems).anySatisfy(p -> assertThat(p).contains("empty expr"));
    }

    @Test
    void overlappingPanelsAreReported() {
        ObjectNode d = dashboard.deepCopy();
        ((ObjectNode) d.path("panels").get(2).path("gridPos")).put("x", 4);
        assertThat(new DashboardChecks(d).identity())
                .anySatisfy(p -> assertThat(p).endsWith("overlap"));
    }

    @Test
    void aMissingUidIsReported() {
        ObjectNode d = dashboard.deepCopy();
        d.remove("uid");
        assertThat(new DashboardChecks(d).identity())
                .anySatisfy(p -> assertThat(p).contains("uid is not set"));
    }

    @Test
    void metricNamesAndLabelsAreReadOutOfPromQl() {
        String expr =
                "histogram_quantile(0.95, sum by (region, le) (rate(vigil_probe_duration_seconds_bucket{outcome=~\"success|http_failure\"}[$__rate_interval])))"
                        + " / on (job) group_left sum(up{job=\"vigil-x\"} offset 5m)";
        assertThat(DashboardChecks.metricNames(expr)).containsExactly("vigil_probe_duration_seconds_bucket", "up");
        assertThat(DashboardChecks.labels(expr)).containsExactlyInAnyOrder("outcome", "job", "region", "le");
    }

    private static JsonNode firstTarget(JsonNode d) {
        for (JsonNode p : d.path("panels")) {
            if (p.path("targets").size() > 0) {
                return p.path("targets").get(0);
            }
        }
        throw new IllegalStateException("no target");
    }
}
