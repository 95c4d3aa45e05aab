package dev.vigil.streams.alerting;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.failure;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.AuditRecord;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.alertapi.AckRoutes;
import dev.vigil.streams.alertapi.AlertingRoutes;
import dev.vigil.streams.audit.ApiWriter;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.QueryServer;
import dev.vigil.streams.query.TestApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code POST/DELETE /v1/alerts/{fingerprint}/ack} over real HTTP, the incident from a TopologyTestDriver, writes to a mock producer. */
class AckRoutesTest {
    private static final long NOW = W0 + 5 * 60_000L;

    AlertingHarness h;
    Forwarder forwarder;
    QueryServer server;
    MockProducer<String, byte[]> producer;
    ApiWriter writer;
    final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() {
        h = new AlertingHarness(W0 - 30_000);
        producer = new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
        writer = new ApiWriter(() -> producer, "vigil.audit", Duration.ofSeconds(5));
        forwarder = TestApi.forwarder(Duration.ofSeconds(5));
        ApiRoutes routes = new ApiRoutes();
        Clock clock = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);
        var backend = new dev.vigil.streams.query.DriverBackend(h.driver);
        new AlertingRoutes(clock).register(routes, backend, forwarder);
        new AckRoutes(writer, "vigil.acks", "vigil.alerts", clock).register(routes, backend, forwarder);
        dev.vigil.streams.readmodel.ReadModel.register(routes, backend, forwarder, clock);
        server = TestApi.start(routes);
        h.define(new MonitorDefinition(
                1,
                "api",
                null,
                "https://example.com/api",
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
                null));
        h.wallClockTo(W0 - 20_000);
        h.result(failure("api", "eu-west", W0));
    }

    @AfterEach
    void stop() {
        server.close();
        forwarder.close();
        writer.close();
        h.close();
    }

    private HttpResponse<String> send(String method, String path, String token, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Authorization", "Bearer " + token)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void acknowledgingWritesTheAckTheNoticeAndTheAuditInOneTransaction() throws Exception {
        var res = send(
                "POST", "/v1/alerts/monitor%2Fapi/ack", TestApi.ACKER, "{\"until\":\"2h\",\"comment\":\"looking\"}");
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        JsonNode view = Json.tree(res.body().getBytes());
        assertThat(view.path("acknowledgedBy").asText()).isEqualTo("test-acker");
        assertThat(view.path("acknowledgedUntil").asLong()).isEqualTo(NOW + 2 * 3_600_000L);

        assertThat(producer.commitCount()).isEqualTo(1);
        List<ProducerRecord<String, byte[]>> sent = producer.history();
        assertThat(sent).extracting(ProducerRecord::topic).containsExactly("vigil.acks", "vigil.alerts", "vigil.audit");
        Ack ack = Json.read(sent.get(0).value(), Ack.class);
        assertThat(ack.fingerprint()).isEqualTo("monitor/api");
        assertThat(ack.by()).isEqualTo("test-acker");
        AlertEvent notice = Json.read(sent.get(1).value(), AlertEvent.class);
        assertThat(notice.state()).isEqualTo(AlertState.ACKNOWLEDGED);
        assertThat(notice.incidentId()).isEqualTo(ack.incidentId());
        assertThat(notice.eventId()).isEqualTo(ack.incidentId() + "/acknowledged/" + NOW);
        assertThat(notice.summary()).isEqualTo("Acknowledged by test-acker: looking");
        assertThat(notice.attributes()).containsEntry("acknowledgedBy", "test-acker");
        AuditRecord audit = Json.read(sent.get(2).value(), AuditRecord.class);
        assertThat(audit.action()).isEqualTo("alert.acknowledged");
        assertThat(audit.actor()).isEqualTo("test-acker");
        assertThat(audit.target()).isEqualTo("alert/monitor/api");

        // once the global store has it, /v1/alerts shows who acknowledged
        h.acks.pipeInput("monitor/api", ack, NOW);
        var alerts = send("GET", "/v1/alerts", TestApi.READER, null);
        JsonNode row = Json.tree(alerts.body().getBytes()).path("alerts").get(0);
        assertThat(row.path("acknowledgedBy").asText()).isEqualTo("test-acker");
        // and so do the status overview and the monitor's own page, with when and until when
        JsonNode status =
                Json.tree(send("GET", "/v1/status", TestApi.READER, null).body().getBytes());
        JsonNode api = null;
        for (JsonNode m : status.path("monitors")) {
            if (m.path("monitorId").asText().equals("api")) {
                api = m;
            }
        }
        assertThat(api).as(status.toString()).isNotNull();
        assertThat(api.path("alert").path("acknowledgedBy").asText()).isEqualTo("test-acker");
        assertThat(api.path("alert").path("acknowledgedAt").asLong()).isEqualTo(NOW);
        assertThat(api.path("alert").path("acknowledgedUntil").asLong()).isEqualTo(NOW + 2 * 3_600_000L);
        // a page of the overview reads the alerts by point, not by a scan of them all: the same row
        JsonNode page = Json.tree(
                send("GET", "/v1/status?limit=1", TestApi.READER, null).body().getBytes());
        assertThat(page.path("monitors")).hasSize(1);
        assertThat(page.path("monitors").get(0)).isEqualTo(api);
        assertThat(page.has("next")).isFalse();
        JsonNode monitor = Json.tree(
                send("GET", "/v1/monitors/api", TestApi.READER, null).body().getBytes());
        assertThat(monitor.path("alerts").get(0).path("acknowledgedBy").asText())
                .as(monitor.toString())
                .isEqualTo("test-acker");

        var unack = send("DELETE", "/v1/alerts/monitor%2Fapi/ack", TestApi.ACKER, null);
        assertThat(unack.statusCode()).as(unack.body()).isEqualTo(200);
        assertThat(producer.history().get(3).value()).as("a tombstone").isNull();
        var note = Json.read(producer.history().get(4).value(), dev.vigil.schemas.contract.IncidentNote.class);
        assertThat(note.kind()).as("noted for the timeline").isEqualTo("unacknowledged");
        assertThat(note.by()).isEqualTo("test-acker");
        assertThat(producer.history().get(4).topic()).isEqualTo("vigil.incident-notes");
        assertThat(Json.read(producer.history().get(5).value(), AuditRecord.class)
                        .action())
                .isEqualTo("alert.unacknowledged");
    }

    @Test
    void refusals() throws Exception {
        assertThat(send("POST", "/v1/alerts/monitor%2Fnone/ack", TestApi.ACKER, "{}")
                        .statusCode())
                .as("no open incident")
                .isEqualTo(404);
        assertThat(send("POST", "/v1/alerts/monitor%2Fapi/ack", TestApi.READER, "{}")
                        .statusCode())
                .as("read scope")
                .isEqualTo(403);
        assertThat(send("POST", "/v1/alerts/monitor%2Fapi/ack", TestApi.SILENCER, "{}")
                        .statusCode())
                .as("silence scope")
                .isEqualTo(403);
        for (String bad : List.of(
                "{\"until\":\"yesterday\"}",
                "{\"until\":\"+999999999-01-01T00:00:00Z\"}",
                "{\"until\":1}",
                "{\"until\":\"90d\"}",
                "{\"by\":\"someone-else\"}",
                "[1]",
                "{\"comment\":5}")) {
            var res = send("POST", "/v1/alerts/monitor%2Fapi/ack", TestApi.ACKER, bad);
            assertThat(res.statusCode()).as(bad + " " + res.body()).isEqualTo(400);
        }
        assertThat(send("DELETE", "/v1/alerts/monitor%2Fapi/ack", TestApi.ACKER, null)
                        .statusCode())
                .as("not acknowledged")
                .isEqualTo(404);
        assertThat(send("POST", "/v1/alerts/not a fingerprint/ack".replace(" ", "%20"), TestApi.ACKER, "{}")
                        .statusCode())
                .isEqualTo(400);
        assertThat(producer.history())
                .as("nothing written by a refused request")
                .isEmpty();
    }
}
