package dev.vigil.streams.query;

import static dev.vigil.streams.Fixtures.failure;
import static dev.vigil.streams.Fixtures.success;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.silence.Schedule;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.deadletter.DeadLetterHandler;
import dev.vigil.streams.topology.VigilTopology;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Properties;
import java.util.function.LongPredicate;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/monitors/{id}/uptime} with maintenance windows, over loopback HTTP and a TopologyTestDriver of the
 * whole topology (the silences store is the alerting half's). Monitor {@code api} is down during its weekly window
 * (Mondays 02:00 Paris, 01:00Z in January) on Monday 2027-01-18 and for half an hour on Tuesday, outside any window;
 * the report is asked on Tuesday at noon.
 */
class UptimeMaintenanceQueryTest {
    static final long MIN = 60_000L;
    static final long HOUR = 60 * MIN;
    static final long DAY = 24 * HOUR;
    static final long MONDAY = Instant.parse("2027-01-18T00:00:00Z").toEpochMilli();
    static final long TUESDAY = MONDAY + DAY;
    static final long NOW = TUESDAY + 12 * HOUR;
    static final long SERIES_START = Instant.parse("2026-10-01T00:00:00Z").toEpochMilli();

    private Path stateDir;
    private TopologyTestDriver driver;
    private TestInputTopic<String, ProbeResult> results;
    private QueryServer server;
    private Forwarder forwarder;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static MonitorDefinition monitor(String id) {
        return new MonitorDefinition(
                1,
                id,
                null,
                "https://example.com/" + id,
                null,
                60,
                2500,
                List.of("eu-west"),
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    private static Silence weekly(String id, String fingerprint, Schedule schedule) {
        return new Silence(
                1,
                id,
                fingerprint,
                null,
                null,
                SERIES_START,
                SERIES_START + 365 * DAY,
                "ops",
                "planned: " + id,
                SERIES_START,
                null,
                schedule);
    }

    @BeforeEach
    void start() throws Exception {
        TopologyConfig config = TopologyConfig.defaults();
        AlertingConfig alerting = AlertingConfig.defaults();
        stateDir = Files.createTempDirectory("vigil-uptime-query-ttd");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "vigil-uptime-query-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
        props.put(DeadLetterHandler.TOPIC_CONFIG, config.topics().deadLetter());
        driver = new TopologyTestDriver(
                VigilTopology.build(config, alerting, new SimpleMeterRegistry()),
                props,
                Instant.ofEpochMilli(MONDAY - 30_000));
        var monitors = driver.createInputTopic(
                config.topics().monitors(), new StringSerializer(), VigilSerdes.monitorDefinition());
        var silences = driver.createInputTopic(
                config.topics().silences(), new StringSerializer(), new JsonSerde<>(Silence.class));
        results = driver.createInputTopic(
                config.topics().probeResults(), new StringSerializer(), VigilSerdes.probeResult());

        for (String id : List.of("api", "web", "busy")) {
            monitors.pipeInput(id, monitor(id));
        }
        for (Silence s : List.of(
                weekly("maint", "monitor/api", new Schedule(List.of("mon"), "02:00", 60, "Europe/Paris")),
                weekly("tonight", "monitor/api", new Schedule(List.of("tue"), "20:00", 60, "UTC")), // after now
                weekly("web-maint", "monitor/web", new Schedule(List.of("mon"), "02:00", 60, "Europe/Paris")),
                new Silence(
                        1,
                        "noise",
                        "monitor/api",
                        null,
                        null,
                        TUESDAY + HOUR,
                        TUESDAY + 2 * HOUR,
                        "oncall",
                        "stop the noise",
                        TUESDAY),
                weekly("busy-a", "monitor/busy", new Schedule(Schedule.DAY_NAMES, "03:00", 10, "UTC")),
                weekly("busy-b", "monitor/busy", new Schedule(Schedule.DAY_NAMES, "04:00", 10, "UTC")))) {
            silences.pipeInput(s.id(), s);
        }
        windows("api", MONDAY, MONDAY + 3 * HOUR, w -> w >= MONDAY + HOUR && w < MONDAY + 2 * HOUR);
        windows("api", TUESDAY, TUESDAY + 90 * MIN, w -> w >= TUESDAY + HOUR);

        forwarder = TestApi.forwarder(Duration.ofSeconds(5));
        ApiRoutes routes = new ApiRoutes();
        dev.vigil.streams.readmodel.ReadModel.register(
                routes, new DriverBackend(driver), forwarder, Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC));
        server = TestApi.start(routes);
    }

    private void windows(String monitorId, long from, long to, LongPredicate down) {
        for (long w = from; w < to; w += MIN) {
            ProbeResult r = down.test(w) ? failure(monitorId, "eu-west", w) : success(monitorId, "eu-west", w);
            results.pipeInput(r.monitorId(), r, r.startedAt());
        }
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (forwarder != null) {
            forwarder.close();
        }
        driver.close();
        try (var files = Files.walk(stateDir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (java.io.IOException ignored) {
            // temp dir
        }
    }

    private JsonNode uptime(String query) throws Exception {
        var res = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + query))
                        .header("Authorization", TestApi.admin())
                        .GET()
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        return Json.tree(res.body().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void dailyAndOverallFiguresWithAndWithoutMaintenanceAndTheOccurrencesOfTheRange() throws Exception {
        JsonNode body = uptime("/v1/monitors/api/uptime?days=2");

        JsonNode monday = body.path("daily").get(0);
        assertThat(monday.path("date").asText()).isEqualTo("2027-01-18");
        assertThat(monday.path("up").asLong()).isEqualTo(120);
        assertThat(monday.path("down").asLong()).isEqualTo(60);
        assertThat(monday.path("maintenanceWindows").asLong()).isEqualTo(60);
        assertThat(monday.path("maintenanceDown").asLong()).isEqualTo(60);
        assertThat(monday.path("uptimePercent").asDouble()).isCloseTo(100.0 * 120 / 180, within(1e-9));
        assertThat(monday.path("uptimeExcludingMaintenancePercent").asDouble()).isEqualTo(100.0);

        JsonNode tuesday = body.path("daily").get(1);
        assertThat(tuesday.path("down").asLong())
                .as("under the one-off silence")
                .isEqualTo(30);
        assertThat(tuesday.path("maintenanceWindows").asLong()).isZero();
        assertThat(tuesday.path("uptimeExcludingMaintenancePercent").asDouble())
                .isEqualTo(tuesday.path("uptimePercent").asDouble());

        JsonNode overall = body.path("overall");
        assertThat(overall.path("upWindows").asLong()).isEqualTo(180);
        assertThat(overall.path("decidedWindows").asLong()).isEqualTo(270);
        assertThat(overall.path("uptimePercent").asDouble()).isCloseTo(100.0 * 180 / 270, within(1e-9));
        assertThat(overall.path("maintenanceWindows").asLong()).isEqualTo(60);
        assertThat(overall.path("maintenanceDown").asLong()).isEqualTo(60);
        assertThat(overall.path("uptimeExcludingMaintenancePercent").asDouble())
                .isCloseTo(100.0 * 180 / 210, within(1e-9));

        // this monitor's occurrences from Monday 00:00Z to now: not web's, not the one-off, not tonight's
        JsonNode maintenance = body.path("maintenance");
        assertThat(maintenance).hasSize(1);
        assertThat(maintenance.get(0).path("silenceId").asText()).isEqualTo("maint");
        assertThat(maintenance.get(0).path("from").asLong()).isEqualTo(MONDAY + HOUR);
        assertThat(maintenance.get(0).path("to").asLong()).isEqualTo(MONDAY + 2 * HOUR);
        assertThat(maintenance.get(0).path("reason").asText()).isEqualTo("planned: maint");
        assertThat(body.path("maintenanceTruncated").asBoolean()).isFalse();
        assertThat(body.path("rule").asText())
                .startsWith("uptime = (up + degraded) / (up + degraded + down); unknown windows are excluded; UTC days")
                .contains("uptimeExcludingMaintenancePercent", "one-off silences are not maintenance");
    }

    @Test
    void withoutMaintenanceTheSecondFigureIsTheFirstOrNullWhenNothingWasDecided() throws Exception {
        JsonNode today = uptime("/v1/monitors/api/uptime?days=1");
        assertThat(today.path("daily")).hasSize(1);
        assertThat(today.path("overall").path("maintenanceWindows").asLong()).isZero();
        assertThat(today.path("overall")
                        .path("uptimeExcludingMaintenancePercent")
                        .asDouble())
                .isEqualTo(today.path("overall").path("uptimePercent").asDouble());
        assertThat(today.path("maintenance")).isEmpty();

        // no decided window at all, so no figure (left out, as uptimePercent is), though the occurrence is listed
        JsonNode web = uptime("/v1/monitors/web/uptime?days=2");
        assertThat(web.path("overall").path("uptimeExcludingMaintenancePercent").isNumber())
                .isFalse();
        assertThat(web.path("daily")
                        .get(0)
                        .path("uptimeExcludingMaintenancePercent")
                        .isNumber())
                .isFalse();
        assertThat(web.path("daily").get(0).path("maintenanceWindows").asLong()).isZero();
        assertThat(web.path("maintenance")).hasSize(1);
    }

    @Test
    void allDecidedWindowsUnderMaintenanceLeaveNoSecondFigure() throws Exception {
        windows("web", MONDAY + HOUR, MONDAY + 2 * HOUR, w -> true);
        JsonNode monday = uptime("/v1/monitors/web/uptime?days=2").path("daily").get(0);
        assertThat(monday.path("uptimePercent").asDouble()).isZero();
        assertThat(monday.path("maintenanceWindows").asLong()).isEqualTo(60);
        assertThat(monday.path("uptimeExcludingMaintenancePercent").isNumber()).isFalse();
    }

    @Test
    void theOccurrenceListIsBoundedAndSaysWhenItWasCut() throws Exception {
        JsonNode body = uptime("/v1/monitors/busy/uptime?days=90");
        JsonNode maintenance = body.path("maintenance");
        assertThat(maintenance).hasSize(dev.vigil.streams.readmodel.MonitorResource.MAX_MAINTENANCE_OCCURRENCES);
        assertThat(body.path("maintenanceTruncated").asBoolean()).isTrue();
        // earliest first: the range starts 89 days before Tuesday, at 00:00Z
        long first = TUESDAY - 89 * DAY;
        assertThat(maintenance.get(0).path("from").asLong()).isEqualTo(first + 3 * HOUR);
        assertThat(maintenance.get(1).path("from").asLong()).isEqualTo(first + 4 * HOUR);
        assertThat(maintenance.get(0).path("to").asLong()).isEqualTo(first + 3 * HOUR + 10 * MIN);
    }
}
