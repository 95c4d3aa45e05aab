package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * {@code vigil check-dashboard} against stand-ins on loopback: two services' {@code /metrics} and a Prometheus
 * label-values API. Each exit code, and the MISSING line naming the panel, the query and the metric.
 */
class CheckDashboardCommandTest {
    /** Two panels, one in a collapsed row; a Grafana variable, a label matcher and Prometheus's own {@code up}. */
    private static final String DASHBOARD =
            """
            {"title": "Test board", "panels": [
              {"type": "timeseries", "title": "Deliveries", "targets": [
                {"refId": "A", "expr": "sum by (channel) (rate(vigil_notifier_deliveries_total{outcome=\\"delivered\\"}[$__rate_interval]))"},
                {"refId": "B", "expr": "histogram_quantile(0.99, sum by (le) (rate(vigil_probe_duration_seconds_bucket[5m])))"}]},
              {"type": "row", "title": "More", "collapsed": true, "panels": [
                {"type": "stat", "title": "Services up", "targets": [{"refId": "A", "expr": "up{job=~\\"vigil-.*\\"}"}]}]}]}
            """;

    private static final String NOTIFIER =
            """
            # HELP vigil_notifier_deliveries_total \s
            # TYPE vigil_notifier_deliveries_total counter
            vigil_notifier_deliveries_total{channel="slack",outcome="delivered"} 0.0
            jvm_threads_live_threads 12.0
            """;
    private static final String PROBE =
            """
            # TYPE vigil_probe_duration_seconds histogram
            vigil_probe_duration_seconds_bucket{outcome="success",type="http",le="0.001"} 0
            vigil_probe_duration_seconds_bucket{outcome="success",type="http",le="+Inf"} 0
            vigil_probe_duration_seconds_count{outcome="success",type="http"} 0
            vigil_probe_duration_seconds_sum{outcome="success",type="http"} 0.0
            """;

    @TempDir
    Path dir;

    Path dashboard;
    final List<String> prometheusQueries = new CopyOnWriteArrayList<>();
    volatile String prometheusNames =
            "[\"up\", \"vigil_notifier_deliveries_total\", \"vigil_probe_duration_seconds_bucket\"]";

    private final DisposableServer stand = HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .route(r -> r.get("/notifier/metrics", (req, res) -> res.sendString(Mono.just(NOTIFIER)))
                    .get("/probe/metrics", (req, res) -> res.sendString(Mono.just(PROBE)))
                    .get("/html/metrics", (req, res) -> res.sendString(Mono.just("<html><body>hello</body></html>")))
                    .get("/broken/metrics", (req, res) -> res.status(500).sendString(Mono.just("boom")))
                    .get("/api/v1/label/__name__/values", (req, res) -> {
                        prometheusQueries.add(req.uri());
                        return res.header("Content-Type", "application/json")
                                .sendString(Mono.just("{\"status\":\"success\",\"data\":" + prometheusNames + "}"));
                    }))
            .bindNow();

    @BeforeEach
    void writeDashboard() throws IOException {
        dashboard = dir.resolve("board.json");
        Files.writeString(dashboard, DASHBOARD);
    }

    @AfterEach
    void stop() {
        stand.disposeNow(Duration.ofSeconds(5));
    }

    private String url(String path) {
        return "http://127.0.0.1:" + stand.port() + path;
    }

    private CliRun scrape(String... more) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "check-dashboard",
                "--dashboard",
                dashboard.toString(),
                "--scrape",
                url("/notifier/metrics"),
                "--scrape",
                url("/probe/metrics")));
        args.addAll(List.of(more));
        return CliRun.vigil(args.toArray(String[]::new));
    }

    @Test
    void passesWhenEveryQueriedMetricIsInSomeScrapeAndLeavesUpToPrometheus() {
        CliRun run = scrape();
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out())
                .contains("dashboard " + dashboard + " ('Test board'): 3 queries, 3 metrics")
                .contains("read      " + url("/notifier/metrics") + ": 2 series names")
                .contains("read      " + url("/probe/metrics") + ": 3 series names")
                .contains("note     up: written by Prometheus for each target, not looked for in a /metrics scrape")
                .contains("PASS: 3 queries, 3 metrics: 2 present, 0 missing, 1 made by Prometheus; 2 sources read")
                .doesNotContain("MISSING");
    }

    @Test
    void aMetricInNoScrapeIsNamedWithItsPanelAndQueryAndFails() throws IOException {
        Files.writeString(
                dashboard,
                DASHBOARD.replace("vigil_notifier_deliveries_total", "vigil_notifier_deliveries_sent_total"));
        CliRun run = scrape();
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out())
                .contains(
                        "MISSING  panel 'Deliveries' (A): vigil_notifier_deliveries_sent_total is in none of the 2 scrapes")
                .contains("FAIL: 3 queries, 3 metrics: 1 present, 1 missing, 1 made by Prometheus; 2 sources read");
        assertThat(run.out().lines().filter(l -> l.startsWith("MISSING"))).hasSize(1);
    }

    @Test
    void aScrapeAloneLacksTheOtherServicesMetrics() {
        CliRun run = CliRun.vigil(
                "check-dashboard", "--dashboard", dashboard.toString(), "--scrape", url("/notifier/metrics"));
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out())
                .contains("MISSING  panel 'Deliveries' (B): vigil_probe_duration_seconds_bucket is in the scrape");
    }

    @Test
    void anAllowedMetricMayBeMissingWithItsReasonAndAnUnneededEntryIsReported() {
        CliRun run = CliRun.vigil(
                "check-dashboard",
                "--dashboard",
                dashboard.toString(),
                "--scrape",
                url("/notifier/metrics"),
                "--allow-missing",
                "vigil_probe_duration_seconds_bucket=no probe worker in this test",
                "--allow-missing",
                "vigil_notifier_deliveries_total=just in case");
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out())
                .contains("allowed  vigil_probe_duration_seconds_bucket is missing: no probe worker in this test")
                .contains("note     vigil_notifier_deliveries_total is allowed to be missing but is present")
                .contains("PASS: 3 queries, 3 metrics: 1 present, 0 missing, 1 allowed missing, 1 made by Prometheus");
    }

    @Test
    void anAllowListEntryForAMetricTheDashboardDoesNotQueryOrWithoutAReasonIsRefused() {
        CliRun unknown = scrape("--allow-missing", "vigil_nothing_total=old panel");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err())
                .contains("the allow-list names vigil_nothing_total, which the dashboard does not query");
        CliRun noReason = scrape("--allow-missing", "vigil_notifier_deliveries_total= ");
        assertThat(noReason.exit()).isEqualTo(2);
        assertThat(noReason.err()).contains("the allow-list entry for vigil_notifier_deliveries_total gives no reason");
    }

    @Test
    void againstPrometheusUpIsCheckedToo() {
        CliRun run = CliRun.vigil(
                "check-dashboard", "--dashboard", dashboard.toString(), "--prometheus", url(""), "--since", "5m");
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("PASS: 3 queries, 3 metrics: 3 present, 0 missing; 1 sources read");
        assertThat(prometheusQueries).singleElement().asString().matches("/api/v1/label/__name__/values\\?start=\\d+");

        prometheusNames = "[\"vigil_notifier_deliveries_total\", \"vigil_probe_duration_seconds_bucket\"]";
        CliRun noUp = CliRun.vigil("check-dashboard", "--dashboard", dashboard.toString(), "--prometheus", url("/"));
        assertThat(noUp.exit()).isEqualTo(1);
        assertThat(noUp.out())
                .contains("MISSING  panel 'Services up' (A): up is in none of the series names Prometheus holds");
    }

    @Test
    void aUrlWithoutAPathIsScrapedAtSlashMetrics() {
        CliRun run = CliRun.vigil("check-dashboard", "--dashboard", dashboard.toString(), "--scrape", url(""));
        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.err()).contains("error: cannot read " + url("/metrics") + ": HTTP 404");
    }

    @Test
    void anUnreadableSourceChecksNothingAndExitsThree() {
        CliRun run = scrape(
                "--scrape",
                url("/broken/metrics"),
                "--scrape",
                url("/html/metrics"),
                "--scrape",
                "http://127.0.0.1:1/metrics");
        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.err())
                .contains("error: cannot read " + url("/broken/metrics") + ": HTTP 500 boom")
                .contains("error: cannot read " + url("/html/metrics")
                        + ": line 1 is not a sample of the Prometheus text format")
                .contains("error: cannot read http://127.0.0.1:1/metrics: ")
                .contains("error: nothing was checked (3 of 5 sources unreadable)");
        assertThat(run.out()).doesNotContain("PASS").doesNotContain("FAIL");
    }

    @Test
    void aDashboardThatCannotBeReadOrBadArgumentsExitTwo() throws IOException {
        CliRun missingFile = CliRun.vigil(
                "check-dashboard",
                "--dashboard",
                dir.resolve("nope.json").toString(),
                "--scrape",
                url("/notifier/metrics"));
        assertThat(missingFile.exit()).isEqualTo(2);
        assertThat(missingFile.err()).contains("error: cannot read the dashboard " + dir.resolve("nope.json"));

        Files.writeString(dashboard, "{\"title\": \"no panels\"}");
        CliRun notADashboard = scrape();
        assertThat(notADashboard.exit()).isEqualTo(2);
        assertThat(notADashboard.err()).contains("not a Grafana dashboard: no \"panels\" array");

        assertThat(CliRun.vigil("check-dashboard", "--dashboard", dashboard.toString())
                        .exit())
                .as("neither --scrape nor --prometheus")
                .isEqualTo(2);
        assertThat(CliRun.vigil("check-dashboard", "--scrape", url("/a"), "--prometheus", url(""))
                        .exit())
                .as("both --scrape and --prometheus")
                .isEqualTo(2);
        CliRun sinceWithScrape = scrape("--since", "1h");
        assertThat(sinceWithScrape.exit()).isEqualTo(2);
        assertThat(sinceWithScrape.err()).contains("--since applies to --prometheus only");
        CliRun notAUrl = scrape("--scrape", "ingest:8080");
        assertThat(notAUrl.exit()).isEqualTo(2);
        assertThat(notAUrl.err()).contains("'ingest:8080' is not an http(s) URL with a host");
    }
}
