package dev.vigil.streams.alerting;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.failure;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.EscalationStatus;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.alertapi.AlertingRoutes;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.DriverBackend;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.QueryServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code /v1/alerts} and {@code /v1/metrics/...} over real HTTP on loopback, backed by a TopologyTestDriver. */
class AlertingRoutesTest {
    static final long MIN = 60_000L;

    AlertingHarness h;
    Forwarder forwarder;
    QueryServer server;
    final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() {
        h = new AlertingHarness(W0 - 30_000);
        forwarder = dev.vigil.streams.query.TestApi.forwarder(Duration.ofSeconds(5));
        ApiRoutes routes = new ApiRoutes();
        Clock clock = Clock.fixed(Instant.ofEpochMilli(W0), ZoneOffset.UTC);
        DriverBackend backend = new DriverBackend(h.driver);
        new AlertingRoutes(clock).register(routes, backend, forwarder);
        // the monitor's own page too, whose open alerts show a hold as the alerts list does
        dev.vigil.streams.readmodel.ReadModel.register(routes, backend, forwarder, clock);
        server = dev.vigil.streams.query.TestApi.start(routes);
    }

    @AfterEach
    void stop() {
        server.close();
        forwarder.close();
        h.close();
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .header("Authorization", dev.vigil.streams.query.TestApi.admin())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void alertsListsOpenIncidentsByDefaultAndEveryStateOnRequest() throws Exception {
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
        h.metric(new DomainMetric(1, "shop", "dlq_routed", "archived", null, null, null, null, W0 + 1_000));
        h.metric(new DomainMetric(1, "shop", "dlq_routed", "archived", null, null, null, null, W0 + MIN + 6_000));

        var res = get("/v1/alerts");
        assertThat(res.statusCode()).isEqualTo(200);
        JsonNode body = Json.tree(res.body().getBytes());
        assertThat(body.path("state").asText()).isEqualTo("open");
        assertThat(body.path("count").asInt()).isEqualTo(2);
        assertThat(body.path("alerts").findValuesAsText("fingerprint"))
                .containsExactly("monitor/api", "rule/dlq-routed/shop");
        assertThat(body.path("alerts").get(0).path("phase").asText()).isEqualTo("firing");
        assertThat(body.path("alerts").get(0).path("incidentId").asText()).isEqualTo("monitor/api@" + W0);

        assertThat(Json.tree(get("/v1/alerts?state=resolving").body().getBytes())
                        .path("count")
                        .asInt())
                .isZero();
        assertThat(Json.tree(get("/v1/alerts?state=all&scope=local").body().getBytes())
                        .path("alerts")
                        .size())
                .isEqualTo(2);

        // one fingerprint, as the console's incident view asks for it (percent-encoded)
        JsonNode one = Json.tree(get("/v1/alerts?state=all&fingerprint=rule%2Fdlq-routed%2Fshop")
                .body()
                .getBytes());
        assertThat(one.path("alerts").findValuesAsText("fingerprint")).containsExactly("rule/dlq-routed/shop");
        assertThat(one.path("alerts").get(0).path("links").path("incident").asText())
                .endsWith("/#/incident/rule%2Fdlq-routed%2Fshop");
        assertThat(Json.tree(get("/v1/alerts?state=resolving&fingerprint=monitor%2Fapi")
                                .body()
                                .getBytes())
                        .path("alerts"))
                .isEmpty();
        assertThat(Json.tree(get("/v1/alerts?state=all&fingerprint=monitor%2Fnone")
                                .body()
                                .getBytes())
                        .path("count")
                        .asInt())
                .isZero();
        assertThat(get("/v1/alerts?fingerprint=" + "x".repeat(513)).statusCode())
                .isEqualTo(400);

        var bad = get("/v1/alerts?state=broken");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.headers().firstValue("content-type"))
                .hasValueSatisfying(ct -> assertThat(ct).contains("problem+json"));
    }

    @Test
    void aHeldIncidentSaysWhichParentItWaitsFor() throws Exception {
        h.define(AlertingTopologyTest.monitor("db", 60, List.of("eu-west")));
        h.define(AlertingTopologyTest.monitor("api", 60, List.of("eu-west")).withDependsOn(List.of("db")));
        h.wallClockTo(W0 - 20_000);
        h.result(failure("db", "eu-west", W0));
        h.result(failure("api", "eu-west", W0));

        JsonNode alerts = Json.tree(get("/v1/alerts").body().getBytes()).path("alerts");
        assertThat(alerts.findValuesAsText("fingerprint")).containsExactlyInAnyOrder("monitor/api", "monitor/db");
        for (JsonNode a : alerts) {
            if (a.path("fingerprint").asText().equals("monitor/api")) {
                assertThat(a.path("held").path("dependsOn").asText()).isEqualTo("db");
                assertThat(a.path("held").path("reason").asText()).isEqualTo("depends on db, which is down");
                assertThat(a.path("paged").asBoolean()).isFalse();
            } else {
                assertThat(a.has("held")).as("the parent is not held").isFalse();
            }
        }
        JsonNode monitor = Json.tree(get("/v1/monitors/api").body().getBytes());
        assertThat(monitor.path("alerts").get(0).path("held").path("reason").asText())
                .as(monitor.toString())
                .isEqualTo("depends on db, which is down");
        JsonNode parent = Json.tree(get("/v1/monitors/db").body().getBytes());
        assertThat(parent.path("alerts").get(0).has("held"))
                .as(parent.toString())
                .isFalse();
    }

    @Test
    void anIncidentCarriesItsEscalationClimbAndOnlyItsOwn() throws Exception {
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
        String incident = "monitor/api@" + W0;
        var climb = List.of(
                new EscalationStatus.Step(2, List.of("pagerduty"), W0 + 600_000, "fired", W0 + 601_000, null),
                new EscalationStatus.Step(3, List.of("lead-mail"), W0 + 1_800_000, "pending", null, null));
        h.escalations.pipeInput("monitor/api", new EscalationStatus(1, "monitor/api", incident, climb, W0 + 601_000));
        JsonNode row = Json.tree(get("/v1/alerts?state=all&fingerprint=monitor%2Fapi")
                        .body()
                        .getBytes())
                .path("alerts")
                .get(0);
        assertThat(row.path("escalation").findValuesAsText("state")).containsExactly("fired", "pending");
        assertThat(row.path("escalation").get(1).path("dueAt").asLong()).isEqualTo(W0 + 1_800_000);
        assertThat(row.path("escalation").get(0).path("channels").get(0).asText())
                .isEqualTo("pagerduty");

        // the climb of an earlier incident of the same fingerprint is not this one's
        h.escalations.pipeInput(
                "monitor/api", new EscalationStatus(1, "monitor/api", "monitor/api@1", climb, W0 + 700_000));
        JsonNode again = Json.tree(
                        get("/v1/alerts?fingerprint=monitor%2Fapi").body().getBytes())
                .path("alerts")
                .get(0);
        assertThat(again.has("escalation")).isFalse();
        // a record filed under another fingerprint's key is not kept
        h.escalations.pipeInput("monitor/api", new EscalationStatus(1, "monitor/web", incident, climb, W0));
        assertThat(Json.tree(get("/v1/alerts?fingerprint=monitor%2Fapi").body().getBytes())
                        .path("alerts")
                        .get(0)
                        .has("escalation"))
                .isFalse();
    }

    @Test
    void aPeerThatDoesNotAnswerIsStoodInForByThisInstancesStandbyCopiesOfItsAlerts() throws Exception {
        // instance B: its own topology, with monitor "web" failing; this test's server becomes instance A, with "api"
        AlertingHarness hb = new AlertingHarness(W0 - 30_000);
        Forwarder forwarderA = dev.vigil.streams.query.TestApi.forwarder(Duration.ofSeconds(5));
        DriverBackend backendB = new DriverBackend(hb.driver);
        ApiRoutes routesB = new ApiRoutes();
        new AlertingRoutes(Clock.fixed(Instant.ofEpochMilli(W0), ZoneOffset.UTC))
                .register(routesB, backendB, forwarder);
        QueryServer serverB = dev.vigil.streams.query.TestApi.start(routesB);
        DriverBackend backendA = new DriverBackend(h.driver);
        ApiRoutes routesA = new ApiRoutes();
        new AlertingRoutes(Clock.fixed(Instant.ofEpochMilli(W0), ZoneOffset.UTC))
                .register(routesA, backendA, forwarderA);
        QueryServer serverA = dev.vigil.streams.query.TestApi.start(routesA);
        String b = "127.0.0.1:" + serverB.port();
        try {
            for (var pair : List.of(java.util.Map.entry(h, "api"), java.util.Map.entry(hb, "web"))) {
                pair.getKey()
                        .define(new MonitorDefinition(
                                1,
                                pair.getValue(),
                                null,
                                "https://example.com/" + pair.getValue(),
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
                pair.getKey().wallClockTo(W0 - 20_000);
                pair.getKey().result(failure(pair.getValue(), "eu-west", W0));
            }
            backendA.peer(b);

            // both alive: B answers for itself
            var whole = get(serverA, "/v1/alerts");
            assertThat(whole.statusCode()).isEqualTo(200);
            assertThat(Json.tree(whole.body().getBytes()).path("alerts").findValuesAsText("fingerprint"))
                    .containsExactly("monitor/api", "monitor/web");
            assertThat(Json.tree(whole.body().getBytes()).has("answeredFromStandby"))
                    .isFalse();
            assertThat(whole.headers().firstValue(dev.vigil.streams.query.QueryBackend.STANDBY_HEADER))
                    .isEmpty();

            // B alive but rebalancing: its 503 is the truth, not a standby's copy
            backendA.standby(new DriverBackend(hb.driver));
            backendB.setReady(false);
            assertThat(get(serverA, "/v1/alerts").statusCode()).isEqualTo(503);
            backendB.setReady(true);

            // B killed: A answers B's alerts from its standby copies, and says so. A kill closes B's connections too;
            // closing the test server stops only its listener, so A gets a new forwarder without pooled connections.
            serverA.close();
            forwarderA.close();
            forwarderA = dev.vigil.streams.query.TestApi.forwarder(Duration.ofSeconds(5));
            routesA = new ApiRoutes();
            new AlertingRoutes(Clock.fixed(Instant.ofEpochMilli(W0), ZoneOffset.UTC))
                    .register(routesA, backendA, forwarderA);
            serverA = dev.vigil.streams.query.TestApi.start(routesA);
            serverB.close();
            serverB = null;
            var stoodIn = get(serverA, "/v1/alerts");
            assertThat(stoodIn.statusCode()).isEqualTo(200);
            JsonNode body = Json.tree(stoodIn.body().getBytes());
            assertThat(body.path("alerts").findValuesAsText("fingerprint"))
                    .containsExactly("monitor/api", "monitor/web");
            assertThat(body.path("alerts").get(1).path("incidentId").asText()).isEqualTo("monitor/web@" + W0);
            assertThat(body.path("answeredFromStandby"))
                    .as(stoodIn.body())
                    .extracting(JsonNode::asText)
                    .containsExactly(b);
            assertThat(stoodIn.headers().firstValue(dev.vigil.streams.query.QueryBackend.STANDBY_HEADER))
                    .hasValue(b);

            // no standby copy of B's partitions here: a 503 that says both, never A's alerts alone
            backendA.standby(null);
            var refused = get(serverA, "/v1/alerts");
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.headers().firstValue("content-type"))
                    .hasValueSatisfying(ct -> assertThat(ct).contains("problem+json"));
            assertThat(Json.tree(refused.body().getBytes()).path("detail").asText())
                    .contains(b)
                    .contains("holds no standby copies");
        } finally {
            serverA.close();
            if (serverB != null) {
                serverB.close();
            }
            forwarderA.close();
            hb.close();
        }
    }

    HttpResponse<String> get(QueryServer on, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + on.port() + path))
                        .header("Authorization", dev.vigil.streams.query.TestApi.admin())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void metricsSeriesCombinesMinutesPerStep() throws Exception {
        for (int m = 0; m < 4; m++) {
            for (int i = 0; i < 10; i++) {
                String status = i < m ? "500" : "200";
                h.metric(new DomainMetric(
                        1, "shop", "http_request", status, "/", null, 100.0 + i, null, W0 + m * MIN + i * 1000));
            }
        }
        var res = get("/v1/metrics/shop/http_request?from=" + W0 + "&to=" + (W0 + 4 * MIN) + "&step=2m");
        assertThat(res.statusCode()).isEqualTo(200);
        JsonNode body = Json.tree(res.body().getBytes());
        JsonNode points = body.path("points");
        assertThat(points.size()).isEqualTo(2);
        assertThat(points.get(0).path("windowStart").asLong()).isEqualTo(W0);
        assertThat(points.get(0).path("count").asLong()).isEqualTo(20);
        assertThat(points.get(0).path("errorCount").asLong()).isEqualTo(1);
        assertThat(points.get(1).path("errorCount").asLong()).isEqualTo(5);
        assertThat(points.get(1).path("p99").asDouble()).isBetween(100.0, 110.0);
        assertThat(body.path("quantileRelativeError").asDouble()).isEqualTo(0.01);

        assertThat(get("/v1/metrics/shop/http_request?to=" + W0).statusCode()).isEqualTo(400);
        assertThat(get("/v1/metrics/shop/http_request?from=0&to=" + (40L * 24 * 3600 * 1000))
                        .statusCode())
                .isEqualTo(400);
        assertThat(get("/v1/metrics/shop/http_request?from=" + W0 + "&to=" + (W0 + MIN) + "&step=90s")
                        .statusCode())
                .isEqualTo(400);
        assertThat(get("/v1/metrics/Bad_App/http_request?from=0&to=1").statusCode())
                .isEqualTo(400);
        assertThat(get("/v1/metrics/other/http_request?from=" + W0 + "&to=" + (W0 + MIN))
                        .statusCode())
                .isEqualTo(404);
    }
}
