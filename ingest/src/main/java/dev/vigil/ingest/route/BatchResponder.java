package dev.vigil.ingest.route;

import dev.vigil.ingest.publish.AcknowledgedPublisher;
import dev.vigil.ingest.publish.PublishResult;
import dev.vigil.ingest.validate.Accepted;
import dev.vigil.ingest.validate.BatchResult;
import dev.vigil.ingest.validate.Rejection;
import dev.vigil.kit.http.HttpProblem;
import dev.vigil.kit.trace.Tracing;
import dev.vigil.schemas.json.Json;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.codec.http.HttpHeaders;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Publishes a validated batch and answers: 202 {@code {accepted, rejected}} once every accepted record is
 * committed; 422 when nothing of the batch was valid (nothing published); 503 with Retry-After when Kafka
 * could not take the batch in time (nothing of it published).
 */
public final class BatchResponder {
    private final AcknowledgedPublisher publisher;
    private final Responder responder;
    private final MeterRegistry registry;
    private final int retryAfterSeconds;
    private final Tracing tracing;
    private final Map<String, Counter> eventCounters = new ConcurrentHashMap<>();

    public BatchResponder(
            AcknowledgedPublisher publisher, Responder responder, MeterRegistry registry, int retryAfterSeconds) {
        this(publisher, responder, registry, retryAfterSeconds, Tracing.off("ingest"));
    }

    /** @param tracing each accepted batch continues the request's {@code traceparent} into its records */
    public BatchResponder(
            AcknowledgedPublisher publisher,
            Responder responder,
            MeterRegistry registry,
            int retryAfterSeconds,
            Tracing tracing) {
        this.tracing = tracing;
        this.publisher = publisher;
        this.responder = responder;
        this.registry = registry;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** @param onUnavailable called when the batch was not accepted because Kafka could not take it */
    public <T> Mono<Void> publish(
            String route,
            String topic,
            HttpServerRequest req,
            HttpServerResponse res,
            BatchResult<T> batch,
            Runnable onUnavailable) {
        return publish(route, topic, req, res, batch, onUnavailable, Map.of());
    }

    /** @param extra fields added to the 202 body after {@code accepted} and {@code rejected} */
    public <T> Mono<Void> publish(
            String route,
            String topic,
            HttpServerRequest req,
            HttpServerResponse res,
            BatchResult<T> batch,
            Runnable onUnavailable,
            Map<String, Object> extra) {
        batch.rejected().forEach(r -> countEvents(route, "rejected", r.kind().tag(), 1));
        if (batch.accepted().isEmpty()) {
            Map<String, Object> ext = new LinkedHashMap<>();
            ext.put("accepted", 0);
            ext.put("rejected", batch.rejected());
            Rejection first = batch.rejected().get(0);
            String detail = batch.rejected().size() == 1
                    ? "event " + first.index() + ": " + first.field() + ": " + first.reason()
                    : "none of the " + batch.rejected().size() + " events is valid; first: event " + first.index()
                            + ": " + first.field() + ": " + first.reason();
            return Mono.error(new HttpProblem(422, "invalid-events", "No valid event", detail, ext));
        }
        List<ProducerRecord<String, byte[]>> records =
                new ArrayList<>(batch.accepted().size());
        Headers trace = trace(route, req, batch.accepted().size());
        for (Accepted<T> a : batch.accepted()) {
            var record = new ProducerRecord<>(topic, a.key(), Json.bytes(a.value()));
            trace.forEach(h -> record.headers().add(h));
            records.add(record);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("accepted", batch.accepted().size());
        body.put("rejected", batch.rejected());
        body.putAll(extra);
        return publishRecords(route, records, res, body, onUnavailable);
    }

    /**
     * The trace context the batch's records carry: the request's {@code traceparent} continued by this hop's span
     * when exporting, passed on unchanged when not; none without a valid one (or, exporting, a new trace).
     */
    private Headers trace(String route, HttpServerRequest req, int events) {
        Context parent = tracing.extract(req.requestHeaders(), HEADERS);
        Headers out = new RecordHeaders();
        if (!tracing.exporting()) {
            tracing.inject(parent, out);
            return out;
        }
        Span span = tracing.tracer()
                .spanBuilder("POST " + route)
                .setSpanKind(SpanKind.SERVER)
                .setParent(parent)
                .setAttribute("vigil.ingest.events", events)
                .startSpan();
        span.end();
        tracing.inject(span, out);
        return out;
    }

    private static final TextMapGetter<HttpHeaders> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(HttpHeaders headers) {
            return headers.names();
        }

        @Override
        public String get(HttpHeaders headers, String key) {
            return headers == null ? null : headers.get(key);
        }
    };

    /**
     * Publishes the records of one request that is not a batch of events (a vendor's webhook) with the same
     * guarantee: 202 with {@code body} once every record is committed, 503 with Retry-After (nothing of it published)
     * when Kafka could not take them in time.
     *
     * @param onUnavailable called when the records were not accepted because Kafka could not take them
     */
    public Mono<Void> publishRecords(
            String route,
            List<ProducerRecord<String, byte[]>> records,
            HttpServerResponse res,
            Map<String, Object> body,
            Runnable onUnavailable) {
        return Mono.fromFuture(send(records), true)
                .flatMap(result -> answer(route, records.size(), result, res, 202, body, onUnavailable));
    }

    /** Hands one request's records to the publisher; the future says whether all of them were committed. */
    public CompletableFuture<PublishResult> send(List<ProducerRecord<String, byte[]>> records) {
        return publisher.publish(records);
    }

    /**
     * The answer to records handed to {@link #send}: {@code status} with {@code body} when they were committed, else
     * the 503 of {@link #unavailable} (after {@code onUnavailable}).
     */
    public Mono<Void> answer(
            String route,
            int records,
            PublishResult result,
            HttpServerResponse res,
            int status,
            Object body,
            Runnable onUnavailable) {
        if (result == PublishResult.ACKNOWLEDGED) {
            countEvents(route, "accepted", "none", records);
            return responder.json(route, res, status, body);
        }
        countEvents(route, "unavailable", "kafka", records);
        onUnavailable.run();
        return Mono.error(unavailable(res));
    }

    /** 503 with Retry-After: Kafka did not take the request in time, nothing of it was published. */
    public HttpProblem unavailable(HttpServerResponse res) {
        Responder.retryAfter(res, retryAfterSeconds);
        return new HttpProblem(
                503,
                "kafka-unavailable",
                "Service unavailable",
                "Kafka did not acknowledge the batch in time; nothing of it was accepted, resend it after "
                        + retryAfterSeconds + " s");
    }

    /** Seconds a 503 asks the client to wait. */
    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /**
     * Registers {@code route}'s counts of 202 answers and accepted events now, at 0: a route nobody has called yet
     * reads 0 on the dashboard instead of "No data". Refusals by status and reason still appear with the first one.
     */
    public void expect(String route) {
        responder.expect(route, 202);
        eventCounter(route, "accepted", "none");
    }

    private void countEvents(String route, String outcome, String reason, int n) {
        eventCounter(route, outcome, reason).increment(n);
    }

    private Counter eventCounter(String route, String outcome, String reason) {
        return eventCounters.computeIfAbsent(
                route + " " + outcome + " " + reason, k -> Counter.builder("vigil.ingest.events")
                        .description("Events by route and outcome (accepted, rejected by reason, unavailable)")
                        .tag("route", route)
                        .tag("outcome", outcome)
                        .tag("reason", reason)
                        .register(registry));
    }
}
