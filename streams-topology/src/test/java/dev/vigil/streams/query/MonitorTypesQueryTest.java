package dev.vigil.streams.query;

import static dev.vigil.streams.Fixtures.INTERVAL_MS;
import static dev.vigil.streams.Fixtures.W0;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.HeaderValue;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
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
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The query API shows each monitor's check type and its type's details, never a secret or a ping token's hash. */
class MonitorTypesQueryTest {
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(W0 + 10 * INTERVAL_MS), ZoneOffset.UTC);
    private static final String TOKEN_HASH = "a".repeat(64);
    private DriverHarness h;
    private QueryServer server;
    private Forwarder forwarder;
    private final HttpClient http = HttpClient.newHttpClient();

    private static MonitorDefinition typed(
            String id,
            String url,
            String method,
            CheckType type,
            Map<String, HeaderValue> headers,
            String body,
            MonitorDefinition.Tcp tcp,
            MonitorDefinition.Dns dns,
            MonitorDefinition.Tls tls,
            MonitorDefinition.Heartbeat heartbeat) {
        return new MonitorDefinition(
                1,
                id,
                null,
                url,
                method,
                60,
                2500,
                type == CheckType.HEARTBEAT ? null : List.of("eu-west"),
                null,
                null,
                null,
                null,
                null,
                Map.of(),
                true,
                type,
                headers,
                body,
                tcp,
                dns,
                tls,
                heartbeat);
    }

    @BeforeEach
    void start() {
        h = new DriverHarness(W0 - 30_000);
        h.define(typed(
                "orders",
                "https://orders.example.com/v1",
                "POST",
                CheckType.HTTP,
                Map.of(
                        "Authorization",
                        HeaderValue.secret("ORDERS_TOKEN"),
                        "Accept",
                        HeaderValue.plain("application/json"),
                        "X-Api-Key",
                        HeaderValue.plain("inline-key-123")),
                "{\"dryRun\":true}",
                null,
                null,
                null,
                null));
        h.define(typed(
                "smtp",
                null,
                null,
                CheckType.TCP,
                null,
                null,
                new MonitorDefinition.Tcp("smtp.example.com", 25, null, "ESMTP"),
                null,
                null,
                null));
        h.define(typed(
                "mx",
                null,
                null,
                CheckType.DNS,
                null,
                null,
                null,
                new MonitorDefinition.Dns("example.com", "MX", "9.9.9.9", List.of("mx1.example.com")),
                null,
                null));
        h.define(typed(
                "imaps",
                null,
                null,
                CheckType.TLS,
                null,
                null,
                null,
                null,
                new MonitorDefinition.Tls("imap.example.com", 993),
                null));
        h.define(typed(
                "backup",
                null,
                null,
                CheckType.HEARTBEAT,
                null,
                null,
                null,
                null,
                null,
                new MonitorDefinition.Heartbeat("0 2 * * *", "Europe/Paris", 1800, TOKEN_HASH)));
        forwarder = TestApi.forwarder(Duration.ofSeconds(5));
        DriverBackend backend = new DriverBackend(h.driver);
        ApiRoutes routes = new ApiRoutes();
        dev.vigil.streams.readmodel.ReadModel.register(routes, backend, forwarder, CLOCK);
        server = TestApi.start(routes);
    }

    @AfterEach
    void stop() {
        server.close();
        forwarder.close();
        h.close();
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> res = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .header("Authorization", TestApi.admin())
                        .GET()
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        assertThat(res.body()).doesNotContain(TOKEN_HASH);
        return Json.tree(res.body().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void eachMonitorShowsItsTypeAndTarget() throws Exception {
        JsonNode orders = get("/v1/monitors/orders").path("monitor");
        assertThat(orders.path("type").asText()).isEqualTo("http");
        assertThat(orders.path("method").asText()).isEqualTo("POST");
        // every header value is redacted, a secret's variable name and a harmless Accept alike: one rule, names kept
        assertThat(orders.path("headers").path("Authorization").asText()).isEqualTo("REDACTED");
        assertThat(orders.path("headers").path("Accept").asText()).isEqualTo("REDACTED");
        assertThat(orders.path("headers").path("X-Api-Key").asText()).isEqualTo("REDACTED");
        assertThat(orders.toString()).doesNotContain("inline-key-123");
        assertThat(orders.path("bodyBytes").asInt()).isEqualTo(15);

        JsonNode smtp = get("/v1/monitors/smtp").path("monitor");
        assertThat(smtp.path("type").asText()).isEqualTo("tcp");
        assertThat(smtp.path("target").asText()).isEqualTo("tcp://smtp.example.com:25");
        assertThat(smtp.path("tcp").path("expect").asText()).isEqualTo("ESMTP");

        JsonNode mx = get("/v1/monitors/mx").path("monitor");
        assertThat(mx.path("target").asText()).isEqualTo("dns:MX/example.com@9.9.9.9");
        assertThat(mx.path("dns").path("expect").get(0).asText()).isEqualTo("mx1.example.com");

        assertThat(get("/v1/monitors/imaps").path("monitor").path("target").asText())
                .isEqualTo("tls://imap.example.com:993");

        JsonNode backup = get("/v1/monitors/backup").path("monitor");
        assertThat(backup.path("type").asText()).isEqualTo("heartbeat");
        assertThat(backup.path("regions").get(0).asText()).isEqualTo("push");
        assertThat(backup.path("heartbeat").path("schedule").asText()).isEqualTo("0 2 * * *");
        assertThat(backup.path("heartbeat").path("zone").asText()).isEqualTo("Europe/Paris");
        assertThat(backup.path("heartbeat").path("pingable").asBoolean()).isTrue();
        assertThat(backup.path("heartbeat").has("tokenSha256")).isFalse();
    }

    @Test
    void theStatusListNamesEachMonitorsType() throws Exception {
        JsonNode status = get("/v1/status");
        Map<String, String> types = new java.util.TreeMap<>();
        status.path("monitors")
                .forEach(m ->
                        types.put(m.path("monitorId").asText(), m.path("type").asText()));
        assertThat(types)
                .containsExactlyEntriesOf(new java.util.TreeMap<>(
                        Map.of("backup", "heartbeat", "imaps", "tls", "mx", "dns", "orders", "http", "smtp", "tcp")));
    }
}
