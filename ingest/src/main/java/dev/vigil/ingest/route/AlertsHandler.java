package dev.vigil.ingest.route;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.ingest.alertmanager.AlertmanagerTranslator;
import dev.vigil.ingest.auth.ApiKeys;
import dev.vigil.ingest.quota.BodyShares;
import dev.vigil.ingest.quota.IngestQuotas;
import dev.vigil.ingest.validate.Accepted;
import dev.vigil.ingest.validate.AlertEventValidator;
import dev.vigil.ingest.validate.AppAlerts;
import dev.vigil.ingest.validate.BatchResult;
import dev.vigil.kit.http.HttpProblem;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.json.Json;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * {@code POST /v1/alerts}: one AlertEvent, an array of them, or a Prometheus Alertmanager webhook (v4)
 * payload, from an app authenticated by API key. Everything lands on the alerts topic keyed by
 * fingerprint, so the notifier dispatches app, Prometheus and Vigil incidents alike. The key fixes the app, and
 * the app speaks only for its own incidents ({@link AppAlerts}): the 202 lists, per accepted event, the
 * namespaced fingerprint and the ids Vigil derived ({@code assigned}), since any the client sent were ignored.
 */
public final class AlertsHandler {
    public static final String ROUTE = "/v1/alerts";

    private final ApiKeys keys;
    private final BodyReader bodies;
    private final int maxEvents;
    private final AlertEventValidator validator;
    private final AlertmanagerTranslator alertmanager;
    private final BatchResponder batches;
    private final Responder responder;
    private final String topic;
    private final Clock clock;
    private final IngestQuotas quotas;

    /** @param maxAheadMs how far an event's times may be ahead of the server clock */
    public AlertsHandler(
            ApiKeys keys,
            BodyReader bodies,
            int maxEvents,
            long maxAheadMs,
            BatchResponder batches,
            Responder responder,
            String topic,
            Clock clock,
            IngestQuotas quotas) {
        this.keys = keys;
        this.quotas = quotas;
        this.validator = new AlertEventValidator(maxAheadMs);
        this.alertmanager = new AlertmanagerTranslator(maxAheadMs);
        this.bodies = bodies;
        this.maxEvents = maxEvents;
        this.batches = batches;
        this.responder = responder;
        this.topic = topic;
        this.clock = clock;
    }

    public Publisher<Void> handle(HttpServerRequest req, HttpServerResponse res) {
        Mono<Void> flow = Mono.defer(() -> {
            String app = RequestChecks.app(req, keys);
            quotas.alerts().admit(app);
            RequestChecks.framing(req, false);
            bodies.checkDeclaredLength(req);
            // its own share and the reserve: a flood of the same app's metrics never holds a page's body out
            BodyShares.Lease lease = bodies.lease("alerts:" + app, BodyShares.Lane.ALERTS);
            return bodies.read(req, lease)
                    .flatMap(body -> Mono.defer(() -> {
                                BatchResult<AlertEvent> batch = validate(body, app);
                                return batches.publish(
                                        ROUTE, topic, req, res, batch, () -> {}, Map.of("assigned", assigned(batch)));
                            })
                            .doFinally(s -> bodies.release(body)))
                    .doFinally(s -> lease.release());
        });
        return Responder.guard(flow, ROUTE, req, res, responder, bodies.limit());
    }

    private BatchResult<AlertEvent> validate(byte[] body, String app) {
        JsonNode root;
        try {
            root = Json.tree(body);
        } catch (ContractViolation e) {
            throw HttpProblem.badRequest("malformed-json", "the body is not valid JSON");
        }
        if (AlertmanagerTranslator.isWebhook(root)) {
            return alertmanager.translate(root, app, clock.millis(), maxEvents);
        }
        List<JsonNode> events = new ArrayList<>();
        if (root.isArray()) {
            root.forEach(events::add);
        } else if (root.isObject()) {
            events.add(root);
        } else {
            throw HttpProblem.badRequest(
                    "not-a-batch",
                    "the body must be an AlertEvent, an array of them or an Alertmanager webhook payload");
        }
        if (events.isEmpty()) {
            throw HttpProblem.badRequest("empty-batch", "the batch holds no events");
        }
        if (events.size() > maxEvents) {
            throw new HttpProblem(
                    413, "too-many-events", "Too many events", "a batch may hold at most " + maxEvents + " events");
        }
        return validator.validate(events, app, clock.millis());
    }

    /** Per accepted event: its index and the fingerprint and ids it was published under. */
    private static List<Map<String, Object>> assigned(BatchResult<AlertEvent> batch) {
        List<Map<String, Object>> out = new ArrayList<>(batch.accepted().size());
        for (Accepted<AlertEvent> a : batch.accepted()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("index", a.index());
            m.put("fingerprint", a.value().fingerprint());
            m.put("incidentId", a.value().incidentId());
            m.put("eventId", a.value().eventId());
            out.add(m);
        }
        return out;
    }
}
