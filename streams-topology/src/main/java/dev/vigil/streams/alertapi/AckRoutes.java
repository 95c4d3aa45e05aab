package dev.vigil.streams.alertapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.AuditRecord;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.IncidentNote;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.api.RequestBodies;
import dev.vigil.streams.audit.ApiWriter;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.query.QueryRequest;
import dev.vigil.streams.query.TimeParam;
import dev.vigil.streams.topology.StoreNames;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.ProducerRecord;
import reactor.core.publisher.Mono;

/**
 * Acknowledging an incident (docs/design.md#incident-lifecycle), scope {@code ack}:
 * <ul>
 *   <li>{@code POST /v1/alerts/{fingerprint}/ack} — body (optional) {@code {until?, comment?}}: {@code until} an ISO-8601
 *       instant, epoch ms or a duration such as {@code 2h} from now; absent: until the incident ends. The fingerprint
 *       must name an open incident (404 otherwise). The acknowledgement (on {@code vigil.acks}, keyed by fingerprint),
 *       the {@code acknowledged} notification (on {@code vigil.alerts}) and the audit record are committed in one
 *       Kafka transaction; the answer (200) follows the commit. Acknowledging again replaces the previous one.</li>
 *   <li>{@code DELETE /v1/alerts/{fingerprint}/ack} — unacknowledges (a tombstone; reminders resume at once if one is
 *       due); 404 when the incident is not acknowledged.</li>
 * </ul>
 * The author is the token's name. While an acknowledgement holds, the topology sends no reminder; an escalation still
 * pages and ends it; the resolution is always sent.
 */
public final class AckRoutes {
    static final Set<String> FIELDS = RequestBodies.members(AckRequest.class);
    /** An acknowledgement lasts at most this long (longer is a silence, or a disabled monitor). */
    static final Duration MAX_UNTIL = Duration.ofDays(31);

    private static final Pattern DURATION = Pattern.compile("([1-9][0-9]{0,5})([mhd])");

    private final ApiWriter writer;
    private final String acksTopic;
    private final String alertsTopic;
    private final String notesTopic;
    private final Clock clock;

    public AckRoutes(ApiWriter writer, String acksTopic, String alertsTopic, Clock clock) {
        this(writer, acksTopic, alertsTopic, dev.vigil.schemas.topic.Topics.INCIDENT_NOTES, clock);
    }

    /** @param notesTopic where an unacknowledgement is noted for the incident's timeline */
    public AckRoutes(ApiWriter writer, String acksTopic, String alertsTopic, String notesTopic, Clock clock) {
        this.writer = writer;
        this.acksTopic = acksTopic;
        this.alertsTopic = alertsTopic;
        this.notesTopic = notesTopic;
        this.clock = clock;
    }

    public ApiRoutes register(ApiRoutes routes, QueryBackend backend, Forwarder forwarder) {
        return routes.post("/v1/alerts/{fingerprint}/ack", req -> ack(req, backend, forwarder))
                .delete("/v1/alerts/{fingerprint}/ack", req -> unack(req, backend));
    }

    private Mono<HttpResult> ack(QueryRequest req, QueryBackend backend, Forwarder forwarder) {
        String fingerprint = req.param("fingerprint");
        if (!Require.FINGERPRINT.matcher(fingerprint).matches()) {
            return Mono.just(
                    HttpResult.badRequest("the fingerprint must look like <rule-or-service>/<subject>", req.path()));
        }
        long now = clock.millis();
        Long until;
        String comment;
        try {
            AckRequest body = RequestBodies.read(req.body(), AckRequest.class, true);
            until = until(body.until(), now);
            comment = body.comment();
            Require.optionalText("comment", comment, 300);
        } catch (ContractViolation e) {
            return Mono.just(HttpResult.badRequest(e.getMessage(), req.path(), e.field()));
        } catch (RuntimeException e) {
            return Mono.just(HttpResult.badRequest("the body must be a JSON object {until?, comment?}", req.path()));
        }
        if (!backend.ready()) {
            return Mono.just(
                    HttpResult.unavailable("this instance is " + backend.state() + "; retry shortly", req.path()));
        }
        return AlertingRoutes.gather(backend, forwarder, "open", now)
                .map(rows -> rows.stream()
                        .filter(r -> fingerprint.equals(r.path("fingerprint").asText()))
                        .findFirst())
                .flatMap(found -> {
                    if (found.isEmpty()) {
                        return Mono.just(
                                HttpResult.notFound("no open incident with fingerprint " + fingerprint, req.path()));
                    }
                    JsonNode incident = found.get();
                    Ack ack = new Ack(
                            1,
                            fingerprint,
                            incident.path("incidentId").asText(),
                            req.actor(),
                            now,
                            until,
                            comment,
                            Severity.parseLenient(incident.path("severity").asText()));
                    AlertEvent notice = notice(incident, ack);
                    Map<String, String> details = new LinkedHashMap<>();
                    details.put("incidentId", ack.incidentId());
                    details.put(
                            "until",
                            until == null
                                    ? "end of incident"
                                    : Instant.ofEpochMilli(until).toString());
                    AuditRecord audit = new AuditRecord(
                            1,
                            UUID.randomUUID().toString(),
                            now,
                            req.actor(),
                            "alert.acknowledged",
                            "alert/" + fingerprint,
                            req.remoteAddress(),
                            details);
                    return writer.write(
                                    List.of(
                                            new ProducerRecord<>(acksTopic, fingerprint, Json.bytes(ack)),
                                            new ProducerRecord<>(alertsTopic, fingerprint, Json.bytes(notice))),
                                    audit)
                            .thenReturn(HttpResult.ok(view(ack)));
                })
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    private Mono<HttpResult> unack(QueryRequest req, QueryBackend backend) {
        String fingerprint = req.param("fingerprint");
        if (!Require.FINGERPRINT.matcher(fingerprint).matches()) {
            return Mono.just(
                    HttpResult.badRequest("the fingerprint must look like <rule-or-service>/<subject>", req.path()));
        }
        long now = clock.millis();
        return QueryBackend.read(() -> Optional.ofNullable(
                        backend.<Ack>keyValueStore(StoreNames.ACKS_STORE).get(fingerprint)))
                .flatMap(found -> {
                    if (found.isEmpty()) {
                        return Mono.just(
                                HttpResult.notFound("incident " + fingerprint + " is not acknowledged", req.path()));
                    }
                    AuditRecord audit = new AuditRecord(
                            1,
                            UUID.randomUUID().toString(),
                            now,
                            req.actor(),
                            "alert.unacknowledged",
                            "alert/" + fingerprint,
                            req.remoteAddress(),
                            Map.of(
                                    "incidentId",
                                    found.get().incidentId(),
                                    "acknowledgedBy",
                                    found.get().by()));
                    ProducerRecord<String, byte[]> tombstone = new ProducerRecord<>(acksTopic, fingerprint, null);
                    IncidentNote note = new IncidentNote(
                            1,
                            IncidentNote.UNACKNOWLEDGED,
                            fingerprint,
                            found.get().incidentId(),
                            null,
                            null,
                            now,
                            req.actor(),
                            "Unacknowledged by " + req.actor(),
                            null);
                    return writer.write(
                                    List.of(tombstone, new ProducerRecord<>(notesTopic, fingerprint, Json.bytes(note))),
                                    audit)
                            .thenReturn(HttpResult.ok(Map.of(
                                    "fingerprint",
                                    fingerprint,
                                    "incidentId",
                                    found.get().incidentId(),
                                    "unacknowledgedBy",
                                    req.actor())));
                })
                .onErrorResume(
                        QueryBackend.Unavailable.class,
                        e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
    }

    /** The {@code acknowledged} notification of {@code incident}: one per acknowledgement, its id from the ack's time. */
    static AlertEvent notice(JsonNode incident, Ack ack) {
        Map<String, String> attributes = new LinkedHashMap<>();
        incident.path("attributes")
                .fields()
                .forEachRemaining(e -> attributes.put(e.getKey(), e.getValue().asText()));
        attributes.put("acknowledgedBy", ack.by());
        if (ack.until() != null) {
            attributes.put(
                    "acknowledgedUntil", Instant.ofEpochMilli(ack.until()).toString());
        }
        while (attributes.size() > 16) {
            attributes.remove(attributes.keySet().iterator().next());
        }
        Map<String, String> links = new LinkedHashMap<>();
        incident.path("links")
                .fields()
                .forEachRemaining(e -> links.put(e.getKey(), e.getValue().asText()));
        String summary = "Acknowledged by " + ack.by()
                + (ack.comment() == null ? "" : ": " + ack.comment().replace('\n', ' '));
        if (summary.length() > 300) {
            summary = summary.substring(0, 299) + "…";
        }
        return new AlertEvent(
                1,
                ack.incidentId() + "/" + AlertState.ACKNOWLEDGED.wire() + "/" + ack.at(),
                ack.fingerprint(),
                ack.incidentId(),
                AlertState.ACKNOWLEDGED,
                ack.severity(),
                incident.path("service").asText(),
                incident.hasNonNull("componentType")
                        ? incident.get("componentType").asText()
                        : null,
                summary,
                links,
                attributes,
                incident.path("occurrences").asInt(1),
                incident.path("firstSeen").asLong(),
                Math.max(
                        incident.path("lastSeen").asLong(),
                        incident.path("firstSeen").asLong()),
                AlertSource.fromWire(incident.path("source").asText()),
                false,
                null);
    }

    static Map<String, Object> view(Ack ack) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("fingerprint", ack.fingerprint());
        v.put("incidentId", ack.incidentId());
        v.put("acknowledgedBy", ack.by());
        v.put("acknowledgedAt", ack.at());
        if (ack.until() != null) {
            v.put("acknowledgedUntil", ack.until());
        }
        if (ack.comment() != null) {
            v.put("comment", ack.comment());
        }
        return v;
    }

    /**
     * An acknowledgement's body (bound strictly by {@link RequestBodies}; an empty body is no until and no comment):
     * {@code until} is an instant, epoch milliseconds or a duration, so it stays JSON here.
     */
    record AckRequest(JsonNode until, String comment) {}

    /** {@code until}: absent/null, an instant, epoch ms, or {@code 30m}/{@code 2h}/{@code 1d} from now; at most 31 days. */
    static Long until(JsonNode n, long now) {
        if (n == null || n.isNull()) {
            return null;
        }
        long at;
        if (n.isIntegralNumber() && n.canConvertToLong()) {
            at = checked(n.asLong());
        } else if (n.isTextual()) {
            Matcher m = DURATION.matcher(n.asText().trim());
            if (m.matches()) {
                long amount = Long.parseLong(m.group(1));
                long unit =
                        switch (m.group(2)) {
                            case "m" -> 60_000L;
                            case "h" -> 3_600_000L;
                            default -> 86_400_000L;
                        };
                at = now + amount * unit;
            } else {
                at = checked(n.asText());
            }
        } else {
            throw new ContractViolation(
                    "until", "must be an ISO-8601 instant, epoch milliseconds or a duration like 2h");
        }
        if (at <= now) {
            throw new ContractViolation("until", "must be in the future");
        }
        if (at - now > MAX_UNTIL.toMillis()) {
            throw new ContractViolation("until", "must be at most 31 days from now (for longer, add a silence)");
        }
        return at;
    }

    private static long checked(long ms) {
        try {
            return TimeParam.check("until", ms);
        } catch (IllegalArgumentException e) {
            throw new ContractViolation(
                    "until", "must be an ISO-8601 instant, epoch milliseconds or a duration like 2h");
        }
    }

    private static long checked(String text) {
        try {
            return TimeParam.epochMillis("until", text);
        } catch (IllegalArgumentException e) {
            throw new ContractViolation(
                    "until", "must be an ISO-8601 instant, epoch milliseconds or a duration like 2h");
        }
    }
}
