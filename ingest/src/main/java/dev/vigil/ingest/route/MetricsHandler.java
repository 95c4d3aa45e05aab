package dev.vigil.ingest.route;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.ingest.auth.ApiKeys;
import dev.vigil.ingest.quota.BodyShares;
import dev.vigil.ingest.quota.IngestQuotas;
import dev.vigil.ingest.validate.BatchParser;
import dev.vigil.ingest.validate.MetricValidator;
import java.time.Clock;
import java.util.List;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/** {@code POST /v1/metrics}: a JSON array or NDJSON of DomainMetric from an app authenticated by API key. */
public final class MetricsHandler {
    public static final String ROUTE = "/v1/metrics";

    private final ApiKeys keys;
    private final BodyReader bodies;
    private final BatchParser parser;
    private final MetricValidator validator;
    private final BatchResponder batches;
    private final Responder responder;
    private final String topic;
    private final Clock clock;
    private final IngestQuotas quotas;

    public MetricsHandler(
            ApiKeys keys,
            BodyReader bodies,
            BatchParser parser,
            MetricValidator validator,
            BatchResponder batches,
            Responder responder,
            String topic,
            Clock clock,
            IngestQuotas quotas) {
        this.quotas = quotas;
        this.keys = keys;
        this.bodies = bodies;
        this.parser = parser;
        this.validator = validator;
        this.batches = batches;
        this.responder = responder;
        this.topic = topic;
        this.clock = clock;
    }

    public Publisher<Void> handle(HttpServerRequest req, HttpServerResponse res) {
        Mono<Void> flow = Mono.defer(() -> {
            String app = RequestChecks.app(req, keys);
            quotas.metrics().admit(app);
            RequestChecks.Framing framing = RequestChecks.framing(req, true);
            bodies.checkDeclaredLength(req);
            BodyShares.Lease lease = bodies.lease("metrics:" + app, BodyShares.Lane.GENERAL);
            return bodies.read(req, lease)
                    .flatMap(body -> Mono.defer(() -> {
                                List<JsonNode> events = framing == RequestChecks.Framing.JSON
                                        ? parser.jsonArray(body)
                                        : parser.ndjson(body);
                                long now = clock.millis();
                                var batch = validator.validate(events, app, now);
                                quotas.series()
                                        .admit(
                                                app,
                                                batch.accepted().stream()
                                                        .map(a -> a.value())
                                                        .toList(),
                                                now);
                                return batches.publish(ROUTE, topic, req, res, batch, () -> {});
                            })
                            .doFinally(s -> bodies.release(body)))
                    .doFinally(s -> lease.release());
        });
        return Responder.guard(flow, ROUTE, req, res, responder, bodies.limit());
    }
}
