package dev.vigil.streams.readmodel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.streams.health.Health;
import dev.vigil.streams.health.WorkerHealth;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.query.QueryRequest;
import dev.vigil.streams.query.StatusPage;
import dev.vigil.streams.topology.StoreNames;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import reactor.core.publisher.Mono;

/** {@code GET /v1/workers}: every probe worker's health by region, gathered from every instance. */
public final class WorkersResource {
    private final Clock clock;
    private final Gathering gathering;

    public WorkersResource(QueryBackend backend, Forwarder forwarder, Clock clock) {
        this.clock = clock;
        this.gathering = new Gathering(backend, forwarder, clock);
    }

    public ApiRoutes register(ApiRoutes routes) {
        return routes.get("/v1/workers", this::workers);
    }

    private Mono<HttpResult> workers(QueryRequest req) {
        return gathering.gather(
                req,
                null,
                b -> StatusPage.Slice.whole(localWorkers(b)),
                "workers",
                Comparator.<JsonNode, String>comparing(n -> n.path("region").asText())
                        .thenComparing(n -> n.path("workerId").asText()),
                null,
                rows -> {
                    Map<String, Map<String, Long>> byRegion = new TreeMap<>();
                    for (JsonNode row : rows) {
                        Map<String, Long> counts =
                                byRegion.computeIfAbsent(row.path("region").asText(), r -> {
                                    Map<String, Long> c = new LinkedHashMap<>();
                                    for (Health h : Health.values()) {
                                        c.put(h.wire(), 0L);
                                    }
                                    return c;
                                });
                        counts.merge(row.path("health").asText(), 1L, Long::sum);
                    }
                    return Map.of("regions", byRegion);
                });
    }

    private List<Map<String, Object>> localWorkers(QueryBackend backend) {
        ReadOnlyKeyValueStore<String, WorkerHealth> store = backend.keyValueStore(StoreNames.WORKER_HEALTH_STORE);
        long now = clock.millis();
        List<Map<String, Object>> rows = new ArrayList<>();
        try (var it = store.all()) {
            it.forEachRemaining(kv -> {
                WorkerHealth w = kv.value;
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("workerId", w.workerId());
                row.put("region", w.region());
                row.put("health", w.health());
                row.put("healthSince", w.healthSince());
                row.put("lastHeartbeatAt", w.lastHeartbeatAt());
                row.put("heartbeatAgeMs", Math.max(0, now - w.lastHeartbeatAt()));
                row.put("inFlight", w.inFlight());
                row.put("monitorsAssigned", w.monitorsAssigned());
                row.put("version", w.version());
                rows.add(row);
            });
        }
        return rows;
    }
}
