package dev.vigil.standalone.launch;

import dev.vigil.schemas.topic.Topics;
import dev.vigil.standalone.demo.DemoTargets;
import dev.vigil.standalone.monitors.MonitorCatalog;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** What the whole-stack ITs share: a recording vendor stand-in, the demo targets and their monitors, clean-up. */
final class StackSupport {
    private StackSupport() {}

    /** {@code env} plus {@code VIGIL_DB_URL} when the machine names an external PostgreSQL (CI may). */
    static Map<String, String> withExternalDb(Map<String, String> env) {
        String externalDb = System.getenv("VIGIL_DB_URL");
        if (externalDb != null) {
            env.put("VIGIL_DB_URL", externalDb);
        }
        return env;
    }

    /** A vendor API stand-in that records {@code METHOD uri body} of every call and answers {@code answer(uri)}. */
    static DisposableServer recordingVendor(List<String> calls, Function<String, Map.Entry<Integer, String>> answer) {
        return HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .route(r -> r.route(req -> true, (req, res) -> req.receive()
                        .aggregate()
                        .asString()
                        .defaultIfEmpty("")
                        .flatMap(body -> {
                            calls.add(req.method() + " " + req.uri() + " " + body);
                            Map.Entry<Integer, String> a = answer.apply(req.uri());
                            return res.status(a.getKey())
                                    .header("Content-Type", "application/json")
                                    .sendString(Mono.just(a.getValue()))
                                    .then();
                        })))
                .bindNow();
    }

    /** The demo targets with {@code outageHealthy} forced, and the monitors named {@code ids} published to the stack. */
    static DemoTargets targets(
            StandaloneLauncher vigil, StandaloneOptions options, boolean outageHealthy, Set<String> ids) {
        DemoTargets targets = DemoTargets.start("127.0.0.1", 0, Clock.systemUTC());
        targets.force("outage", outageHealthy);
        var monitors = targets.monitors(options.regions()).stream()
                .filter(m -> ids.contains(m.id()))
                .toList();
        new MonitorCatalog(vigil.bootstrapServers(), Topics.MONITORS, Duration.ofSeconds(30))
                .publish(monitors, List.of());
        return targets;
    }

    /** Closes each (in order) that is not null. */
    static void closeAll(AutoCloseable... parts) throws Exception {
        for (AutoCloseable p : parts) {
            if (p != null) {
                p.close();
            }
        }
    }
}
