package dev.vigil.ingest.it;

import static dev.vigil.embedded.http.RawHttpConnection.get;
import static dev.vigil.embedded.http.RawHttpConnection.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.embedded.http.RawHttpConnection;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Accepted events land on their topics exactly as sent (after sanitising); rejected ones do not. */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IngestEndToEndIT {
    private IngestHarness ingest;

    @BeforeAll
    void start(EmbeddedKafka kafka) {
        ingest = new IngestHarness(kafka);
    }

    @AfterAll
    void stop() {
        ingest.close();
    }

    private static List<ConsumerRecord<String, byte[]>> read(KafkaConsumer<String, byte[]> c, String marker) {
        // Marker-terminated read: the marker event is the last one sent, so once it is seen every earlier
        // committed record of this test is too (single key → single partition for ordering).
        return IngestHarness.pollUntil(
                c,
                rs -> rs.stream().anyMatch(r -> new String(r.value(), StandardCharsets.UTF_8).contains(marker)),
                new ArrayList<>(),
                Duration.ofSeconds(30));
    }

    @Test
    void mixedBatchSplitsAcceptedFromRejectedAndAcceptedLandExactlyAsSent() {
        long now = System.currentTimeMillis();
        String tag = "mixed" + Math.abs(now % 100000);
        String body = Events.array(List.of(
                Events.metric(
                        null,
                        "http_request",
                        "200",
                        "/" + tag + "/a?user=alice@example.com#frag",
                        now), // 0 ok, sanitised
                Events.metric("checkout", "http_request", "500", "/" + tag + "/b", now - 1000), // 1 ok
                Events.metric("checkout", "Bad-Name", "200", "/" + tag + "/c", now), // 2 contract
                Events.metric(
                        "checkout", "http_request", "call +1 415 555 2671", "/" + tag + "/d", now), // 3 PII in status
                Events.metric("checkout", "http_request", "200", "/" + tag + "/e", now - 10 * 60_000), // 4 stale
                "42", // 5 not an object
                Events.metric("checkout", "dlq_routed", "archived", "/" + tag + "/g", now))); // 6 ok
        try (var consumer = ingest.consumer(Topics.METRICS)) {
            var reply = ingest.metrics(IngestHarness.CHECKOUT_KEY, body);
            assertThat(reply.status()).as(reply.text()).isEqualTo(202);
            JsonNode json = reply.json();
            assertThat(json.get("accepted").asInt()).isEqualTo(3);
            List<Integer> rejected = new ArrayList<>();
            json.get("rejected").forEach(r -> rejected.add(r.get("index").asInt()));
            assertThat(rejected).containsExactly(2, 3, 4, 5);
            assertThat(json.get("rejected").get(0).get("field").asText()).isEqualTo("metricName");
            assertThat(json.get("rejected").get(1).get("field").asText()).isEqualTo("status");
            assertThat(json.get("rejected").get(1).get("reason").asText())
                    .contains("phone number")
                    .doesNotContain("2671");
            assertThat(json.get("rejected").get(2).get("field").asText()).isEqualTo("timestamp");
            assertThat(json.get("rejected").get(3).get("field").asText()).isEqualTo("$");

            String marker = "marker" + tag;
            assertThat(ingest.metrics(
                                    IngestHarness.CHECKOUT_KEY,
                                    Events.array(List.of(
                                            Events.metric("checkout", "http_request", "200", "/" + marker, now))))
                            .status())
                    .isEqualTo(202);
            List<DomainMetric> onTopic = new ArrayList<>();
            for (var r : read(consumer, marker)) {
                DomainMetric m = Json.read(r.value(), DomainMetric.class);
                assertThat(r.key()).isEqualTo(m.key());
                if (m.pathname().startsWith("/" + tag)) {
                    onTopic.add(m);
                }
            }
            assertThat(onTopic)
                    .containsExactlyInAnyOrder(
                            new DomainMetric(
                                    1,
                                    "checkout",
                                    "http_request",
                                    "200",
                                    "/" + tag + "/a",
                                    1.0,
                                    12.5,
                                    Map.of("method", "GET"),
                                    now),
                            new DomainMetric(
                                    1,
                                    "checkout",
                                    "http_request",
                                    "500",
                                    "/" + tag + "/b",
                                    1.0,
                                    12.5,
                                    Map.of("method", "GET"),
                                    now - 1000),
                            new DomainMetric(
                                    1,
                                    "checkout",
                                    "dlq_routed",
                                    "archived",
                                    "/" + tag + "/g",
                                    1.0,
                                    12.5,
                                    Map.of("method", "GET"),
                                    now));
        }
    }

    @Test
    void ndjsonIsAcceptedLikeAnArray() {
        long now = System.currentTimeMillis();
        String body = Events.metric("200", now).replace("/menu", "/nd/1") + "\n\n"
                + Events.metric("404", now).replace("/menu", "/nd/2") + "\r\n";
        try (var consumer = ingest.consumer(Topics.METRICS)) {
            var reply = ingest.post(
                    "/v1/metrics",
                    "application/x-ndjson",
                    body.getBytes(StandardCharsets.UTF_8),
                    IngestHarness.bearer(IngestHarness.CHECKOUT_KEY));
            assertThat(reply.status()).as(reply.text()).isEqualTo(202);
            assertThat(reply.json().get("accepted").asInt()).isEqualTo(2);
            assertThat(reply.json().get("rejected")).isEmpty();
            var records = read(consumer, "/nd/2");
            assertThat(records.stream()
                            .map(r -> Json.read(r.value(), DomainMetric.class).pathname()))
                    .contains("/nd/1", "/nd/2");
        }
    }

    @Test
    void signedProbeResultsLandOnTheProbeResultsTopic() {
        long now = System.currentTimeMillis();
        long window = now - now % 60_000;
        String body = Events.array(List.of(
                Events.probeResult("checkout-api", "us-east", window, "r-1"),
                Events.probeResult("search-api", "us-east", window, "r-2")));
        try (var consumer = ingest.consumer(Topics.PROBE_RESULTS)) {
            var reply = ingest.probeResults("w-us-east", ingest.usEast, "us-east", now, Events.id(), body);
            assertThat(reply.status()).as(reply.text()).isEqualTo(202);
            assertThat(reply.json().get("accepted").asInt()).isEqualTo(2);
            var records =
                    IngestHarness.pollUntil(consumer, rs -> rs.size() >= 2, new ArrayList<>(), Duration.ofSeconds(30));
            assertThat(records).extracting(ConsumerRecord::key).containsExactlyInAnyOrder("checkout-api", "search-api");
            ProbeResult first = Json.read(
                    records.stream()
                            .filter(r -> r.key().equals("checkout-api"))
                            .findFirst()
                            .orElseThrow()
                            .value(),
                    ProbeResult.class);
            assertThat(first)
                    .isEqualTo(
                            Json.read(Events.probeResult("checkout-api", "us-east", window, "r-1"), ProbeResult.class));
        }
    }

    @Test
    void signedHeartbeatsLandOnTheHeartbeatsTopicExactlyAsSentKeyedByWorkerId() {
        long now = System.currentTimeMillis();
        String usEast = Events.heartbeat("w-us-east", "us-east", now);
        String apSouth = Events.heartbeat("probe-ap-south-1", "ap-south", now + 1);
        try (var consumer = ingest.consumer(Topics.HEARTBEATS)) {
            var reply = ingest.heartbeats(
                    "w-us-east", ingest.usEast, "us-east", now, Events.id(), Events.array(List.of(usEast)));
            assertThat(reply.status()).as(reply.text()).isEqualTo(202);
            assertThat(reply.json().get("accepted").asInt()).isEqualTo(1);
            assertThat(reply.json().get("rejected")).isEmpty();
            // NDJSON, and a key whose configured worker id is not its key id; the second line beats for another
            // worker and is rejected by index while the first is accepted.
            String ndjson = apSouth + "\n" + Events.heartbeat("w-us-east", "ap-south", now) + "\n";
            Map<String, String> headers = new java.util.HashMap<>();
            headers.put(dev.vigil.schemas.sign.RequestSigner.HEADER_KEY_ID, "k-ap-south");
            headers.put(dev.vigil.schemas.sign.RequestSigner.HEADER_TIMESTAMP, Long.toString(now));
            String id = Events.id();
            headers.put(dev.vigil.schemas.sign.RequestSigner.HEADER_REQUEST_ID, id);
            headers.put(dev.vigil.schemas.sign.RequestSigner.HEADER_REGION, "ap-south");
            headers.put(
                    dev.vigil.schemas.sign.RequestSigner.HEADER_SIGNATURE,
                    ingest.euWest.sign(now, id, "ap-south", ndjson.getBytes(StandardCharsets.UTF_8)));
            var mixed = ingest.post(
                    "/v1/heartbeats", "application/x-ndjson", ndjson.getBytes(StandardCharsets.UTF_8), headers);
            assertThat(mixed.status()).as(mixed.text()).isEqualTo(202);
            assertThat(mixed.json().get("accepted").asInt()).isEqualTo(1);
            assertThat(mixed.json().get("rejected")).singleElement().satisfies(r -> {
                assertThat(r.get("index").asInt()).isEqualTo(1);
                assertThat(r.get("field").asText()).isEqualTo("workerId");
            });

            var records =
                    IngestHarness.pollUntil(consumer, rs -> rs.size() >= 2, new ArrayList<>(), Duration.ofSeconds(30));
            assertThat(records).hasSize(2);
            assertThat(records)
                    .extracting(ConsumerRecord::key)
                    .containsExactlyInAnyOrder("w-us-east", "probe-ap-south-1");
            for (var r : records) {
                String sent = r.key().equals("w-us-east") ? usEast : apSouth;
                assertThat(Json.read(r.value(), WorkerHeartbeat.class))
                        .isEqualTo(Json.read(sent, WorkerHeartbeat.class));
                assertThat(Json.tree(r.value())).isEqualTo(Json.tree(sent.getBytes(StandardCharsets.UTF_8)));
            }
        }
        var metrics = ingest.get("/metrics").text();
        assertThat(metrics).contains("route=\"/v1/heartbeats\"");
    }

    @Test
    void appAlertEventsAndAlertmanagerWebhooksLandOnTheAlertsTopic() {
        long now = System.currentTimeMillis();
        try (var consumer = ingest.consumer(Topics.ALERTS)) {
            var app = ingest.alerts(
                    IngestHarness.CHECKOUT_KEY, Events.alertEvent("checkout/payment-failures", "opened", now));
            assertThat(app.status()).as(app.text()).isEqualTo(202);
            var firing =
                    ingest.alerts(IngestHarness.CHECKOUT_KEY, Events.alertmanager("firing", "3fa1c2d4e5b6a7f8", "P2"));
            assertThat(firing.status()).as(firing.text()).isEqualTo(202);
            var resolved = ingest.alerts(IngestHarness.CHECKOUT_KEY, Events.alertmanager("resolved", null, "critical"));
            assertThat(resolved.status()).as(resolved.text()).isEqualTo(202);

            var records =
                    IngestHarness.pollUntil(consumer, rs -> rs.size() >= 3, new ArrayList<>(), Duration.ofSeconds(30));
            List<AlertEvent> events = records.stream()
                    .map(r -> Json.read(r.value(), AlertEvent.class))
                    .toList();
            // An app's events are namespaced to the app its key is for (AppAlertNamespaceIT has the details).
            AlertEvent appEvent = events.stream()
                    .filter(e -> e.fingerprint().equals("app/checkout/checkout/payment-failures"))
                    .findFirst()
                    .orElseThrow();
            assertThat(appEvent.source()).isEqualTo(AlertSource.APP);
            assertThat(appEvent.severity()).isEqualTo(Severity.CRITICAL);
            assertThat(appEvent.eventId())
                    .isEqualTo(AlertEvent.appEventId("app/checkout/checkout/payment-failures", AlertState.OPENED));

            AlertEvent am = events.stream()
                    .filter(e -> e.fingerprint().equals("app/checkout/alertmanager/3fa1c2d4e5b6a7f8"))
                    .findFirst()
                    .orElseThrow();
            assertThat(am.state()).isEqualTo(AlertState.OPENED);
            assertThat(am.severity()).isEqualTo(Severity.WARNING);
            assertThat(am.summary()).isEqualTo("p99 latency above 2s");
            assertThat(am.service()).isEqualTo("api");
            assertThat(am.links()).containsEntry("source", "http://prometheus:9090/graph");
            AlertEvent amResolved = events.stream()
                    .filter(e -> e.state() == AlertState.RESOLVED)
                    .findFirst()
                    .orElseThrow();
            assertThat(amResolved.fingerprint()).matches("app/checkout/alertmanager/[0-9a-f]{16}");
            assertThat(amResolved.severity()).isEqualTo(Severity.CRITICAL);
            assertThat(records).allSatisfy(r -> assertThat(r.key())
                    .isEqualTo(Json.read(r.value(), AlertEvent.class).fingerprint()));
        }
    }

    @Test
    void healthReadyAndMetricsEndpoints() {
        assertThat(ingest.get("/health").status()).isEqualTo(200);
        assertThat(ingest.get("/ready").status()).isEqualTo(200);
        ingest.metrics(
                IngestHarness.CHECKOUT_KEY, Events.array(List.of(Events.metric("200", System.currentTimeMillis()))));
        var metrics = ingest.get("/metrics");
        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.text())
                .contains(
                        "vigil_ingest_requests_total",
                        "vigil_ingest_events_total",
                        "vigil_ingest_kafka_send_seconds",
                        "vigil_ingest_inflight_bytes");
    }

    /**
     * A client posting on one keep-alive connection keeps getting answers when requests queue behind a batch
     * waiting for Kafka's acknowledgement and are refused (no key, unknown endpoint) or answered at once
     * (health). Reactor Netty 1.3.7 stops reading such a connection when a queued request is answered
     * synchronously on the event loop (reactor-netty#4347); the ingest answers from another thread so it cannot.
     */
    @Test
    void refusalsQueuedBehindAnAcceptedBatchDoNotStallTheConnection() throws Exception {
        String batch = Events.metrics(50, System.currentTimeMillis(), "keepalive");
        String auth = "Authorization: Bearer " + IngestHarness.CHECKOUT_KEY;
        try (RawHttpConnection conn = new RawHttpConnection(ingest.server.port(), 10_000)) {
            conn.send(
                    post("/v1/metrics", "application/json", batch, auth),
                    post("/v1/metrics", "application/json", batch),
                    get("/v1/nothing-here"));
            assertThat(conn.read().status()).isEqualTo(202);
            assertThat(conn.read().status()).isEqualTo(401);
            assertThat(conn.read().status()).isEqualTo(404);
            for (int i = 0; i < 3; i++) {
                conn.send(post("/v1/metrics", "application/json", batch, auth));
                assertThat(conn.read().status())
                        .as("batch %d after the queued refusals", i + 1)
                        .isEqualTo(202);
            }
            // answers that need no body (health, readiness) queued behind a batch
            conn.send(post("/v1/metrics", "application/json", batch, auth), get("/health"), get("/health"));
            assertThat(conn.read().status()).isEqualTo(202);
            assertThat(conn.read().body()).contains("\"ok\"");
            assertThat(conn.read().body()).contains("\"ok\"");
            conn.send(get("/health"));
            assertThat(conn.read().body()).as("the connection is still read").contains("\"ok\"");
        }
    }
}
