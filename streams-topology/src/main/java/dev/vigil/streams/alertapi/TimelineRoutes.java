package dev.vigil.streams.alertapi;

import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.EscalationStatus;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.incident.IncidentTimeline;
import dev.vigil.streams.incident.Origins;
import dev.vigil.streams.incident.TimelineEntry;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.HttpResult;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.query.QueryRequest;
import dev.vigil.streams.query.RouteExtension;
import dev.vigil.streams.topology.StoreNames;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import reactor.core.publisher.Mono;

/**
 * {@code GET /v1/alerts/{fingerprint}/timeline} (scope {@code read}): the fingerprint's current (or last) incident,
 * line by line — every alert event of it (opened, reminders, escalations, acknowledgements, resolution; each marked
 * when it went out silenced), every page per channel with its outcome, unacknowledgements, and the escalation tiers
 * that fired — oldest first, answered by the instance that owns the fingerprint's partition (forwarded otherwise).
 * 404 when the fingerprint has no incident in the last {@code IncidentTopology.RETENTION}.
 */
public final class TimelineRoutes implements RouteExtension {
    private final Clock clock;

    public TimelineRoutes(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void register(ApiRoutes routes, QueryBackend backend, Forwarder forwarder) {
        routes.get("/v1/alerts/{fingerprint}/timeline", req -> timeline(req, backend, forwarder));
    }

    private Mono<HttpResult> timeline(QueryRequest req, QueryBackend backend, Forwarder forwarder) {
        String fingerprint = req.param("fingerprint");
        if (!Require.FINGERPRINT.matcher(fingerprint).matches()) {
            return Mono.just(
                    HttpResult.badRequest("the fingerprint must look like <rule-or-service>/<subject>", req.path()));
        }
        if (!backend.ready()) {
            return Mono.just(HttpResult.unavailable(
                    "this instance is " + backend.state() + "; its stores cannot give a whole answer now", req.path()));
        }
        QueryBackend.Placement placement = backend.placement(StoreNames.TIMELINE_STORE, fingerprint);
        return switch (placement.kind()) {
            case LOCAL -> QueryBackend.read(() -> local(backend, fingerprint, clock.millis(), req.path()))
                    .onErrorResume(
                            QueryBackend.Unavailable.class,
                            e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
            case REMOTE -> req.forwarded()
                    ? Mono.just(HttpResult.unavailable(
                            "ownership of this incident is moving between instances", req.path()))
                    : forwarder
                            .get(placement.hostPort(), req.uri())
                            .onErrorResume(
                                    QueryBackend.Unavailable.class,
                                    e -> Mono.just(HttpResult.unavailable(e.getMessage(), req.path())));
            case UNAVAILABLE -> Mono.just(
                    HttpResult.unavailable("the owner of this incident is not known yet", req.path()));
        };
    }

    static HttpResult local(QueryBackend backend, String fingerprint, long now, String path) {
        ReadOnlyKeyValueStore<String, IncidentTimeline> store = backend.keyValueStore(StoreNames.TIMELINE_STORE);
        IncidentTimeline t = store.get(fingerprint);
        if (t == null) {
            return HttpResult.notFound("no incident of fingerprint " + fingerprint + " in the last 7 days", path);
        }
        List<TimelineEntry> entries = new ArrayList<>(t.entries());
        EscalationStatus climb = globalOrNull(backend, StoreNames.ESCALATIONS_STORE, fingerprint);
        if (climb != null && climb.incidentId().equals(t.incidentId())) {
            for (EscalationStatus.Step s : climb.tiers()) {
                if ("fired".equals(s.state()) && s.firedAt() != null) {
                    entries.add(new TimelineEntry(
                            s.firedAt(),
                            "tier",
                            null,
                            null,
                            null,
                            null,
                            null,
                            null,
                            "tier " + s.tier() + " paged " + String.join(", ", s.channels()),
                            null));
                }
            }
        }
        entries.sort(Comparator.comparingLong(TimelineEntry::at)); // stable: same-time lines keep their order
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("fingerprint", fingerprint);
        body.put("incidentId", t.incidentId());
        body.put("origin", Origins.of(fingerprint));
        Ack ack = globalOrNull(backend, StoreNames.ACKS_STORE, fingerprint);
        if (ack != null && ack.incidentId().equals(t.incidentId()) && (ack.until() == null || ack.until() > now)) {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("by", ack.by());
            a.put("at", ack.at());
            if (ack.until() != null) {
                a.put("until", ack.until());
            }
            body.put("acknowledged", a);
        }
        if (climb != null && climb.incidentId().equals(t.incidentId())) {
            body.put("escalation", Json.toTree(climb.tiers()));
        }
        body.put("entries", entries);
        if (t.dropped() > 0) {
            body.put("droppedEntries", t.dropped());
        }
        return HttpResult.ok(body);
    }

    private static <V> V globalOrNull(QueryBackend backend, String store, String key) {
        try {
            return backend.<V>keyValueStore(store).get(key);
        } catch (QueryBackend.NoStandby e) {
            throw e;
        } catch (RuntimeException e) {
            return null; // a topology without that global store
        }
    }
}
