package dev.vigil.standalone.demo;

import dev.vigil.schemas.contract.CheckType;
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
import reactor.netty.tcp.TcpServer;

/**
 * Local targets that play {@link DemoScenario} on loopback — HTTP endpoints, and a TCP service that greets with a
 * banner — and the monitors that watch them.
 */
public final class DemoTargets implements AutoCloseable {
    public static final List<String> TARGETS =
            List.of("healthy", "outage", "escalating", "flapping", "slow", "status-down");
    /** What the demo TCP service says on connect; its monitor expects {@link #TCP_EXPECT} in it. */
    public static final String TCP_BANNER = "220 vigil-demo ESMTP ready\r\n";

    public static final String TCP_EXPECT = "ESMTP ready";
    private final DisposableServer server;
    private final DisposableServer tcp;
    private final Instant started;
    private final Map<String, DemoScenario.Answer> forced;

    private DemoTargets(
            DisposableServer server, DisposableServer tcp, Instant started, Map<String, DemoScenario.Answer> forced) {
        this.server = server;
        this.tcp = tcp;
        this.started = started;
        this.forced = forced;
    }

    /** Starts the targets on {@code host:port} (port 0 = any free port), the TCP service on the next port (any when 0). */
    public static DemoTargets start(String host, int port, Clock clock) {
        Instant started = clock.instant();
        Map<String, DemoScenario.Answer> forced = new ConcurrentHashMap<>();
        DisposableServer server = HttpServer.create()
                .host(host)
                .port(port)
                .route(routes -> routes.get("/{target}/health", (req, res) -> {
                    String region = req.requestHeaders().get("X-Vigil-Region");
                    Duration since = Duration.between(started, clock.instant());
                    DemoScenario.Answer answer = forced.getOrDefault(
                            req.param("target"), DemoScenario.answer(req.param("target"), since, region));
                    if (answer == null) {
                        return res.status(404).sendString(Mono.just("{\"status\":\"no such demo target\"}"));
                    }
                    Mono<Void> reply = res.status(answer.status())
                            .header("Content-Type", "application/json")
                            .sendByteArray(Mono.just(answer.body().getBytes(StandardCharsets.UTF_8)))
                            .then();
                    return answer.delay().isZero()
                            ? reply
                            : Mono.delay(answer.delay()).then(reply);
                }))
                .bindNow();
        // the next port when the HTTP one is fixed: a restarted demo's stored monitor then finds its TCP service where
        // it was, instead of probing a port of the last run (refused) until the new definition is published
        DisposableServer tcp = TcpServer.create()
                .host(host)
                .port(port == 0 ? 0 : port + 1)
                .handle((in, out) ->
                        out.sendString(Mono.just(TCP_BANNER)).then(in.receive().then()))
                .bindNow();
        return new DemoTargets(server, tcp, started, forced);
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

    /** The port of the demo TCP service. */
    public int tcpPort() {
        return tcp.port();
    }

    /** The demo's HTTP monitors: 10 s interval, every region, each with the expectation its story needs. */
    public List<MonitorDefinition> monitors(List<String> regions) {
        return TARGETS.stream()
                .map(t -> new MonitorDefinition(
                        1,
                        "demo-" + t,
                        "Demo: " + t,
                        url(t),
                        "GET",
                        10,
                        2500,
                        regions,
                        t.equals("slow")
                                ? new MonitorDefinition.Expect(
                                        List.of("200-399"), MonitorDefinition.JsonAssertion.HEALTH, null, 1000)
                                : null,
                        null,
                        null,
                        "demo",
                        "demo-" + t,
                        Map.of(),
                        true))
                .toList();
    }

    /** The demo's TCP monitor: connects to the demo TCP service and expects its banner, every 10 s, every region. */
    public MonitorDefinition tcpMonitor(List<String> regions) {
        return new MonitorDefinition(
                1,
                "demo-tcp",
                "Demo: tcp banner",
                null,
                null,
                10,
                2500,
                regions,
                null,
                null,
                null,
                "demo",
                "demo-tcp",
                Map.of(),
                true,
                CheckType.TCP,
                null,
                null,
                new MonitorDefinition.Tcp(tcp.host(), tcp.port(), null, TCP_EXPECT),
                null,
                null,
                null);
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
        tcp.disposeNow(Duration.ofSeconds(5));
    }
}
