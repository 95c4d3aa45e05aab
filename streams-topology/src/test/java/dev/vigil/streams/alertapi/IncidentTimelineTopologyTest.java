package dev.vigil.streams.alertapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.IncidentNote;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.query.DriverBackend;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.topology.VigilTopology;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every incident in one place: events of incidents only their senders know (an app's, Alertmanager's, the notifier's
 * delivery-failing) are listed by {@code /v1/alerts} beside the topology's own, each with its origin; and every
 * incident's timeline holds its events, its pages per channel and who took and gave back the acknowledgement.
 */
class IncidentTimelineTopologyTest {
    private static final long T0 = 1_780_000_000_000L;

    private final TopologyConfig config = TopologyConfig.defaults();
    private Path stateDir;
    private TopologyTestDriver driver;
    private TestInputTopic<String, AlertEvent> alerts;
    private TestInputTopic<String, IncidentNote> notes;
    private DriverBackend backend;

    @BeforeEach
    void start() throws Exception {
        stateDir = Files.createTempDirectory("vigil-incidents-ttd");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "vigil-incidents-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        driver = new TopologyTestDriver(
                VigilTopology.build(config, AlertingConfig.defaults(), new SimpleMeterRegistry()),
                props,
                Instant.ofEpochMilli(T0));
        alerts = driver.createInputTopic(config.topics().alerts(), new StringSerializer(), VigilSerdes.alertEvent());
        notes = driver.createInputTopic(
                config.topics().incidentNotes(), new StringSerializer(), new JsonSerde<>(IncidentNote.class));
        backend = new DriverBackend(driver);
    }

    @AfterEach
    void stop() throws Exception {
        driver.close();
        try (var files = Files.walk(stateDir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void appAlertmanagerAndDeliveryFailingIncidentsAreListedWithTheirOrigin() {
        send(event("app/shop/checkout-errors", AlertState.OPENED, AlertSource.APP, T0), T0);
        send(event("app/shop/alertmanager/4f2a", AlertState.OPENED, AlertSource.APP, T0), T0);
        send(event("notifier/delivery-failing/slack", AlertState.OPENED, AlertSource.APP, T0), T0);

        List<JsonNode> open = AlertingRoutes.localAlerts(backend, "open", T0 + 1_000);

        assertThat(open)
                .extracting(n ->
                        n.path("fingerprint").asText() + " " + n.path("origin").asText())
                .containsExactlyInAnyOrder(
                        "app/shop/checkout-errors app",
                        "app/shop/alertmanager/4f2a alertmanager",
                        "notifier/delivery-failing/slack notifier");
        assertThat(open).allSatisfy(n -> assertThat(n.path("phase").asText()).isEqualTo("firing"));
    }

    @Test
    void aResolvedExternalIncidentLeavesTheOpenListAndStaysInAll() {
        send(event("app/shop/checkout-errors", AlertState.OPENED, AlertSource.APP, T0), T0);
        send(event("app/shop/checkout-errors", AlertState.REMINDER, AlertSource.APP, T0, T0 + 60_000), T0 + 60_000);
        send(event("app/shop/checkout-errors", AlertState.RESOLVED, AlertSource.APP, T0, T0 + 120_000), T0 + 120_000);

        assertThat(AlertingRoutes.localAlerts(backend, "open", T0 + 130_000)).isEmpty();
        List<JsonNode> all = AlertingRoutes.localAlerts(backend, "all", T0 + 130_000);
        assertThat(all).hasSize(1);
        assertThat(all.get(0).path("phase").asText()).isEqualTo("healthy");
        assertThat(all.get(0).path("occurrences").asInt()).isEqualTo(2);
    }

    @Test
    void theTopologysOwnIncidentsAreNotListedTwice() {
        // a monitor's events reach vigil.alerts from the topology itself; its alert store already lists them
        send(event("monitor/checkout", AlertState.OPENED, AlertSource.PROBE, T0), T0);

        assertThat(AlertingRoutes.localAlerts(backend, "all", T0 + 1_000)).isEmpty();
        assertThat(timeline("monitor/checkout").path("entries")).hasSize(1);
    }

    @Test
    void theTimelineHoldsEventsPagesPerChannelAndTheAcknowledgementTakenAndGivenBack() {
        String fp = "app/shop/checkout-errors";
        AlertEvent opened = event(fp, AlertState.OPENED, AlertSource.APP, T0);
        send(opened, T0);
        notes.pipeInput(
                fp,
                new IncidentNote(
                        1,
                        IncidentNote.DELIVERIES,
                        fp,
                        opened.incidentId(),
                        opened.eventId(),
                        AlertState.OPENED,
                        T0 + 300,
                        null,
                        null,
                        List.of(
                                new IncidentNote.Delivery("slack", "delivered", 1, null),
                                new IncidentNote.Delivery("betterstack", "dead_lettered", 5, "HTTP 401"))),
                T0 + 300);
        AlertEvent ack = new AlertEvent(
                1,
                opened.incidentId() + "/acknowledged/" + (T0 + 5_000),
                fp,
                opened.incidentId(),
                AlertState.ACKNOWLEDGED,
                Severity.CRITICAL,
                "shop",
                null,
                "Acknowledged by alice",
                Map.of(),
                Map.of("acknowledgedBy", "alice"),
                1,
                T0,
                T0,
                AlertSource.APP,
                false,
                null);
        send(ack, T0 + 5_000);
        notes.pipeInput(
                fp,
                new IncidentNote(
                        1,
                        IncidentNote.UNACKNOWLEDGED,
                        fp,
                        opened.incidentId(),
                        null,
                        null,
                        T0 + 9_000,
                        "bob",
                        "Unacknowledged by bob",
                        null),
                T0 + 9_000);

        JsonNode t = timeline(fp);

        assertThat(t.path("incidentId").asText()).isEqualTo(opened.incidentId());
        assertThat(t.path("origin").asText()).isEqualTo("app");
        List<String> lines = new ArrayList<>();
        t.path("entries")
                .forEach(e -> lines.add(e.path("kind").asText() + ":"
                        + e.path("channel").asText("") + ":" + e.path("outcome").asText("") + ":"
                        + e.path("by").asText("")));
        assertThat(lines)
                .containsExactly(
                        "opened:::",
                        "page:slack:delivered:",
                        "page:betterstack:dead_lettered:",
                        "acknowledged:::alice",
                        "unacknowledged:::bob");
        assertThat(t.path("entries").get(3).path("at").asLong()).isEqualTo(T0 + 5_000);
    }

    @Test
    void aNewIncidentStartsANewTimelineAndALateNoteOfTheOldOneIsIgnored() {
        String fp = "app/shop/checkout-errors";
        AlertEvent first = event(fp, AlertState.OPENED, AlertSource.APP, T0);
        send(first, T0);
        send(event(fp, AlertState.RESOLVED, AlertSource.APP, T0, T0 + 60_000), T0 + 60_000);
        AlertEvent second = event(fp, AlertState.OPENED, AlertSource.APP, T0 + 600_000);
        send(second, T0 + 600_000);
        notes.pipeInput(
                fp,
                new IncidentNote(
                        1,
                        IncidentNote.DELIVERIES,
                        fp,
                        first.incidentId(),
                        first.eventId(),
                        AlertState.OPENED,
                        T0 + 601_000,
                        null,
                        null,
                        List.of(new IncidentNote.Delivery("slack", "delivered", 1, null))),
                T0 + 601_000);

        JsonNode t = timeline(fp);

        assertThat(t.path("incidentId").asText()).isEqualTo(second.incidentId());
        assertThat(t.path("entries")).hasSize(1);
        assertThat(t.path("entries").get(0).path("kind").asText()).isEqualTo("opened");
        assertThat(AlertingRoutes.localAlerts(backend, "open", T0 + 700_000))
                .extracting(n -> n.path("incidentId").asText())
                .containsExactly(second.incidentId());
    }

    @Test
    void aFingerprintWithoutAnIncidentAnswers404() {
        HttpResult r = TimelineRoutes.local(backend, "app/shop/never", T0, "/v1/alerts/app%2Fshop%2Fnever/timeline");
        assertThat(r.status()).isEqualTo(404);
    }

    private JsonNode timeline(String fingerprint) {
        HttpResult r = TimelineRoutes.local(backend, fingerprint, T0 + 10_000, "/v1/alerts/x/timeline");
        assertThat(r.status()).isEqualTo(200);
        return Json.tree(r.body());
    }

    private void send(AlertEvent e, long at) {
        alerts.pipeInput(e.fingerprint(), e, at);
    }

    private static AlertEvent event(String fp, AlertState state, AlertSource source, long firstSeen) {
        return event(fp, state, source, firstSeen, firstSeen);
    }

    private static AlertEvent event(String fp, AlertState state, AlertSource source, long firstSeen, long lastSeen) {
        return new AlertEvent(
                1,
                fp + "@" + firstSeen + "/" + state.wire() + "/" + lastSeen,
                fp,
                AlertEvent.incidentIdFor(fp, firstSeen),
                state,
                Severity.CRITICAL,
                "shop",
                null,
                "Checkout errors above 5%",
                Map.of(),
                Map.of(),
                1,
                firstSeen,
                lastSeen,
                source,
                false,
                null);
    }
}
