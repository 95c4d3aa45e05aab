package dev.vigil.standalone.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.standalone.demo.DemoTargets;
import dev.vigil.standalone.drill.Drill;
import dev.vigil.standalone.monitors.MonitorCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
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
 * exactly once and resolves exactly once; a flapping target never storms; the query API follows along.
 */
class StandaloneEndToEndIT {
    private static final List<String> CHANNELS = List.of("oncall-a", "oncall-b");
    private static final String SECRET_ENV = "E2E_WEBHOOK_SECRET";

    @TempDir
    static Path dir;

    static WebhookSink sink;
    static StandaloneLauncher vigil;
    static DemoTargets targets;

    @BeforeAll
    static void start() throws Exception {
        sink = new WebhookSink();
        Path routing = dir.resolve("routing.yaml");
        StringBuilder yaml = new StringBuilder("channels:\n");
        for (String c : CHANNELS) {
            yaml.append("  ").append(c).append(":\n    type: webhook\n    url: ").append(sink.url(c))
                    .append("\n    secretEnv: ").append(SECRET_ENV).append('\n');
        }
        yaml.append("defaults:\n  critical: [oncall-a, oncall-b]\n  warning: [oncall-a, oncall-b]\n  info: [oncall-a]\n");
        Files.writeString(routing, yaml);

        Map<String, String> env = new HashMap<>();
        env.put(SECRET_ENV, "e2e-webhook-signing-secret-of-32-bytes!");
        StackSupport.withExternalDb(env);
        StandaloneOptions options = StandaloneOptions.defaults(dir.resolve("data")).withFreePorts()
                .withAllowList(List.of("127.0.0.1/32")).withRouting(routing);
        vigil = StandaloneLauncher.start(options, env, line -> { });
        targets = DemoTargets.start("127.0.0.1", 0, Clock.systemUTC());
        targets.force("outage", true);
        var monitors = targets.monitors(options.regions()).stream()
                .filter(m -> m.id().equals("demo-outage") || m.id().equals("demo-flapping") || m.id().equals("demo-healthy"))
                .toList();
        new MonitorCatalog(vigil.bootstrapServers(), Topics.MONITORS, Duration.ofSeconds(30)).publish(monitors, List.of());
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
    }

    private static long count(String channel, String fingerprint, AlertState state) {
        return sink.deliveries().stream().filter(d -> d.channel().equals(channel)
                && d.event().fingerprint().equals(fingerprint) && d.event().state() == state).count();
    }

    private static JsonNode status(String monitorId) {
        byte[] body = HttpClient.create().headers(h -> h.set("Authorization", "Bearer " + vigil.adminToken()))
                .get().uri("http://127.0.0.1:" + vigil.queryPort() + "/v1/monitors/" + monitorId)
                .responseSingle((res, content) -> content.asByteArray()).block(Duration.ofSeconds(10));
        return Json.tree(body);
    }

    @Test
    void drillTravelsEndToEndAndCleansUp() throws Exception {
        String id = "drill-e2e";
        var db = vigil.postgres().database().url();
        List<String> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
        Drill drill = new Drill(vigil.bootstrapServers(), db, Duration.ofSeconds(90), Clock.systemUTC(), progress::add);
        Drill.Report report = drill.run(id, Severity.CRITICAL);

        assertThat(report.hops()).extracting(Drill.Hop::name).containsSubsequence(
                "outage injected (probe result acknowledged)", "verdict down on vigil.monitor-status",
                "alert opened on vigil.alerts", "delivered to oncall-a",
                "recovery injected (2 healthy windows)", "alert resolved on vigil.alerts", "delivered to oncall-a");
        assertThat(report.hops()).filteredOn(h -> h.name().startsWith("delivered to"))
                .extracting(Drill.Hop::detail).containsOnly("delivered");
        assertThat(report.hops()).extracting(Drill.Hop::atMs).isSorted();
        for (String c : CHANNELS) {
            assertThat(count(c, "monitor/" + id, AlertState.OPENED)).as("drill opened on " + c).isEqualTo(1);
            assertThat(count(c, "monitor/" + id, AlertState.RESOLVED)).as("drill resolved on " + c).isEqualTo(1);
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
                .current(line -> { })).doesNotContainKey(id);
        await("drill monitor gone from the query API").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> status(id).path("status").asInt() == 404);
    }

    @Test
    void outagePagesOnceAndResolvesOnceAndFlappingDoesNotStorm() {
        await("healthy target reported up").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                .until(() -> "up".equals(status("demo-healthy").path("status").path("status").asText()));

        targets.force("outage", false);
        await("outage paged on every channel").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                .until(() -> CHANNELS.stream().allMatch(c -> count(c, "monitor/demo-outage", AlertState.OPENED) >= 1));
        assertThat(status("demo-outage").path("status").path("status").asText()).isEqualTo("down");
        await("the open alert shows in the monitor's detail").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> "monitor/demo-outage".equals(status("demo-outage").path("alerts").path(0).path("fingerprint").asText()));
        JsonNode fleet = Json.tree(HttpClient.create().headers(h -> h.set("Authorization", "Bearer " + vigil.adminToken()))
                .get().uri("http://127.0.0.1:" + vigil.queryPort() + "/v1/status")
                .responseSingle((res, content) -> content.asByteArray()).block(Duration.ofSeconds(10)));
        JsonNode outageRow = null;
        for (JsonNode row : fleet.path("monitors")) {
            if (row.path("monitorId").asText().equals("demo-outage")) {
                outageRow = row;
            }
        }
        assertThat(outageRow).isNotNull();
        assertThat(outageRow.path("alert").path("severity").asText()).isEqualTo("critical");

        targets.force("outage", true);
        await("outage resolved on every channel").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1))
                .until(() -> CHANNELS.stream().allMatch(c -> count(c, "monitor/demo-outage", AlertState.RESOLVED) >= 1));
        assertThat(status("demo-outage").path("status").path("status").asText()).isEqualTo("up");

        for (String c : CHANNELS) {
            assertThat(count(c, "monitor/demo-outage", AlertState.OPENED)).as("opened on " + c).isEqualTo(1);
            assertThat(count(c, "monitor/demo-outage", AlertState.RESOLVED)).as("resolved on " + c).isEqualTo(1);
            assertThat(count(c, "monitor/demo-flapping", AlertState.OPENED)).as("flapping pages on " + c).isLessThanOrEqualTo(1);
            assertThat(count(c, "monitor/demo-healthy", AlertState.OPENED)).as("healthy never pages").isZero();
        }
    }
}
