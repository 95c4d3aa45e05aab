package dev.vigil.streams.query;

import static dev.vigil.streams.Fixtures.INTERVAL_MS;
import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.failure;
import static dev.vigil.streams.Fixtures.monitor;
import static dev.vigil.streams.Fixtures.regions;
import static dev.vigil.streams.Fixtures.success;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.Fixtures;
import dev.vigil.streams.topology.DriverHarness;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The query API over loopback HTTP: two Reactor Netty servers, each over its own TopologyTestDriver's stores,
 * with scripted ownership so forwarding and gathering between instances are exercised.
 */
class QueryApiTest {
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(W0 + 10 * INTERVAL_MS), ZoneOffset.UTC);

    private DriverHarness a;
    private DriverHarness b;
    private DriverBackend backendA;
    private DriverBackend backendB;
    private QueryServer serverA;
    private QueryServer serverB;
    private Forwarder forwarder;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() {
        a = new DriverHarness(W0 - 30_000);
        b = new DriverHarness(W0 - 30_000);
        // instance A owns "shop" (up, then down), instance B owns "blog" (up)
        a.define(monitor("shop", regions(1)));
        b.define(monitor("blog", regions(1)));
        a.wallClockTo(W0 - 20_000);
        b.wallClockTo(W0 - 20_000);
        a.result(success("shop", "eu-west", W0));
        a.result(failure("shop", "eu-west", W0 + INTERVAL_MS));
        b.result(success("blog", "eu-west", W0));
        a.heartbeats.pipeInput("w-1", Fixtures.heartbeat("w-1", "eu-west", W0), W0);
        b.heartbeats.pipeInput("w-2", Fixtures.heartbeat("w-2", "us-east", W0), W0);

        forwarder = TestApi.forwarder(Duration.ofSeconds(5));
        backendA = new DriverBackend(a.driver);
        backendB = new DriverBackend(b.driver);
        serverB = serve(backendB);
        serverA = serve(backendA);
        backendA.ownedBy("127.0.0.1:" + serverB.port(), Set.of("blog"));
        backendA.peers = List.of("127.0.0.1:" + serverB.port());
        backendB.ownedBy("127.0.0.1:" + serverA.port(), Set.of("shop"));
        backendB.peers = List.of("127.0.0.1:" + serverA.port());
    }

    private QueryServer serve(DriverBackend backend) {
        ApiRoutes routes = new ApiRoutes();
        dev.vigil.streams.readmodel.ReadModel.register(routes, backend, forwarder, CLOCK);
        return TestApi.start(routes, QueryServer.ops(backend, () -> "# metrics\n"));
    }

    @AfterEach
    void stop() {
        if (serverA != null) {
            serverA.close();
        }
        if (serverB != null) {
            serverB.close();
        }
        forwarder.close();
        a.close();
        b.close();
    }

    private HttpResponse<String> get(QueryServer server, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .header("Authorization", TestApi.admin())
                        .GET()
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> res) {
        return Json.tree(res.body().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static void assertProblem(HttpResponse<String> res, int status) {
        assertThat(res.statusCode()).isEqualTo(status);
        assertThat(res.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode p = json(res);
        assertThat(p.path("type").asText()).startsWith("https://");
        assertThat(p.path("title").asText()).isNotBlank();
        assertThat(p.path("status").asInt()).isEqualTo(status);
        assertThat(p.path("detail").asText()).isNotBlank();
    }

    @Test
    void monitorIsAnsweredLocallyWithStatusRegionsAndRecentWindows() throws Exception {
        var res = get(serverA, "/v1/monitors/shop");
        assertThat(res.statusCode()).isEqualTo(200);
        JsonNode body = json(res);
        assertThat(body.path("status").path("status").asText()).isEqualTo("down");
        assertThat(body.path("status")
                        .path("regions")
                        .path("eu-west")
                        .path("outcome")
                        .asText())
                .isEqualTo("network_failure");
        assertThat(body.path("monitor").path("regions").get(0).asText()).isEqualTo("eu-west");
        assertThat(body.path("recentWindows")).hasSize(2);
        assertThat(body.path("recentWindows").get(0).path("windowStart").asLong())
                .isEqualTo(W0 + INTERVAL_MS);
    }

    @Test
    void anyInstanceAnswersAnyKeyByForwardingToTheOwner() throws Exception {
        var viaA = get(serverA, "/v1/monitors/blog");
        var direct = get(serverB, "/v1/monitors/blog");
        assertThat(viaA.statusCode()).isEqualTo(200);
        assertThat(viaA.body()).isEqualTo(direct.body());
        assertThat(json(viaA).path("status").path("status").asText()).isEqualTo("up");

        var history = get(serverB, "/v1/monitors/shop/history?from=" + W0 + "&to=" + (W0 + 5 * INTERVAL_MS));
        assertThat(history.statusCode()).isEqualTo(200);
        assertThat(json(history).path("windows")).hasSize(2);
    }

    @Test
    void aForwardedRequestThatReachesANonOwnerIsRefusedNotBouncedBack() throws Exception {
        // a peer instance (the instance credential) says it already forwarded this request
        var res = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + serverA.port() + "/v1/monitors/blog"))
                        .header("Authorization", "Bearer " + TestApi.INSTANCE)
                        .header(QueryRequest.FORWARDED_HEADER, "true")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertProblem(res, 503);
        assertThat(res.headers().firstValue("Retry-After")).isPresent();
    }

    @Test
    void aClientCannotClaimItsRequestWasForwarded() throws Exception {
        // the same header from a client token is ignored: the request is forwarded to the owner as usual
        var res = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + serverA.port() + "/v1/monitors/blog"))
                        .header("Authorization", TestApi.admin())
                        .header(QueryRequest.FORWARDED_HEADER, "true")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(json(res).path("monitorId").asText()).isEqualTo("blog");
    }

    @Test
    void unknownMonitorIs404AndBadIdIs400() throws Exception {
        assertProblem(get(serverA, "/v1/monitors/nope"), 404);
        assertProblem(get(serverA, "/v1/monitors/nope/history?from=0&to=1000"), 404);
        assertProblem(get(serverA, "/v1/monitors/nope/uptime"), 404);
        assertProblem(get(serverA, "/v1/monitors/Not_A_Slug"), 400);
        assertProblem(get(serverA, "/v1/no-such-endpoint"), 404);
    }

    @Test
    void historyNeedsABoundedRange() throws Exception {
        assertProblem(get(serverA, "/v1/monitors/shop/history"), 400);
        assertProblem(get(serverA, "/v1/monitors/shop/history?from=" + W0), 400);
        assertProblem(get(serverA, "/v1/monitors/shop/history?from=yesterday&to=" + W0), 400);
        assertProblem(get(serverA, "/v1/monitors/shop/history?from=" + W0 + "&to=" + W0), 400);
        long over = W0 + Duration.ofDays(31).toMillis() + 1;
        assertProblem(get(serverA, "/v1/monitors/shop/history?from=" + W0 + "&to=" + over), 400);

        String from = Instant.ofEpochMilli(W0).toString();
        String to = Instant.ofEpochMilli(W0 + INTERVAL_MS).toString();
        var res = get(serverA, "/v1/monitors/shop/history?from=" + from + "&to=" + to);
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(json(res).path("windows")).hasSize(1); // [from, to): only the first window
        assertThat(json(res).path("windows").get(0).path("status").asText()).isEqualTo("up");
    }

    @Test
    void uptimePerDayAndOverall() throws Exception {
        assertProblem(get(serverA, "/v1/monitors/shop/uptime?days=0"), 400);
        assertProblem(get(serverA, "/v1/monitors/shop/uptime?days=91"), 400);
        assertProblem(get(serverA, "/v1/monitors/shop/uptime?days=x"), 400);
        var res = get(serverA, "/v1/monitors/shop/uptime?days=2");
        assertThat(res.statusCode()).isEqualTo(200);
        JsonNode body = json(res);
        assertThat(body.path("daily")).hasSize(2);
        JsonNode today = body.path("daily").get(1);
        assertThat(today.path("up").asLong()).isEqualTo(1);
        assertThat(today.path("down").asLong()).isEqualTo(1);
        assertThat(body.path("overall").path("uptimePercent").asDouble()).isEqualTo(50.0);
        assertThat(body.path("daily").get(0).path("uptimePercent").isNumber())
                .as("no decided window, no figure")
                .isFalse();
        // a topology without the alerting half has no silences: nothing is under maintenance
        assertThat(today.path("maintenanceWindows").asLong()).isZero();
        assertThat(today.path("uptimeExcludingMaintenancePercent").asDouble()).isEqualTo(50.0);
        assertThat(body.path("overall")
                        .path("uptimeExcludingMaintenancePercent")
                        .asDouble())
                .isEqualTo(50.0);
        assertThat(body.path("maintenance").isArray()).isTrue();
        assertThat(body.path("maintenance")).isEmpty();
        assertThat(body.path("maintenanceTruncated").asBoolean()).isFalse();
    }

    @Test
    void statusGathersEveryInstance() throws Exception {
        var res = get(serverA, "/v1/status");
        assertThat(res.statusCode()).isEqualTo(200);
        JsonNode body = json(res);
        assertThat(body.path("instances").asInt()).isEqualTo(2);
        assertThat(body.path("monitors")).hasSize(2);
        assertThat(body.path("monitors").get(0).path("monitorId").asText()).isEqualTo("blog");
        assertThat(body.path("monitors").get(0).path("status").asText()).isEqualTo("up");
        assertThat(body.path("monitors").get(1).path("status").asText()).isEqualTo("down");
        assertThat(body.path("counts").path("down").asInt()).isEqualTo(1);

        var local = get(serverA, "/v1/status?scope=local");
        assertThat(json(local).path("monitors")).hasSize(1);
    }

    @Test
    void workersGatherEveryInstanceByRegion() throws Exception {
        var res = get(serverB, "/v1/workers");
        assertThat(res.statusCode()).isEqualTo(200);
        JsonNode body = json(res);
        assertThat(body.path("workers")).hasSize(2);
        assertThat(body.path("regions").path("eu-west").path("healthy").asInt()).isEqualTo(1);
        assertThat(body.path("regions").path("us-east").path("healthy").asInt()).isEqualTo(1);
        assertThat(body.path("workers").get(0).path("heartbeatAgeMs").asLong()).isEqualTo(10 * INTERVAL_MS);
    }

    @Test
    void rebalancingAnswers503WithRetryAfterNeverAPartialAnswer() throws Exception {
        backendA.ready = false;
        for (String path : List.of("/v1/status", "/v1/workers", "/v1/monitors/shop", "/ready")) {
            var res = get(serverA, path);
            assertProblem(res, 503);
            assertThat(res.headers().firstValue("Retry-After")).hasValue("2");
        }
        // B is fine, but one of the instances it gathers from is rebalancing: the whole answer is refused
        assertProblem(get(serverB, "/v1/status"), 503);
        assertThat(get(serverB, "/v1/monitors/blog").statusCode()).isEqualTo(200);
    }

    @Test
    void aPeerThatDoesNotAnswerIsStoodInForByThisInstancesStandbyCopies() throws Exception {
        String b = "127.0.0.1:" + serverB.port();
        backendA.standby = new DriverBackend(this.b.driver); // what A's standby replicas of B's tasks hold
        serverB.close();
        serverB = null;

        var status = get(serverA, "/v1/status");
        assertThat(status.statusCode()).isEqualTo(200);
        assertThat(status.headers().firstValue(QueryBackend.STANDBY_HEADER)).hasValue(b);
        JsonNode body = json(status);
        assertThat(body.path("answeredFromStandby"))
                .extracting(JsonNode::asText)
                .containsExactly(b);
        assertThat(body.path("monitors"))
                .extracting(m -> m.path("monitorId").asText())
                .containsExactly("blog", "shop");
        assertThat(body.path("monitors").get(0).path("status").asText()).isEqualTo("up");
        assertThat(body.path("counts").path("down").asInt()).isEqualTo(1);

        // a page at a time, too: the standby copies answer the dead instance's page
        var first = json(get(serverA, "/v1/status?limit=1"));
        assertThat(first.path("monitors"))
                .extracting(m -> m.path("monitorId").asText())
                .containsExactly("blog");
        var second = json(
                get(serverA, "/v1/status?limit=1&cursor=" + first.path("next").asText()));
        assertThat(second.path("monitors"))
                .extracting(m -> m.path("monitorId").asText())
                .containsExactly("shop");
        assertThat(second.has("next")).isFalse();

        var workers = get(serverA, "/v1/workers");
        assertThat(workers.statusCode()).isEqualTo(200);
        assertThat(json(workers).path("workers")).hasSize(2);

        var blog = get(serverA, "/v1/monitors/blog");
        assertThat(blog.statusCode()).isEqualTo(200);
        assertThat(blog.headers().firstValue(QueryBackend.STANDBY_HEADER)).hasValue(b);
        assertThat(json(blog).path("status").path("status").asText()).isEqualTo("up");
        var shop = get(serverA, "/v1/monitors/shop");
        assertThat(shop.statusCode()).isEqualTo(200);
        assertThat(shop.headers().firstValue(QueryBackend.STANDBY_HEADER))
                .as("answered by its owner")
                .isEmpty();
    }

    @Test
    void aStandbyThatLacksAPartitionIsA503NeverAnAnswerWithoutIt() throws Exception {
        backendA.standby = new QueryBackend() {
            @Override
            public boolean ready() {
                return true;
            }

            @Override
            public String state() {
                return "standby copies";
            }

            @Override
            public Placement placement(String store, String key) {
                return Placement.LOCAL;
            }

            @Override
            public List<String> peers() {
                return List.of();
            }

            @Override
            public <V> org.apache.kafka.streams.state.ReadOnlyKeyValueStore<String, V> keyValueStore(String name) {
                throw new QueryBackend.NoStandby("no standby copy of partition 3 of " + name + " here");
            }

            @Override
            public <V> org.apache.kafka.streams.state.ReadOnlyWindowStore<String, V> windowStore(String name) {
                throw new QueryBackend.NoStandby("no standby copy of partition 3 of " + name + " here");
            }
        };
        serverB.close();
        serverB = null;
        var status = get(serverA, "/v1/status");
        assertProblem(status, 503);
        assertThat(json(status).path("detail").asText())
                .contains("did not answer")
                .contains("no standby copy of partition 3");
        assertProblem(get(serverA, "/v1/monitors/blog"), 503);
        assertProblem(get(serverA, "/v1/workers"), 503);
    }

    @Test
    void aPeerThatAnswersAnErrorIsNotStoodInFor() throws Exception {
        backendA.standby = new DriverBackend(b.driver);
        backendB.ready = false; // alive, rebalancing: its answer is the truth, not a standby's copy
        assertProblem(get(serverA, "/v1/status"), 503);
        assertProblem(get(serverA, "/v1/monitors/blog"), 503);
    }

    @Test
    void anUnreachablePeerMakesTheGatheredAnswer503() throws Exception {
        serverB.close();
        serverB = null;
        assertProblem(get(serverA, "/v1/status"), 503);
        assertProblem(get(serverA, "/v1/monitors/blog"), 503);
        assertThat(get(serverA, "/v1/monitors/shop").statusCode()).isEqualTo(200);
    }

    @Test
    void healthFailsOnlyOnceKafkaStreamsShutDownOnAFatalError() throws Exception {
        backendA.ready = false;
        // starting or rebalancing: not ready, but healthy (a restart would not help)
        assertThat(get(serverA, "/health").statusCode()).isEqualTo(200);
        assertProblem(get(serverA, "/ready"), 503);
        for (String fatal : List.of("PENDING_ERROR", "ERROR")) {
            backendA.state = fatal;
            var health = get(serverA, "/health");
            assertProblem(health, 503);
            assertThat(json(health).path("detail").asText()).contains("state " + fatal);
            assertProblem(get(serverA, "/ready"), 503);
        }
        backendA.state = null;
        backendA.ready = true;
        assertThat(get(serverA, "/health").statusCode()).isEqualTo(200);
    }

    @Test
    void opsEndpointsAndOpenApi() throws Exception {
        var health = get(serverA, "/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(json(health).path("status").asText()).isEqualTo("ok");
        assertThat(get(serverA, "/ready").statusCode()).isEqualTo(200);
        assertThat(get(serverA, "/metrics").body()).contains("# metrics");
        var doc = get(serverA, "/v1/openapi.json");
        assertThat(doc.statusCode()).isEqualTo(200);
        JsonNode openapi = json(doc);
        assertThat(openapi.path("openapi").asText()).isEqualTo("3.1.0");
        assertThat(openapi.path("paths").has("/v1/monitors/{id}/history")).isTrue();
        var post = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + serverA.port() + "/v1/status"))
                        .header("Authorization", TestApi.admin())
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertProblem(post, 405);
    }
}
