package dev.vigil.standalone.demo;

import dev.vigil.schemas.contract.MonitorDefinition;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** Local HTTP targets that play {@link DemoScenario} on loopback, and the monitors that watch them. */
public final class DemoTargets implements AutoCloseable {
    public static final List<String> TARGETS = List.of("healthy", "outage", "escalating", "flapping", "slow", "status-down");
    private final DisposableServer server;
    private final Instant started;
    private final Map<String, DemoScenario.Answer> forced;

    private DemoTargets(DisposableServer server, Instant started, Map<String, DemoScenario.Answer> forced) {
        this.server = server;
        this.started = started;
        this.forced = forced;
    }

    /** Starts the targets on {@code host:port} (port 0 = any free port). */
    public static DemoTargets start(String host, int port, Clock clock) {
        Instant started = clock.instant();
        Map<String, DemoScenario.Answer> forced = new ConcurrentHashMap<>();
        DisposableServer server = HttpServer.create()
                .host(host)
                .port(port)
                .route(routes -> routes.get("/{target}/health", (req, res) -> {
                    String region = req.requestHeaders().get("X-Vigil-Region");
                    Duration since = Duration.between(started, clock.instant());
                    DemoScenario.Answer answer = forced.getOrDefault(req.param("target"),
                            DemoScenario.answer(req.param("target"), since, region));
                    if (answer == null) {
                        return res.status(404).sendString(Mono.just("{\"status\":\"no such demo target\"}"));
                    }
                    Mono<Void> reply = res.status(answer.status())
                            .header("Content-Type", "application/json")
                            .sendByteArray(Mono.just(answer.body().getBytes(StandardCharsets.UTF_8)))
                            .then();
                    return answer.delay().isZero() ? reply : Mono.delay(answer.delay()).then(reply);
                }))
                .bindNow();
        return new DemoTargets(server, started, forced);
    }

    /** Overrides the script for one target (drills and tests that must not wait for the timeline). */
    public void force(String target, boolean healthy) {
        forced.put(target, healthy ? DemoScenario.Answer.ok() : DemoScenario.Answer.unavailable());
    }

    public int port() {
        return server.port();
    }

    public String url(String target) {
        return "http://" + server.host() + ":" + server.port() + "/" + target + "/health";
    }

    public Instant started() {
        return started;
    }

    /** The demo's monitors: 10 s interval, every region, each with the expectation its story needs. */
    public List<MonitorDefinition> monitors(List<String> regions) {
        return TARGETS.stream().map(t -> new MonitorDefinition(1, "demo-" + t, "Demo: " + t, url(t), "GET", 10,
                2500, regions, t.equals("slow")
                        ? new MonitorDefinition.Expect(List.of("200-399"), MonitorDefinition.JsonAssertion.HEALTH, null, 1000)
                        : null,
                null, null, "demo", "demo-" + t, Map.of(), true)).toList();
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }
}
