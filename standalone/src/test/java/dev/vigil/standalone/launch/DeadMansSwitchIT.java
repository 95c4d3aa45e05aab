package dev.vigil.standalone.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
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
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The dead-man's switch on the whole stack (one region, the canary every 10 s, a check-in every 2 s): a local
 * stand-in for the heartbeat service receives GETs only once the canary has passed; when Streams is stopped (the
 * pipeline stalls while the notifier lives on) the check-ins stop within the canary's bound and the notifier's
 * {@code vigil/pipeline-stalled} warning reaches the team's channel. No canary event is ever delivered.
 */
class DeadMansSwitchIT {
    private static final String URL_ENV = "DEADMAN_IT_HEARTBEAT_URL";
    private static final Duration PING = Duration.ofSeconds(2);

    @TempDir
    static Path dir;

    static final List<Long> pings = new CopyOnWriteArrayList<>();
    static DisposableServer heartbeat;
    static WebhookSink sink;
    static StandaloneLauncher vigil;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        heartbeat = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .route(r -> r.get("/ping/{uuid}", (req, res) -> {
                    pings.add(System.currentTimeMillis());
                    return res.status(200).sendString(Mono.just("OK"));
                }))
                .bindNow();
        sink = new WebhookSink();
        Path routing = dir.resolve("routing.yaml");
        Files.writeString(
                routing,
                """
                channels:
                  team:
                    type: webhook
                    url: %s
                    secretEnv: DEADMAN_IT_WEBHOOK_SECRET
                defaults:
                  critical: [team]
                  warning: [team]
                  info: [team]
                """
                        .formatted(sink.url("team")));
        Map<String, String> env = new HashMap<>();
        env.put("DEADMAN_IT_WEBHOOK_SECRET", "deadman-webhook-signing-secret-32-bytes");
        env.put(URL_ENV, "http://127.0.0.1:" + heartbeat.port() + "/ping/5f1c1e2a-0000-4000-8000-000000000001");
        StackSupport.withExternalDb(env);
        StandaloneOptions options = new StandaloneOptions(
                dir.resolve("data"),
                "127.0.0.1",
                0,
                0,
                0,
                0,
                0,
                0,
                List.of("us-east"),
                List.of(),
                routing,
                null,
                null,
                new StandaloneOptions.DeadMan(URL_ENV, PING));
        vigil = StandaloneLauncher.start(options, env, line -> {});
    }

    @AfterAll
    static void stop() throws Exception {
        StackSupport.closeAll(vigil, sink, heartbeat == null ? null : heartbeat::disposeNow);
    }

    private static double metric(String line) throws Exception {
        String body = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + vigil.notifierPort() + "/metrics"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        return body.lines()
                .filter(l -> l.startsWith(line))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElse(Double.NaN);
    }

    private static List<AlertEvent> delivered(String fingerprint) {
        return sink.deliveries().stream()
                .map(WebhookSink.Delivery::event)
                .filter(e -> e.fingerprint().equals(fingerprint))
                .toList();
    }

    @Test
    void checksInOnlyWhileTheCanaryPassesAndStopsWithinTheBoundWhenThePipelineStalls() throws Exception {
        await("the canary passes and the heartbeat stand-in is pinged")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> pings.size() >= 3);
        // the switch checked in before the first canary had passed: those check-ins were withheld, not sent
        assertThat(metric("vigil_deadman_pings_total{result=\"withheld\"")).isGreaterThanOrEqualTo(1);
        assertThat(metric("vigil_deadman_pings_total{result=\"sent\"")).isGreaterThanOrEqualTo(3);
        double age = metric("vigil_canary_age_seconds");
        assertThat(age).isBetween(0.0, (double) Canary.MAX_AGE.toSeconds());

        long stalled = System.currentTimeMillis();
        vigil.stop("streams");
        // the last canary window started before the stop: check-ins end within the bound (plus one check-in)
        long deadline = stalled + Canary.MAX_AGE.toMillis() + PING.toMillis() + 1000;
        await("the notifier's pipeline-stalled warning reaches the team")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .until(() ->
                        delivered("vigil/pipeline-stalled").stream().anyMatch(e -> e.state() == AlertState.OPENED));
        long quietFor = Math.max(1, deadline + 3 * PING.toMillis() - System.currentTimeMillis());
        await("no check-in past the bound")
                .during(Duration.ofMillis(quietFor))
                .atMost(Duration.ofMillis(quietFor + 10_000))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> pings.stream().allMatch(t -> t <= deadline));
        assertThat(pings).as("check-ins after the stall at %d", stalled).allMatch(t -> t <= deadline);
        assertThat(metric("vigil_canary_age_seconds")).isGreaterThan((double) Canary.MAX_AGE.toSeconds());
        AlertEvent warning = delivered("vigil/pipeline-stalled").get(0);
        assertThat(warning.severity()).isEqualTo(Severity.WARNING);

        // the canary's events were consumed by the notifier, never delivered; the healthy canary paged nothing
        assertThat(delivered("vigil/canary")).isEmpty();
        assertThat(delivered("monitor/" + Canary.ID)).isEmpty();
    }
}
