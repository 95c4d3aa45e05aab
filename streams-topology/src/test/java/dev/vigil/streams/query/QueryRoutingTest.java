package dev.vigil.streams.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.ops.OpsRoutes;
import dev.vigil.schemas.json.Json;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * How Reactor Netty's routing answers the query API's paths: parameters bound and decoded one by one, HEAD by the
 * GET route, a trailing slash, 405 for another method on a known path, 501 for a method no route answers elsewhere, 404 for
 * the rest — and none of those refusals to a caller without a valid token; the kit's ops endpoints in front, compressed
 * like every large answer.
 */
class QueryRoutingTest {
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<QueryRequest> seen = new CopyOnWriteArrayList<>();
    private QueryServer server;

    @BeforeEach
    void start() {
        ApiRoutes.Handler echo = req -> {
            seen.add(req);
            return Mono.just(HttpResult.ok(Map.of("params", req.pathParams(), "path", req.path())));
        };
        server = TestApi.start(new ApiRoutes()
                .get("/v1/things/{id}", echo)
                .get("/v1/things/{id}/parts/{part}", echo)
                .post("/v1/things/{id}/parts/{part}", echo)
                .delete("/v1/things/{id}", echo));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> call(String method, String path, boolean token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(10))
                .method(
                        method,
                        method.equals("POST")
                                ? HttpRequest.BodyPublishers.ofString("{}")
                                : HttpRequest.BodyPublishers.noBody())
                .header("Content-Type", "application/json");
        if (token) {
            b.header("Authorization", TestApi.admin());
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String type(HttpResponse<String> res) {
        return Json.tree(res.body().getBytes()).path("type").asText();
    }

    @Test
    void parametersAreBoundFromThePathAsSentAndDecodedOneByOne() throws Exception {
        var res = call("GET", "/v1/things/monitor%2Fshop/parts/a%20b?x=1", true);
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(seen).singleElement().satisfies(req -> {
            assertThat(req.pathParams()).isEqualTo(Map.of("id", "monitor/shop", "part", "a b"));
            assertThat(req.path()).isEqualTo("/v1/things/monitor/shop/parts/a b");
            assertThat(req.queryParam("x")).isEqualTo("1");
        });
        assertThat(call("GET", "/v1/things//parts/p", true).statusCode())
                .as("an empty parameter")
                .isEqualTo(404);
        assertThat(call("GET", "/v1/things/a/b", true).statusCode())
                .as("a parameter is one segment")
                .isEqualTo(404);
    }

    @Test
    void headIsAnsweredByTheGetRouteAndATrailingSlashIsTheSamePath() throws Exception {
        var head = call("HEAD", "/v1/things/t-1", true);
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        assertThat(call("GET", "/v1/things/t-1/", true).statusCode()).isEqualTo(200);
        assertThat(seen).extracting(r -> r.param("id")).containsExactly("t-1", "t-1");
    }

    @Test
    void wrongMethodIs405WithAllowEvenOneNoRouteTakesAndSuchAMethodElsewhereIs501() throws Exception {
        var put = call("PUT", "/v1/things/t-1/parts/p", true);
        assertThat(put.statusCode()).isEqualTo(405);
        assertThat(put.headers().firstValue("Allow")).hasValue("GET, HEAD, POST");
        assertThat(type(put)).isEqualTo("https://vigil.dev/problems/method-not-allowed");
        var post = call("POST", "/v1/things/t-1", true);
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD, DELETE");
        // a method Reactor Netty cannot route is still refused with 405 on a known path (and its trailing slash)
        for (String path : new String[] {"/v1/things/t-1", "/v1/things/t-1/"}) {
            var patch = call("PATCH", path, true);
            assertThat(patch.statusCode()).as(path).isEqualTo(405);
            assertThat(patch.headers().firstValue("Allow")).hasValue("GET, HEAD, DELETE");
        }
        var elsewhere = call("PATCH", "/v1/nothing", true);
        assertThat(elsewhere.statusCode()).isEqualTo(501);
        assertThat(type(elsewhere)).isEqualTo("https://vigil.dev/problems/not-implemented");
        assertThat(call("GET", "/v1/nothing", true).statusCode()).isEqualTo(404);
        assertThat(seen).isEmpty();
    }

    @Test
    void withoutAValidTokenEveryRefusalIs401() throws Exception {
        for (String[] c : new String[][] {
            {"PUT", "/v1/things/t-1/parts/p"},
            {"PATCH", "/v1/things/t-1"},
            {"GET", "/v1/nothing"},
            {"GET", "/v1/things//parts/p"}
        }) {
            var res = call(c[0], c[1], false);
            assertThat(res.statusCode()).as(c[0] + " " + c[1]).isEqualTo(401);
            assertThat(res.headers().firstValue("Allow")).isEmpty();
        }
    }

    @Test
    void largeAnswersAreCompressedWhenTheClientAsks() throws Exception {
        server.close();
        String scrape = "# metrics\n" + "vigil_test_total{n=\"1\"} 1.0\n".repeat(200);
        server = TestApi.start(new ApiRoutes(), OpsRoutes.of(() -> scrape));
        var res = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics"))
                        .header("Accept-Encoding", "gzip")
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("Content-Encoding")).hasValue("gzip");
        try (var in = new GZIPInputStream(new ByteArrayInputStream(res.body()))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(scrape);
        }
    }

    @Test
    void theOpsEndpointsAreTheKitsAndPublic() throws Exception {
        var health = call("GET", "/health", false);
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).isEqualTo("{\"status\":\"ok\"}");
        var post = call("POST", "/ready", false);
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
    }
}
