package dev.vigil.standalone.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.http.RawHttpConnection;
import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.json.Json;
import dev.vigil.standalone.demo.DemoTargets;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import reactor.netty.DisposableServer;

/**
 * What a hostile caller can try against a running stack (docs/security.md), as a table: each named attack, its
 * expected answer, and at the end the proof that none of them changed anything — no silence, no forged page at any
 * channel, no BetterStack call, no incident row for a forged fingerprint — while a genuine outage still pages.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecurityAttacksIT {
    private static final String SECRET_ENV = "ATTACKS_WEBHOOK_SECRET";
    private static final String READER = "vgl_attacks-reader";
    private static final String SILENCER = "vgl_attacks-silencer";

    @TempDir
    static Path dir;

    static WebhookSink sink;
    static DisposableServer vendor;
    static final List<String> vendorCalls = new CopyOnWriteArrayList<>();
    static StandaloneLauncher vigil;
    static DemoTargets targets;
    static String ingestKey;

    /** One attack: where it goes, the raw request, and the status it must get. */
    record Attack(String name, String server, String request, int expected) {}

    @BeforeAll
    static void start() throws Exception {
        sink = new WebhookSink();
        vendor = StackSupport.recordingVendor(
                vendorCalls,
                uri -> uri.startsWith("/slack") ? Map.entry(200, "ok") : Map.entry(201, "{\"data\":{\"id\":\"1\"}}"));
        Path routing = dir.resolve("routing.yaml");
        Files.writeString(
                routing,
                """
                channels:
                  oncall:
                    type: webhook
                    url: %s
                    secretEnv: %s
                  betterstack:
                    type: betterstack
                    url: http://127.0.0.1:%d/betterstack
                    secretEnv: ATTACKS_BETTERSTACK_TOKEN
                  slack:
                    type: slack
                    urlEnv: ATTACKS_SLACK_URL
                defaults:
                  critical: [oncall, slack]
                  warning: [oncall, slack]
                  info: [oncall]
                """
                        .formatted(sink.url("oncall"), SECRET_ENV, vendor.port()));
        Path extraTokens = dir.resolve("extra-tokens.yaml");
        Files.writeString(
                extraTokens,
                """
                tokens:
                  - name: attacks-reader
                    sha256: "%s"
                    scopes: [read]
                  - name: attacks-silencer
                    sha256: "%s"
                    scopes: [silence]
                """
                        .formatted(BearerTokens.hash(READER), BearerTokens.hash(SILENCER)));
        Map<String, String> env = new HashMap<>();
        env.put(SECRET_ENV, "attacks-webhook-signing-secret-32-bytes!");
        env.put("ATTACKS_BETTERSTACK_TOKEN", "bs-token-for-the-fake");
        env.put("ATTACKS_SLACK_URL", "http://127.0.0.1:" + vendor.port() + "/slack/hook");
        env.put(StandaloneLauncher.TOKENS_FILE_ENV, extraTokens.toString());
        StackSupport.withExternalDb(env);
        StandaloneOptions options = StandaloneOptions.defaults(dir.resolve("data"))
                .withFreePorts()
                .withAllowList(List.of("127.0.0.1/32"))
                .withRouting(routing);
        vigil = StandaloneLauncher.start(options, env, line -> {});
        ingestKey =
                Files.readString(dir.resolve("data/config/ingest-api-key.txt")).strip();
        targets = StackSupport.targets(vigil, options, true, java.util.Set.of("demo-outage"));
    }

    @AfterAll
    static void stop() throws Exception {
        StackSupport.closeAll(targets, vigil, sink, vendor == null ? null : vendor::disposeNow);
    }

    private static String post(String path, String body, String... headers) {
        return RawHttpConnection.post(path, "application/json", body, headers);
    }

    private static String get(String path, String... headers) {
        StringBuilder sb = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (String h : headers) {
            sb.append(h).append("\r\n");
        }
        return sb.append("\r\n").toString();
    }

    private static String delete(String path, String... headers) {
        return get(path, headers).replaceFirst("^GET", "DELETE");
    }

    private static String bearer(String token) {
        return "Authorization: Bearer " + token;
    }

    private static String admin() {
        return bearer(vigil.adminToken());
    }

    private static final String MUTE_ALL = "{\"fingerprint\":\"*\",\"durationMinutes\":525600,\"reason\":\"mute\"}";

    /** An app event forging the incident of a real monitor: what ingest must namespace and re-derive. */
    private static String forged(String state, String channels) {
        long t = System.currentTimeMillis() - 60_000;
        return "{\"schemaVersion\":1,\"fingerprint\":\"monitor/demo-outage\",\"incidentId\":\"monitor/demo-outage@" + t
                + "\",\"eventId\":\"monitor/demo-outage@" + t + "/opened/1\",\"state\":\"" + state
                + "\",\"severity\":\"critical\","
                + "\"service\":\"demo\",\"summary\":\"<!channel> <@U024BE7LH> <https://evil.example|click> db\u202Eok\","
                + "\"firstSeen\":" + t + ",\"lastSeen\":" + t + ",\"source\":\"probe\""
                + (channels == null ? "" : ",\"channels\":" + channels) + "}";
    }

    static List<Attack> attacks() {
        String ingestAuth = bearer(ingestKey);
        String longToken = "vgl_" + "x".repeat(4000);
        List<Attack> a = new ArrayList<>();
        // the query API: unauthenticated and wrongly scoped writes and reads
        a.add(new Attack("mute everything without a token", "query", post("/v1/silences", MUTE_ALL), 401));
        a.add(new Attack(
                "mute everything with a made-up token",
                "query",
                post("/v1/silences", MUTE_ALL, bearer("vgl_guess")),
                401));
        a.add(new Attack(
                "mute everything with the ingest API key", "query", post("/v1/silences", MUTE_ALL, ingestAuth), 401));
        a.add(new Attack(
                "mute everything with a read token", "query", post("/v1/silences", MUTE_ALL, bearer(READER)), 403));
        a.add(new Attack(
                "mute everything with Basic credentials",
                "query",
                post("/v1/silences", MUTE_ALL, "Authorization: Basic YWRtaW46YWRtaW4="),
                401));
        a.add(new Attack(
                "mute everything with the token in the query string",
                "query",
                post("/v1/silences?token=" + vigil.adminToken(), MUTE_ALL),
                401));
        a.add(new Attack(
                "mute everything with a 4 KB token", "query", post("/v1/silences", MUTE_ALL, bearer(longToken)), 401));
        a.add(new Attack(
                "expire a silence without a token",
                "query",
                delete("/v1/silences/0b7c2d9e-5a43-4f7e-9d1c-3f2a1b0c9d8e"),
                401));
        a.add(new Attack(
                "expire a silence with a read token",
                "query",
                delete("/v1/silences/0b7c2d9e-5a43-4f7e-9d1c-3f2a1b0c9d8e", bearer(READER)),
                403));
        a.add(new Attack("list incidents without a token", "query", get("/v1/alerts?state=all"), 401));
        a.add(new Attack("fleet status without a token", "query", get("/v1/status"), 401));
        a.add(new Attack("silences list without a token", "query", get("/v1/silences"), 401));
        a.add(new Attack("read the audit log with a read token", "query", get("/v1/audit", bearer(READER)), 403));
        a.add(new Attack("read the audit log with a silence token", "query", get("/v1/audit", bearer(SILENCER)), 403));
        a.add(new Attack(
                "acknowledge without a token", "query", post("/v1/alerts/monitor%2Fdemo-outage/ack", "{}"), 401));
        a.add(new Attack(
                "list silences with a silence-only token", "query", get("/v1/silences", bearer(SILENCER)), 403));
        a.add(new Attack(
                "acknowledge with a silence token",
                "query",
                post("/v1/alerts/monitor%2Fdemo-outage/ack", "{}", bearer(SILENCER)),
                403));
        a.add(new Attack(
                "unacknowledge with a read token",
                "query",
                delete("/v1/alerts/monitor%2Fdemo-outage/ack", bearer(READER)),
                403));
        a.add(new Attack(
                "acknowledge for a year",
                "query",
                post("/v1/alerts/monitor%2Fdemo-outage/ack", "{\"until\":\"365d\"}", admin()),
                400));
        a.add(new Attack("unknown route without a token", "query", get("/v1/../../etc/passwd"), 401));
        a.add(new Attack(
                "DNS rebinding: foreign Host with a valid token",
                "query",
                get("/v1/status", admin()).replace("Host: 127.0.0.1", "Host: rebind.attacker.example"),
                421));
        a.add(new Attack(
                "history from the year 999999999",
                "query",
                get(
                        "/v1/monitors/demo-outage/history?from=%2B999999999-01-01T00:00:00Z&to=2026-12-01T00:00:00Z",
                        admin()),
                400));
        a.add(new Attack(
                "metrics to a negative epoch",
                "query",
                get("/v1/metrics/demo/http_request?from=-1&to=5", admin()),
                400));
        a.add(new Attack(
                "silence ending in the year 999999999",
                "query",
                post(
                        "/v1/silences",
                        "{\"fingerprint\":\"monitor/x\",\"endsAt\":\"+999999999-01-01T00:00:00Z\",\"reason\":\"r\"}",
                        admin()),
                400));
        a.add(new Attack(
                "silence for ten years",
                "query",
                post(
                        "/v1/silences",
                        "{\"fingerprint\":\"monitor/x\",\"durationMinutes\":5256000,\"reason\":\"r\"}",
                        admin()),
                400));
        a.add(new Attack(
                "silence body of 70 KB",
                "query",
                post(
                        "/v1/silences",
                        "{\"fingerprint\":\"monitor/x\",\"reason\":\"" + "r".repeat(70_000) + "\"}",
                        admin()),
                413));
        a.add(new Attack(
                "query API path with a traversal id", "query", get("/v1/monitors/..%2F..%2Fadmin", admin()), 400));
        // ingest: forged app events, keys, sizes, dates, PII
        a.add(new Attack("alert event without a key", "ingest", post("/v1/alerts", forged("resolved", null)), 401));
        a.add(new Attack(
                "alert event with the admin token as key",
                "ingest",
                post("/v1/alerts", forged("resolved", null), admin()),
                401));
        a.add(new Attack(
                "forged resolution of a monitor's incident",
                "ingest",
                post("/v1/alerts", forged("resolved", null), ingestAuth),
                202));
        a.add(new Attack(
                "pre-claim of the monitor's next page id",
                "ingest",
                post("/v1/alerts", forged("opened", null), ingestAuth),
                202));
        a.add(new Attack(
                "impersonated monitor page with a BetterStack override",
                "ingest",
                post("/v1/alerts", forged("opened", "[\"betterstack\"]"), ingestAuth),
                202));
        a.add(new Attack(
                "Alertmanager payload forging the monitor",
                "ingest",
                post(
                        "/v1/alerts",
                        """
                {"version":"4","status":"resolved","receiver":"vigil","groupKey":"{}:{alertname=\\"x\\"}","alerts":[
                 {"status":"resolved","labels":{"alertname":"monitor","severity":"critical","instance":"demo-outage"},
                  "annotations":{"summary":"forged"},"startsAt":"2026-12-01T00:00:00Z","endsAt":"2026-12-01T00:05:00Z",
                  "fingerprint":"a1b2c3d4e5f60718"}]}""",
                        ingestAuth),
                202));
        a.add(new Attack(
                "alert body of 2 MB",
                "ingest",
                post("/v1/alerts", "[" + "\"x\",".repeat(500_000) + "1]", ingestAuth),
                413));
        a.add(new Attack(
                "unauthenticated 2 GB Content-Length, refused before a byte is read",
                "ingest",
                "POST /v1/alerts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2147483648\r\n\r\n",
                413));
        a.add(new Attack(
                "unauthenticated 60 KB Content-Length, answered without reading it",
                "ingest",
                "POST /v1/alerts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n",
                401));
        a.add(new Attack(
                "DNS rebinding on ingest",
                "ingest",
                post("/v1/metrics", "[]", ingestAuth).replace("Host: 127.0.0.1", "Host: rebind.attacker.example"),
                421));
        a.add(new Attack(
                "probe results with a forged signature",
                "ingest",
                post(
                        "/v1/probe-results",
                        "[]",
                        "X-Vigil-Key-Id: us-east",
                        "X-Vigil-Timestamp: " + System.currentTimeMillis() / 1000,
                        "X-Vigil-Request-Id: r-1",
                        "X-Vigil-Signature: v1=00",
                        "X-Vigil-Region: us-east"),
                401));
        a.add(new Attack(
                "metric from the year 999999999",
                "ingest",
                post(
                        "/v1/metrics",
                        "[{\"metricName\":\"http_request\",\"status\":\"200\",\"pathname\":\"/x\",\"timestamp\":\"+999999999-01-01T00:00:00Z\"}]",
                        ingestAuth),
                400));
        a.add(new Attack(
                "metrics with a made-up key", "ingest", post("/v1/metrics", "[]", bearer("vigil_guess")), 401));
        a.add(new Attack(
                "e-mail address in a metric path",
                "ingest",
                post(
                        "/v1/metrics",
                        "[{\"metricName\":\"http_request\",\"status\":\"200\",\"pathname\":\"/users/john@example.com\"}]",
                        ingestAuth),
                400));
        a.add(new Attack(
                "fullwidth e-mail address in an alert summary",
                "ingest",
                post(
                        "/v1/alerts",
                        "{\"schemaVersion\":1,\"fingerprint\":\"checkout/pii\",\"state\":\"opened\",\"severity\":\"warning\","
                                + "\"service\":\"checkout\",\"summary\":\"mail ｊｏｈｎ＠ｅｘａｍｐｌｅ．ｃｏｍ\",\"firstSeen\":1,\"lastSeen\":1,"
                                + "\"source\":\"app\"}",
                        ingestAuth),
                400));
        a.add(new Attack(
                "bearer token in a metric label",
                "ingest",
                post(
                        "/v1/metrics",
                        "[{\"metricName\":\"http_request\",\"status\":\"200\",\"pathname\":\"/x\",\"labels\":{\"auth\":"
                                + "\"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2lnbmF0dXJl\"}}]",
                        ingestAuth),
                400));
        a.add(new Attack(
                "TRACE on the query API", "query", get("/v1/status", admin()).replaceFirst("^GET", "TRACE"), 405));
        a.add(new Attack(
                "audit range of ten years",
                "query",
                get("/v1/audit?from=2016-01-01T00:00:00Z&to=2026-01-01T00:00:00Z", admin()),
                400));
        a.add(new Attack(
                "notifier health server, foreign Host",
                "notifier",
                get("/health").replace("Host: 127.0.0.1", "Host: rebind.attacker.example"),
                421));
        a.add(new Attack("notifier unknown path", "notifier", get("/admin"), 404));
        return a;
    }

    private static int port(String server) {
        return switch (server) {
            case "query" -> vigil.queryPort();
            case "ingest" -> vigil.ingestPort();
            case "notifier" -> vigil.notifierPort();
            default -> throw new IllegalArgumentException(server);
        };
    }

    @Test
    @Order(1)
    void everyAttackGetsItsAnswer() throws Exception {
        List<String> wrong = new ArrayList<>();
        List<Attack> table = attacks();
        for (Attack attack : table) {
            try (RawHttpConnection c = new RawHttpConnection(port(attack.server()), 20_000)) {
                c.send(attack.request());
                RawHttpConnection.Response r = c.read();
                // a metric batch with one bad event may answer per event; any 4xx there counts as refused
                boolean ok = r.status() == attack.expected()
                        || (attack.expected() == 400
                                && attack.server().equals("ingest")
                                && r.status() >= 400
                                && r.status() < 500);
                if (!ok) {
                    wrong.add(
                            attack.name() + ": expected " + attack.expected() + ", got " + r.status() + " " + r.body());
                }
                if (r.status() >= 400) {
                    assertThat(r.headers().get("content-type"))
                            .as(attack.name())
                            .startsWith("application/problem+json");
                    assertThat(r.body())
                            .as(attack.name() + " never echoes a credential")
                            .doesNotContain(vigil.adminToken())
                            .doesNotContain(ingestKey);
                }
            }
        }
        assertThat(table).hasSizeGreaterThanOrEqualTo(40);
        assertThat(wrong).as("attacks answered differently than expected").isEmpty();
    }

    @Test
    @Order(2)
    void slowlorisAndHeaderOnlyFloodsAreCutOffAndTheServersStillAnswer() throws Exception {
        for (String server : List.of("query", "ingest", "notifier")) {
            try (RawHttpConnection c = new RawHttpConnection(port(server), 30_000)) {
                c.sendPartial("POST /v1/alerts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
                RawHttpConnection.Response r = c.read();
                assertThat(r.status()).as(server + " slowloris").isEqualTo(408);
                assertThat(c.closedByServer())
                        .as(server + " closes the slow connection")
                        .isTrue();
            }
        }
        Runtime rt = Runtime.getRuntime();
        long before = rt.totalMemory() - rt.freeMemory();
        List<RawHttpConnection> flood = new ArrayList<>();
        try {
            for (int i = 0; i < 200; i++) {
                RawHttpConnection c = new RawHttpConnection(vigil.ingestPort(), 30_000);
                c.sendPartial("POST /v1/metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + "p".repeat(4000));
                flood.add(c);
            }
            // a genuine request is served while 200 connections hold half a header each
            try (RawHttpConnection ok = new RawHttpConnection(vigil.ingestPort(), 10_000)) {
                ok.send(get("/health"));
                assertThat(ok.read().status()).isEqualTo(200);
            }
            for (RawHttpConnection c : flood) {
                assertThat(c.read().status()).isEqualTo(408);
            }
        } finally {
            for (RawHttpConnection c : flood) {
                c.close();
            }
        }
        long after = rt.totalMemory() - rt.freeMemory();
        assertThat(after - before)
                .as("heap growth while 200 header-only connections were held")
                .isLessThan(512L * 1024 * 1024);
    }

    @Test
    @Order(3)
    void silencesAreCappedAndAFloodLeavesTheNextOneRefused() throws Exception {
        int created = 0;
        int refusedAt = -1;
        try (RawHttpConnection c = new RawHttpConnection(vigil.queryPort(), 30_000)) {
            for (int i = 0; i < 1100 && refusedAt < 0; i++) {
                c.send(post(
                        "/v1/silences",
                        "{\"fingerprint\":\"flood/" + i + "\",\"durationMinutes\":60,\"reason\":\"flood\"}",
                        bearer(SILENCER)));
                RawHttpConnection.Response r = c.read();
                if (r.status() == 201) {
                    created++;
                } else {
                    assertThat(r.status()).as(r.body()).isEqualTo(409);
                    assertThat(r.body()).as("the author's own cap, named").contains("too-many-silences-by-author");
                    refusedAt = i;
                }
            }
        }
        assertThat(refusedAt).as("the flood hits the cap").isPositive();
        // one token fills its own share, never the store: the others (and admins) can still add silences
        assertThat(created)
                .as("exactly silences.maxPerAuthor are accepted from one token, however fast they come")
                .isEqualTo(50);
    }

    @Test
    @Order(4)
    void nothingTheAttacksSentChangedAnythingAndTheGenuinePageStillArrives() throws Exception {
        targets.force("outage", false);
        await("the genuine outage pages the webhook")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> sink.deliveries().stream()
                        .anyMatch(d -> d.event().fingerprint().equals("monitor/demo-outage")
                                && d.event().state() == AlertState.OPENED
                                && d.event().source() != dev.vigil.schemas.contract.AlertSource.APP));
        List<AlertEvent> events =
                sink.deliveries().stream().map(WebhookSink.Delivery::event).toList();
        assertThat(events)
                .filteredOn(e -> e.fingerprint().equals("monitor/demo-outage"))
                .as("no forged event reached a channel under the monitor's fingerprint")
                .allSatisfy(e -> {
                    assertThat(e.source()).isEqualTo(dev.vigil.schemas.contract.AlertSource.PROBE);
                    assertThat(e.state()).isEqualTo(AlertState.OPENED);
                });
        assertThat(events)
                .filteredOn(e -> e.source() == dev.vigil.schemas.contract.AlertSource.APP)
                .allSatisfy(e -> assertThat(e.fingerprint()).startsWith("app/demo/"));
        assertThat(vendorCalls)
                .filteredOn(c -> c.contains("/betterstack"))
                .as("no BetterStack call at all")
                .isEmpty();
        assertThat(vendorCalls)
                .filteredOn(c -> c.contains("/slack"))
                .as("Slack text from data can never ping")
                .allSatisfy(c -> assertThat(c)
                        .doesNotContain("<!channel>")
                        .doesNotContain("<@U024BE7LH>")
                        .doesNotContain("\u202E"));
        // no silence of the attacks exists, only the flood's own
        try (RawHttpConnection c = new RawHttpConnection(vigil.queryPort(), 10_000)) {
            c.send(get("/v1/silences?state=all", admin()));
            RawHttpConnection.Response r = c.read();
            assertThat(r.status()).isEqualTo(200);
            Json.tree(r.body().getBytes(StandardCharsets.UTF_8))
                    .path("silences")
                    .forEach(s -> assertThat(s.path("fingerprint").asText()).startsWith("flood/"));
        }
        var db = vigil.postgres().database().url();
        try (var c = java.sql.DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                var st = c.prepareStatement(
                        "SELECT count(*) FROM incidents WHERE incident_id LIKE 'monitor/demo-outage@%'")) {
            try (var rs = st.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1))
                        .as("the only monitor incident row is the genuine one")
                        .isLessThanOrEqualTo(1);
            }
        }
    }
}
