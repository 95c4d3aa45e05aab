package dev.vigil.standalone.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.standalone.cli.CliRun;
import dev.vigil.standalone.monitors.MonitorCatalog;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.tcp.TcpServer;

/**
 * Check types on the whole stack (docs/monitors.md#check-types), pages to a webhook channel: a heartbeat monitor that is pinged
 * through ingest, then goes silent and pages {@code opened}, then is pinged again and resolves; and a TCP monitor
 * whose banner server goes away and pages. And {@code vigil monitors} through the query API with a monitor of every
 * type: apply, an export that applies back as no change, a file with one bad monitor that publishes nothing, delete.
 */
class CheckTypesStackIT {
    private static final String HEARTBEAT = "job-heartbeat";
    private static final String TCP = "banner-tcp";

    @TempDir
    static Path dir;

    static WebhookSink sink;
    static StandaloneLauncher vigil;
    static DisposableServer banner;
    static final String TOKEN = BearerTokens.generate();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static StandaloneOptions options;

    @BeforeAll
    static void start() throws Exception {
        sink = new WebhookSink();
        banner = TcpServer.create()
                .host("127.0.0.1")
                .port(0)
                .handle((in, out) -> out.sendString(Mono.just("+OK vigil test banner\r\n"))
                        .then(in.receive().then()))
                .bindNow();
        Path routing = dir.resolve("routing.yaml");
        Files.writeString(
                routing,
                """
                channels:
                  oncall:
                    type: webhook
                    url: %s
                    secretEnv: CHECKS_WEBHOOK_SECRET
                defaults:
                  critical: [oncall]
                  warning: [oncall]
                  info: [oncall]
                """
                        .formatted(sink.url("oncall")));
        Map<String, String> env = new HashMap<>();
        env.put("CHECKS_WEBHOOK_SECRET", "check-types-webhook-signing-secret-32b");
        StackSupport.withExternalDb(env);
        options = StandaloneOptions.defaults(dir.resolve("data"))
                .withFreePorts()
                .withAllowList(List.of("127.0.0.1/32"))
                .withRouting(routing);
        vigil = StandaloneLauncher.start(options, env, line -> {});
        MonitorDefinition heartbeat = new MonitorDefinition(
                1,
                HEARTBEAT,
                "nightly job",
                null,
                null,
                10,
                2500,
                null,
                null,
                null,
                null,
                "jobs",
                null,
                Map.of(),
                true,
                CheckType.HEARTBEAT,
                null,
                null,
                null,
                null,
                null,
                new MonitorDefinition.Heartbeat(null, null, 2, BearerTokens.hash(TOKEN)));
        MonitorDefinition tcp = new MonitorDefinition(
                1,
                TCP,
                "banner",
                null,
                null,
                10,
                2500,
                options.regions(),
                null,
                null,
                null,
                "mail",
                null,
                Map.of(),
                true,
                CheckType.TCP,
                null,
                null,
                new MonitorDefinition.Tcp("127.0.0.1", banner.port(), null, "+OK"),
                null,
                null,
                null);
        new MonitorCatalog(vigil.bootstrapServers(), Topics.MONITORS, Duration.ofSeconds(30))
                .publish(List.of(heartbeat, tcp), List.of());
    }

    @AfterAll
    static void stop() throws Exception {
        StackSupport.closeAll(vigil, sink, banner == null ? null : banner::disposeNow);
    }

    private static List<AlertEvent> delivered(String monitorId, AlertState state) {
        return sink.deliveries().stream()
                .map(WebhookSink.Delivery::event)
                .filter(e -> e.fingerprint().equals("monitor/" + monitorId) && e.state() == state)
                .toList();
    }

    private static int ping(String token) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + vigil.ingestPort() + "/v1/heartbeat/" + HEARTBEAT))
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(10))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void aHeartbeatPingedThenSilentPagesAndPingedAgainResolves() throws Exception {
        // pinged every 3 s for a while: up, no page (the first pings may meet ingest before it has read the monitor)
        // the job's schedule, as a cron would keep it: a ping every 3 s for 35 s
        long accepted = reactor.core.publisher.Flux.interval(Duration.ZERO, Duration.ofSeconds(3))
                .take(Duration.ofSeconds(35))
                .concatMap(tick -> reactor.core.publisher.Mono.fromCallable(() -> ping(TOKEN))
                        .subscribeOn(reactor.core.scheduler.Schedulers.boundedElastic()))
                .filter(status -> status / 100 == 2)
                .count()
                .block(Duration.ofSeconds(90));
        assertThat(accepted).as("pings ingest accepted").isGreaterThan(5);
        assertThat(ping("not-the-token-" + TOKEN.substring(0, 10)))
                .as("a wrong token")
                .isIn(401, 404);
        assertThat(delivered(HEARTBEAT, AlertState.OPENED))
                .as("no page while the job pings")
                .isEmpty();

        // the job goes silent: the missed heartbeat pages
        await("the missed heartbeat pages")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> !delivered(HEARTBEAT, AlertState.OPENED).isEmpty());
        AlertEvent opened = delivered(HEARTBEAT, AlertState.OPENED).get(0);
        assertThat(opened.summary().toLowerCase()).contains("heartbeat");

        // it pings again: resolved after the healthy windows
        await("pinged again, it resolves")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(3))
                .until(() -> {
                    ping(TOKEN);
                    return !delivered(HEARTBEAT, AlertState.RESOLVED).isEmpty();
                });
        assertThat(delivered(HEARTBEAT, AlertState.OPENED)).hasSize(1);
    }

    @Test
    void aTcpCheckPagesWhenItsServiceGoesAway() {
        await("the banner check is up")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> HTTP.send(
                                HttpRequest.newBuilder(URI.create(
                                                "http://127.0.0.1:" + vigil.queryPort() + "/v1/monitors/" + TCP))
                                        .header("Authorization", "Bearer " + vigil.adminToken())
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body()
                        .contains("\"status\":\"up\""));
        assertThat(delivered(TCP, AlertState.OPENED)).isEmpty();
        banner.disposeNow();
        await("the TCP check pages")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> !delivered(TCP, AlertState.OPENED).isEmpty());
    }

    private static CliRun monitors(String... args) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 4);
        all[args.length] = "--url";
        all[args.length + 1] = "http://127.0.0.1:" + vigil.queryPort();
        all[args.length + 2] = "--token";
        all[args.length + 3] = vigil.adminToken();
        return CliRun.vigil(all);
    }

    private static int definitionStatus(String id) throws Exception {
        return HTTP.send(
                        HttpRequest.newBuilder(URI.create(
                                        "http://127.0.0.1:" + vigil.queryPort() + "/v1/monitors/" + id + "/definition"))
                                .header("Authorization", "Bearer " + vigil.adminToken())
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    @Test
    void monitorsOfEveryTypeGoThroughTheApiAndAnExportAppliesBackAsNoChange() throws Exception {
        String region = options.regions().get(0);
        Path file = dir.resolve("every-type.yaml");
        Files.writeString(
                file,
                """
                monitors:
                  - id: it-http
                    name: "Checkout: health"
                    url: https://127.0.0.1:9/health?deep=yes
                    method: POST
                    intervalSeconds: 60
                    regions: [%1$s]
                    headers:
                      Accept: application/json
                      Authorization: {secretEnv: IT_HEALTH_TOKEN}
                    body: '{"ping": true}'
                    expect:
                      statusCodes: ["200", "204"]
                      bodyContains: ok
                    links: {runbook: "https://wiki.example.com/checkout#health"}
                    service: checkout
                  - id: it-tcp
                    regions: [%1$s]
                    type: tcp
                    tcp: {host: 127.0.0.1, port: 9, send: "PING\\r\\n", expect: "+PONG"}
                  - id: it-dns
                    regions: [%1$s]
                    type: dns
                    dns: {query: example.com, recordType: MX}
                  - id: it-tls
                    regions: [%1$s]
                    type: tls
                    tls: {host: 127.0.0.1, port: 9}
                    tlsExpiryWarnDays: 21
                  - id: it-heartbeat
                    type: heartbeat
                    heartbeat: {schedule: "0 2 * * *", zone: Europe/Paris, graceSeconds: 600}
                """
                        .formatted(region));
        // the API refuses a region until a probe worker has reported serving it
        CliRun[] applied = new CliRun[1];
        await("apply through the API")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> (applied[0] = monitors("monitors", "apply", "-f", file.toString())).exit() == 0);
        assertThat(applied[0].out())
                .contains("+ it-http", "+ it-tcp", "+ it-dns", "+ it-tls", "+ it-heartbeat", "5 to add, 0 to change")
                .contains("ping token for it-heartbeat: vgl_");
        for (String id : List.of("it-http", "it-tcp", "it-dns", "it-tls", "it-heartbeat")) {
            assertThat(definitionStatus(id)).as(id).isEqualTo(200);
        }

        Path exported = dir.resolve("export.yaml");
        CliRun export = monitors("monitors", "export", "-o", exported.toString());
        assertThat(export.exit()).as(export.err()).isZero();
        assertThat(Files.readString(exported))
                .contains("it-http", "secretEnv: IT_HEALTH_TOKEN", HEARTBEAT, TCP)
                .doesNotContain("revision", "checksPerDay", "hasToken", "tokenSha256");
        CliRun back = monitors("monitors", "apply", "-f", exported.toString(), "--dry-run", "--prune");
        assertThat(back.exit()).as(back.err()).isZero();
        assertThat(back.out())
                .contains("0 to add, 0 to change, 7 unchanged, 0 to delete", "dry run: nothing published");

        Path bad = dir.resolve("bad.yaml");
        Files.writeString(
                bad,
                """
                monitors:
                  - id: it-never
                    url: https://127.0.0.1:9/
                    regions: [%s]
                  - id: it-leaky
                    url: https://127.0.0.1:9/
                    regions: [%s]
                    headers: {Authorization: "Bearer written-in-the-file"}
                """
                        .formatted(region, region));
        CliRun refused = monitors("monitors", "apply", "-f", bad.toString());
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("nothing was published", "monitors[1] (id it-leaky).headers.Authorization");
        assertThat(definitionStatus("it-never")).isEqualTo(404);

        CliRun deleted = monitors("monitors", "delete", "it-dns");
        assertThat(deleted.exit()).as(deleted.err()).isZero();
        assertThat(definitionStatus("it-dns")).isEqualTo(404);
    }
}
