package dev.vigil.streams.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.embedded.http.RawHttpConnection;
import dev.vigil.schemas.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.core.publisher.Mono;

/** Every route's door: no token, a wrong token, each scope, the instance credential, public paths (docs/security.md#credentials). */
class QueryAccessTest {
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicInteger handled = new AtomicInteger();
    private QueryServer server;

    @BeforeEach
    void start() {
        ApiRoutes.Handler ok = req -> {
            handled.incrementAndGet();
            return Mono.just(HttpResult.ok(Map.of("actor", req.actor(), "forwarded", req.forwarded())));
        };
        ApiRoutes routes = new ApiRoutes()
                .get("/health", ok)
                .get("/ready", ok)
                .get("/metrics", ok)
                .get("/v1/status", ok)
                .get("/v1/monitors/{id}", ok)
                .get("/v1/silences", ok)
                .post("/v1/silences", ok)
                .delete("/v1/silences/{id}", ok)
                .post("/v1/alerts/{fingerprint}/ack", ok)
                .delete("/v1/alerts/{fingerprint}/ack", ok)
                .get("/v1/alerts/{fingerprint}/timeline", ok)
                .get("/v1/audit", ok)
                .post("/v1/internal/thing", ok);
        server = TestApi.start(routes);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> call(String method, String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(10))
                .method(
                        method,
                        method.equals("POST")
                                ? HttpRequest.BodyPublishers.ofString("{}")
                                : HttpRequest.BodyPublishers.noBody());
        if (method.equals("POST")) {
            b.header("Content-Type", "application/json");
        }
        if (token != null) {
            b.header("Authorization", token.startsWith("Basic ") ? token : "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest(name = "{0} {1} as {2} -> {3}")
    @CsvSource({
        // public
        "GET,/health,,200",
        "GET,/ready,,200",
        "GET,/metrics,,200",
        // no token / unknown token / not a bearer credential: 401 everywhere else, even for unknown paths
        "GET,/v1/status,,401",
        "GET,/v1/monitors/shop,,401",
        "GET,/v1/silences,,401",
        "POST,/v1/silences,,401",
        "DELETE,/v1/silences/abc,,401",
        "POST,/v1/alerts/monitor%2Fshop/ack,,401",
        "GET,/v1/audit,,401",
        "GET,/v1/no-such-thing,,401",
        "GET,/,,401",
        "GET,/v1/status,vgl_wrong,401",
        "GET,/v1/status,Basic dGVzdDp0ZXN0,401",
        // reader
        "GET,/v1/status,vgl_test-reader,200",
        "GET,/v1/silences,vgl_test-reader,200",
        "POST,/v1/silences,vgl_test-reader,403",
        "DELETE,/v1/silences/abc,vgl_test-reader,403",
        "POST,/v1/alerts/monitor%2Fshop/ack,vgl_test-reader,403",
        "GET,/v1/audit,vgl_test-reader,403",
        // silencer: silences only (not even reads)
        "POST,/v1/silences,vgl_test-silencer,200",
        "DELETE,/v1/silences/abc,vgl_test-silencer,200",
        "GET,/v1/status,vgl_test-silencer,403",
        "POST,/v1/alerts/monitor%2Fshop/ack,vgl_test-silencer,403",
        // acker
        "POST,/v1/alerts/monitor%2Fshop/ack,vgl_test-acker,200",
        "DELETE,/v1/alerts/monitor%2Fshop/ack,vgl_test-acker,200",
        "POST,/v1/silences,vgl_test-acker,403",
        // an incident's timeline is a read, beside the acknowledgement's write on the same fingerprint
        "GET,/v1/alerts/monitor%2Fshop/timeline,,401",
        "GET,/v1/alerts/monitor%2Fshop/timeline,vgl_wrong,401",
        "GET,/v1/alerts/monitor%2Fshop/timeline,vgl_test-reader,200",
        "GET,/v1/alerts/monitor%2Fshop/timeline,vgl_test-silencer,403",
        "GET,/v1/alerts/monitor%2Fshop/timeline,vgl_test-acker,403",
        "GET,/v1/alerts/monitor%2Fshop/timeline,vgl_test-instance,200",
        "POST,/v1/alerts/monitor%2Fshop/timeline,vgl_test-reader,405",
        // admin: everything, including routes no scope names (deny by default for the rest)
        "GET,/v1/audit,vgl_test-admin,200",
        "POST,/v1/internal/thing,vgl_test-admin,200",
        "POST,/v1/internal/thing,vgl_test-silencer,403",
        "GET,/v1/no-such-thing,vgl_test-admin,404",
        // the instance credential reads (to answer forwards) and nothing else
        "GET,/v1/status,vgl_test-instance,200",
        "POST,/v1/silences,vgl_test-instance,403",
        "GET,/v1/audit,vgl_test-instance,403",
    })
    void everyDoorChecksTheTokenAndItsScope(String method, String path, String token, int expected) throws Exception {
        HttpResponse<String> res = call(method, path, token);
        assertThat(res.statusCode()).as(res.body()).isEqualTo(expected);
        if (expected >= 400) {
            assertThat(res.headers().firstValue("Content-Type")).contains("application/problem+json");
            JsonNode p = Json.tree(res.body().getBytes());
            assertThat(p.path("status").asInt()).isEqualTo(expected);
            assertThat(p.path("type").asText()).startsWith("https://vigil.dev/problems/");
            if (token != null) {
                assertThat(res.body()).doesNotContain(token.replace("Basic ", ""));
            }
        }
        if (expected == 401) {
            assertThat(res.headers().firstValue("WWW-Authenticate"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        }
    }

    @Test
    void refusedCallsNeverReachAHandler() throws Exception {
        call("POST", "/v1/silences", null);
        call("POST", "/v1/silences", "vgl_test-reader");
        call("GET", "/v1/audit", "vgl_test-silencer");
        assertThat(handled.get()).isZero();
        assertThat(call("GET", "/v1/status", "vgl_test-reader").body()).contains("\"actor\":\"test-reader\"");
    }

    @Test
    void unauthenticatedBodyIsNeverRead() throws Exception {
        try (RawHttpConnection c = new RawHttpConnection(server.port(), 5000)) {
            // declares 60 KB and sends none of it: the answer comes at once, without waiting for the body
            c.send(
                    "POST /v1/silences HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n");
            RawHttpConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(401);
        }
        assertThat(handled.get()).isZero();
    }

    @Test
    void onlyThePeerCredentialMayMarkARequestForwarded() throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/status"))
                .header(QueryRequest.FORWARDED_HEADER, "true");
        var asClient = http.send(
                b.copy().header("Authorization", TestApi.admin()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(asClient.body()).contains("\"forwarded\":false");
        var asPeer = http.send(
                b.copy().header("Authorization", "Bearer " + TestApi.INSTANCE).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(asPeer.body()).contains("\"forwarded\":true").contains("\"actor\":\"vigil-instance\"");
    }

    @Test
    void malformedEscapesAre400NotAServerError() throws Exception {
        for (String path : new String[] {"/v1/%zz", "/v1/status?from=%", "/%"}) {
            try (RawHttpConnection c = new RawHttpConnection(server.port(), 5000)) {
                c.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
                RawHttpConnection.Response r = c.read();
                assertThat(r.status()).as(path).isEqualTo(400);
                assertThat(r.headers().get("content-type")).isEqualTo("application/problem+json");
            }
        }
        assertThat(handled.get()).isZero();
    }

    @Test
    void dnsRebindingHostIsRefusedOnTheLoopbackServer() throws Exception {
        try (RawHttpConnection c = new RawHttpConnection(server.port(), 5000)) {
            c.send("GET /v1/status HTTP/1.1\r\nHost: rebind.attacker.example\r\nAuthorization: " + TestApi.admin()
                    + "\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(421);
        }
        assertThat(handled.get()).isZero();
    }

    @Test
    void extremeDatesAre400NotAServerError() {
        for (String bad : new String[] {
            "+999999999-01-01T00:00:00Z",
            "-1",
            "99999999999999999999",
            "2026-13-45T99:00:00Z",
            "1e300",
            "253402300800000"
        }) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> TimeParam.epochMillis("from", bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'from'");
        }
        assertThat(TimeParam.epochMillis("from", "2026-12-01T00:00:00Z")).isEqualTo(1_796_083_200_000L);
        assertThat(TimeParam.epochMillis("from", "253402300799999")).isEqualTo(TimeParam.MAX_EPOCH_MS);
    }
}
