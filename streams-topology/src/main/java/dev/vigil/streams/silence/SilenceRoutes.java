package dev.vigil.streams.silence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.kit.config.DurationText;
import dev.vigil.schemas.contract.AuditRecord;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.silence.Schedule;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.api.RequestBodies;
import dev.vigil.streams.audit.ApiWriter;
import dev.vigil.streams.config.StreamsServiceConfig.SilenceSettings;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.query.QueryRequest;
import dev.vigil.streams.query.RouteExtension;
import dev.vigil.streams.query.TimeParam;
import dev.vigil.streams.topology.StoreNames;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The silences endpoints of the query API (docs/api.md#query-api-streams):
 * <ul>
 *   <li>{@code POST /v1/silences} (scope {@code silence}) — body {@code {fingerprint?, service?, attributes?, startsAt?,
 *       endsAt | durationMinutes, reason, comment?, schedule?}} (times as ISO-8601 instants or epoch ms; startsAt
 *       defaults to now). The id (a UUID), createdAt and the author (the token's name) are assigned here; a body
 *       {@code author} is free text and becomes the comment when none is given. A {@code schedule}
 *       {@code {days: ["mon", …], at: "HH:MM", durationMinutes: 1..1440, zone: "Europe/Paris"}} makes it a weekly
 *       maintenance window ({@link Schedule}); startsAt/endsAt (or durationMinutes, the length of the series) then
 *       bound the series, and a series in which no occurrence would be in force from now on is refused. The
 *       silence and its audit record are written in one Kafka transaction and the answer (201) is sent once it
 *       committed; 503 with Retry-After when it does not within the bound; 400 naming the field (for the schedule,
 *       its path such as {@code schedule.zone}) for invalid input; 409 when {@code silences.max} silences are
 *       already active or pending, or the caller already has {@code silences.maxPerAuthor} (member {@code limit}
 *       names the key; an admin is held to neither). Refused with 400 whoever asks: a startsAt more than
 *       {@code silences.maxStartAhead} ahead; from a token without {@code admin}: a silence (a series too) longer
 *       than {@code silences.maxDuration}, and one that matches every alert or every alert of a kind.</li>
 *   <li>{@code GET /v1/silences?state=active|pending|expired|all} (default active) — from the global
 *       {@code silences} store, which every instance holds whole: answered locally, never forwarded. The state is
 *       {@code active} while the silence is in force, {@code expired} from endsAt on and {@code pending} otherwise:
 *       before startsAt, and for a schedule also between occurrences (before the first one, between two).</li>
 *   <li>{@code DELETE /v1/silences/{id}} (scope {@code silence}) — expires it now ({@link Silence#expire}: a started
 *       silence, or a series past its startsAt even between occurrences, is rewritten with endsAt = now; one whose
 *       startsAt is still ahead is deleted with a tombstone); 404 when unknown; 200 with the result; audited like a
 *       creation.</li>
 * </ul>
 * Writes are visible to GET once the global store has consumed them (normally well under a second). Silences
 * expired for longer than {@code silences.keepExpired} are deleted with tombstones, at each creation and
 * every ten minutes, so the compacted topic and every instance's global store stay bounded. A series counts
 * towards {@code silences.max} until its endsAt, between occurrences too.
 */
public final class SilenceRoutes implements RouteExtension, AutoCloseable {
    /** How long a write may wait for Kafka's acknowledgement before the answer is 503. */
    public static final Duration DEFAULT_ACK_TIMEOUT = Duration.ofSeconds(10);

    static final Set<String> STATES = Set.of("active", "pending", "expired", "all");
    /** The members a POST body may have: the request record's. */
    static final Set<String> FIELDS = RequestBodies.members(SilenceRequest.class);

    static final Set<String> SCHEDULE_FIELDS = RequestBodies.members(ScheduleRequest.class);
    static final Duration PRUNE_EVERY = Duration.ofMinutes(10);

    private final ApiWriter writer;
    private final String topic;
    private final Clock clock;
    private final SilenceSettings settings;
    private volatile reactor.core.Disposable pruning;
    /** Silences this instance wrote that the global store has not shown yet, by id. */
    private final Map<String, Reservation> reserved = new java.util.concurrent.ConcurrentHashMap<>();

    private record Reservation(long endsAt, String author) {}

    /**
     * What a caller may ask for beyond the silence's own rules: how far ahead it may start (everyone), how long it
     * may last and whether it may match everything (null and true for an admin).
     */
    record Bounds(Duration maxStartAhead, Duration maxDuration, boolean mayMatchEverything) {
        static Bounds of(SilenceSettings settings, boolean admin) {
            return new Bounds(settings.maxStartAhead(), admin ? null : settings.maxDuration(), admin);
        }

        /** No bound beyond the silence's own (tests of parsing alone). */
        static Bounds none() {
            return new Bounds(null, null, true);
        }
    }

    public SilenceRoutes(ApiWriter writer, String topic, Clock clock, SilenceSettings settings) {
        this.writer = writer;
        this.topic = topic;
        this.clock = clock;
        this.settings = settings;
    }

    @Override
    public void register(ApiRoutes routes, QueryBackend backend, Forwarder forwarder) {
        routes.post("/v1/silences", req -> create(req, backend))
                .get("/v1/silences", req -> list(req, backend))
                .delete("/v1/silences/{id}", req -> expire(req, backend));
        pruning = reactor.core.publisher.Flux.interval(PRUNE_EVERY, PRUNE_EVERY, Schedulers.boundedElastic())
                .concatMap(tick -> prune(backend, "system").onErrorResume(e -> Mono.empty()))
                .subscribe();
    }

    @Override
    public void close() {
        if (pruning != null) {
            pruning.dispose();
        }
    }

    // ---- POST ---------------------------------------------------------------------------------------------

    private Mono<HttpResult> create(QueryRequest req, QueryBackend backend) {
        long now = clock.millis();
        boolean admin = isAdmin(req);
        Silence silence;
        try {
            silence = parse(req.body(), UUID.randomUUID().toString(), now, req.actor(), Bounds.of(settings, admin));
        } catch (ContractViolation e) {
            return Mono.just(invalid(e, req.path()));
        }
        return QueryBackend.read(() -> reserve(backend, silence, now, admin))
                .flatMap(refusal -> {
                    if (refusal.isPresent()) {
                        return Mono.just(refusal.get().withInstance(req.path()));
                    }
                    Map<String, String> details = new LinkedHashMap<>();
                    details.put("matcher", matcherText(silence));
                    details.put("endsAt", Instant.ofEpochMilli(silence.endsAt()).toString());
                    if (silence.schedule() != null) {
                        details.put("schedule", silence.schedule().text());
                    }
                    return write(silence.id(), silence, audit(req, "silence.created", silence.id(), now, details))
                            .doOnError(e -> reserved.remove(silence.id()))
                            .then(prune(backend, req.actor()).onErrorResume(e -> Mono.empty()))
                            .thenReturn(withLocation(
                                    HttpResult.json(201, view(silence, now)), req.path() + "/" + silence.id()));
                })
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    /**
     * Counts the silences in force — those in the store plus those this instance wrote that the store has not
     * consumed yet (the global store follows the topic a moment behind) — and reserves a place for {@code silence}
     * when there is room: under {@code silences.max} in all and under {@code silences.maxPerAuthor} for its author.
     * An admin is held to neither, so a full store (or one author's spree) never locks the admins out. Returns the
     * refusal, if any. Synchronised so concurrent creations on this instance cannot both take the last place.
     */
    private synchronized Optional<Refusal> reserve(QueryBackend backend, Silence silence, long now, boolean admin) {
        java.util.Set<String> inForce = new java.util.HashSet<>();
        java.util.Set<String> byAuthor = new java.util.HashSet<>();
        try (var it = backend.<Silence>keyValueStore(StoreNames.SILENCES_STORE).all()) {
            while (it.hasNext()) {
                var kv = it.next();
                if (kv.value != null && !kv.value.expiredAt(now)) {
                    inForce.add(kv.key);
                    if (silence.author().equals(kv.value.author())) {
                        byAuthor.add(kv.key);
                    }
                }
                reserved.remove(kv.key); // the store has it now
            }
        }
        reserved.entrySet().removeIf(e -> e.getValue().endsAt() <= now);
        reserved.forEach((id, r) -> {
            inForce.add(id);
            if (silence.author().equals(r.author())) {
                byAuthor.add(id);
            }
        });
        if (!admin && inForce.size() >= settings.max()) {
            return Optional.of(new Refusal(
                    "too-many-silences",
                    "Too many silences",
                    "there are already "
                            + inForce.size() + " active or pending silences (silences.max = " + settings.max()
                            + "); expire some before adding more, or ask an admin",
                    "silences.max"));
        }
        if (!admin && byAuthor.size() >= settings.maxPerAuthor()) {
            return Optional.of(new Refusal(
                    "too-many-silences-by-author",
                    "Too many silences by this token",
                    "'"
                            + silence.author() + "' already has " + byAuthor.size() + " active or pending silences"
                            + " (silences.maxPerAuthor = " + settings.maxPerAuthor()
                            + "); expire some before adding more",
                    "silences.maxPerAuthor"));
        }
        reserved.put(silence.id(), new Reservation(silence.endsAt(), silence.author()));
        return Optional.empty();
    }

    /** A 409: which cap refused the silence, named by its configuration key ({@code limit}). */
    private record Refusal(String type, String title, String detail, String limit) {
        HttpResult withInstance(String path) {
            return HttpResult.problem(409, type, title, detail, path, Map.of("limit", limit));
        }
    }

    private static boolean isAdmin(QueryRequest req) {
        return req.principal() != null && req.principal().scopes().contains(dev.vigil.kit.auth.Scope.ADMIN);
    }

    /** Tombstones silences that ended more than {@code keepExpired} ago (one transaction, one audit record). */
    Mono<Void> prune(QueryBackend backend, String actor) {
        long now = clock.millis();
        long cutoff = now - settings.keepExpired().toMillis();
        return QueryBackend.read(() -> {
                    // Past keepExpired an expired silence goes; and however young, the oldest expired ones go while the
                    // store holds more than silences.max records, so a burst of short silences cannot grow it without
                    // bound.
                    List<Silence> all = new ArrayList<>();
                    try (var it = backend.<Silence>keyValueStore(StoreNames.SILENCES_STORE)
                            .all()) {
                        it.forEachRemaining(kv -> {
                            if (kv.value != null) {
                                all.add(kv.value);
                            }
                        });
                    }
                    return pruneCandidates(all, now, cutoff, settings.max());
                })
                .flatMap(old -> {
                    if (old.isEmpty()) {
                        return Mono.empty();
                    }
                    List<ProducerRecord<String, byte[]>> tombstones = old.stream()
                            .map(id -> new ProducerRecord<String, byte[]>(topic, id, null))
                            .toList();
                    AuditRecord record = new AuditRecord(
                            1,
                            UUID.randomUUID().toString(),
                            now,
                            actor,
                            "silence.pruned",
                            "silences",
                            "",
                            Map.of(
                                    "count",
                                    String.valueOf(old.size()),
                                    "keepExpired",
                                    DurationText.format(settings.keepExpired())));
                    return writer.write(tombstones, record);
                });
    }

    /**
     * The ids to delete, oldest end first, at most 500 per call: every silence that ended at or before
     * {@code cutoff}, and, while more than {@code max} are stored, the oldest expired ones however recent.
     */
    static List<String> pruneCandidates(List<Silence> stored, long now, long cutoff, int max) {
        List<Silence> expired =
                new ArrayList<>(stored.stream().filter(s -> s.expiredAt(now)).toList());
        expired.sort(Comparator.comparing(Silence::endsAt).thenComparing(Silence::id));
        long excess = Math.max(0, stored.size() - max);
        List<String> out = new ArrayList<>();
        for (Silence e : expired) {
            if (out.size() >= 500 || (e.endsAt() > cutoff && out.size() >= excess)) {
                break;
            }
            out.add(e.id());
        }
        return out;
    }

    private static String matcherText(Silence s) {
        StringBuilder sb = new StringBuilder();
        if (s.fingerprint() != null) {
            sb.append("fingerprint=").append(s.fingerprint());
        }
        if (s.service() != null) {
            sb.append(sb.length() > 0 ? " " : "").append("service=").append(s.service());
        }
        s.attributes().forEach((k, v) -> sb.append(sb.length() > 0 ? " " : "")
                .append(k)
                .append('=')
                .append(v));
        return sb.length() > 512 ? sb.substring(0, 512) : sb.toString();
    }

    private static AuditRecord audit(
            QueryRequest req, String action, String target, long now, Map<String, String> details) {
        return new AuditRecord(
                1,
                UUID.randomUUID().toString(),
                now,
                req.actor(),
                action,
                "silence/" + target,
                req.remoteAddress(),
                details);
    }

    /** The silence a POST body asks for, by {@code author} (the caller's token name), or a {@link ContractViolation} naming the field. */
    static Silence parse(byte[] body, String id, long now, String author) {
        return parse(body, id, now, author, Bounds.none());
    }

    /** As {@link #parse(byte[], String, long, String)}, held to {@code bounds} as well. */
    /**
     * A POST body, bound strictly by {@link RequestBodies}: these members and no other, each of its own type. The times
     * take a number (epoch milliseconds) or ISO-8601 text, and {@code durationMinutes} is checked by hand so its
     * problem says what a whole number of minutes is; they stay JSON here.
     */
    record SilenceRequest(
            String fingerprint,
            String service,
            Map<String, String> attributes,
            JsonNode startsAt,
            JsonNode endsAt,
            JsonNode durationMinutes,
            String author,
            String reason,
            String comment,
            ScheduleRequest schedule) {}

    /** The {@code schedule} member of a POST body. */
    record ScheduleRequest(List<String> days, String at, JsonNode durationMinutes, String zone) {}

    static Silence parse(byte[] body, String id, long now, String author, Bounds bounds) {
        SilenceRequest root;
        try {
            root = RequestBodies.read(body, SilenceRequest.class, false);
        } catch (ContractViolation e) {
            if (e.field().equals("id") || e.field().equals("createdAt")) {
                throw new ContractViolation(e.field(), e.problem() + " (the server assigns " + e.field() + ")");
            }
            throw e;
        }
        String fingerprint = root.fingerprint();
        String service = root.service();
        Map<String, String> attributes = root.attributes() == null ? null : new LinkedHashMap<>(root.attributes());
        if (attributes != null && attributes.containsValue(null)) {
            String key = attributes.entrySet().stream()
                    .filter(e -> e.getValue() == null)
                    .findFirst()
                    .orElseThrow()
                    .getKey();
            throw new ContractViolation("attributes." + key, "must be a string");
        }
        Long startsAtGiven = instant(root.startsAt(), "startsAt");
        long startsAt = startsAtGiven == null ? now : startsAtGiven;
        if (bounds.maxStartAhead() != null
                && startsAt - now > bounds.maxStartAhead().toMillis()) {
            // a silence that starts years ahead still counts against the caps until then: a way to fill them for good
            throw new ContractViolation(
                    "startsAt",
                    "must be at most " + DurationText.format(bounds.maxStartAhead())
                            + " from now (silences.maxStartAhead)");
        }
        Long endsAt = instant(root.endsAt(), "endsAt");
        JsonNode minutes = root.durationMinutes();
        if (minutes != null && !minutes.isNull()) {
            if (endsAt != null) {
                throw new ContractViolation("durationMinutes", "give either endsAt or durationMinutes, not both");
            }
            if (!minutes.canConvertToLong() || !minutes.isIntegralNumber() || minutes.asLong() < 1) {
                throw new ContractViolation("durationMinutes", "must be a whole number of minutes, at least 1");
            }
            if (minutes.asLong() > Silence.MAX_DURATION_MS / 60_000) {
                throw new ContractViolation("durationMinutes", "must be at most 366 days");
            }
            endsAt = startsAt + minutes.asLong() * 60_000;
        } else if (endsAt == null) {
            throw new ContractViolation("endsAt", "is required (or give durationMinutes)");
        }
        if (endsAt <= now) {
            throw new ContractViolation("endsAt", "must be in the future");
        }
        String comment = root.comment();
        String freeAuthor = root.author();
        if (comment == null && freeAuthor != null) {
            comment = freeAuthor; // older clients sent a free-text author: kept as the comment, never as the identity
        } else if (comment != null && freeAuthor != null) {
            comment = freeAuthor + ": " + comment;
        }
        if (bounds.maxDuration() != null
                && endsAt - startsAt > bounds.maxDuration().toMillis()) {
            throw new ContractViolation(
                    minutes != null && !minutes.isNull() ? "durationMinutes" : "endsAt",
                    "a silence by a token without the admin scope lasts at most "
                            + DurationText.format(bounds.maxDuration())
                            + " (silences.maxDuration); ask an admin for longer");
        }
        Schedule schedule = schedule(root.schedule());
        Silence silence = new Silence(
                1,
                id,
                fingerprint,
                service,
                attributes,
                startsAt,
                endsAt,
                author,
                root.reason(),
                now,
                comment,
                schedule);
        if (!bounds.mayMatchEverything() && matchesEverything(silence)) {
            throw new ContractViolation(
                    "fingerprint",
                    "a token without the admin scope cannot silence every alert"
                            + " (or every alert of a kind); name what to silence, e.g. monitor/checkout-*, or a service");
        }
        if (schedule != null && silence.nextActiveAt(Math.max(now, startsAt)).isEmpty()) {
            // e.g. only Sundays in a Monday-to-Friday series: it would silence nothing, so it is surely a mistake
            throw new ContractViolation("schedule", "no occurrence is in force between now (or startsAt) and endsAt");
        }
        return silence;
    }

    /**
     * Whether {@code s} matches every alert, or every alert of one kind: no service or attribute to narrow it and a
     * fingerprint glob with no literal character after its first {@code /} ({@code *}, {@code monitor/*},
     * {@code *}{@code /*}). A glob without {@code /} can only match through a {@code *}, so it counts as
     * everything too unless it is a literal (which then matches no fingerprint, harmlessly).
     */
    static boolean matchesEverything(Silence s) {
        if (s.service() != null || !s.attributes().isEmpty() || s.fingerprint() == null) {
            return s.fingerprint() == null
                    && s.service() == null
                    && s.attributes().isEmpty();
        }
        String glob = s.fingerprint();
        int slash = glob.indexOf('/');
        if (slash < 0) {
            return glob.indexOf('*') >= 0;
        }
        String subject = glob.substring(slash + 1);
        return subject.chars().allMatch(c -> c == '*' || c == '/');
    }

    /** The {@code schedule} member of a POST body, or null; problems name {@code schedule.<field>}. */
    private static Schedule schedule(ScheduleRequest n) {
        if (n == null) {
            return null;
        }
        if (n.days() != null && n.days().contains(null)) {
            throw new ContractViolation("schedule.days[" + n.days().indexOf(null) + "]", "must be a string");
        }
        Integer minutes = null;
        JsonNode m = n.durationMinutes();
        if (m != null && !m.isNull()) {
            if (!m.isIntegralNumber() || !m.canConvertToInt()) {
                throw new ContractViolation(
                        "schedule.durationMinutes",
                        "must be a whole number of minutes, 1 to " + Schedule.MAX_DURATION_MINUTES);
            }
            minutes = m.asInt();
        }
        try {
            return new Schedule(n.days(), n.at(), minutes, n.zone());
        } catch (ContractViolation e) {
            throw new ContractViolation("schedule." + e.field(), e.problem());
        }
    }

    private static Long instant(JsonNode n, String field) {
        if (n == null || n.isNull()) {
            return null;
        }
        try {
            if (n.isIntegralNumber() && n.canConvertToLong()) {
                return TimeParam.check(field, n.asLong());
            }
            if (n.isTextual()) {
                return TimeParam.epochMillis(field, n.asText());
            }
        } catch (IllegalArgumentException e) {
            // fall through
        }
        throw new ContractViolation(
                field,
                "must be an ISO-8601 instant such as 2026-12-01T02:00:00Z or epoch milliseconds"
                        + " between 1970 and 9999");
    }

    // ---- GET ----------------------------------------------------------------------------------------------

    private Mono<HttpResult> list(QueryRequest req, QueryBackend backend) {
        String state = req.queryParam("state") == null ? "active" : req.queryParam("state");
        if (!STATES.contains(state)) {
            return Mono.just(HttpResult.badRequest("state must be one of active, pending, expired, all", req.path()));
        }
        long now = clock.millis();
        return QueryBackend.read(() -> {
                    List<Silence> all = new ArrayList<>();
                    ReadOnlyKeyValueStore<String, Silence> store = backend.keyValueStore(StoreNames.SILENCES_STORE);
                    try (var it = store.all()) {
                        it.forEachRemaining(kv -> {
                            if (kv.value != null
                                    && ("all".equals(state)
                                            || state(kv.value, now).equals(state))) {
                                all.add(kv.value);
                            }
                        });
                    }
                    all.sort(Comparator.comparing(Silence::startsAt).thenComparing(Silence::id));
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("generatedAt", now);
                    body.put("state", state);
                    body.put("count", all.size());
                    body.put("silences", all.stream().map(s -> view(s, now)).toList());
                    return HttpResult.ok(body);
                })
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    // ---- DELETE -------------------------------------------------------------------------------------------

    private Mono<HttpResult> expire(QueryRequest req, QueryBackend backend) {
        String id = req.param("id");
        if (!Require.SLUG.matcher(id).matches()) {
            return Mono.just(HttpResult.notFound("no silence with this id", req.path()));
        }
        return QueryBackend.read(() -> Optional.ofNullable(backend.<Silence>keyValueStore(StoreNames.SILENCES_STORE)
                        .get(id)))
                .flatMap(found -> {
                    if (found.isEmpty()) {
                        return Mono.just(
                                HttpResult.notFound("no silence " + id + " (never created, or deleted)", req.path()));
                    }
                    Silence current = found.get();
                    long now = clock.millis();
                    if (current.expiredAt(now)) {
                        return Mono.just(HttpResult.ok(view(current, now)));
                    }
                    Optional<Silence> expired = current.expire(now);
                    Map<String, String> details =
                            Map.of("matcher", matcherText(current), "createdBy", current.author());
                    if (expired.isPresent()) {
                        return write(id, expired.get(), audit(req, "silence.expired", id, now, details))
                                .thenReturn(HttpResult.ok(view(expired.get(), now)));
                    }
                    // never started: deleted with a tombstone, shown as it was with state "deleted"
                    return write(id, null, audit(req, "silence.deleted", id, now, details))
                            .then(Mono.fromCallable(() -> {
                                ObjectNode v = view(current, now);
                                v.put("state", "deleted");
                                return HttpResult.ok(v);
                            }));
                })
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    // ---- shared -------------------------------------------------------------------------------------------

    /**
     * {@code expired} from endsAt on; {@code active} while {@link Silence#activeAt} (for a schedule, inside an
     * occurrence); {@code pending} otherwise: before startsAt, and for a schedule before its first and between
     * occurrences.
     */
    static String state(Silence s, long now) {
        if (s.expiredAt(now)) {
            return "expired";
        }
        return s.activeAt(now) ? "active" : "pending";
    }

    static ObjectNode view(Silence s, long now) {
        ObjectNode n = (ObjectNode) Json.toTree(s);
        n.put("state", state(s, now));
        return n;
    }

    /** Writes {@code value} (null = tombstone) keyed by id with its audit record, in one transaction. */
    private Mono<Void> write(String id, Silence value, AuditRecord audit) {
        return writer.write(List.of(new ProducerRecord<>(topic, id, value == null ? null : Json.bytes(value))), audit);
    }

    private static HttpResult invalid(ContractViolation e, String path) {
        return HttpResult.badRequest(e.getMessage(), path, e.field());
    }

    private static HttpResult withLocation(HttpResult r, String location) {
        return new HttpResult(r.status(), r.contentType(), r.body(), Map.of("Location", location));
    }
}
