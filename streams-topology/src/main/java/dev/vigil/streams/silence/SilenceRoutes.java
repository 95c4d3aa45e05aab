package dev.vigil.streams.silence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.alerting.AlertingTopology;
import dev.vigil.streams.app.StreamsApp;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.query.QueryRequest;
import dev.vigil.streams.query.RouteTable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The silences endpoints of the query API (SPEC section 7):
 * <ul>
 *   <li>{@code POST /v1/silences} — body {@code {fingerprint?, service?, attributes?, startsAt?, endsAt | durationMinutes,
 *       author, reason}} (times as ISO-8601 instants or epoch ms; startsAt defaults to now). The id (a UUID) and
 *       createdAt are assigned here; the silence is written to the compacted silences topic keyed by id and the
 *       answer (201) is sent once Kafka acknowledged it (acks=all, idempotent producer); 503 with Retry-After when
 *       it does not within the bound; 400 naming the field for invalid input.</li>
 *   <li>{@code GET /v1/silences?state=active|pending|expired|all} (default active) — from the global
 *       {@code silences} store, which every instance holds whole: answered locally, never forwarded.</li>
 *   <li>{@code DELETE /v1/silences/{id}} — expires it now ({@link Silence#expire}: an active silence is rewritten
 *       with endsAt = now, a pending one is deleted with a tombstone); 404 when unknown; 200 with the result.</li>
 * </ul>
 * Writes are visible to GET once the global store has consumed them (normally well under a second).
 */
public final class SilenceRoutes implements StreamsApp.RouteExtension {
    private static final Logger LOG = LoggerFactory.getLogger(SilenceRoutes.class);
    /** How long a write may wait for Kafka's acknowledgement before the answer is 503. */
    public static final Duration DEFAULT_ACK_TIMEOUT = Duration.ofSeconds(10);
    static final Set<String> STATES = Set.of("active", "pending", "expired", "all");
    static final Set<String> FIELDS = Set.of("fingerprint", "service", "attributes", "startsAt", "endsAt",
            "durationMinutes", "author", "reason");

    private final Producer<String, byte[]> producer;
    private final String topic;
    private final Clock clock;
    private final Duration ackTimeout;

    public SilenceRoutes(Producer<String, byte[]> producer, String topic, Clock clock, Duration ackTimeout) {
        this.producer = producer;
        this.topic = topic;
        this.clock = clock;
        this.ackTimeout = ackTimeout;
    }

    /**
     * The producer for the silences topic: idempotent, acks=all, and bounded so a send never waits longer than
     * {@code ackTimeout} for metadata or delivery. {@code extra} (e.g. security settings) is applied last.
     */
    public static KafkaProducer<String, byte[]> producer(String bootstrapServers, Duration ackTimeout,
                                                         Map<String, String> extra) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "vigil-silences-" + UUID.randomUUID());
        int bound = (int) Math.max(1000, ackTimeout.toMillis());
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, bound);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, bound);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, bound);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        p.putAll(extra);
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    @Override
    public void register(RouteTable routes, QueryBackend backend, Forwarder forwarder) {
        routes.post("/v1/silences", this::create)
                .get("/v1/silences", req -> list(req, backend))
                .delete("/v1/silences/{id}", req -> expire(req, backend));
    }

    // ---- POST ---------------------------------------------------------------------------------------------

    private Mono<HttpResult> create(QueryRequest req) {
        long now = clock.millis();
        Silence silence;
        try {
            silence = parse(req.body(), UUID.randomUUID().toString(), now);
        } catch (ContractViolation e) {
            return Mono.just(invalid(e, req.path()));
        }
        return write(silence.id(), silence, req.path())
                .map(ok -> withLocation(HttpResult.json(201, view(silence, now)), req.path() + "/" + silence.id()));
    }

    /** The silence a POST body asks for, or a {@link ContractViolation} naming the field. */
    static Silence parse(byte[] body, String id, long now) {
        JsonNode root;
        try {
            root = Json.tree(body);
        } catch (RuntimeException e) {
            throw new ContractViolation("body", "must be a JSON object");
        }
        if (root == null || !root.isObject()) {
            throw new ContractViolation("body", "must be a JSON object");
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw new ContractViolation(name, "unknown field; expected " + String.join(", ", FIELDS.stream().sorted().toList())
                        + (name.equals("id") || name.equals("createdAt") ? " (the server assigns " + name + ")" : ""));
            }
        }
        String fingerprint = text(root, "fingerprint");
        String service = text(root, "service");
        Map<String, String> attributes = null;
        JsonNode attrs = root.get("attributes");
        if (attrs != null && !attrs.isNull()) {
            if (!attrs.isObject()) {
                throw new ContractViolation("attributes", "must be an object of string values");
            }
            attributes = new LinkedHashMap<>();
            for (var it = attrs.fields(); it.hasNext(); ) {
                var e = it.next();
                if (!e.getValue().isTextual()) {
                    throw new ContractViolation("attributes." + e.getKey(), "must be a string");
                }
                attributes.put(e.getKey(), e.getValue().asText());
            }
        }
        Long startsAtGiven = instant(root, "startsAt");
        long startsAt = startsAtGiven == null ? now : startsAtGiven;
        Long endsAt = instant(root, "endsAt");
        JsonNode minutes = root.get("durationMinutes");
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
        return new Silence(1, id, fingerprint, service, attributes, startsAt, endsAt, text(root, "author"),
                text(root, "reason"), now);
    }

    private static String text(JsonNode root, String field) {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw new ContractViolation(field, "must be a string");
        }
        return n.asText();
    }

    private static Long instant(JsonNode root, String field) {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (n.isIntegralNumber() && n.canConvertToLong()) {
            return n.asLong();
        }
        if (n.isTextual()) {
            try {
                return Instant.parse(n.asText()).toEpochMilli();
            } catch (DateTimeParseException e) {
                // fall through
            }
        }
        throw new ContractViolation(field, "must be an ISO-8601 instant such as 2026-12-01T02:00:00Z or epoch milliseconds");
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
            ReadOnlyKeyValueStore<String, Silence> store = backend.keyValueStore(AlertingTopology.SILENCES_STORE);
            try (var it = store.all()) {
                it.forEachRemaining(kv -> {
                    if (kv.value != null && ("all".equals(state) || state(kv.value, now).equals(state))) {
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
        }).onErrorResume(QueryBackend.Unavailable.class, e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    // ---- DELETE -------------------------------------------------------------------------------------------

    private Mono<HttpResult> expire(QueryRequest req, QueryBackend backend) {
        String id = req.param("id");
        if (!Require.SLUG.matcher(id).matches()) {
            return Mono.just(HttpResult.notFound("no silence with this id", req.path()));
        }
        return QueryBackend.read(() -> Optional.ofNullable(backend.<Silence>keyValueStore(AlertingTopology.SILENCES_STORE).get(id)))
                .flatMap(found -> {
                    if (found.isEmpty()) {
                        return Mono.just(HttpResult.notFound("no silence " + id + " (never created, or deleted)", req.path()));
                    }
                    Silence current = found.get();
                    long now = clock.millis();
                    if (current.expiredAt(now)) {
                        return Mono.just(HttpResult.ok(view(current, now)));
                    }
                    Optional<Silence> expired = current.expire(now);
                    if (expired.isPresent()) {
                        return write(id, expired.get(), req.path()).map(ok -> HttpResult.ok(view(expired.get(), now)));
                    }
                    // never started: deleted with a tombstone, shown as it was with state "deleted"
                    return write(id, null, req.path()).map(ok -> {
                        ObjectNode v = view(current, now);
                        v.put("state", "deleted");
                        return HttpResult.ok(v);
                    });
                })
                .onErrorResume(QueryBackend.Unavailable.class, e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    // ---- shared -------------------------------------------------------------------------------------------

    /** {@code pending} before startsAt, {@code active} in [startsAt, endsAt), {@code expired} after. */
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

    /**
     * Writes {@code value} (null = tombstone) keyed by id and completes when Kafka acknowledged it; a failure or no
     * acknowledgement within the bound is a 503 (the write may still land: GET tells).
     */
    private Mono<Boolean> write(String id, Silence value, String path) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, id, value == null ? null : Json.bytes(value));
        return Mono.<Boolean>create(sink -> producer.send(record, (md, e) -> {
                    if (e != null) {
                        sink.error(e);
                    } else {
                        sink.success(true);
                    }
                }))
                .subscribeOn(Schedulers.boundedElastic()) // send() may block up to max.block.ms for metadata
                .timeout(ackTimeout)
                .onErrorMap(e -> !(e instanceof QueryBackend.Unavailable), e -> {
                    LOG.warn("silence {} was not acknowledged by Kafka", id, e);
                    return new QueryBackend.Unavailable("Kafka did not acknowledge the silence write within "
                            + ackTimeout.toSeconds() + " s (" + e.getClass().getSimpleName()
                            + "); it may still be written: check GET /v1/silences before retrying");
                });
    }

    private static HttpResult invalid(ContractViolation e, String path) {
        HttpResult p = HttpResult.badRequest(e.getMessage(), path);
        ObjectNode body = (ObjectNode) Json.tree(p.body());
        body.put("field", e.field());
        return new HttpResult(400, HttpResult.PROBLEM_JSON, Json.bytes(body), Map.of());
    }

    private static HttpResult withLocation(HttpResult r, String location) {
        return new HttpResult(r.status(), r.contentType(), r.body(), Map.of("Location", location));
    }
}
