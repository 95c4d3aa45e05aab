package dev.vigil.streams.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.schemas.contract.AlertRule;
import dev.vigil.schemas.contract.AuditRecord;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.audit.ApiWriter;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.query.QueryRequest;
import dev.vigil.streams.query.RouteExtension;
import dev.vigil.streams.rules.DefaultRules;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import reactor.core.publisher.Mono;

/**
 * Metric alert rules managed through the query API (docs/api.md#managing-alert-rules), the same way as monitors
 * ({@link MonitorsResource}): read from a {@link Catalog} of {@code vigil.alert-rules}, written with their audit record
 * in one transaction, replaced only with the revision the editor read. The rules in force are the shipped defaults
 * ({@link DefaultRules}), each replaced by a published rule of the same id, plus every other published rule; so a
 * default is visible here ({@code source: default}), is edited like any rule (its first edit publishes an override,
 * {@code source: override}), and comes back when its override is deleted. A shipped rule itself cannot be deleted:
 * it is switched off with {@code enabled: false}.
 * <ul>
 *   <li>{@code GET /v1/rules}, {@code GET /v1/rules/{id}} (scope {@code read}; the latter with {@code ETag});</li>
 *   <li>{@code PUT /v1/rules/{id}} (scope {@code rules}): create (201) or replace (200) with {@code If-Match};
 *       428 replacing without it, 412 when stale;</li>
 *   <li>{@code DELETE /v1/rules/{id}} (rules): a custom rule is deleted, an override removed (the default is back);</li>
 *   <li>{@code POST /v1/rules:validate} (rules): the checks and the change, publishing nothing;</li>
 *   <li>{@code POST /v1/rules:apply} (rules): {@code {rules: [...], prune?, dryRun?}} — every rule checked, then all
 *       published in one transaction or none; {@code prune} deletes the published rules the request leaves out (an
 *       override left out brings its shipped rule back).</li>
 * </ul>
 */
public final class RulesResource implements RouteExtension {
    private final Catalog<AlertRule> catalog;
    private final ApiWriter writer;
    private final String topic;
    private final Clock clock;

    public RulesResource(Catalog<AlertRule> catalog, ApiWriter writer, String topic, Clock clock) {
        this.catalog = catalog;
        this.writer = writer;
        this.topic = topic;
        this.clock = clock;
    }

    @Override
    public void register(ApiRoutes routes, QueryBackend backend, Forwarder forwarder) {
        routes.get("/v1/rules", this::list)
                .get("/v1/rules/{id}", this::one)
                .put("/v1/rules/{id}", req -> put(req, false))
                .delete("/v1/rules/{id}", this::delete)
                .post("/v1/rules:validate", req -> put(req, true))
                .post("/v1/rules:apply", MonitorsResource.MAX_APPLY_BODY_BYTES, this::apply);
    }

    /** The shipped rules by id. */
    private static Map<String, AlertRule> defaults() {
        Map<String, AlertRule> out = new LinkedHashMap<>();
        DefaultRules.all().forEach(r -> out.put(r.id(), r));
        return out;
    }

    /** The rule in force under {@code id}: the published one, else the shipped one, else null. */
    private AlertRule effective(String id) {
        AlertRule published = catalog.get(id);
        return published != null ? published : defaults().get(id);
    }

    private static String source(String id, AlertRule published) {
        boolean shipped = defaults().containsKey(id);
        if (published == null) {
            return shipped ? "default" : "none";
        }
        return shipped ? "override" : "custom";
    }

    private static ObjectNode view(AlertRule r, String source) {
        ObjectNode n = (ObjectNode) Json.toTree(r);
        n.remove("schemaVersion");
        n.put("source", source);
        n.put("revision", Revisions.of(r));
        return n;
    }

    private Mono<HttpResult> list(QueryRequest req) {
        if (!catalog.ready()) {
            return Mono.just(catalog.notReady(req));
        }
        Map<String, AlertRule> published = catalog.snapshot();
        Map<String, AlertRule> inForce = new TreeMap<>(defaults());
        inForce.putAll(published);
        List<Object> rows = new ArrayList<>();
        inForce.forEach((id, r) -> rows.add(view(r, source(id, published.get(id)))));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("generatedAt", clock.millis());
        body.put("count", rows.size());
        body.put("rules", rows);
        return Mono.just(HttpResult.ok(body));
    }

    private Mono<HttpResult> one(QueryRequest req) {
        String id = req.param("id");
        if (!catalog.ready()) {
            return Mono.just(catalog.notReady(req));
        }
        AlertRule r = Require.SLUG.matcher(id).matches() ? effective(id) : null;
        if (r == null) {
            return Mono.just(HttpResult.notFound("no rule " + id, req.path()));
        }
        return Mono.just(HttpResult.ok(view(r, source(id, catalog.get(id)))).withHeader("ETag", Revisions.of(r)));
    }

    private Mono<HttpResult> put(QueryRequest req, boolean dryRun) {
        String id = dryRun ? null : req.param("id");
        if (id != null && !Require.SLUG.matcher(id).matches()) {
            return Mono.just(
                    HttpResult.badRequest("a rule id is 1 to 63 lower-case letters, digits and '-'", req.path(), "id"));
        }
        AlertRule asked;
        try {
            asked = read(Json.tree(req.body()), id);
        } catch (ContractViolation e) {
            return Mono.just(MonitorsResource.invalid(List.of(e), req.path(), "invalid-rule", "Invalid rule"));
        }
        if (!catalog.ready()) {
            return Mono.just(catalog.notReady(req));
        }
        String ruleId = asked.id();
        AlertRule published = catalog.get(ruleId);
        AlertRule current = published != null ? published : defaults().get(ruleId);
        String currentRevision = Revisions.of(current);
        String change = current == null ? "created" : current.equals(asked) ? "unchanged" : "replaced";
        if (!dryRun) {
            HttpResult refused = Preconditions.refusal(
                    req, "rule " + ruleId, currentRevision, change.equals("replaced"), "/v1/rules/" + ruleId);
            if (refused != null) {
                return Mono.just(refused);
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", ruleId);
        body.put("change", change);
        body.put("revision", Revisions.of(asked));
        body.put("previousRevision", currentRevision);
        body.put("rule", view(asked, defaults().containsKey(ruleId) ? "override" : "custom"));
        if (dryRun || change.equals("unchanged")) {
            body.put("dryRun", dryRun);
            return Mono.just(HttpResult.ok(body));
        }
        if (!catalog.reserve(ruleId, published, asked)) {
            return Mono.just(Preconditions.concurrentChange(req, "rule " + ruleId));
        }
        Map<String, String> details = new LinkedHashMap<>();
        details.put("metricName", asked.metricName());
        details.put("before", currentRevision == null ? "none" : currentRevision);
        details.put("after", Revisions.of(asked));
        AuditRecord audit = audit(req, current == null ? "rule.created" : "rule.replaced", ruleId, details);
        return writer.write(List.of(new ProducerRecord<>(topic, ruleId, Json.bytes(asked))), audit)
                .doOnError(e -> catalog.release(ruleId, asked))
                .thenReturn(HttpResult.json(current == null ? 201 : 200, body).withHeader("ETag", Revisions.of(asked)))
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    /** The body of {@code :apply}: the rules, each read strictly on its own so its problems name its position. */
    record ApplyRequest(List<JsonNode> rules, Boolean prune, Boolean dryRun) {}

    private Mono<HttpResult> apply(QueryRequest req) {
        ApplyRequest body;
        List<ContractViolation> problems = new ArrayList<>();
        Map<String, AlertRule> desired = new LinkedHashMap<>();
        try {
            body = RequestBodies.read(req.body(), ApplyRequest.class, false);
            if (body.rules() == null) {
                throw new ContractViolation("rules", "is required: the whole set of rules to apply");
            }
        } catch (ContractViolation e) {
            return Mono.just(MonitorsResource.invalid(List.of(e), req.path(), "invalid-rule", "Invalid rule"));
        }
        for (int i = 0; i < body.rules().size(); i++) {
            String at = "rules[" + i + "]";
            try {
                AlertRule r = read(body.rules().get(i), null, at);
                if (desired.putIfAbsent(r.id(), r) != null) {
                    problems.add(new ContractViolation(at + ".id", "'" + r.id() + "' is the id of an earlier rule"));
                }
            } catch (ContractViolation e) {
                problems.add(e);
            }
        }
        if (!problems.isEmpty()) {
            return Mono.just(MonitorsResource.invalid(problems, req.path(), "invalid-rule", "Invalid rule"));
        }
        if (!catalog.ready()) {
            return Mono.just(catalog.notReady(req));
        }
        boolean prune = Boolean.TRUE.equals(body.prune());
        boolean dryRun = Boolean.TRUE.equals(body.dryRun());
        Map<String, AlertRule> published = catalog.snapshot();
        List<String> created = new ArrayList<>();
        List<String> replaced = new ArrayList<>();
        int unchanged = 0;
        Map<String, AlertRule> writes = new TreeMap<>();
        for (AlertRule r : desired.values()) {
            AlertRule current = published.containsKey(r.id())
                    ? published.get(r.id())
                    : defaults().get(r.id());
            if (r.equals(current)) {
                unchanged++;
            } else {
                (current == null ? created : replaced).add(r.id());
                writes.put(r.id(), r);
            }
        }
        List<String> left = published.keySet().stream()
                .filter(id -> !desired.containsKey(id))
                .sorted()
                .toList();
        if (prune) {
            left.forEach(id -> writes.put(id, null));
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("dryRun", dryRun);
        answer.put("prune", prune);
        answer.put("created", created);
        answer.put("replaced", replaced);
        answer.put("unchanged", unchanged);
        answer.put(prune ? "deleted" : "notInRequest", left);
        if (dryRun || writes.isEmpty()) {
            answer.put("published", 0);
            return Mono.just(HttpResult.ok(answer));
        }
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        writes.forEach((id, r) -> records.add(new ProducerRecord<>(topic, id, r == null ? null : Json.bytes(r))));
        Map<String, String> details = new LinkedHashMap<>();
        details.put("created", String.valueOf(created.size()));
        details.put("replaced", String.valueOf(replaced.size()));
        details.put("deleted", String.valueOf(prune ? left.size() : 0));
        details.put("after", Revisions.digest(Json.string(writes.keySet()) + Json.string(writes.values())));
        catalog.reserveAll(writes);
        return writer.write(records, audit(req, "rules.applied", "*", details))
                .doOnError(e -> writes.forEach(catalog::release))
                .then(Mono.fromCallable(() -> {
                    answer.put("published", records.size());
                    return HttpResult.ok(answer);
                }))
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    /** A rule from a body: the contract read strictly (the members GET adds are tolerated and dropped). */
    static AlertRule read(JsonNode node, String pathId) {
        return read(node, pathId, "");
    }

    /** As {@link #read(JsonNode, String)}, violations named under {@code prefix} ({@code rules[2].threshold}). */
    static AlertRule read(JsonNode node, String pathId, String prefix) {
        return RequestBodies.managed(node, AlertRule.class, pathId, prefix, "rule", List.of("source", "revision"));
    }

    private Mono<HttpResult> delete(QueryRequest req) {
        String id = req.param("id");
        if (!catalog.ready()) {
            return Mono.just(catalog.notReady(req));
        }
        AlertRule published = Require.SLUG.matcher(id).matches() ? catalog.get(id) : null;
        boolean shipped = defaults().containsKey(id);
        if (published == null) {
            return Mono.just(
                    shipped
                            ? HttpResult.problem(
                                    409,
                                    "shipped-rule",
                                    "A shipped rule",
                                    "rule " + id + " ships with Vigil and cannot be deleted; switch it off with "
                                            + "\"enabled\": false",
                                    req.path())
                            : HttpResult.notFound("no rule " + id, req.path()));
        }
        String revision = Revisions.of(published);
        HttpResult refused = Preconditions.deleteRefusal(req, "rule " + id, revision);
        if (refused != null) {
            return Mono.just(refused);
        }
        if (!catalog.reserve(id, published, null)) {
            return Mono.just(Preconditions.concurrentChange(req, "rule " + id));
        }
        AuditRecord audit = audit(
                req,
                shipped ? "rule.override-removed" : "rule.deleted",
                id,
                Map.of(
                        "before",
                        revision,
                        "after",
                        shipped ? Revisions.of(defaults().get(id)) : "none"));
        return writer.write(List.of(new ProducerRecord<>(topic, id, null)), audit)
                .doOnError(e -> catalog.release(id, null))
                .then(Mono.fromCallable(() -> {
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("id", id);
                    body.put("deleted", true);
                    body.put("previousRevision", revision);
                    if (shipped) {
                        body.put("rule", view(defaults().get(id), "default"));
                    }
                    return HttpResult.ok(body);
                }))
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    private AuditRecord audit(QueryRequest req, String action, String id, Map<String, String> details) {
        return new AuditRecord(
                1,
                UUID.randomUUID().toString(),
                clock.millis(),
                req.actor(),
                action,
                "rule/" + id,
                req.remoteAddress(),
                details);
    }
}
