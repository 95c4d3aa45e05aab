package dev.vigil.ingest.it;

import static dev.vigil.ingest.it.IngestHarness.DEMO_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * An app's API key fixes what its alert events can speak for: read back from the alerts topic, an event is in the
 * app's namespace, with ids Vigil derived, source app and the app recorded, whatever the client claimed.
 */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AppAlertNamespaceIT {
    private IngestHarness ingest;

    @BeforeAll
    void start(EmbeddedKafka kafka) {
        ingest = new IngestHarness(kafka);
    }

    @AfterAll
    void stop() {
        ingest.close();
    }

    private List<ConsumerRecord<String, byte[]>> published(String fingerprint, int atLeast) {
        try (var consumer = ingest.consumer(Topics.ALERTS)) {
            return IngestHarness.pollUntil(
                            consumer,
                            rs -> rs.stream()
                                            .filter(r -> r.key().equals(fingerprint))
                                            .count()
                                    >= atLeast,
                            new ArrayList<>(),
                            Duration.ofSeconds(30))
                    .stream()
                    .filter(r -> r.key().equals(fingerprint))
                    .toList();
        }
    }

    /**
     * An app that traces sends {@code traceparent} with its events: ingest (export off here) carries it on in the
     * record's headers, so the alert's hops join the app's trace; a malformed one is dropped, never forwarded.
     */
    @Test
    void anAppEventsTraceparentTravelsInTheRecordHeaders() {
        String parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        String event = "{\"schemaVersion\":1,\"fingerprint\":\"traced/job\",\"state\":\"opened\","
                + "\"severity\":\"warning\",\"service\":\"jobs\",\"summary\":\"Job failed\","
                + "\"firstSeen\":1700000000000,\"lastSeen\":1700000000000}";
        var headers = new java.util.HashMap<>(IngestHarness.bearer(DEMO_KEY));
        headers.put("traceparent", parent);
        var reply = ingest.post(
                "/v1/alerts", "application/json", event.getBytes(java.nio.charset.StandardCharsets.UTF_8), headers);
        assertThat(reply.status()).as(reply.text()).isEqualTo(202);
        var records = published("app/demo/traced/job", 1);
        assertThat(new String(
                        records.get(0).headers().lastHeader("traceparent").value(),
                        java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo(parent);

        String bad = event.replace("traced/job", "untraced/job");
        var badHeaders = new java.util.HashMap<>(IngestHarness.bearer(DEMO_KEY));
        badHeaders.put("traceparent", "00-not-a-trace-context");
        var badReply = ingest.post(
                "/v1/alerts", "application/json", bad.getBytes(java.nio.charset.StandardCharsets.UTF_8), badHeaders);
        assertThat(badReply.status()).as(badReply.text()).isEqualTo(202);
        assertThat(published("app/demo/untraced/job", 1).get(0).headers().lastHeader("traceparent"))
                .isNull();
    }

    @Test
    void anAppCannotResolveAProbeIncidentByNamingItsIds() {
        long lastSeen = System.currentTimeMillis();
        String attack = "{\"schemaVersion\":1,\"fingerprint\":\"monitor/checkout\","
                + "\"incidentId\":\"monitor/checkout@1700000000000\","
                + "\"eventId\":\"monitor/checkout@1700000000000/opened/2\","
                + "\"state\":\"resolved\",\"source\":\"probe\",\"severity\":\"critical\",\"service\":\"checkout\","
                + "\"summary\":\"Checkout is fine again\",\"firstSeen\":1700000000000,\"lastSeen\":" + lastSeen + ","
                + "\"attributes\":{\"app\":\"checkout\",\"region\":\"eu-west\"},\"channels\":[\"ops-pager\"]}";
        var reply = ingest.alerts(DEMO_KEY, attack);
        assertThat(reply.status()).as(reply.text()).isEqualTo(202);
        JsonNode body = reply.json();
        assertThat(body.get("accepted").asInt()).isEqualTo(1);
        assertThat(body.get("assigned").get(0).get("fingerprint").asText()).isEqualTo("app/demo/monitor/checkout");
        assertThat(body.get("assigned").get(0).get("eventId").asText()).isEqualTo("app/demo/monitor/checkout/resolved");

        var records = published("app/demo/monitor/checkout", 1);
        assertThat(records).hasSize(1);
        assertThat(records.get(0).key()).isEqualTo("app/demo/monitor/checkout");
        AlertEvent e = Json.read(records.get(0).value(), AlertEvent.class);
        assertThat(e.fingerprint()).isEqualTo("app/demo/monitor/checkout");
        assertThat(e.incidentId())
                .isEqualTo("app/demo/monitor/checkout@1700000000000")
                .isEqualTo(AlertEvent.incidentIdFor("app/demo/monitor/checkout", 1700000000000L));
        assertThat(e.eventId())
                .isEqualTo("app/demo/monitor/checkout/resolved")
                .isEqualTo(AlertEvent.appEventId("app/demo/monitor/checkout", AlertState.RESOLVED));
        assertThat(e.state()).isEqualTo(AlertState.RESOLVED);
        assertThat(e.source()).isEqualTo(AlertSource.APP);
        assertThat(e.attributes()).containsEntry("app", "demo").containsEntry("region", "eu-west");
        assertThat(e.channels()).containsExactly("ops-pager");
        assertThat(e.firstSeen()).isEqualTo(1700000000000L);
    }

    @Test
    void fingerprintsInTheAppsNamespaceAreKeptOthersPrefixedAndTooLongOnesRejectedPerEvent() {
        long now = System.currentTimeMillis();
        var reply = ingest.alerts(
                DEMO_KEY,
                Events.array(List.of(
                        Events.alertEvent("app/demo/payments/db", "opened", now),
                        Events.alertEvent("app/billing/invoices", "opened", now),
                        Events.alertEvent("svc/a/b/c", "opened", now))));
        assertThat(reply.status()).as(reply.text()).isEqualTo(202);
        JsonNode body = reply.json();
        assertThat(body.get("accepted").asInt()).isEqualTo(2);
        assertThat(body.get("rejected")).hasSize(1);
        assertThat(body.get("rejected").get(0).get("index").asInt()).isEqualTo(2);
        assertThat(body.get("rejected").get(0).get("field").asText()).isEqualTo("fingerprint");
        assertThat(body.get("rejected").get(0).get("reason").asText()).contains("once namespaced as app/demo/");

        assertThat(published("app/demo/payments/db", 1)).hasSize(1);
        AlertEvent other =
                Json.read(published("app/demo/app/billing/invoices", 1).get(0).value(), AlertEvent.class);
        assertThat(other.incidentId()).isEqualTo("app/demo/app/billing/invoices@" + now);
        assertThat(other.attributes()).containsEntry("app", "demo");
    }

    @Test
    void alertmanagerAlertsFollowTheSameRules() {
        var reply = ingest.alerts(
                DEMO_KEY,
                Events.alertmanager("firing", "3fa1c2d4e5b6a7f8", "P2")
                        .replace("\"job\":\"api\"", "\"job\":\"api\",\"app\":\"billing\""));
        assertThat(reply.status()).as(reply.text()).isEqualTo(202);
        var records = published("app/demo/alertmanager/3fa1c2d4e5b6a7f8", 1);
        AlertEvent e = Json.read(records.get(0).value(), AlertEvent.class);
        assertThat(e.fingerprint()).isEqualTo("app/demo/alertmanager/3fa1c2d4e5b6a7f8");
        assertThat(e.eventId())
                .isEqualTo(AlertEvent.appEventId("app/demo/alertmanager/3fa1c2d4e5b6a7f8", AlertState.OPENED));
        assertThat(e.incidentId()).startsWith("app/demo/alertmanager/3fa1c2d4e5b6a7f8@");
        assertThat(e.source()).isEqualTo(AlertSource.APP);
        assertThat(e.attributes()).containsEntry("app", "demo").containsEntry("alertname", "HighLatency");
    }
}
