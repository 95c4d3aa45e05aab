package dev.vigil.streams.alerting;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.failure;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.alertapi.AckRoutes;
import dev.vigil.streams.alertapi.AlertingRoutes;
import dev.vigil.streams.audit.ApiWriter;
import dev.vigil.streams.audit.AuditLog;
import dev.vigil.streams.audit.AuditRoutes;
import dev.vigil.streams.config.StreamsServiceConfig.Group;
import dev.vigil.streams.config.StreamsServiceConfig.SilenceSettings;
import dev.vigil.streams.config.StreamsServiceConfig.StatusPage;
import dev.vigil.streams.console.ConsoleAssets;
import dev.vigil.streams.console.ConsoleRoutes;
import dev.vigil.streams.console.StatusPages;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.DriverBackend;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.QueryServer;
import dev.vigil.streams.query.TestApi;
import dev.vigil.streams.silence.SilenceRoutes;
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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every GET route of the whole query router (monitors, status, history, alerts, silences, workers, the console and
 * its data, status pages, badges, OpenAPI), walked as a {@code read} token and as an admin, over real HTTP against
 * a TopologyTestDriver's stores: no answer carries a URL's user info or query value, or a header value, of a monitor.
 */
class ReadRedactionTest {
    private static final long NOW = W0 + 5 * 60_000L;
    /** Each planted in a place that can hold a credential; none may come back. */
    private static final List<String> SECRETS = List.of(
            "QSECRET1",
            "QSECRET2",
            "FSECRET3",
            "HSECRET1",
            "HSECRET2",
            "HEALTH_TOKEN_ENV",
            "BODYSECRET",
            "TCPSECRET",
            "LINKPASS",
            "LQSECRET");

    private AlertingHarness h;
    private Forwarder forwarder;
    private QueryServer server;
    private ApiWriter writer;
    private SilenceRoutes silenceRoutes;
    private ApiRoutes routes;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() {
        h = new AlertingHarness(W0 - 30_000);
        writer = TestApi.acceptingWriter(r -> {});
        forwarder = TestApi.forwarder(Duration.ofSeconds(5));
        routes = new ApiRoutes();
        Clock clock = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);
        DriverBackend backend = new DriverBackend(h.driver);
        dev.vigil.streams.readmodel.ReadModel.register(routes, backend, forwarder, clock);
        new AlertingRoutes(clock).register(routes, backend, forwarder);
        silenceRoutes = new SilenceRoutes(writer, "vigil.silences", clock, SilenceSettings.defaults());
        silenceRoutes.register(routes, backend, forwarder);
        new AckRoutes(writer, "vigil.acks", "vigil.alerts", clock).register(routes, backend, forwarder);
        new AuditRoutes(new AuditLog("127.0.0.1:1", "vigil.audit", Map.of(), Duration.ofSeconds(1)), clock)
                .register(routes);
        ConsoleAssets assets = ConsoleAssets.load();
        new ConsoleRoutes(assets).register(routes);
        new StatusPages(
                        List.of(new StatusPage(
                                "public", "Status", null, List.of(new Group("All", List.of("api", "raw"))))),
                        routes,
                        clock,
                        assets.version())
                .register(routes);
        server = TestApi.start(routes, QueryServer.ops(backend, () -> "# metrics\n"));

        h.define(Json.read(
                """
                {"schemaVersion": 1, "id": "api", "name": "API", "url": "https://example.com/api?token=QSECRET1&x=QSECRET2#k=FSECRET3",
                 "intervalSeconds": 60, "timeoutMs": 2500, "regions": ["eu-west"], "method": "POST",
                 "headers": {"X-Api-Key": "HSECRET1", "X-Trace": "HSECRET2", "Authorization": {"secretEnv": "HEALTH_TOKEN_ENV"}},
                 "body": "{\\"password\\": \\"BODYSECRET\\"}",
                 "links": {"dashboard": "https://viewer:LINKPASS@grafana.example.com/d/api"}}
                """,
                MonitorDefinition.class));
        h.define(Json.read(
                """
                {"schemaVersion": 1, "id": "raw", "type": "tcp", "tcp": {"host": "db.example.com", "port": 5432, "send": "AUTH TCPSECRET"},
                 "intervalSeconds": 60, "timeoutMs": 2500, "regions": ["eu-west"]}
                """,
                MonitorDefinition.class));
        h.silences.pipeInput(
                "s1", new Silence(1, "s1", "monitor/api", null, null, W0, NOW + 3_600_000L, "ops", "deploy", W0), W0);
        h.wallClockTo(W0 - 20_000);
        h.result(failure("api", "eu-west", W0));
        h.result(failure("raw", "eu-west", W0));
        h.wallClockTo(NOW);
    }

    @AfterEach
    void stop() {
        server.close();
        forwarder.close();
        silenceRoutes.close();
        writer.close();
        h.close();
    }

    private HttpResponse<String> get(String path, String token) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .header("Authorization", "Bearer " + token)
                        .timeout(Duration.ofSeconds(20))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Every GET route of the router with its parameters filled in, plain and with the query parameters they take. */
    private List<String> paths() {
        String range = "?from=" + (W0 - 3_600_000L) + "&to=" + (NOW + 60_000L) + "&state=all";
        List<String> out = new ArrayList<>();
        for (ApiRoutes.Route r : routes.routes()) {
            if (r.method() != ApiRoutes.Method.GET) {
                continue;
            }
            for (String id : List.of("api", "raw")) {
                String p = r.template()
                        .replace("{id}", id)
                        .replace("{fingerprint}", URLEncoder.encode("monitor/" + id, StandardCharsets.UTF_8))
                        .replace("{appId}", "demo")
                        .replace("{metricName}", "latency")
                        .replace("{page}", "public")
                        .replace("{file}", "app.js");
                out.add(p);
                out.add(p + range);
            }
        }
        return out.stream().distinct().toList();
    }

    @Test
    void noAnswerToAReaderOrAnAdminCarriesACredentialOfAMonitor() throws Exception {
        List<String> paths = paths();
        assertThat(paths).contains("/v1/monitors/api", "/v1/status", "/v1/alerts", "/v1/silences", "/status/public");
        int answered = 0;
        for (String token : List.of(TestApi.READER, TestApi.ADMIN)) {
            for (String path : paths) {
                HttpResponse<String> res = get(path, token);
                // the audit log needs Kafka, which this harness has not: its 503 is expected
                assertThat(res.statusCode()).as(path).isLessThan(path.startsWith("/v1/audit") ? 504 : 500);
                if (res.statusCode() == 200) {
                    answered++;
                }
                for (String secret : SECRETS) {
                    assertThat(res.body()).as(token + " GET " + path).doesNotContain(secret);
                    res.headers().map().forEach((name, values) -> assertThat(String.join(",", values))
                            .as(path + " header " + name)
                            .doesNotContain(secret));
                }
            }
        }
        assertThat(answered).isGreaterThan(20);
    }

    @Test
    void whatIsRedactedKeepsWhatIsChecked() throws Exception {
        var api = Json.tree(get("/v1/monitors/api", TestApi.READER).body().getBytes(StandardCharsets.UTF_8))
                .path("monitor");
        assertThat(api.path("target").asText())
                .isEqualTo("https://example.com/api?token=REDACTED&x=REDACTED#k=REDACTED");
        assertThat(api.path("headers").path("X-Api-Key").asText()).isEqualTo("REDACTED");
        assertThat(api.path("headers").path("X-Trace").asText()).isEqualTo("REDACTED");
        assertThat(api.path("headers").path("Authorization").asText()).isEqualTo("REDACTED");
        assertThat(api.path("bodyBytes").asInt()).isPositive();
        var raw = Json.tree(get("/v1/monitors/raw", TestApi.READER).body().getBytes(StandardCharsets.UTF_8))
                .path("monitor");
        assertThat(raw.path("target").asText()).isEqualTo("tcp://db.example.com:5432");
        assertThat(raw.path("tcp").path("send").asText()).isEqualTo("REDACTED");
        var alerts = get("/v1/alerts", TestApi.READER).body();
        assertThat(alerts).contains("grafana.example.com/d/api");
    }
}
