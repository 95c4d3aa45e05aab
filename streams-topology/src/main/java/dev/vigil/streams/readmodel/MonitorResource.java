package dev.vigil.streams.readmodel;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.schemas.validate.Redaction;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.query.QueryRequest;
import dev.vigil.streams.query.TimeParam;
import dev.vigil.streams.topology.StoreNames;
import dev.vigil.streams.uptime.DailyUptime;
import dev.vigil.streams.uptime.MaintenanceWindows;
import dev.vigil.streams.uptime.UptimeProcessor;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A monitor's own answers: {@code GET /v1/monitors/{id}} (status with per-region results, open alerts, the last
 * windows), {@code …/history} and {@code …/uptime}. Answered where the monitor's partition lives: locally, else
 * forwarded to the owner, else (the owner silent) from this instance's standby copy of the partition.
 */
public final class MonitorResource {
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

    private final QueryBackend backend;
    private final Forwarder forwarder;
    private final Clock clock;
    private final Gathering gathering;

    public MonitorResource(QueryBackend backend, Forwarder forwarder, Clock clock) {
        this.backend = backend;
        this.forwarder = forwarder;
        this.clock = clock;
        this.gathering = new Gathering(backend, forwarder, clock);
    }

    public ApiRoutes register(ApiRoutes routes) {
        return routes.get("/v1/monitors/{id}", req -> keyed(req, this::monitor))
                .get("/v1/monitors/{id}/history", req -> {
                    HttpResult bad = badRange(req);
                    return bad != null ? Mono.just(bad) : keyed(req, this::history);
                })
                .get("/v1/monitors/{id}/uptime", req -> keyed(req, this::uptime));
    }

    private Mono<HttpResult> keyed(QueryRequest req, BiFunction<QueryBackend, QueryRequest, HttpResult> local) {
        String id = req.param("id");
        if (!Require.SLUG.matcher(id).matches()) {
            return Mono.just(HttpResult.badRequest("monitor id must match [a-z0-9][a-z0-9-]{0,62}", req.path()));
        }
        if (!backend.ready()) {
            return Mono.just(gathering.rebalancing(req));
        }
        QueryBackend.Placement placement = backend.placement(StoreNames.STATUS_STORE, id);
        return switch (placement.kind()) {
            case LOCAL -> readLocal(() -> local.apply(backend, req), req);
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
     * from this instance's standby copy of the monitor's partition, marked with {@link QueryBackend#STANDBY_HEADER}.
     */
    private Mono<HttpResult> fromStandby(
            QueryRequest req,
            QueryBackend.Placement placement,
            BiFunction<QueryBackend, QueryRequest, HttpResult> local,
            QueryBackend.Unavailable silent) {
        return QueryBackend.read(() -> local.apply(backend.standbyPartition(placement.partition()), req)
                        .withHeader(QueryBackend.STANDBY_HEADER, placement.hostPort()))
                .subscribeOn(Schedulers.boundedElastic())
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(
                                HttpResult.unavailable(silent.getMessage() + "; " + e.getMessage(), req.path())));
    }

    private HttpResult monitor(QueryBackend backend, QueryRequest req) {
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
        body.put(
                "alerts",
                AlertReads.openAlerts(
                        AlertReads.alertStore(backend), AlertReads.ackStore(backend), id, clock.millis()));
        body.put("recentWindows", recent);
        return HttpResult.ok(body);
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

    private HttpResult history(QueryBackend backend, QueryRequest req) {
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
        if (!known(backend, id)) {
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

    private HttpResult uptime(QueryBackend backend, QueryRequest req) {
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
        if (!known(backend, id)) {
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
        MaintenanceWindows.Occurrences occurrences = maintenanceOccurrences(backend, id, from, to);
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
    private MaintenanceWindows.Occurrences maintenanceOccurrences(QueryBackend backend, String id, long from, long to) {
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

    private static boolean known(QueryBackend backend, String id) {
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

    /** A local store read; a store that moves away mid-read answers 503. */
    private Mono<HttpResult> readLocal(Callable<HttpResult> work, QueryRequest req) {
        return QueryBackend.read(work)
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    private static Instant instant(String name, String value) {
        return TimeParam.instant(name, value);
    }
}
