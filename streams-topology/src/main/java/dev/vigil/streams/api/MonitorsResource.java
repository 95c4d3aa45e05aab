package dev.vigil.streams.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.kit.auth.Scope;
import dev.vigil.schemas.contract.AuditRecord;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.audit.ApiWriter;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.query.QueryRequest;
import dev.vigil.streams.query.RouteExtension;
import dev.vigil.streams.topology.StoreNames;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.ProducerRecord;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Monitors managed through the query API (docs/api.md#managing-monitors). Any instance answers: reads come from the
 * {@link Catalog} every instance keeps of {@code vigil.monitors}, writes go to the topic with their audit record in
 * one Kafka transaction ({@link ApiWriter}), as silences do.
 * <ul>
 *   <li>{@code GET /v1/monitors?service=&type=&region=&limit=&after=} (scope {@code monitors}): the definitions, by
 *       id, a page at a time ({@code next} is the {@code after} of the next page).</li>
 *   <li>{@code GET /v1/monitors/{id}/definition} (monitors): the definition as {@code PUT} takes it, with its
 *       revision in {@code ETag}. ({@code GET /v1/monitors/{id}} is the monitor's status, for {@code read}.) Whole
 *       definitions hold URLs, plain header values and bodies, which every {@code read} answer redacts: they are for
 *       those who manage monitors.</li>
 *   <li>{@code PUT /v1/monitors/{id}} (scope {@code monitors}): create (201) or replace (200). Replacing needs
 *       {@code If-Match} with the revision the editor read (428 without, 412 when it changed since);
 *       {@code If-None-Match: *} creates only. An identical body is 200 with {@code change: unchanged} and writes
 *       nothing. {@code ?allowRegions=a,b} accepts regions no worker serves yet; {@code ?rotateToken=true} issues a
 *       heartbeat monitor a new ping token.</li>
 *   <li>{@code DELETE /v1/monitors/{id}} (monitors): a tombstone; {@code If-Match} optional.</li>
 *   <li>{@code POST /v1/monitors:validate} (monitors): everything {@code PUT} would check and the change it would
 *       make, publishing nothing.</li>
 *   <li>{@code POST /v1/monitors:apply} (monitors): {@code {monitors: [...], prune?, dryRun?, allowRegions?,
 *       rotateHeartbeatTokens?}} — every monitor checked, then all published in one transaction or none.</li>
 * </ul>
 * Monitors whose id starts with {@value #RESERVED_PREFIX} are Vigil's own (the dead-man's switch's canary): only an
 * admin changes them, and {@code prune} keeps them.
 */
public final class MonitorsResource implements RouteExtension {
    public static final String RESERVED_PREFIX = "vigil-";
    static final int MAX_APPLY_BODY_BYTES = 8 * 1024 * 1024;
    static final int DEFAULT_PAGE = 200;
    static final int MAX_PAGE = 1000;
    private static final int TARGET_CHECKS_AT_ONCE = 8;

    private final Catalog<MonitorDefinition> catalog;
    private final MonitorChecks checks;
    private final ApiWriter writer;
    private final String topic;
    private final String ingestUrl;
    private final int maxApplyMonitors;
    private final Clock clock;
    private final Supplier<String> tokens;

    public MonitorsResource(
            Catalog<MonitorDefinition> catalog,
            MonitorChecks checks,
            ApiWriter writer,
            String topic,
            String ingestUrl,
            int maxApplyMonitors,
            Clock clock) {
        this(catalog, checks, writer, topic, ingestUrl, maxApplyMonitors, clock, BearerTokens::generate);
    }

    MonitorsResource(
            Catalog<MonitorDefinition> catalog,
            MonitorChecks checks,
            ApiWriter writer,
            String topic,
            String ingestUrl,
            int maxApplyMonitors,
            Clock clock,
            Supplier<String> tokens) {
        this.catalog = catalog;
        this.checks = checks;
        this.writer = writer;
        this.topic = topic;
        this.ingestUrl = ingestUrl == null ? "" : ingestUrl;
        this.maxApplyMonitors = maxApplyMonitors;
        this.clock = clock;
        this.tokens = tokens;
    }

    @Override
    public void register(ApiRoutes routes, QueryBackend backend, Forwarder forwarder) {
        routes.get("/v1/monitors", this::list)
                .get("/v1/monitors/{id}/definition", this::definition)
                .put("/v1/monitors/{id}", req -> put(req, backend, false))
                .delete("/v1/monitors/{id}", this::delete)
                .post("/v1/monitors:validate", req -> put(req, backend, true))
                .post("/v1/monitors:apply", MAX_APPLY_BODY_BYTES, req -> apply(req, backend));
    }

    // ---- reads -----------------------------------------------------------------------------------------------

    private Mono<HttpResult> list(QueryRequest req) {
        if (!catalog.ready()) {
            return Mono.just(catalog.notReady(req));
        }
        Integer limit = limit(req.queryParam("limit"));
        if (limit == null) {
            return Mono.just(
                    HttpResult.badRequest("limit must be a whole number from 1 to " + MAX_PAGE, req.path(), "limit"));
        }
        String service = req.queryParam("service");
        String type = req.queryParam("type");
        String region = req.queryParam("region");
        String after = req.queryParam("after");
        if (type != null
                && java.util.Arrays.stream(CheckType.values())
                        .noneMatch(t -> t.wire().equals(type))) {
            return Mono.just(
                    HttpResult.badRequest("type must be one of http, tcp, dns, tls, heartbeat", req.path(), "type"));
        }
        SortedMap<String, MonitorDefinition> all = catalog.snapshot();
        List<MonitorDefinition> matching = all.values().stream()
                .filter(m -> service == null || service.equals(m.service()))
                .filter(m -> type == null || m.type().wire().equals(type))
                .filter(m -> region == null || m.regions().contains(region))
                .toList();
        List<Object> page = new ArrayList<>();
        String next = null;
        for (MonitorDefinition m : matching) {
            if (after != null && m.id().compareTo(after) <= 0) {
                continue;
            }
            if (page.size() == limit) {
                next = ((ObjectNode) page.get(page.size() - 1)).get("id").asText();
                break;
            }
            ObjectNode row = view(m);
            row.put("revision", Revisions.of(m));
            row.put("checksPerDay", MonitorChecks.checksPerDay(m));
            page.add(row);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("generatedAt", clock.millis());
        body.put("total", matching.size());
        body.put("count", page.size());
        body.put("monitors", page);
        body.put("next", next);
        return Mono.just(HttpResult.ok(body));
    }

    private Mono<HttpResult> definition(QueryRequest req) {
        String id = req.param("id");
        if (!catalog.ready()) {
            return Mono.just(catalog.notReady(req));
        }
        MonitorDefinition m = Require.SLUG.matcher(id).matches() ? catalog.get(id) : null;
        if (m == null) {
            return Mono.just(HttpResult.notFound("no monitor " + id, req.path()));
        }
        return Mono.just(HttpResult.ok(view(m)).withHeader("ETag", Revisions.of(m)));
    }

    /**
     * A definition as the API shows it: everything {@code PUT} takes back, without the hash of a heartbeat monitor's
     * ping token (it is kept when the definition is put back without one).
     */
    static ObjectNode view(MonitorDefinition m) {
        ObjectNode n = (ObjectNode) Json.toTree(m);
        n.remove("schemaVersion");
        JsonNode hb = n.get("heartbeat");
        if (hb instanceof ObjectNode o) {
            boolean has = o.has("tokenSha256");
            o.remove("tokenSha256");
            o.put("hasToken", has);
        }
        return n;
    }

    // ---- PUT and :validate -------------------------------------------------------------------------------------

    private Mono<HttpResult> put(QueryRequest req, QueryBackend backend, boolean dryRun) {
        String id = dryRun ? null : req.param("id");
        if (id != null && !Require.SLUG.matcher(id).matches()) {
            return Mono.just(HttpResult.badRequest(
                    "a monitor id is 1 to 63 lower-case letters, digits and '-', starting with a letter or digit",
                    req.path(),
                    "id"));
        }
        MonitorDefinition asked;
        try {
            asked = MonitorChecks.read(Json.tree(req.body()), id, "");
        } catch (ContractViolation e) {
            return Mono.just(invalid(List.of(e), req.path()));
        }
        if (!catalog.ready()) {
            return Mono.just(catalog.notReady(req));
        }
        String monitorId = asked.id();
        MonitorDefinition current = catalog.get(monitorId);
        String currentRevision = Revisions.of(current);
        if (!dryRun) {
            HttpResult refused = Preconditions.refusal(
                    req,
                    "monitor " + asked.id(),
                    currentRevision,
                    current != null && !sameIgnoringToken(current, asked),
                    "/v1/monitors/" + asked.id() + "/definition");
            if (refused != null) {
                return Mono.just(refused);
            }
        }
        if (monitorId.startsWith(RESERVED_PREFIX) && !isAdmin(req)) {
            return Mono.just(reserved(monitorId, req));
        }
        boolean rotate = "true".equals(req.queryParam("rotateToken"));
        HeartbeatTokens.Prepared prepared;
        try {
            prepared = HeartbeatTokens.prepare(
                    current == null ? Map.of() : Map.of(monitorId, current),
                    List.of(asked),
                    rotate && asked.type() == CheckType.HEARTBEAT ? Set.of(monitorId) : Set.of(),
                    tokens);
        } catch (IllegalArgumentException e) {
            return Mono.just(HttpResult.badRequest(e.getMessage(), req.path(), "heartbeat.tokenSha256"));
        }
        MonitorDefinition next = prepared.monitors().get(0);
        MonitorDiff diff = MonitorDiff.between(current == null ? Map.of() : Map.of(monitorId, current), List.of(next));
        String change = current == null ? "created" : diff.changed().isEmpty() ? "unchanged" : "replaced";
        List<String> fields =
                diff.changed().isEmpty() ? List.of() : diff.changed().get(0).fields();
        Set<String> rolling = csv(req.queryParam("allowRegions"));
        List<ContractViolation> problems = new ArrayList<>();
        if (!change.equals("unchanged") && (current == null || fields.contains("regions") || fields.contains("type"))) {
            problems.addAll(MonitorChecks.unknownRegions(next, regions(backend), rolling, ""));
        }
        if (!change.equals("unchanged")) {
            Map<String, MonitorDefinition> after = new HashMap<>(catalog.snapshot());
            after.put(monitorId, next);
            problems.addAll(Dependencies.problems(after, List.of(next), m -> ""));
        }
        return checks.target(next, "").flatMap(target -> {
            // every problem at once: the regions' and the target's, so one round trip shows them all
            if (target.refused() && !change.equals("unchanged")) {
                problems.add(new ContractViolation(target.field(), target.detail()));
            }
            if (!problems.isEmpty()) {
                return Mono.just(invalid(problems, req.path()));
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("id", monitorId);
            body.put("change", change);
            body.put("changedFields", fields);
            body.put("revision", Revisions.of(next));
            body.put("previousRevision", currentRevision);
            body.put("checksPerDay", MonitorChecks.checksPerDay(next));
            body.put("target", target);
            if (dryRun || change.equals("unchanged")) {
                body.put("dryRun", dryRun);
                if (dryRun && !prepared.issued().isEmpty()) {
                    body.put("heartbeat", Map.of("tokenWouldBeIssued", true));
                }
                body.put("monitor", view(dryRun ? next : current));
                HttpResult ok = HttpResult.ok(body);
                return Mono.just(dryRun ? ok : ok.withHeader("ETag", Revisions.of(current)));
            }
            if (!catalog.reserve(monitorId, current, next)) {
                return Mono.just(Preconditions.concurrentChange(req, "monitor " + monitorId));
            }
            Map<String, String> details = new LinkedHashMap<>();
            details.put("type", next.type().wire());
            details.put("before", currentRevision == null ? "none" : currentRevision);
            details.put("after", Revisions.of(next));
            if (!fields.isEmpty()) {
                details.put("changed", String.join(",", fields));
            }
            if (!prepared.issued().isEmpty()) {
                details.put("heartbeatToken", "issued");
            }
            AuditRecord audit =
                    audit(req, current == null ? "monitor.created" : "monitor.replaced", monitorId, details);
            return writer.write(List.of(record(monitorId, next)), audit)
                    .doOnError(e -> catalog.release(monitorId, next))
                    .then(Mono.fromCallable(() -> {
                        body.put("monitor", view(next));
                        prepared.issued().forEach(t -> body.put("heartbeat", ping(t)));
                        HttpResult r = HttpResult.json(current == null ? 201 : 200, body)
                                .withHeader("ETag", Revisions.of(next));
                        return current == null ? r.withHeader("Location", "/v1/monitors/" + monitorId) : r;
                    }))
                    .onErrorResume(
                            QueryBackend.Unavailable.class,
                            e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
        });
    }

    /** Whether {@code asked} equals {@code current} once the published token hash is carried over. */
    private static boolean sameIgnoringToken(MonitorDefinition current, MonitorDefinition asked) {
        MonitorDefinition a = asked;
        if (asked.type() == CheckType.HEARTBEAT
                && asked.heartbeat().tokenSha256() == null
                && current.type() == CheckType.HEARTBEAT
                && current.heartbeat().tokenSha256() != null) {
            a = HeartbeatTokens.withTokenSha256(asked, current.heartbeat().tokenSha256());
        }
        return MonitorDiff.between(Map.of(current.id(), current), List.of(a))
                .changed()
                .isEmpty();
    }

    private static HttpResult reserved(String id, QueryRequest req) {
        return HttpResult.problem(
                403,
                "reserved-monitor",
                "Vigil's own monitor",
                "monitors named " + RESERVED_PREFIX + "* are Vigil's own (" + id + "); only an admin changes them",
                req.path());
    }

    // ---- DELETE ----------------------------------------------------------------------------------------------

    private Mono<HttpResult> delete(QueryRequest req) {
        String id = req.param("id");
        if (!Require.SLUG.matcher(id).matches()) {
            return Mono.just(HttpResult.notFound("no monitor " + id, req.path()));
        }
        if (!catalog.ready()) {
            return Mono.just(catalog.notReady(req));
        }
        MonitorDefinition current = catalog.get(id);
        if (current == null) {
            return Mono.just(HttpResult.notFound("no monitor " + id + " (never created, or deleted)", req.path()));
        }
        String revision = Revisions.of(current);
        HttpResult refused = Preconditions.deleteRefusal(req, "monitor " + id, revision);
        if (refused != null) {
            return Mono.just(refused);
        }
        if (id.startsWith(RESERVED_PREFIX) && !isAdmin(req)) {
            return Mono.just(reserved(id, req));
        }
        if (!catalog.reserve(id, current, null)) {
            return Mono.just(Preconditions.concurrentChange(req, "monitor " + id));
        }
        AuditRecord audit = audit(
                req, "monitor.deleted", id, Map.of("type", current.type().wire(), "before", revision, "after", "none"));
        return writer.write(List.of(new ProducerRecord<>(topic, id, null)), audit)
                .doOnError(e -> catalog.release(id, null))
                .then(Mono.fromCallable(() -> {
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("id", id);
                    body.put("deleted", true);
                    body.put("previousRevision", revision);
                    body.put(
                            "history",
                            "its status leaves the fleet now and its open incidents resolve; its verdict history and"
                                    + " daily uptime expire with verdict.historyRetention");
                    return HttpResult.ok(body);
                }))
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    // ---- :apply ----------------------------------------------------------------------------------------------

    /** The body of {@code :apply}; each monitor is read strictly on its own so its problems name its position. */
    record ApplyRequest(
            List<JsonNode> monitors,
            Boolean prune,
            Boolean dryRun,
            List<String> allowRegions,
            List<String> rotateHeartbeatTokens) {}

    private Mono<HttpResult> apply(QueryRequest req, QueryBackend backend) {
        ApplyRequest body;
        try {
            body = RequestBodies.read(req.body(), ApplyRequest.class, false);
            if (body.monitors() == null) {
                throw new ContractViolation("monitors", "is required: the whole set of monitors to apply");
            }
            if (body.monitors().size() > maxApplyMonitors) {
                throw new ContractViolation(
                        "monitors",
                        "holds " + body.monitors().size() + " monitors; at most " + maxApplyMonitors
                                + " per request (management.maxApplyMonitors)");
            }
        } catch (ContractViolation e) {
            return Mono.just(invalid(List.of(e), req.path()));
        }
        boolean prune = Boolean.TRUE.equals(body.prune());
        boolean dryRun = Boolean.TRUE.equals(body.dryRun());
        List<ContractViolation> problems = new ArrayList<>();
        List<MonitorDefinition> desired = new ArrayList<>();
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < body.monitors().size(); i++) {
            String at = "monitors[" + i + "]";
            JsonNode node = body.monitors().get(i);
            try {
                MonitorDefinition m = MonitorChecks.read(node, null, at);
                Integer earlier = positions.putIfAbsent(m.id(), i);
                if (earlier != null) {
                    problems.add(new ContractViolation(
                            at + ".id", "'" + m.id() + "' is also the id of monitors[" + earlier + "]"));
                    continue;
                }
                if (m.id().startsWith(RESERVED_PREFIX) && !isAdmin(req)) {
                    problems.add(new ContractViolation(
                            at + ".id",
                            "monitors named " + RESERVED_PREFIX + "* are Vigil's own; only an admin sets them"));
                    continue;
                }
                desired.add(m);
            } catch (ContractViolation e) {
                problems.add(e);
            }
        }
        if (!problems.isEmpty()) {
            return Mono.just(invalid(problems, req.path()));
        }
        if (!catalog.ready()) {
            return Mono.just(catalog.notReady(req));
        }
        SortedMap<String, MonitorDefinition> current = catalog.snapshot();
        Set<String> rotate = body.rotateHeartbeatTokens() == null ? Set.of() : Set.copyOf(body.rotateHeartbeatTokens());
        HeartbeatTokens.Prepared prepared;
        try {
            prepared = HeartbeatTokens.prepare(current, desired, rotate, tokens);
        } catch (IllegalArgumentException e) {
            return Mono.just(HttpResult.badRequest(e.getMessage(), req.path(), "rotateHeartbeatTokens"));
        }
        MonitorDiff full = MonitorDiff.between(current, prepared.monitors());
        List<String> kept = full.removed().stream()
                .filter(id -> id.startsWith(RESERVED_PREFIX))
                .toList();
        MonitorDiff diff = full;
        for (String id : kept) {
            diff = diff.keeping(id);
        }
        List<MonitorDefinition> publishing = new ArrayList<>(diff.added());
        diff.changed().forEach(c -> publishing.add(c.next()));
        Map<String, RegionStatus> known = regions(backend);
        Set<String> rolling = body.allowRegions() == null ? Set.of() : Set.copyOf(body.allowRegions());
        for (MonitorDefinition m : publishing) {
            problems.addAll(MonitorChecks.unknownRegions(m, known, rolling, "monitors[" + positions.get(m.id()) + "]"));
        }
        MonitorDiff plan = diff;
        // the catalog as it would be after this apply: the dependencies are judged on the whole of it
        Map<String, MonitorDefinition> after = new HashMap<>(current);
        if (prune) {
            plan.removed().forEach(after::remove);
        }
        publishing.forEach(m -> after.put(m.id(), m));
        problems.addAll(Dependencies.problems(after, publishing, id -> "monitors[" + positions.get(id) + "]"));
        return Flux.fromIterable(publishing)
                .flatMapSequential(
                        m -> checks.target(m, "monitors[" + positions.get(m.id()) + "]"), TARGET_CHECKS_AT_ONCE)
                .collectList()
                .flatMap(verdicts -> {
                    // every problem at once, in the file's order: the regions' and the targets'
                    verdicts.stream()
                            .filter(MonitorChecks.TargetVerdict::refused)
                            .forEach(v -> problems.add(new ContractViolation(v.field(), v.detail())));
                    if (!problems.isEmpty()) {
                        problems.sort(java.util.Comparator.comparing(MonitorsResource::position));
                        return Mono.just(invalid(problems, req.path()));
                    }
                    List<String> warnings = verdicts.stream()
                            .filter(v -> v.verdict().equals("unresolved"))
                            .map(v -> v.field() + ": " + v.detail())
                            .toList();
                    return applyPlan(req, plan, prepared, prune, dryRun, kept, warnings);
                });
    }

    /** A problem's monitor position ({@code monitors[12].url} → 12), so problems read in the file's order. */
    private static int position(ContractViolation v) {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("^monitors\\[(\\d+)]").matcher(v.field());
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    private Mono<HttpResult> applyPlan(
            QueryRequest req,
            MonitorDiff plan,
            HeartbeatTokens.Prepared prepared,
            boolean prune,
            boolean dryRun,
            List<String> kept,
            List<String> warnings) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("dryRun", dryRun);
        body.put("prune", prune);
        body.put("added", plan.added().stream().map(MonitorDefinition::id).toList());
        body.put(
                "changed",
                plan.changed().stream()
                        .map(c -> Map.of("id", c.next().id(), "fields", c.fields()))
                        .toList());
        body.put("unchanged", plan.unchanged().size());
        body.put(prune ? "deleted" : "notInRequest", plan.removed());
        body.put("keptReserved", kept);
        body.put(
                "checksPerDay",
                prepared.monitors().stream()
                        .mapToLong(MonitorChecks::checksPerDay)
                        .sum());
        body.put("warnings", warnings);
        boolean nothing = plan.isEmpty(prune);
        if (dryRun || nothing) {
            if (dryRun) {
                body.put(
                        "heartbeatTokensWouldBeIssued",
                        prepared.issued().stream()
                                .map(HeartbeatTokens.Issued::monitorId)
                                .toList());
            }
            body.put("published", 0);
            return Mono.just(HttpResult.ok(body));
        }
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        Map<String, MonitorDefinition> overlay = new TreeMap<>();
        plan.added().forEach(m -> {
            records.add(record(m.id(), m));
            overlay.put(m.id(), m);
        });
        plan.changed().forEach(c -> {
            records.add(record(c.next().id(), c.next()));
            overlay.put(c.next().id(), c.next());
        });
        if (prune) {
            plan.removed().forEach(id -> {
                records.add(new ProducerRecord<>(topic, id, null));
                overlay.put(id, null);
            });
        }
        Map<String, String> details = new LinkedHashMap<>();
        details.put("added", String.valueOf(plan.added().size()));
        details.put("changed", String.valueOf(plan.changed().size()));
        details.put("deleted", String.valueOf(prune ? plan.removed().size() : 0));
        details.put("heartbeatTokens", String.valueOf(prepared.issued().size()));
        details.put("after", Revisions.digest(Json.string(overlay.keySet()) + Json.string(overlay.values())));
        AuditRecord audit = audit(req, "monitors.applied", "monitors", details);
        catalog.reserveAll(overlay);
        return writer.write(records, audit)
                .doOnError(e -> overlay.forEach(catalog::release))
                .then(Mono.fromCallable(() -> {
                    body.put("published", records.size());
                    body.put(
                            "heartbeatTokens",
                            prepared.issued().stream().map(this::ping).toList());
                    return HttpResult.ok(body);
                }))
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    // ---- shared ----------------------------------------------------------------------------------------------

    /** A new ping token, shown this once: the token, the path to POST to and, when ingest's URL is configured, the URL. */
    private Map<String, Object> ping(HeartbeatTokens.Issued t) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("monitorId", t.monitorId());
        p.put("pingToken", t.token());
        p.put("pingPath", HeartbeatTokens.pingPath(t));
        if (!ingestUrl.isEmpty()) {
            p.put("pingUrl", ingestUrl + HeartbeatTokens.pingPath(t));
        }
        p.put("shownOnce", true);
        return p;
    }

    private ProducerRecord<String, byte[]> record(String id, MonitorDefinition m) {
        return new ProducerRecord<>(topic, id, Json.bytes(m));
    }

    private AuditRecord audit(QueryRequest req, String action, String target, Map<String, String> details) {
        return new AuditRecord(
                1,
                UUID.randomUUID().toString(),
                clock.millis(),
                req.actor(),
                action,
                target.equals("monitors") ? "monitors" : "monitor/" + target,
                req.remoteAddress(),
                details);
    }

    /** The regions the workers have reported, from the global {@code regions} store; empty before any. */
    private static Map<String, RegionStatus> regions(QueryBackend backend) {
        Map<String, RegionStatus> out = new TreeMap<>();
        try (var it =
                backend.<RegionStatus>keyValueStore(StoreNames.REGIONS_STORE).all()) {
            it.forEachRemaining(kv -> {
                if (kv.value != null) {
                    out.put(kv.key, kv.value);
                }
            });
        }
        return out;
    }

    static HttpResult invalid(List<ContractViolation> problems, String path) {
        return invalid(problems, path, "invalid-monitor", "Invalid monitor");
    }

    /** 400 naming every member at fault ({@code errors}) and the first ({@code field}); nothing was published. */
    static HttpResult invalid(List<ContractViolation> problems, String path, String type, String title) {
        ContractViolation first = problems.get(0);
        List<Map<String, String>> errors = problems.stream()
                .map(p -> Map.of("field", p.field(), "problem", p.problem()))
                .toList();
        String detail = problems.size() == 1
                ? first.getMessage()
                : problems.size() + " problems, nothing was published; the first: " + first.getMessage();
        return HttpResult.problem(400, type, title, detail, path, Map.of("field", first.field(), "errors", errors));
    }

    private static boolean isAdmin(QueryRequest req) {
        return req.principal() != null && req.principal().scopes().contains(Scope.ADMIN);
    }

    private static Integer limit(String text) {
        if (text == null) {
            return DEFAULT_PAGE;
        }
        try {
            int n = Integer.parseInt(text);
            return n >= 1 && n <= MAX_PAGE ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Set<String> csv(String text) {
        Set<String> out = new TreeSet<>();
        if (text != null) {
            for (String s : text.split(",")) {
                if (!s.isBlank()) {
                    out.add(s.strip());
                }
            }
        }
        return out;
    }
}
