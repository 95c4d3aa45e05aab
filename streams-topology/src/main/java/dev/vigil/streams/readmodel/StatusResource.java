package dev.vigil.streams.readmodel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.Status;
import dev.vigil.streams.alerting.AlertStateRecord;
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
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import reactor.core.publisher.Mono;

/**
 * {@code GET /v1/status}: every monitor's latest verdict and open alert, gathered from every instance; or, for a
 * large fleet, a page at a time ({@code limit}, {@code cursor}; {@link StatusPage}).
 */
public final class StatusResource {
    private final Clock clock;
    private final Gathering gathering;

    public StatusResource(QueryBackend backend, Forwarder forwarder, Clock clock) {
        this.clock = clock;
        this.gathering = new Gathering(backend, forwarder, clock);
    }

    public ApiRoutes register(ApiRoutes routes) {
        return routes.get("/v1/status", this::status);
    }

    /** A status row's monitor id: the order of the list, and what a page's cursor is made of. */
    private static String monitorIdOf(JsonNode row) {
        return row.path("monitorId").asText();
    }

    /**
     * Every monitor's status in one answer, or with {@code limit} (and {@code cursor}) one page of them in id order
     * with a {@code next} cursor while more follow ({@link StatusPage}). {@code counts} counts the monitors of the
     * answer, so the pages' counts add up to the fleet's.
     */
    private Mono<HttpResult> status(QueryRequest req) {
        StatusPage page;
        try {
            page = StatusPage.of(req.queryParam("limit"), req.queryParam("cursor"));
        } catch (IllegalArgumentException e) {
            return Mono.just(HttpResult.badRequest(e.getMessage(), req.path()));
        }
        Function<QueryBackend, StatusPage.Slice<Map<String, Object>>> local =
                page == null ? b -> StatusPage.Slice.whole(localStatuses(b)) : b -> localStatusPage(b, page);
        return gathering.gather(
                req,
                page,
                local,
                "monitors",
                Comparator.comparing(StatusResource::monitorIdOf, StatusPage.ID_ORDER),
                StatusResource::monitorIdOf,
                rows -> {
                    Map<String, Long> counts = new LinkedHashMap<>();
                    for (Status s : Status.values()) {
                        counts.put(s.wire(), 0L);
                    }
                    counts.put("pending", 0L);
                    for (JsonNode row : rows) {
                        String s = row.path("status").isTextual()
                                ? row.path("status").asText()
                                : "pending";
                        counts.merge(s, 1L, Long::sum);
                    }
                    return Map.of("counts", counts);
                });
    }

    private List<Map<String, Object>> localStatuses(QueryBackend backend) {
        ReadOnlyKeyValueStore<String, MonitorDefinition> defs = backend.keyValueStore(StoreNames.DEFINITIONS_STORE);
        ReadOnlyKeyValueStore<String, MonitorStatus> latest = backend.keyValueStore(StoreNames.STATUS_STORE);
        Map<String, Map<String, Object>> rows = new TreeMap<>();
        try (var it = defs.all()) {
            it.forEachRemaining(kv -> rows.put(kv.key, putDefinition(newRow(kv.key), kv.value)));
        }
        try (var it = latest.all()) {
            it.forEachRemaining(kv -> putStatus(rows.computeIfAbsent(kv.key, StatusResource::newRow), kv.value));
        }
        // One scan of the alert store instead of three point reads per monitor: on a large fleet the reads, not the
        // scan, were most of this answer's time, and only open alerts matter here.
        Map<String, AlertStateRecord> openStates = new java.util.HashMap<>();
        ReadOnlyKeyValueStore<String, AlertStateRecord> alerts = AlertReads.alertStore(backend);
        if (alerts != null) {
            try (var it = alerts.all()) {
                it.forEachRemaining(kv -> {
                    if (kv.value != null && kv.value.isOpen()) {
                        openStates.put(kv.key, kv.value);
                    }
                });
            }
        }
        if (!openStates.isEmpty()) {
            putAlerts(backend, rows, openStates::get);
        }
        return new ArrayList<>(rows.values());
    }

    /**
     * This instance's first {@code page.limit()} monitors after the cursor: range scans of each partition's
     * definitions and latest statuses from the cursor on ({@link StatusPage#scan}), never the whole stores. A monitor
     * is listed when either store has it, as in the whole list; the first {@code limit} of the union are among the
     * first {@code limit + 1} of each store. Alerts are read by point for the page's monitors (three each): for a
     * page, fewer reads than a scan of every alert.
     */
    private StatusPage.Slice<Map<String, Object>> localStatusPage(QueryBackend backend, StatusPage page) {
        NavigableMap<String, MonitorDefinition> defs =
                page.scan(backend.<MonitorDefinition>keyValueStorePartitions(StoreNames.DEFINITIONS_STORE));
        NavigableMap<String, MonitorStatus> latest =
                page.scan(backend.<MonitorStatus>keyValueStorePartitions(StoreNames.STATUS_STORE));
        TreeSet<String> ids = new TreeSet<>(StatusPage.ID_ORDER);
        ids.addAll(defs.keySet());
        ids.addAll(latest.keySet());
        boolean more = ids.size() > page.limit();
        Map<String, Map<String, Object>> rows = new LinkedHashMap<>();
        for (String id : ids) {
            if (rows.size() == page.limit()) {
                break;
            }
            Map<String, Object> row = newRow(id);
            MonitorDefinition def = defs.get(id);
            if (def != null) {
                putDefinition(row, def);
            }
            MonitorStatus status = latest.get(id);
            if (status != null) {
                putStatus(row, status);
            }
            rows.put(id, row);
        }
        ReadOnlyKeyValueStore<String, AlertStateRecord> alerts = AlertReads.alertStore(backend);
        if (alerts != null) {
            putAlerts(backend, rows, alerts::get);
        }
        return new StatusPage.Slice<>(new ArrayList<>(rows.values()), more);
    }

    private static Map<String, Object> newRow(String monitorId) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("monitorId", monitorId);
        return row;
    }

    private static Map<String, Object> putDefinition(Map<String, Object> row, MonitorDefinition def) {
        row.put("name", def.name());
        row.put("type", def.type());
        if (def.service() != null) {
            row.put("service", def.service());
        }
        row.put("enabled", def.enabled());
        return row;
    }

    private static void putStatus(Map<String, Object> row, MonitorStatus s) {
        row.put("status", s.status());
        row.put("windowStart", s.windowStart());
        row.put("complete", s.complete());
        row.put("missingRegions", s.missingRegions());
        // each reporting region's outcome only (the console's region dots); details are in /v1/monitors/{id}
        Map<String, Object> regions = new TreeMap<>();
        s.regions().forEach((region, r) -> regions.put(region, r.outcome()));
        row.put("regions", regions);
        row.put("decidedAt", s.decidedAt());
    }

    /** Each row's most severe open alert ({@code alert}), reading alert states through {@code states}. */
    private void putAlerts(
            QueryBackend backend,
            Map<String, Map<String, Object>> rows,
            java.util.function.Function<String, AlertStateRecord> states) {
        ReadOnlyKeyValueStore<String, Ack> acks = AlertReads.ackStore(backend);
        long now = clock.millis();
        rows.forEach((id, row) -> {
            List<Map<String, Object>> open = AlertReads.openAlerts(states, acks, id, now);
            if (!open.isEmpty()) {
                row.put("alert", open.get(0));
            }
        });
    }
}
