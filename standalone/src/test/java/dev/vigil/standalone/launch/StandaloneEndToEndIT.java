package dev.vigil.standalone.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.embedded.otel.OtlpReceiver;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.standalone.cli.CliRun;
import dev.vigil.standalone.demo.DemoTargets;
import dev.vigil.standalone.drill.Drill;
import dev.vigil.standalone.monitors.MonitorCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.netty.http.client.HttpClient;

/**
 * The whole stack in one JVM with the demo targets and two webhook channels: an outage pages each channel
 * exactly once and resolves exactly once; a flapping target never storms; the query API follows along. And every
 * metric the Grafana dashboard queries is in the services' {@code /metrics} as soon as the stack is up, before any
 * monitor, probe, alert or delivery ({@code vigil check-dashboard}, over HTTP on loopback).
 */
class StandaloneEndToEndIT {
    private static final List<String> CHANNELS = List.of("oncall-a", "oncall-b");
    private static final String SECRET_ENV = "E2E_WEBHOOK_SECRET";

    @TempDir
    static Path dir;

    static WebhookSink sink;
    /** A collector's OTLP endpoint every service exports its spans to. */
    static OtlpReceiver collector;

    static StandaloneLauncher vigil;
    static DemoTargets targets;
    /** The dashboard compose provisions into Grafana (failsafe runs in the module directory). */
    static final Path DASHBOARD = Path.of("../docker/grafana/dashboards/vigil.json");
    /** {@code vigil check-dashboard} against the stack just started: nothing has happened in it yet. */
    static CliRun freshDashboardCheck;
    /** The one dashboard metric a fresh stack may lack: it is not ours to register (see the reason). */
    static final String CONSUMER_LAG = "kafka_consumer_fetch_manager_records_lag";

    static final String CONSUMER_LAG_REASON = "per partition: the Kafka client makes it after a consumer's first fetch,"
            + " and KafkaClientMetrics binds new client metrics every 60 s";

    @BeforeAll
    static void start() throws Exception {
        sink = new WebhookSink();
        collector = OtlpReceiver.start();
        Path routing = dir.resolve("routing.yaml");
        StringBuilder yaml = new StringBuilder("channels:\n");
        for (String c : CHANNELS) {
            yaml.append("  ")
                    .append(c)
                    .append(":\n    type: webhook\n    url: ")
                    .append(sink.url(c))
                    .append("\n    secretEnv: ")
                    .append(SECRET_ENV)
                    .append('\n');
        }
        yaml.append(
                "defaults:\n  critical: [oncall-a, oncall-b]\n  warning: [oncall-a, oncall-b]\n  info: [oncall-a]\n");
        Files.writeString(routing, yaml);

        Map<String, String> env = new HashMap<>();
        env.put(SECRET_ENV, "e2e-webhook-signing-secret-of-32-bytes!");
        env.put("VIGIL_OTEL_ENDPOINT", collector.endpoint());
        StackSupport.withExternalDb(env);
        StandaloneOptions options = StandaloneOptions.defaults(dir.resolve("data"))
                .withFreePorts()
                .withAllowList(List.of("127.0.0.1/32"))
                .withRouting(routing);
        vigil = StandaloneLauncher.start(options, env, line -> {});
        // before the first monitor: a panel whose metric only appears after some event would show "No data"
        freshDashboardCheck = checkDashboard(DASHBOARD, "--allow-missing", CONSUMER_LAG + "=" + CONSUMER_LAG_REASON);
        targets = DemoTargets.start("127.0.0.1", 0, Clock.systemUTC());
        targets.force("outage", true);
        var monitors = targets.monitors(options.regions()).stream()
                .filter(m ->
                        m.id().equals("demo-outage") || m.id().equals("demo-flapping") || m.id().equals("demo-healthy"))
                .toList();
        new MonitorCatalog(vigil.bootstrapServers(), Topics.MONITORS, Duration.ofSeconds(30))
                .publish(monitors, List.of());
    }

    @AfterAll
    static void stop() {
        if (targets != null) {
            targets.close();
        }
        if (vigil != null) {
            vigil.close();
        }
        if (sink != null) {
            sink.close();
        }
        if (collector != null) {
            collector.close();
        }
    }

    /** Every service's {@code /metrics} URL: ingest, the streams query API, the notifier and each probe worker. */
    private static List<String> metricsUrls() {
        List<Integer> ports = new ArrayList<>(List.of(vigil.ingestPort(), vigil.queryPort(), vigil.notifierPort()));
        ports.addAll(vigil.probePorts());
        return ports.stream().map(p -> "http://127.0.0.1:" + p + "/metrics").toList();
    }

    private static CliRun checkDashboard(Path dashboard, String... more) {
        List<String> args = new ArrayList<>(List.of("check-dashboard", "--dashboard", dashboard.toString()));
        metricsUrls().forEach(u -> args.addAll(List.of("--scrape", u)));
        args.addAll(List.of(more));
        return CliRun.vigil(args.toArray(String[]::new));
    }

    private static long count(String channel, String fingerprint, AlertState state) {
        return sink.deliveries().stream()
                .filter(d -> d.channel().equals(channel)
                        && d.event().fingerprint().equals(fingerprint)
                        && d.event().state() == state)
                .count();
    }

    private static JsonNode status(String monitorId) {
        byte[] body = HttpClient.create()
                .headers(h -> h.set("Authorization", "Bearer " + vigil.adminToken()))
                .get()
                .uri("http://127.0.0.1:" + vigil.queryPort() + "/v1/monitors/" + monitorId)
                .responseSingle((res, content) -> content.asByteArray())
                .block(Duration.ofSeconds(10));
        return Json.tree(body);
    }

    @Test
    void everyMetricTheDashboardQueriesIsInTheScrapesOfTheFreshStack() {
        CliRun check = freshDashboardCheck;
        System.out.print(check.out()); // the report, in this IT's -output.txt
        assertThat(check.exit())
                .as("vigil check-dashboard:%n%s%s", check.out(), check.err())
                .isZero();
        assertThat(check.out())
                .contains("read      http://127.0.0.1:" + vigil.notifierPort() + "/metrics: ")
                .doesNotContain("MISSING")
                .contains("PASS: ");
    }

    @Test
    void theConsumerLagTheFreshStackLackedAppearsOnceTheConsumersHaveFetched() {
        await("every dashboard metric scraped, the allow-list empty")
                .atMost(Duration.ofSeconds(150))
                .pollInterval(Duration.ofSeconds(5))
                .untilAsserted(() -> {
                    CliRun check = checkDashboard(DASHBOARD);
                    assertThat(check.exit())
                            .as("vigil check-dashboard:%n%s%s", check.out(), check.err())
                            .isZero();
                });
    }

    @Test
    void aDashboardMetricNoServiceExposesFailsTheCheck() throws Exception {
        ObjectNode dashboard = (ObjectNode) new ObjectMapper().readTree(DASHBOARD.toFile());
        ObjectNode target = null;
        for (JsonNode panel : dashboard.path("panels")) {
            if (panel.path("title").asText().equals("Notification outcomes by channel")) {
                target = (ObjectNode) panel.path("targets").get(0);
            }
        }
        assertThat(target).as("the panel the mutation edits").isNotNull();
        target.put(
                "expr",
                target.path("expr")
                        .asText()
                        .replace("vigil_notifier_deliveries_total", "vigil_notifier_deliveries_sent_total"));
        Path mutated = dir.resolve("vigil-mutated.json");
        Files.writeString(mutated, dashboard.toPrettyString());

        CliRun check = checkDashboard(mutated, "--allow-missing", CONSUMER_LAG + "=" + CONSUMER_LAG_REASON);
        assertThat(check.exit()).as(check.out() + check.err()).isEqualTo(1);
        assertThat(check.out())
                .contains(
                        "MISSING  panel 'Notification outcomes by channel' (A): vigil_notifier_deliveries_sent_total is in none of the "
                                + metricsUrls().size() + " scrapes")
                .contains("FAIL: ");
        assertThat(check.out().lines().filter(l -> l.startsWith("MISSING"))).hasSize(1);
    }

    @Test
    void drillTravelsEndToEndAndCleansUp() throws Exception {
        String id = "drill-e2e";
        var db = vigil.postgres().database().url();
        List<String> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
        Drill drill = new Drill(vigil.bootstrapServers(), db, Duration.ofSeconds(90), Clock.systemUTC(), progress::add);
        Drill.Report report = drill.run(id, Severity.CRITICAL);

        assertThat(report.hops())
                .extracting(Drill.Hop::name)
                .containsSubsequence(
                        "outage injected (probe result acknowledged)",
                        "verdict down on vigil.monitor-status",
                        "alert opened on vigil.alerts",
                        "delivered to oncall-a",
                        "recovery injected (2 healthy windows)",
                        "alert resolved on vigil.alerts",
                        "delivered to oncall-a");
        assertThat(report.hops())
                .filteredOn(h -> h.name().startsWith("delivered to"))
                .extracting(Drill.Hop::detail)
                .containsOnly("delivered");
        assertThat(report.hops()).extracting(Drill.Hop::atMs).isSorted();
        // the drill's outage began a trace; the topology (exporting here) continued it with spans of its own
        assertThat(report.traceId()).matches("[0-9a-f]{32}");
        assertThat(report.hops())
                .filteredOn(h -> h.name().startsWith("verdict down") || h.name().startsWith("alert opened"))
                .extracting(Drill.Hop::detail)
                .allMatch(d -> d.matches("(?s).*span [0-9a-f]{16}.*"));
        assertThat(sink.deliveries())
                .filteredOn(d -> d.event().fingerprint().equals("monitor/" + id)
                        && d.event().state() == AlertState.OPENED)
                .allSatisfy(d -> assertThat(d.event().attributes()).containsEntry("trace_id", report.traceId()));
        await("the drill's hops exported in its trace")
                .atMost(Duration.ofSeconds(60))
                .until(
                        () -> collector.trace(report.traceId()).stream()
                                .map(OtlpReceiver.ReceivedSpan::name)
                                .toList(),
                        names -> names.containsAll(List.of("verdict", "alert opened", "deliver oncall-a")));
        for (String c : CHANNELS) {
            assertThat(count(c, "monitor/" + id, AlertState.OPENED))
                    .as("drill opened on " + c)
                    .isEqualTo(1);
            assertThat(count(c, "monitor/" + id, AlertState.RESOLVED))
                    .as("drill resolved on " + c)
                    .isEqualTo(1);
        }

        List<String> removed = drill.cleanup(id);
        assertThat(removed).anyMatch(r -> r.startsWith("monitor " + id)).anyMatch(r -> r.endsWith(" claims"));
        try (var c = java.sql.DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                var st = c.prepareStatement("SELECT (SELECT count(*) FROM claims WHERE event_id LIKE ?) "
                        + "+ (SELECT count(*) FROM incidents WHERE incident_id LIKE ?) "
                        + "+ (SELECT count(*) FROM delivery_attempts WHERE incident_id LIKE ?)")) {
            for (int i = 1; i <= 3; i++) {
                st.setString(i, "monitor/" + id + "@%");
            }
            try (var rs = st.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).as("notifier records left behind").isZero();
            }
        }
        assertThat(new MonitorCatalog(vigil.bootstrapServers(), Topics.MONITORS, Duration.ofSeconds(30))
                        .current(line -> {}))
                .doesNotContainKey(id);
        await("drill monitor gone from the query API")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> status(id).path("status").asInt() == 404);
    }

    /**
     * The outage's page is one trace across three services: the probe (a new trace, its phases as events), the
     * verdict and the alert in the topology, and one delivery per channel, each span the child of the one before, in
     * time order.
     */
    @Test
    void theOutagePageIsOneTraceFromProbeToEachDelivery() {
        var chain = await("the opened alert of demo-outage and its deliveries exported")
                .atMost(Duration.ofSeconds(120))
                .until(
                        () -> collector.spans().stream()
                                .filter(s -> s.name().equals("alert opened")
                                        && "monitor/demo-outage"
                                                .equals(s.attributes().get("vigil.alert.fingerprint")))
                                .map(s -> collector.trace(s.traceId()))
                                .filter(t -> t.stream()
                                                .filter(s -> s.name().startsWith("deliver "))
                                                .count()
                                        == CHANNELS.size())
                                .findFirst(),
                        java.util.Optional::isPresent)
                .orElseThrow();
        // the chain, in this IT's -output.txt: which services, and how long each hop took to start after the last
        long t0 = chain.get(0).startNanos();
        chain.forEach(sp -> System.out.printf(
                "trace %s  %-16s %-20s span %s parent %-16s +%.1f ms (%.1f ms) %s%n",
                sp.traceId(),
                sp.name(),
                sp.service(),
                sp.spanId(),
                sp.parentSpanId(),
                (sp.startNanos() - t0) / 1e6,
                (sp.endNanos() - sp.startNanos()) / 1e6,
                sp.attributes().getOrDefault("vigil.verdict.trigger", "")));
        OtlpReceiver.ReceivedSpan verdict = only(chain, "verdict");
        OtlpReceiver.ReceivedSpan alert = only(chain, "alert opened");
        assertThat(verdict.service()).isEqualTo("vigil-streams");
        assertThat(verdict.attributes()).containsEntry("vigil.monitor.id", "demo-outage");
        assertThat(alert.parentSpanId()).isEqualTo(verdict.spanId());
        assertThat(alert.startNanos()).isGreaterThanOrEqualTo(verdict.startNanos());
        // the verdict continues the trace of the result that completed its window (or at the deadline, the latest)
        OtlpReceiver.ReceivedSpan probe = only(chain, "probe http");
        assertThat(probe.service()).isEqualTo("vigil-probe-worker");
        assertThat(probe.isRoot()).isTrue();
        assertThat(probe.attributes()).containsEntry("vigil.monitor.id", "demo-outage");
        assertThat(probe.events()).contains("connect", "first byte");
        assertThat(verdict.parentSpanId()).isEqualTo(probe.spanId());
        assertThat(verdict.startNanos()).isGreaterThanOrEqualTo(probe.endNanos());
        for (String channel : CHANNELS) {
            OtlpReceiver.ReceivedSpan delivery = only(chain, "deliver " + channel);
            assertThat(delivery.service()).isEqualTo("vigil-notifier");
            assertThat(delivery.parentSpanId()).isEqualTo(alert.spanId());
            assertThat(delivery.startNanos()).isGreaterThanOrEqualTo(alert.startNanos());
            assertThat(delivery.attributes())
                    .containsEntry("vigil.delivery.outcome", "delivered")
                    .containsEntry("vigil.channel", channel);
        }
        // the privacy rule: no span carries the target's address or a page's body
        assertThat(collector.spans())
                .allSatisfy(s -> assertThat(s.attributes().values()).noneMatch(v -> v.contains("http://")));
    }

    private static OtlpReceiver.ReceivedSpan only(List<OtlpReceiver.ReceivedSpan> trace, String name) {
        var found = trace.stream().filter(s -> s.name().equals(name)).toList();
        assertThat(found).as("spans named %s in %s", name, trace).hasSize(1);
        return found.get(0);
    }

    @Test
    void outagePagesOnceAndResolvesOnceAndFlappingDoesNotStorm() {
        await("healthy target reported up")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> "up"
                        .equals(status("demo-healthy")
                                .path("status")
                                .path("status")
                                .asText()));

        targets.force("outage", false);
        await("outage paged on every channel")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> CHANNELS.stream().allMatch(c -> count(c, "monitor/demo-outage", AlertState.OPENED) >= 1));
        assertThat(status("demo-outage").path("status").path("status").asText()).isEqualTo("down");
        await("the open alert shows in the monitor's detail")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> "monitor/demo-outage"
                        .equals(status("demo-outage")
                                .path("alerts")
                                .path(0)
                                .path("fingerprint")
                                .asText()));
        JsonNode fleet = Json.tree(HttpClient.create()
                .headers(h -> h.set("Authorization", "Bearer " + vigil.adminToken()))
                .get()
                .uri("http://127.0.0.1:" + vigil.queryPort() + "/v1/status")
                .responseSingle((res, content) -> content.asByteArray())
                .block(Duration.ofSeconds(10)));
        JsonNode outageRow = null;
        for (JsonNode row : fleet.path("monitors")) {
            if (row.path("monitorId").asText().equals("demo-outage")) {
                outageRow = row;
            }
        }
        assertThat(outageRow).isNotNull();
        assertThat(outageRow.path("alert").path("severity").asText()).isEqualTo("critical");

        targets.force("outage", true);
        await("outage resolved on every channel")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() ->
                        CHANNELS.stream().allMatch(c -> count(c, "monitor/demo-outage", AlertState.RESOLVED) >= 1));
        assertThat(status("demo-outage").path("status").path("status").asText()).isEqualTo("up");

        for (String c : CHANNELS) {
            assertThat(count(c, "monitor/demo-outage", AlertState.OPENED))
                    .as("opened on " + c)
                    .isEqualTo(1);
            assertThat(count(c, "monitor/demo-outage", AlertState.RESOLVED))
                    .as("resolved on " + c)
                    .isEqualTo(1);
            assertThat(count(c, "monitor/demo-flapping", AlertState.OPENED))
                    .as("flapping pages on " + c)
                    .isLessThanOrEqualTo(1);
            assertThat(count(c, "monitor/demo-healthy", AlertState.OPENED))
                    .as("healthy never pages")
                    .isZero();
        }
    }
}
