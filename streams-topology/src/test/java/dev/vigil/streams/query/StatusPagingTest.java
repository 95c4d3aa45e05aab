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
import dev.vigil.streams.topology.DriverHarness;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/status?limit=&cursor=} over loopback HTTP: two instances (each over its own TopologyTestDriver, as in
 * {@link QueryApiTest}) holding interleaved monitors; pages asked of either instance join into the whole list.
 */
class StatusPagingTest {
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(W0 + 10 * INTERVAL_MS), ZoneOffset.UTC);
    /** Ids whose order tests the edges: prefixes of each other, '-' before digits before letters. */
    private static final List<String> IDS_A = List.of("a", "ab-c", "abc", "m-1", "m-2", "m-20", "shop", "z0");

    private static final List<String> IDS_B = List.of("a-b", "a0", "ab", "ab-c-d", "blog", "m-10", "m-3", "zz");

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
        IDS_A.forEach(id -> a.define(monitor(id, regions(1))));
        IDS_B.forEach(id -> b.define(monitor(id, regions(1))));
        a.wallClockTo(W0 - 20_000);
        b.wallClockTo(W0 - 20_000);
        // up, down, or no verdict yet (pending), so every kind of row is on some page
        for (int i = 0; i < IDS_A.size(); i++) {
            if (i % 3 == 0) {
                a.result(success(IDS_A.get(i), "eu-west", W0));
            } else if (i % 3 == 1) {
                a.result(failure(IDS_A.get(i), "eu-west", W0));
            }
        }
        for (int i = 0; i < IDS_B.size(); i++) {
            if (i % 2 == 0) {
                b.result(failure(IDS_B.get(i), "eu-west", W0));
            }
        }
        forwarder = TestApi.forwarder(Duration.ofSeconds(5));
        backendA = new DriverBackend(a.driver);
        backendB = new DriverBackend(b.driver);
        serverB = serve(backendB);
        serverA = serve(backendA);
        backendA.peers = List.of("127.0.0.1:" + serverB.port());
        backendB.peers = List.of("127.0.0.1:" + serverA.port());
    }

    private QueryServer serve(DriverBackend backend) {
        ApiRoutes routes = new ApiRoutes();
        dev.vigil.streams.readmodel.ReadModel.register(routes, backend, forwarder, CLOCK);
        return TestApi.start(routes, QueryServer.ops(backend, () -> ""));
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
        return get(server, path, TestApi.admin());
    }

    private HttpResponse<String> get(QueryServer server, String path, String authorization) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .GET()
                .timeout(Duration.ofSeconds(10));
        if (authorization != null) {
            req.header("Authorization", authorization);
        }
        return http.send(req.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> res) {
        return Json.tree(res.body().getBytes(StandardCharsets.UTF_8));
    }

    private static void assertProblem(HttpResponse<String> res, int status, String detailPart) {
        assertThat(res.statusCode()).as(res.body()).isEqualTo(status);
        assertThat(res.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode p = json(res);
        assertThat(p.path("status").asInt()).isEqualTo(status);
        assertThat(p.path("type").asText()).isEqualTo("https://vigil.dev/problems/bad-request");
        assertThat(p.path("detail").asText()).contains(detailPart);
        assertThat(p.path("instance").asText()).isEqualTo("/v1/status");
    }

    private static List<String> ids(JsonNode rows) {
        List<String> ids = new ArrayList<>();
        rows.forEach(r -> ids.add(r.path("monitorId").asText()));
        return ids;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** Follows {@code next} from the first page, asking the two instances in turn; every page's body. */
    private List<JsonNode> allPages(String query, int limit) throws Exception {
        List<JsonNode> pages = new ArrayList<>();
        String cursor = null;
        do {
            QueryServer server = pages.size() % 2 == 0 ? serverA : serverB;
            var res = get(
                    server,
                    "/v1/status?" + query + "limit=" + limit + (cursor == null ? "" : "&cursor=" + enc(cursor)));
            assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
            assertThat(res.headers().firstValue("Content-Type")).hasValue("application/json");
            JsonNode body = json(res);
            pages.add(body);
            cursor = body.hasNonNull("next") ? body.get("next").asText() : null;
            assertThat(pages.size())
                    .as("pages for limit %d", limit)
                    .isLessThanOrEqualTo(IDS_A.size() + IDS_B.size() + 1);
        } while (cursor != null);
        return pages;
    }

    @Test
    void theFirstPageHoldsTheFirstMonitorsInIdOrderWithACursorToTheRest() throws Exception {
        JsonNode whole = json(get(serverA, "/v1/status"));
        assertThat(whole.has("next"))
                .as("without limit: the whole list, no cursor")
                .isFalse();

        var res = get(serverB, "/v1/status?limit=5");
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        JsonNode page = json(res);
        assertThat(ids(page.path("monitors"))).containsExactly("a", "a-b", "a0", "ab", "ab-c");
        assertThat(page.path("instances").asInt()).isEqualTo(2);
        assertThat(page.path("generatedAt").asLong()).isEqualTo(CLOCK.millis());
        assertThat(page.path("next").asText()).isEqualTo(StatusCursor.encode("ab-c"));
        // the rows are the whole list's rows, field for field
        for (int i = 0; i < 5; i++) {
            assertThat(page.path("monitors").get(i))
                    .isEqualTo(whole.path("monitors").get(i));
        }
        // counts count this page's monitors
        long counted = 0;
        for (JsonNode n : page.path("counts")) {
            counted += n.asLong();
        }
        assertThat(counted).isEqualTo(5);
    }

    @Test
    void followingNextListsEveryMonitorOnceInOrderForEveryLimit() throws Exception {
        JsonNode whole = json(get(serverA, "/v1/status"));
        List<String> expected = new ArrayList<>(new TreeSet<>(ids(whole.path("monitors"))));
        assertThat(expected).hasSize(IDS_A.size() + IDS_B.size());
        assertThat(ids(whole.path("monitors"))).containsExactlyElementsOf(expected);
        int total = expected.size();
        for (int limit : new int[] {1, 2, 3, 5, 7, 8, total - 1, total, total + 1, StatusPage.MAX_LIMIT}) {
            List<JsonNode> pages = allPages("", limit);
            List<JsonNode> rows = new ArrayList<>();
            long[] counts = new long[5];
            for (int p = 0; p < pages.size(); p++) {
                JsonNode page = pages.get(p);
                boolean last = p == pages.size() - 1;
                assertThat(page.has("next")).as("limit %d page %d", limit, p).isEqualTo(!last);
                if (!last) {
                    assertThat(page.path("monitors"))
                            .as("a page before the last is full")
                            .hasSize(limit);
                }
                page.path("monitors").forEach(rows::add);
                String[] keys = {"up", "degraded", "down", "unknown", "pending"};
                for (int k = 0; k < keys.length; k++) {
                    counts[k] += page.path("counts").path(keys[k]).asLong();
                }
            }
            assertThat(pages).hasSize((total + limit - 1) / limit);
            JsonNode joined = Json.toTree(rows);
            assertThat(joined)
                    .as("limit %d: the pages joined are the whole list", limit)
                    .isEqualTo(whole.path("monitors"));
            assertThat(counts)
                    .as("the pages' counts add up to the whole list's")
                    .containsExactly(
                            whole.path("counts").path("up").asLong(),
                            whole.path("counts").path("degraded").asLong(),
                            whole.path("counts").path("down").asLong(),
                            whole.path("counts").path("unknown").asLong(),
                            whole.path("counts").path("pending").asLong());
        }
    }

    @Test
    void aCursorIsAPositionAnyInstanceContinuesFrom() throws Exception {
        // the id need not be a monitor's: the page starts at the first id after it
        var res = get(serverA, "/v1/status?limit=3&cursor=" + StatusCursor.encode("m-15"));
        assertThat(ids(json(res).path("monitors"))).containsExactly("m-2", "m-20", "m-3");
        res = get(serverB, "/v1/status?limit=3&cursor=" + StatusCursor.encode("zz"));
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(json(res).path("monitors")).isEmpty();
        assertThat(json(res).has("next")).isFalse();
    }

    @Test
    void limitOutsideItsBoundsIs400() throws Exception {
        for (String limit : new String[] {"0", "-1", "10001", "1000000", "", "x", "1.5", "%20"}) {
            assertProblem(
                    get(serverA, "/v1/status?limit=" + limit), 400, "'limit' must be a whole number from 1 to 10000");
            assertProblem(get(serverA, "/v1/status?scope=local&limit=" + limit), 400, "'limit'");
        }
        assertThat(get(serverA, "/v1/status?limit=10000").statusCode()).isEqualTo(200);
        assertProblem(get(serverA, "/v1/status?cursor=" + StatusCursor.encode("a")), 400, "'cursor' needs 'limit'");
    }

    @Test
    void aBadOrForgedCursorIs400NeverA500() throws Exception {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        for (String cursor : new String[] {
            "",
            "!",
            "not-a-cursor!",
            "YWI=",
            "YWJ",
            b64.encodeToString("monitor/shop".getBytes(StandardCharsets.UTF_8)),
            b64.encodeToString("../v1/audit".getBytes(StandardCharsets.UTF_8)),
            b64.encodeToString("SHOP".getBytes(StandardCharsets.UTF_8)),
            b64.encodeToString("a\r\nHost: evil".getBytes(StandardCharsets.UTF_8)),
            "Y".repeat(200),
            "%00",
            "%E2%82%AC"
        }) {
            String query = "limit=5&cursor=" + (cursor.startsWith("%") ? cursor : enc(cursor));
            assertProblem(get(serverA, "/v1/status?" + query), 400, "'cursor' is not a cursor this API gave out");
            assertProblem(get(serverB, "/v1/status?scope=local&" + query), 400, "'cursor'");
        }
    }

    @Test
    void theLocalScopePagesThroughOneInstanceAndComposesWithTheCursor() throws Exception {
        // scope=local, the one filter /v1/status has, is what instances ask each other; it pages the same way
        List<String> listed = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            var res = get(serverB, "/v1/status?scope=local&limit=3" + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
            JsonNode body = json(res);
            assertThat(body.path("monitors").size()).isLessThanOrEqualTo(3);
            listed.addAll(ids(body.path("monitors")));
            cursor = body.hasNonNull("next") ? body.get("next").asText() : null;
            pages++;
        } while (cursor != null);
        assertThat(listed).containsExactlyElementsOf(new TreeSet<>(IDS_B));
        assertThat(pages).isEqualTo(3);
        // and the whole-list answer of one instance is as before: no cursor
        assertThat(json(get(serverB, "/v1/status?scope=local")).has("next")).isFalse();
    }

    @Test
    void pagingNeedsTheReadScopeLikeTheWholeList() throws Exception {
        String query = "/v1/status?limit=2&cursor=" + StatusCursor.encode("a");
        assertThat(get(serverA, query, "Bearer " + TestApi.READER).statusCode()).isEqualTo(200);
        assertThat(get(serverA, query, "Bearer " + TestApi.SILENCER).statusCode())
                .isEqualTo(403);
        assertThat(get(serverA, query, "Bearer " + TestApi.ACKER).statusCode()).isEqualTo(403);
        assertThat(get(serverA, query, null).statusCode()).isEqualTo(401);
        // a forged cursor is refused before anything is read or forwarded
        assertThat(get(serverA, "/v1/status?limit=2&cursor=" + enc("Li4vdjEvYXVkaXQ"), "Bearer " + TestApi.READER)
                        .statusCode())
                .isEqualTo(400);
    }

    @Test
    void theOpenApiDocumentDescribesThePagingAsServed() throws Exception {
        JsonNode op = json(get(serverA, "/v1/openapi.json"))
                .path("paths")
                .path("/v1/status")
                .path("get");
        List<String> params = new ArrayList<>();
        op.path("parameters").forEach(p -> params.add(p.path("name").asText()));
        assertThat(params).containsExactly("scope", "limit", "cursor");
        JsonNode limit = op.path("parameters").get(1).path("schema");
        assertThat(limit.path("minimum").asInt()).isEqualTo(1);
        assertThat(limit.path("maximum").asInt()).isEqualTo(StatusPage.MAX_LIMIT);
        assertThat(op.path("parameters").get(2).path("schema").path("maxLength").asInt())
                .isEqualTo(StatusCursor.MAX_LENGTH);
        assertThat(op.path("responses").has("400")).isTrue();
    }

    @Test
    void aPageIsRefusedWhileAnInstanceRebalances() throws Exception {
        backendB.ready = false;
        var res = get(serverA, "/v1/status?limit=3");
        assertThat(res.statusCode()).isEqualTo(503);
        assertThat(res.headers().firstValue("Retry-After")).hasValue("2");
    }

    @Test
    void aPageIsRefusedWhileAnInstanceIsUnreachable() throws Exception {
        serverB.close();
        serverB = null;
        var res = get(serverA, "/v1/status?limit=3&cursor=" + StatusCursor.encode("a"));
        assertThat(res.statusCode()).isEqualTo(503);
        assertThat(res.headers().firstValue("Retry-After")).hasValue("2");
    }
}
