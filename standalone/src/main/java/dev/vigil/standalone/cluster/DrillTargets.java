package dev.vigil.standalone.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The endpoints the drill's monitors check: {@code /t/<monitorId>} answers 200, or 503 while an outage of that
 * monitor's schedule is on. Outages are fixed intervals of wall-clock time, so what should have paged can be
 * computed afterwards from the schedule alone.
 */
final class DrillTargets implements AutoCloseable {
    record Outage(String monitorId, Instant start, Instant end) {}

    private final Map<String, List<Outage>> outages = new ConcurrentHashMap<>();
    private final DisposableServer server;

    DrillTargets(int port) {
        server = HttpServer.create()
                .host("127.0.0.1")
                .port(port)
                .route(r -> r.get("/t/{id}", (req, res) -> {
                    boolean down = isDown(req.param("id"), Instant.now());
                    return res.status(down ? 503 : 200)
                            .sendString(reactor.core.publisher.Mono.just(down ? "down" : "ok"));
                }))
                .bindNow();
    }

    String url(String monitorId) {
        return "http://127.0.0.1:" + server.port() + "/t/" + monitorId;
    }

    /** Schedules outages of {@code length} every {@code period} from {@code first} until {@code until}. */
    void schedule(String monitorId, Instant first, Duration period, Duration length, Instant until) {
        List<Outage> list = new ArrayList<>();
        for (Instant s = first; s.plus(length).isBefore(until); s = s.plus(period)) {
            list.add(new Outage(monitorId, s, s.plus(length)));
        }
        outages.put(monitorId, List.copyOf(list));
    }

    /**
     * Schedules no outage after now and answers when the outages in progress end. Each runs its whole length: an
     * outage cut to a few seconds could not page, and the count would call a missed page what was barely an outage.
     */
    Instant stopScheduling() {
        Instant now = Instant.now();
        outages.replaceAll(
                (id, list) -> list.stream().filter(o -> o.start().isBefore(now)).toList());
        Instant over = now;
        for (List<Outage> list : outages.values()) {
            for (Outage o : list) {
                if (o.end().isAfter(over)) {
                    over = o.end();
                }
            }
        }
        return over;
    }

    List<Outage> outages(String monitorId) {
        return outages.getOrDefault(monitorId, List.of());
    }

    private boolean isDown(String id, Instant at) {
        for (Outage o : outages(id)) {
            if (!at.isBefore(o.start()) && at.isBefore(o.end())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        server.disposeNow();
    }
}
