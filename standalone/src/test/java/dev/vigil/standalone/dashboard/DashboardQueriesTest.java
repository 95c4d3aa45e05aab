package dev.vigil.standalone.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The metric names read out of a dashboard's PromQL, and the dashboard the compose stack provisions. */
class DashboardQueriesTest {
    @Test
    void metricNamesSkipFunctionsKeywordsLabelsStringsAndDurations() {
        // the docker module's DashboardTest reads the same names out of the same expression
        String expr =
                "histogram_quantile(0.95, sum by (region, le) (rate(vigil_probe_duration_seconds_bucket{outcome=~\"success|http_failure\"}[$__rate_interval])))"
                        + " / on (job) group_left sum(up{job=\"vigil-x\"} offset 5m)";
        assertThat(DashboardQueries.metricNames(expr)).containsExactly("vigil_probe_duration_seconds_bucket", "up");
        assertThat(DashboardQueries.metricNames(
                        "sum without (instance) (a_total) > bool 0 and on() b unless c{x=\"d_total\"}"))
                .containsExactly("a_total", "b", "c");
        assertThat(DashboardQueries.metricNames("vector(1) + 2e3 * scalar(x[${window}])"))
                .containsExactly("x");
    }

    @Test
    void queriesOfEveryPanelRowsIncludedAndAWrappedExport() throws Exception {
        String panels =
                """
                "panels": [
                  {"type": "row", "title": "r", "panels": [{"title": "inner", "targets": [{"refId": "A", "expr": "a"}, {"refId": "B", "expr": " "}]}]},
                  {"title": "outer", "targets": [{"refId": "C", "expr": "rate(b_total[5m])"}]}]""";
        DashboardQueries d = DashboardQueries.of(new ObjectMapper().readTree("{\"title\": \"t\", " + panels + "}"));
        assertThat(d.queries())
                .extracting(DashboardQueries.Query::where)
                .containsExactly("panel 'inner' (A)", "panel 'outer' (C)");
        assertThat(d.metrics()).containsExactly("a", "b_total");
        DashboardQueries wrapped =
                DashboardQueries.of(new ObjectMapper().readTree("{\"dashboard\": {\"title\": \"t\", " + panels + "}}"));
        assertThat(wrapped.metrics()).containsExactly("a", "b_total");
        assertThatThrownBy(() -> DashboardQueries.of(new ObjectMapper().readTree("[]")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theProvisionedDashboardQueriesVigilKafkaJvmAndPrometheusSeries() throws Exception {
        DashboardQueries d = DashboardQueries.read(Path.of("../docker/grafana/dashboards/vigil.json"));
        assertThat(d.title()).isEqualTo("Vigil");
        assertThat(d.metrics())
                .contains(
                        "vigil_verdict_emitted_total",
                        "vigil_probe_duration_seconds_bucket",
                        "up",
                        "kafka_consumer_fetch_manager_records_lag",
                        "jvm_memory_used_bytes",
                        "vigil_self_heals_total");
        assertThat(d.metrics()).allMatch(m -> m.matches("(vigil|kafka|jvm)_[a-z_]+|up"));
    }
}
