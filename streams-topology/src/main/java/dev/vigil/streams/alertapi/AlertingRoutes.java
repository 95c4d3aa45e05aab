package dev.vigil.streams.alertapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.EscalationStatus;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.alerting.AlertPhase;
import dev.vigil.streams.alerting.AlertStateRecord;
import dev.vigil.streams.incident.Origins;
import dev.vigil.streams.metrics.MetricAggregate;
import dev.vigil.streams.metrics.MetricKey;
import dev.vigil.streams.metrics.MetricSeries;
import dev.vigil.streams.metrics.SeriesState;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.query.QueryRequest;
import dev.vigil.streams.query.RouteExtension;
import dev.vigil.streams.rules.AlertLinks;
import dev.vigil.streams.topology.StoreNames;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The alerting half's query endpoints, registered through {@link RouteExtension}:
 * <ul>
 *   <li>{@code GET /v1/alerts?state=open|firing|resolving|healthy|all} (default {@code open}: firing and
 *       resolving) — alert states from every instance ({@code ?scope=local} answers with this instance's only);
 *       {@code &fingerprint=} keeps only that fingerprint's (read by key, not by walking the stores), which is how the
 *       console's incident view finds the incident a page links to;</li>
 *   <li>{@code GET /v1/metrics/{appId}/{metricName}?from=&to=&step=1m} — one-minute windows combined per step
 *       (count, error count, sum, p50/p95/p99), answered by the owner of {@code appId/metricName} (forwarded).</li>
 * </ul>
 * Store reads run off the event loop; a rebalancing instance or a failing peer answers 503, never a partial list. A
 * peer that does not answer at all is stood in for by this instance's standby copies of its partitions, as
 * {@code /v1/status} does ({@code answeredFromStandby}, {@link QueryBackend#STANDBY_HEADER}).
 */
public final class AlertingRoutes implements RouteExtension {
    static final Set<String> STATES = Set.of("open", "firing", "resolving", "healthy", "all");
    private static final int MAX_FINGERPRINT = 512;
    private static final int GATHER_CONCURRENCY = 8;

    private final Clock clock;

    public AlertingRoutes(Clock clock) {
        this.clock = clock;
    }

    public AlertingRoutes() {
        this(Clock.systemUTC());
    }

    @Override
    public void register(ApiRoutes routes, QueryBackend backend, Forwarder forwarder) {
        routes.get("/v1/alerts", req -> alerts(req, backend, forwarder))
                .get("/v1/metrics/{appId}/{metricName}", req -> metrics(req, backend, forwarder));
    }

    // ---- /v1/alerts -------------------------------------------------------------------------------------

    private Mono<HttpResult> alerts(QueryRequest req, QueryBackend backend, Forwarder forwarder) {
        String state = req.queryParam("state") == null ? "open" : req.queryParam("state");
        if (!STATES.contains(state)) {
            return Mono.just(
                    HttpResult.badRequest("state must be one of open, firing, resolving, healthy, all", req.path()));
        }
        String fingerprint = req.queryParam("fingerprint");
        if (fingerprint != null && (fingerprint.isEmpty() || fingerprint.length() > MAX_FINGERPRINT)) {
            return Mono.just(
                    HttpResult.badRequest("fingerprint must be 1-" + MAX_FINGERPRINT + " characters", req.path()));
        }
        if (!backend.ready()) {
            return Mono.just(rebalancing(req, backend));
        }
        if ("local".equals(req.queryParam("scope"))) {
            return QueryBackend.read(() -> localAlerts(backend, state, fingerprint, clock.millis()))
                    .map(rows -> HttpResult.ok(Map.of("alerts", rows)))
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
        Set<String> stoodInFor = new ConcurrentSkipListSet<>();
        return gather(backend, forwarder, state, fingerprint, clock.millis(), stoodInFor)
                .map(all -> {
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("generatedAt", clock.millis());
                    body.put("instances", peers.size() + 1);
                    if (!stoodInFor.isEmpty()) {
                        body.put("answeredFromStandby", List.copyOf(stoodInFor));
                    }
                    body.put("state", state);
                    body.put("count", all.size());
                    body.put("alerts", all);
                    HttpResult ok = HttpResult.ok(body);
                    return stoodInFor.isEmpty()
                            ? ok
                            : ok.withHeader(QueryBackend.STANDBY_HEADER, String.join(",", stoodInFor));
                })
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    /** {@link #gather(QueryBackend, Forwarder, String, long, Set)}, not saying which peers were stood in for. */
    static Mono<List<JsonNode>> gather(QueryBackend backend, Forwarder forwarder, String state, long now) {
        return gather(backend, forwarder, state, null, now, new ConcurrentSkipListSet<>());
    }

    /**
     * Alert states of {@code state} from this instance and every peer, sorted by fingerprint. A peer that answers an
     * error, or this instance's store moving away, fails it (503): never a partial list. A peer that does not answer
     * at all (killed, and in the group until its session times out) is stood in for by this instance's standby copies
     * of its partitions when it holds all of them; such peers are added to {@code stoodInFor}.
     */
    static Mono<List<JsonNode>> gather(
            QueryBackend backend,
            Forwarder forwarder,
            String state,
            String fingerprint,
            long now,
            Set<String> stoodInFor) {
        List<String> peers;
        try {
            peers = backend.peers();
        } catch (QueryBackend.Unavailable e) {
            return Mono.error(e);
        }
        Mono<List<JsonNode>> mine = QueryBackend.read(() -> localAlerts(backend, state, fingerprint, now));
        Flux<List<JsonNode>> theirs = Flux.fromIterable(peers)
                .flatMap(
                        peer -> fromPeer(backend, forwarder, peer, state, fingerprint, now, stoodInFor),
                        GATHER_CONCURRENCY);
        return Flux.concat(mine, theirs).collectList().map(parts -> {
            List<JsonNode> all = new ArrayList<>();
            parts.forEach(all::addAll);
            all.sort(Comparator.comparing((JsonNode n) -> n.path("fingerprint").asText()));
            return all;
        });
    }

    /** A peer's alert states as it answers them, or, when it does not answer at all, as this instance's standbys hold them. */
    private static Mono<List<JsonNode>> fromPeer(
            QueryBackend backend,
            Forwarder forwarder,
            String peer,
            String state,
            String fingerprint,
            long now,
            Set<String> stoodInFor) {
        record Reply(HttpResult answer, QueryBackend.Unavailable silence) {}
        String query = "/v1/alerts?scope=local&state=" + state
                + (fingerprint == null ? "" : "&fingerprint=" + URLEncoder.encode(fingerprint, StandardCharsets.UTF_8));
        return forwarder
                .get(peer, query)
                .map(answer -> new Reply(answer, null))
                .onErrorResume(QueryBackend.Unavailable.class, silence -> Mono.just(new Reply(null, silence)))
                .flatMap(reply -> {
                    if (reply.answer() == null) {
                        return QueryBackend.read(() -> {
                                    List<JsonNode> rows =
                                            localAlerts(backend.standbyFor(peer), state, fingerprint, now);
                                    stoodInFor.add(peer);
                                    return rows;
                                })
                                .subscribeOn(Schedulers.boundedElastic())
                                .onErrorMap(
                                        QueryBackend.Unavailable.class,
                                        e -> new QueryBackend.Unavailable(
                                                reply.silence().getMessage() + "; " + e.getMessage(), e));
                    }
                    HttpResult res = reply.answer();
                    if (res.status() != 200) {
                        return Mono.error(
                                new QueryBackend.Unavailable("instance " + peer + " answered " + res.status()));
                    }
                    List<JsonNode> rows = new ArrayList<>();
                    Json.tree(res.body()).path("alerts").forEach(rows::add);
                    return Mono.just(rows);
                });
    }

    /**
     * An alert's links (a monitor's own dashboard and runbook URLs among them) through the one redaction rule, except
     * the console's own ({@link AlertLinks#CONSOLE_LINKS}): Vigil builds those, a definition cannot name them, and
     * their fragment is the console's route, not a secret.
     */
    private static void redactLinks(com.fasterxml.jackson.databind.node.ObjectNode row) {
        if (row.get("links") instanceof com.fasterxml.jackson.databind.node.ObjectNode links) {
            links.fields().forEachRemaining(e -> {
                if (e.getValue().isTextual() && !AlertLinks.CONSOLE_LINKS.contains(e.getKey())) {
                    e.setValue(links.textNode(dev.vigil.schemas.validate.Redaction.redactUrl(
                            e.getValue().asText())));
                }
            });
        }
    }

    /** This instance's alert states of {@code state}, each with its acknowledgement when one holds at {@code now}. */
    static List<JsonNode> localAlerts(QueryBackend backend, String state, long now) {
        return localAlerts(backend, state, null, now);
    }

    /** As above, only {@code fingerprint}'s when it is not null (one read per store by key). */
    static List<JsonNode> localAlerts(QueryBackend backend, String state, String fingerprint, long now) {
        ReadOnlyKeyValueStore<String, Ack> acks;
        try {
            acks = backend.keyValueStore(StoreNames.ACKS_STORE);
        } catch (QueryBackend.NoStandby e) {
            throw e; // standby copies without the acknowledgements: not a whole answer
        } catch (RuntimeException e) {
            acks = null; // a topology without acknowledgements (tests of the alerting half alone)
        }
        ReadOnlyKeyValueStore<String, EscalationStatus> climbs;
        try {
            climbs = backend.keyValueStore(StoreNames.ESCALATIONS_STORE);
        } catch (QueryBackend.NoStandby e) {
            throw e;
        } catch (RuntimeException e) {
            climbs = null;
        }
        List<JsonNode> rows = new ArrayList<>();
        for (String store : StoreNames.ALERT_STORES) {
            ReadOnlyKeyValueStore<String, AlertStateRecord> s = backend.keyValueStore(store);
            try (var it = fingerprint == null ? s.all() : s.range(fingerprint, fingerprint)) {
                while (it.hasNext()) {
                    AlertStateRecord r = it.next().value;
                    if (r != null && selected(r.phase(), state)) {
                        com.fasterxml.jackson.databind.node.ObjectNode row =
                                (com.fasterxml.jackson.databind.node.ObjectNode) Json.toTree(r);
                        redactLinks(row);
                        row.put("origin", Origins.of(r.fingerprint()));
                        Ack ack = acks == null ? null : acks.get(r.fingerprint());
                        if (ack != null && r.isOpen() && ack.holdsFor(r.incidentId(), r.severity(), now)) {
                            row.put("acknowledgedBy", ack.by());
                            row.put("acknowledgedAt", ack.at());
                            if (ack.until() != null) {
                                row.put("acknowledgedUntil", ack.until());
                            }
                            if (ack.comment() != null) {
                                row.put("acknowledgedComment", ack.comment());
                            }
                        }
                        EscalationStatus climb = climbs == null ? null : climbs.get(r.fingerprint());
                        if (climb != null && climb.incidentId().equals(r.incidentId())) {
                            row.set("escalation", Json.toTree(climb.tiers()));
                        }
                        rows.add(row);
                    }
                }
            }
        }
        return rows;
    }

    static boolean selected(AlertPhase phase, String state) {
        return switch (state) {
            case "all" -> true;
            case "open" -> phase.isOpen();
            default -> phase.wire().equals(state);
        };
    }

    // ---- /v1/metrics/{appId}/{metricName} ---------------------------------------------------------------

    private Mono<HttpResult> metrics(QueryRequest req, QueryBackend backend, Forwarder forwarder) {
        String appId = req.param("appId");
        String metricName = req.param("metricName");
        if (!Require.SLUG.matcher(appId).matches()
                || !Require.METRIC_NAME.matcher(metricName).matches()) {
            return Mono.just(HttpResult.badRequest(
                    "appId must be a slug and metricName must match [a-z][a-z0-9_]{0,63}", req.path()));
        }
        long from;
        long to;
        long step;
        try {
            from = instant("from", req.queryParam("from"));
            to = instant("to", req.queryParam("to"));
            step = step(req.queryParam("step"));
            if (to <= from) {
                throw new IllegalArgumentException("'to' must be after 'from'");
            }
            if (to - from > MetricSeries.MAX_RANGE_MS) {
                throw new IllegalArgumentException("the range must be at most 31 days");
            }
        } catch (IllegalArgumentException e) {
            return Mono.just(HttpResult.badRequest(e.getMessage(), req.path()));
        }
        if (!backend.ready()) {
            return Mono.just(rebalancing(req, backend));
        }
        String seriesKey = appId + "/" + metricName; // the record key on vigil.metrics decides the partition
        QueryBackend.Placement placement = backend.placement(StoreNames.METRIC_WINDOWS_STORE, seriesKey);
        return switch (placement.kind()) {
            case LOCAL -> QueryBackend.read(() -> localMetrics(backend, appId, metricName, from, to, step))
                    .onErrorResume(
                            QueryBackend.Unavailable.class,
                            e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
            case REMOTE -> req.forwarded()
                    ? Mono.just(
                            HttpResult.unavailable("ownership of this series is moving between instances", req.path()))
                    : forwarder
                            .get(placement.hostPort(), req.uri())
                            .onErrorResume(
                                    QueryBackend.Unavailable.class,
                                    e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
            case UNAVAILABLE -> Mono.just(
                    HttpResult.unavailable("the owner of this series is not known yet", req.path()));
        };
    }

    static HttpResult localMetrics(
            QueryBackend backend, String appId, String metricName, long from, long to, long step) {
        ReadOnlyKeyValueStore<String, SeriesState> series = backend.keyValueStore(StoreNames.METRIC_SERIES_STORE);
        SeriesState s = series.get(appId + "/" + metricName);
        if (s == null) {
            return HttpResult.notFound("no metric " + metricName + " has been received for app " + appId, null);
        }
        ReadOnlyWindowStore<String, MetricAggregate> windows = backend.windowStore(StoreNames.METRIC_WINDOWS_STORE);
        List<MetricAggregate> found = new ArrayList<>();
        for (String cls : s.statusClasses()) {
            try (var it = windows.fetch(
                    new MetricKey(appId, metricName, cls).storeKey(),
                    Instant.ofEpochMilli(from),
                    Instant.ofEpochMilli(to - 1))) {
                it.forEachRemaining(kv -> found.add(kv.value));
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("appId", appId);
        body.put("metricName", metricName);
        body.put("from", from);
        body.put("to", to);
        body.put("stepMs", step);
        body.put("quantileRelativeError", dev.vigil.streams.metrics.DurationHistogram.RELATIVE_ERROR);
        body.put("points", MetricSeries.points(appId, metricName, found, from, to, step));
        return HttpResult.ok(body);
    }

    /** {@code 1m}, {@code 5m}, {@code 1h} or a whole number of minutes; default one minute. */
    static long step(String value) {
        if (value == null || value.isBlank()) {
            return MetricAggregate.MINUTE_MS;
        }
        String v = value.trim();
        try {
            long n;
            if (v.endsWith("m")) {
                n = Long.parseLong(v.substring(0, v.length() - 1));
            } else if (v.endsWith("h")) {
                n = Long.parseLong(v.substring(0, v.length() - 1)) * 60;
            } else {
                n = Long.parseLong(v);
            }
            if (n < 1 || n > 31L * 24 * 60) {
                throw new NumberFormatException();
            }
            return n * MetricAggregate.MINUTE_MS;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'step' must be a whole number of minutes such as 1m, 5m or 1h");
        }
    }

    static long instant(String name, String value) {
        return dev.vigil.streams.query.TimeParam.epochMillis(name, value);
    }

    private static HttpResult rebalancing(QueryRequest req, QueryBackend backend) {
        return HttpResult.unavailable(
                "this instance is " + backend.state() + "; its stores cannot give a whole answer now", req.path());
    }
}
