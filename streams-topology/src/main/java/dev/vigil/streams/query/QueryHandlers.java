package dev.vigil.streams.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.contract.Status;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.schemas.validate.Redaction;
import dev.vigil.streams.alerting.AlertStateRecord;
import dev.vigil.streams.health.Health;
import dev.vigil.streams.health.WorkerHealth;
import dev.vigil.streams.rules.Fingerprints;
import dev.vigil.streams.topology.StoreNames;
import dev.vigil.streams.uptime.DailyUptime;
import dev.vigil.streams.uptime.MaintenanceWindows;
import dev.vigil.streams.uptime.UptimeProcessor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The analysts' endpoints (docs/api.md#query-api-streams). Keyed endpoints answer locally when this instance owns the
 * monitor and otherwise forward to the owner; {@code /v1/status} and {@code /v1/workers} gather from every
 * instance and fail whole (503) rather than return a partial answer as if it were complete. {@code /v1/status} also
 * answers a page at a time ({@code limit}, {@code cursor}; {@link StatusPage}), for fleets too large for one answer.
 */
public final class QueryHandlers {
    public static final Duration MAX_HISTORY_RANGE = Duration.ofDays(31);
    public static final int MAX_UPTIME_DAYS = 90;
    public static final int RECENT_WINDOWS = 20;
    /** At most this many maintenance occurrences in an uptime report (earliest first); {@code maintenanceTruncated} says when there were more. */
    public static final int MAX_MAINTENANCE_OCCURRENCES = 100;

    static final String UPTIME_RULE =
            "uptime = (up + degraded) / (up + degraded + down); unknown windows are excluded; "
                    + "UTC days. A window is under maintenance when its start falls inside an occurrence of a maintenance window "
                    + "(a silence with a schedule; one-off silences are not maintenance) that matches the monitor's availability "
                    + "alert as alerting matches it: maintenanceWindows counts them (every status), maintenanceDown the down ones, "
                    + "and uptimeExcludingMaintenancePercent is the same rule over the decided windows outside maintenance (absent "
                    + "when there is none). maintenance lists this monitor's occurrences from the first day to now (epoch ms), "
                    + "judged from the silences as they are now";
    private static final long DAY_MS = Duration.ofDays(1).toMillis();
    public static final String OPENAPI_RESOURCE = "/openapi/streams-query.json";
    static final String LOCAL_SCOPE = "scope=local";
    private static final int GATHER_CONCURRENCY = 8;
    /**
     * Set on an answer that holds rows read from this instance's standby copies because the instance that owns them
     * did not answer: its value is that instance ({@code host:port}, comma-separated when several). Such rows are
     * behind the owner's by the standby's lag (usually under a second).
     */
    public static final String STANDBY_HEADER = "X-Vigil-Standby-For";

    private final QueryBackend backend;
    private final Forwarder forwarder;
    private final Clock clock;

    public QueryHandlers(QueryBackend backend, Forwarder forwarder, Clock clock) {
        this.backend = backend;
        this.forwarder = forwarder;
        this.clock = clock;
    }

    /** Registers the v1 endpoints of this half of the API, and the API's OpenAPI document. */
    public ApiRoutes register(ApiRoutes routes) {
        byte[] openapi = openApiDocument();
        return routes.get("/v1/status", this::status)
                .get("/v1/monitors/{id}", req -> keyed(req, QueryHandlers::monitor))
                .get("/v1/monitors/{id}/history", req -> {
                    HttpResult bad = badRange(req);
                    return bad != null ? Mono.just(bad) : keyed(req, QueryHandlers::history);
                })
                .get("/v1/monitors/{id}/uptime", req -> keyed(req, QueryHandlers::uptime))
                .get("/v1/workers", this::workers)
                .get(ApiAccess.WHOAMI, QueryHandlers::whoami)
                .get("/v1/openapi.json", req -> Mono.just(new HttpResult(200, HttpResult.JSON, openapi, Map.of())));
    }

    /** The OpenAPI 3.1 document of the whole query API. */
    public static byte[] openApiDocument() {
        try (InputStream in = QueryHandlers.class.getResourceAsStream(OPENAPI_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + OPENAPI_RESOURCE);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Who the caller is signed in as: the token's name and scopes (never the token), for the console. */
    private static Mono<HttpResult> whoami(QueryRequest req) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", req.actor());
        body.put(
                "scopes",
                req.principal() == null
                        ? List.of()
                        : req.principal().scopes().stream()
                                .map(dev.vigil.kit.auth.Scope::wire)
                                .sorted()
                                .toList());
        return Mono.just(HttpResult.ok(body));
    }

    // ---- keyed endpoints -------------------------------------------------------------------------------

    private Mono<HttpResult> keyed(QueryRequest req, BiFunction<QueryHandlers, QueryRequest, HttpResult> local) {
        String id = req.param("id");
        if (!Require.SLUG.matcher(id).matches()) {
            return Mono.just(HttpResult.badRequest("monitor id must match [a-z0-9][a-z0-9-]{0,62}", req.path()));
        }
        if (!backend.ready()) {
            return Mono.just(rebalancing(req));
        }
        QueryBackend.Placement placement = backend.placement(StoreNames.STATUS_STORE, id);
        return switch (placement.kind()) {
            case LOCAL -> readLocal(() -> local.apply(this, req), req);
            case REMOTE -> req.forwarded()
                    // The owner we forwarded to thinks someone else owns it: metadata is moving, do not ping-pong.
                    ? Mono.just(
                            HttpResult.unavailable("ownership of this monitor is moving between instances", req.path()))
                    : forwarder
                            .get(placement.hostPort(), req.uri())
                            .onErrorResume(
                                    QueryBackend.Unavailable.class,
                                    silent -> placement.standbyHere()
                                            ? fromStandby(req, placement, local, silent)
                                            : Mono.just(HttpResult.unavailable(silent.getMessage(), req.path())));
            case UNAVAILABLE -> Mono.just(
                    HttpResult.unavailable("the owner of this monitor is not known yet", req.path()));
        };
    }

    /**
     * The owner of a monitor did not answer (killed, and still in the group until its session times out): the answer
     * from this instance's standby copy of the monitor's partition, marked with {@link #STANDBY_HEADER}.
     */
    private Mono<HttpResult> fromStandby(
            QueryRequest req,
            QueryBackend.Placement placement,
            BiFunction<QueryHandlers, QueryRequest, HttpResult> local,
            QueryBackend.Unavailable silent) {
        return QueryBackend.read(() -> local.apply(
                                new QueryHandlers(backend.standbyPartition(placement.partition()), forwarder, clock),
                                req)
                        .withHeader(STANDBY_HEADER, placement.hostPort()))
                .subscribeOn(Schedulers.boundedElastic())
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(
                                HttpResult.unavailable(silent.getMessage() + "; " + e.getMessage(), req.path())));
    }

    private HttpResult monitor(QueryRequest req) {
        String id = req.param("id");
        ReadOnlyKeyValueStore<String, MonitorDefinition> defs = backend.keyValueStore(StoreNames.DEFINITIONS_STORE);
        ReadOnlyKeyValueStore<String, MonitorStatus> latest = backend.keyValueStore(StoreNames.STATUS_STORE);
        MonitorDefinition def = defs.get(id);
        MonitorStatus status = latest.get(id);
        if (def == null && status == null) {
            return unknownMonitor(id, req);
        }
        List<MonitorStatus> recent = new ArrayList<>();
        ReadOnlyWindowStore<String, MonitorStatus> history = backend.windowStore(StoreNames.HISTORY_STORE);
        Instant now = clock.instant();
        try (var it = history.backwardFetch(id, now.minus(MAX_HISTORY_RANGE), now.plus(Duration.ofDays(1)))) {
            while (it.hasNext() && recent.size() < RECENT_WINDOWS) {
                recent.add(it.next().value);
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("monitorId", id);
        body.put("monitor", def == null ? null : monitorSummary(def));
        body.put("status", status);
        body.put("alerts", openAlerts(alertStore(), ackStore(), id, clock.millis()));
        body.put("recentWindows", recent);
        return HttpResult.ok(body);
    }

    /**
     * The monitor-alert store, or null in a topology without the alerting half. The store lives in the
     * same task (partition) as the monitor's definition and status, so a local read is the whole answer.
     */
    private ReadOnlyKeyValueStore<String, AlertStateRecord> alertStore() {
        try {
            return backend.keyValueStore(StoreNames.MONITOR_ALERTS_STORE);
        } catch (QueryBackend.NoStandby e) {
            throw e;
        } catch (QueryBackend.Unavailable e) {
            return null;
        }
    }

    private ReadOnlyKeyValueStore<String, Ack> ackStore() {
        try {
            return backend.keyValueStore(StoreNames.ACKS_STORE);
        } catch (QueryBackend.NoStandby e) {
            throw e;
        } catch (QueryBackend.Unavailable e) {
            return null;
        }
    }

    /**
     * Open alerts of a monitor (availability, no data, TLS), most severe first, each with who acknowledged it
     * ({@code acknowledgedBy}, {@code acknowledgedAt}, {@code acknowledgedUntil} when not until the end) while that
     * acknowledgement holds.
     */
    private static List<Map<String, Object>> openAlerts(
            ReadOnlyKeyValueStore<String, AlertStateRecord> store,
            ReadOnlyKeyValueStore<String, Ack> acks,
            String monitorId,
            long now) {
        return store == null ? new ArrayList<>() : openAlerts(store::get, acks, monitorId, now);
    }

    /** As above, reading alert states through {@code states} (a store, or the open ones gathered in one scan). */
    private static List<Map<String, Object>> openAlerts(
            java.util.function.Function<String, AlertStateRecord> states,
            ReadOnlyKeyValueStore<String, Ack> acks,
            String monitorId,
            long now) {
        List<Map<String, Object>> open = new ArrayList<>();
        for (String fingerprint :
                List.of(Fingerprints.monitor(monitorId), Fingerprints.noData(monitorId), Fingerprints.tls(monitorId))) {
            AlertStateRecord a = states.apply(fingerprint);
            if (a != null && a.isOpen()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("fingerprint", a.fingerprint());
                row.put("state", a.phase());
                row.put("severity", a.severity());
                row.put("since", a.firstSeen());
                row.put("occurrences", a.occurrences());
                row.put("silenced", a.silenced());
                row.put("summary", a.summary());
                Ack ack = acks == null ? null : acks.get(a.fingerprint());
                if (ack != null && ack.holdsFor(a.incidentId(), a.severity(), now)) {
                    row.put("acknowledgedBy", ack.by());
                    row.put("acknowledgedAt", ack.at());
                    if (ack.until() != null) {
                        row.put("acknowledgedUntil", ack.until());
                    }
                }
                open.add(row);
            }
        }
        open.sort(Comparator.comparing((Map<String, Object> r) -> (Severity) r.get("severity"))); // critical first
        return open;
    }

    /** A 400 for a missing, malformed, reversed or too long history range (checked before any forwarding); else null. */
    private static HttpResult badRange(QueryRequest req) {
        try {
            Instant from = instant("from", req.queryParam("from"));
            Instant to = instant("to", req.queryParam("to"));
            if (!to.isAfter(from)) {
                return HttpResult.badRequest("'to' must be after 'from'", req.path());
            }
            if (Duration.between(from, to).compareTo(MAX_HISTORY_RANGE) > 0) {
                return HttpResult.badRequest("the range must be at most 31 days; ask for several ranges", req.path());
            }
            return null;
        } catch (IllegalArgumentException e) {
            return HttpResult.badRequest(e.getMessage(), req.path());
        }
    }

    private HttpResult history(QueryRequest req) {
        String id = req.param("id");
        Instant from;
        Instant to;
        try {
            from = instant("from", req.queryParam("from"));
            to = instant("to", req.queryParam("to"));
        } catch (IllegalArgumentException e) {
            return HttpResult.badRequest(e.getMessage(), req.path());
        }
        if (!to.isAfter(from)) {
            return HttpResult.badRequest("'to' must be after 'from'", req.path());
        }
        if (Duration.between(from, to).compareTo(MAX_HISTORY_RANGE) > 0) {
            return HttpResult.badRequest("the range must be at most 31 days; ask for several ranges", req.path());
        }
        if (!known(id)) {
            return unknownMonitor(id, req);
        }
        ReadOnlyWindowStore<String, MonitorStatus> history = backend.windowStore(StoreNames.HISTORY_STORE);
        List<MonitorStatus> windows = new ArrayList<>();
        try (var it = history.fetch(id, from, to.minusMillis(1))) {
            it.forEachRemaining(kv -> windows.add(kv.value));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("monitorId", id);
        body.put("from", from.toEpochMilli());
        body.put("to", to.toEpochMilli());
        body.put("windows", windows);
        return HttpResult.ok(body);
    }

    private HttpResult uptime(QueryRequest req) {
        String id = req.param("id");
        int days;
        String raw = req.queryParam("days");
        try {
            days = raw == null ? 30 : Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            return HttpResult.badRequest("'days' must be a whole number between 1 and " + MAX_UPTIME_DAYS, req.path());
        }
        if (days < 1 || days > MAX_UPTIME_DAYS) {
            return HttpResult.badRequest("'days' must be between 1 and " + MAX_UPTIME_DAYS, req.path());
        }
        if (!known(id)) {
            return unknownMonitor(id, req);
        }
        long today = LocalDate.now(clock.withZone(ZoneOffset.UTC)).toEpochDay();
        long first = today - days + 1;
        Map<Long, DailyUptime> byDay = new TreeMap<>();
        ReadOnlyKeyValueStore<String, DailyUptime> store = backend.keyValueStore(StoreNames.UPTIME_STORE);
        try (var it = store.range(UptimeProcessor.key(id, first), UptimeProcessor.key(id, today))) {
            it.forEachRemaining(kv -> byDay.put(kv.value.epochDay(), kv.value));
        }
        List<Map<String, Object>> daily = new ArrayList<>();
        long up = 0;
        long decided = 0;
        long maintenanceWindows = 0;
        long maintenanceDown = 0;
        long upOutside = 0;
        long decidedOutside = 0;
        for (long d = first; d <= today; d++) {
            DailyUptime u = byDay.getOrDefault(d, DailyUptime.empty(d));
            up += u.upWindows();
            decided += u.decided();
            maintenanceWindows += u.maintenance();
            maintenanceDown += u.maintenanceDown();
            upOutside += u.upWindowsExcludingMaintenance();
            decidedOutside += u.decidedExcludingMaintenance();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("date", LocalDate.ofEpochDay(d).toString());
            row.put("up", u.up());
            row.put("degraded", u.degraded());
            row.put("down", u.down());
            row.put("unknown", u.unknown());
            row.put("uptimePercent", u.uptimePercent());
            row.put("maintenanceWindows", u.maintenance());
            row.put("maintenanceDown", u.maintenanceDown());
            row.put("uptimeExcludingMaintenancePercent", u.uptimeExcludingMaintenancePercent());
            daily.add(row);
        }
        Map<String, Object> overall = new LinkedHashMap<>();
        overall.put("upWindows", up);
        overall.put("decidedWindows", decided);
        overall.put("uptimePercent", DailyUptime.percent(up, decided));
        overall.put("maintenanceWindows", maintenanceWindows);
        overall.put("maintenanceDown", maintenanceDown);
        overall.put("uptimeExcludingMaintenancePercent", DailyUptime.percent(upOutside, decidedOutside));
        long from = first * DAY_MS;
        long to = Math.min(clock.millis(), (today + 1) * DAY_MS);
        MaintenanceWindows.Occurrences occurrences = maintenanceOccurrences(id, from, to);
        List<Map<String, Object>> maintenance = new ArrayList<>();
        for (MaintenanceWindows.Occurrence o : occurrences.occurrences()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("silenceId", o.silenceId());
            m.put("from", o.from());
            m.put("to", o.to());
            m.put("reason", o.reason());
            maintenance.add(m);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("monitorId", id);
        body.put("days", days);
        body.put("rule", UPTIME_RULE);
        body.put("daily", daily);
        body.put("overall", overall);
        body.put("maintenance", maintenance);
        body.put("maintenanceTruncated", occurrences.truncated());
        return HttpResult.ok(body);
    }

    /**
     * The occurrences of maintenance windows that may cover the monitor's windows in {@code [from, to)}, from the
     * global silences store as it is now (every instance holds it whole); none in a topology without alerting.
     */
    private MaintenanceWindows.Occurrences maintenanceOccurrences(String id, long from, long to) {
        ReadOnlyKeyValueStore<String, Silence> silences;
        try {
            silences = backend.keyValueStore(StoreNames.SILENCES_STORE);
        } catch (QueryBackend.Unavailable e) {
            silences = null;
        }
        List<Silence> all = new ArrayList<>();
        if (silences != null) {
            try (var it = silences.all()) {
                it.forEachRemaining(kv -> {
                    if (kv.value != null) {
                        all.add(kv.value);
                    }
                });
            }
        }
        MonitorDefinition def = backend.<MonitorDefinition>keyValueStore(StoreNames.DEFINITIONS_STORE)
                .get(id);
        return MaintenanceWindows.overlapping(all, id, def, from, to, MAX_MAINTENANCE_OCCURRENCES);
    }

    private boolean known(String id) {
        ReadOnlyKeyValueStore<String, MonitorDefinition> defs = backend.keyValueStore(StoreNames.DEFINITIONS_STORE);
        ReadOnlyKeyValueStore<String, MonitorStatus> latest = backend.keyValueStore(StoreNames.STATUS_STORE);
        return defs.get(id) != null || latest.get(id) != null;
    }

    private static HttpResult unknownMonitor(String id, QueryRequest req) {
        return HttpResult.notFound("no monitor with id '" + id + "'", req.path());
    }

    /**
     * A monitor's configuration as any token sees it, admin included: through {@link Redaction}, the one rule for
     * what may carry a credential (user info and query values of URLs, header values, an http body, a tcp send).
     * The unredacted definition lives in the monitors file and on the probe workers, never in an API answer.
     */
    private static Map<String, Object> monitorSummary(MonitorDefinition original) {
        MonitorDefinition def = Redaction.redact(original);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", def.id());
        m.put("name", def.name());
        m.put("service", def.service());
        m.put("intervalSeconds", def.intervalSeconds());
        m.put("timeoutMs", def.timeoutMs());
        m.put("regions", def.regions());
        m.put("severity", def.severity());
        m.put("enabled", def.enabled());
        m.put("type", def.type());
        m.put("target", def.target());
        switch (def.type()) {
            case HTTP -> {
                m.put("method", def.method());
                if (!def.headers().isEmpty()) {
                    m.put("headers", new java.util.TreeMap<>(Redaction.redactHeaders(original.headers())));
                }
                if (original.body() != null) {
                    m.put("bodyBytes", original.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
                }
            }
            case TCP -> m.put("tcp", def.tcp());
            case DNS -> m.put("dns", def.dns());
            case TLS -> m.put("tls", def.tls());
            case HEARTBEAT -> {
                // not the token's hash: nothing a reader needs
                Map<String, Object> hb = new LinkedHashMap<>();
                hb.put(
                        "schedule",
                        def.heartbeat().schedule() == null
                                ? "every " + def.intervalSeconds() + " s"
                                : def.heartbeat().schedule());
                hb.put("zone", def.heartbeat().zone());
                hb.put("graceSeconds", def.heartbeat().graceSeconds());
                hb.put("pingable", def.heartbeat().tokenSha256() != null);
                m.put("heartbeat", hb);
            }
            default -> {}
        }
        return m;
    }

    // ---- gathered endpoints ----------------------------------------------------------------------------

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
        Function<QueryHandlers, StatusPage.Slice<Map<String, Object>>> local =
                page == null ? h -> StatusPage.Slice.whole(h.localStatuses()) : h -> h.localStatusPage(page);
        return gather(
                req,
                page,
                local,
                "monitors",
                Comparator.comparing(QueryHandlers::monitorIdOf, StatusPage.ID_ORDER),
                QueryHandlers::monitorIdOf,
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

    private List<Map<String, Object>> localStatuses() {
        ReadOnlyKeyValueStore<String, MonitorDefinition> defs = backend.keyValueStore(StoreNames.DEFINITIONS_STORE);
        ReadOnlyKeyValueStore<String, MonitorStatus> latest = backend.keyValueStore(StoreNames.STATUS_STORE);
        Map<String, Map<String, Object>> rows = new TreeMap<>();
        try (var it = defs.all()) {
            it.forEachRemaining(kv -> rows.put(kv.key, putDefinition(newRow(kv.key), kv.value)));
        }
        try (var it = latest.all()) {
            it.forEachRemaining(kv -> putStatus(rows.computeIfAbsent(kv.key, QueryHandlers::newRow), kv.value));
        }
        // One scan of the alert store instead of three point reads per monitor: on a large fleet the reads, not the
        // scan, were most of this answer's time, and only open alerts matter here.
        Map<String, AlertStateRecord> openStates = new java.util.HashMap<>();
        ReadOnlyKeyValueStore<String, AlertStateRecord> alerts = alertStore();
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
            putAlerts(rows, openStates::get);
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
    private StatusPage.Slice<Map<String, Object>> localStatusPage(StatusPage page) {
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
        ReadOnlyKeyValueStore<String, AlertStateRecord> alerts = alertStore();
        if (alerts != null) {
            putAlerts(rows, alerts::get);
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
            Map<String, Map<String, Object>> rows, java.util.function.Function<String, AlertStateRecord> states) {
        ReadOnlyKeyValueStore<String, Ack> acks = ackStore();
        long now = clock.millis();
        rows.forEach((id, row) -> {
            List<Map<String, Object>> open = openAlerts(states, acks, id, now);
            if (!open.isEmpty()) {
                row.put("alert", open.get(0));
            }
        });
    }

    private Mono<HttpResult> workers(QueryRequest req) {
        return gather(
                req,
                null,
                h -> StatusPage.Slice.whole(h.localWorkers()),
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

    private List<Map<String, Object>> localWorkers() {
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

    /**
     * Answers with this instance's rows ({@code ?scope=local}, as peers ask) or with every instance's rows
     * merged. Any peer answering an error, or this instance rebalancing, gives 503: never a partial list presented as
     * whole. A peer that does not answer at all (killed, and in the group until its session times out) is stood in
     * for by this instance's standby copies of its partitions when it holds all of them ({@code answeredFromStandby}
     * lists such peers, as does {@link #STANDBY_HEADER}); otherwise that is a 503 too.
     * With a {@code page}, each instance answers its own page of it (with {@code next} when it has more) and the
     * merged rows are cut at the page's limit, with {@code next} made of the last row's {@code id}.
     */
    private Mono<HttpResult> gather(
            QueryRequest req,
            StatusPage page,
            Function<QueryHandlers, StatusPage.Slice<Map<String, Object>>> local,
            String field,
            Comparator<JsonNode> order,
            java.util.function.Function<JsonNode, String> id,
            java.util.function.Function<List<JsonNode>, Map<String, Object>> summary) {
        if (!backend.ready()) {
            return Mono.just(rebalancing(req));
        }
        boolean localOnly = "local".equals(req.queryParam("scope"));
        Mono<StatusPage.Slice<JsonNode>> mine =
                QueryBackend.read(() -> local.apply(this)).map(slice -> slice.<JsonNode>map(Json::toTree));
        if (localOnly) {
            return mine.map(slice -> {
                        Map<String, Object> body = new LinkedHashMap<>();
                        body.put(field, slice.rows());
                        if (page != null) {
                            putNext(body, StatusPage.next(slice, id));
                        }
                        return HttpResult.ok(body);
                    })
                    .onErrorResume(
                            QueryBackend.Unavailable.class,
                            e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
        }
        List<String> peers;
        try {
            peers = backend.peers();
        } catch (QueryBackend.Unavailable e) {
            return Mono.just(HttpResult.unavailable(e.getMessage(), req.path()));
        }
        // the page travels as its decoded id, encoded again: never the caller's text
        String peerUri = req.path() + "?" + LOCAL_SCOPE + (page == null ? "" : "&" + page.query());
        Set<String> stoodInFor = new ConcurrentSkipListSet<>();
        Flux<StatusPage.Slice<JsonNode>> theirs = Flux.fromIterable(peers)
                .flatMap(peer -> fromPeer(peer, peerUri, field, local, stoodInFor), GATHER_CONCURRENCY);
        return Flux.concat(mine, theirs)
                .collectList()
                .map(parts -> {
                    StatusPage.Slice<JsonNode> merged;
                    if (page == null) {
                        List<JsonNode> all = new ArrayList<>();
                        parts.forEach(part -> all.addAll(part.rows()));
                        all.sort(order);
                        merged = StatusPage.Slice.whole(all);
                    } else {
                        merged = page.cut(parts, order);
                    }
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("generatedAt", clock.millis());
                    body.put("instances", peers.size() + 1);
                    if (!stoodInFor.isEmpty()) {
                        body.put("answeredFromStandby", List.copyOf(stoodInFor));
                    }
                    body.putAll(summary.apply(merged.rows()));
                    if (page != null) {
                        putNext(body, StatusPage.next(merged, id));
                    }
                    body.put(field, merged.rows());
                    HttpResult ok = HttpResult.ok(body);
                    return stoodInFor.isEmpty() ? ok : ok.withHeader(STANDBY_HEADER, String.join(",", stoodInFor));
                })
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    /** A peer's rows as it answers them, or, when it does not answer at all, as this instance's standbys hold them. */
    private Mono<StatusPage.Slice<JsonNode>> fromPeer(
            String peer,
            String peerUri,
            String field,
            Function<QueryHandlers, StatusPage.Slice<Map<String, Object>>> local,
            Set<String> stoodInFor) {
        record Reply(HttpResult answer, QueryBackend.Unavailable silence) {}
        return forwarder
                .get(peer, peerUri)
                .map(answer -> new Reply(answer, null))
                .onErrorResume(QueryBackend.Unavailable.class, silence -> Mono.just(new Reply(null, silence)))
                .flatMap(reply -> {
                    if (reply.answer() == null) {
                        return standbySlice(peer, local, reply.silence(), stoodInFor);
                    }
                    HttpResult res = reply.answer();
                    if (res.status() != 200) {
                        return Mono.error(
                                new QueryBackend.Unavailable("instance " + peer + " answered " + res.status()));
                    }
                    JsonNode body = Json.tree(res.body());
                    List<JsonNode> rows = new ArrayList<>();
                    body.path(field).forEach(rows::add);
                    return Mono.just(
                            new StatusPage.Slice<>(rows, body.path("next").isTextual()));
                });
    }

    /** What {@code local} answers over this instance's standby copies of {@code peer}'s partitions (off the event loop). */
    private Mono<StatusPage.Slice<JsonNode>> standbySlice(
            String peer,
            Function<QueryHandlers, StatusPage.Slice<Map<String, Object>>> local,
            QueryBackend.Unavailable silence,
            Set<String> stoodInFor) {
        return QueryBackend.read(() -> {
                    StatusPage.Slice<JsonNode> slice = local.apply(
                                    new QueryHandlers(backend.standbyFor(peer), forwarder, clock))
                            .map(Json::toTree);
                    stoodInFor.add(peer);
                    return slice;
                })
                .subscribeOn(Schedulers.boundedElastic())
                .onErrorMap(
                        QueryBackend.Unavailable.class,
                        e -> new QueryBackend.Unavailable(silence.getMessage() + "; " + e.getMessage(), e));
    }

    /** {@code next} only while more follow: its absence marks the last page. */
    private static void putNext(Map<String, Object> body, String next) {
        if (next != null) {
            body.put("next", next);
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------------

    private HttpResult rebalancing(QueryRequest req) {
        return HttpResult.unavailable(
                "this instance is " + backend.state() + "; its stores cannot give a whole answer now", req.path());
    }

    /** A local store read; a store that moves away mid-read answers 503. */
    private Mono<HttpResult> readLocal(Callable<HttpResult> work, QueryRequest req) {
        return QueryBackend.read(work)
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    static Instant instant(String name, String value) {
        return TimeParam.instant(name, value);
    }

    static Map<Status, Long> emptyCounts() {
        return new EnumMap<>(Status.class);
    }
}
