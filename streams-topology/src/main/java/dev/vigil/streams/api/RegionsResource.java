package dev.vigil.streams.api;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.query.QueryRequest;
import dev.vigil.streams.query.RouteExtension;
import dev.vigil.streams.topology.StoreNames;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import reactor.core.publisher.Mono;

/**
 * {@code GET /v1/regions} (scope {@code read}): the probe regions as the workers' heartbeats describe them (the global
 * {@code regions} store every instance holds), with the monitors of the catalogue naming each, and the regions monitors
 * name that no worker has ever served. What a form's region picker and {@code monitors apply} offer and accept:
 * <ul>
 *   <li>{@code serving}: a live worker serves it;</li>
 *   <li>{@code blind}: monitors name it, no live worker serves it (a self-alert is open);</li>
 *   <li>{@code idle}: workers served it once, none is live and no monitor names it;</li>
 *   <li>{@code unserved}: monitors name it and no worker has ever served it (applied with an override).</li>
 * </ul>
 */
public final class RegionsResource implements RouteExtension {
    private final Catalog<MonitorDefinition> monitors;
    private final Clock clock;

    public RegionsResource(Catalog<MonitorDefinition> monitors, Clock clock) {
        this.monitors = monitors;
        this.clock = clock;
    }

    @Override
    public void register(ApiRoutes routes, QueryBackend backend, Forwarder forwarder) {
        routes.get("/v1/regions", req -> regions(req, backend));
    }

    private Mono<HttpResult> regions(QueryRequest req, QueryBackend backend) {
        return QueryBackend.read(() -> {
                    Map<String, RegionStatus> known = new TreeMap<>();
                    try (var it = backend.<RegionStatus>keyValueStore(StoreNames.REGIONS_STORE)
                            .all()) {
                        it.forEachRemaining(kv -> {
                            if (kv.value != null) {
                                known.put(kv.key, kv.value);
                            }
                        });
                    }
                    Map<String, Integer> naming = new TreeMap<>();
                    for (MonitorDefinition m : monitors.snapshot().values()) {
                        if (m.isProbed()) {
                            m.regions().stream()
                                    .filter(r -> !r.equals(MonitorDefinition.DRILL_REGION))
                                    .forEach(r -> naming.merge(r, 1, Integer::sum));
                        }
                    }
                    List<Map<String, Object>> rows = new ArrayList<>();
                    java.util.Set<String> all = new java.util.TreeSet<>(known.keySet());
                    all.addAll(naming.keySet());
                    for (String region : all) {
                        RegionStatus s = known.get(region);
                        int named = naming.getOrDefault(region, 0);
                        Map<String, Object> row = new LinkedHashMap<>();
                        row.put("region", region);
                        row.put("state", state(s, named));
                        row.put("liveWorkers", s == null ? 0 : s.liveWorkers());
                        row.put("knownWorkers", s == null ? 0 : s.knownWorkers());
                        row.put("monitors", named);
                        row.put("everServed", s != null && s.everServed());
                        row.put("lastHeartbeatAt", s == null ? null : s.lastHeartbeatAt());
                        row.put("blindSince", s == null ? null : s.blindSince());
                        rows.add(row);
                    }
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("generatedAt", clock.millis());
                    body.put("complete", monitors.ready());
                    body.put("regions", rows);
                    return HttpResult.ok(body);
                })
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    static String state(RegionStatus s, int monitorsNaming) {
        if (s == null || !s.everServed()) {
            return monitorsNaming > 0 ? "unserved" : "idle";
        }
        if (s.liveWorkers() > 0) {
            return "serving";
        }
        return monitorsNaming > 0 || s.blind() ? "blind" : "idle";
    }
}
