package dev.vigil.ingest.route;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.ingest.auth.SignatureVerifier;
import dev.vigil.ingest.auth.SignedRequest;
import dev.vigil.ingest.quota.BodyShares;
import dev.vigil.ingest.validate.BatchParser;
import dev.vigil.ingest.validate.BatchResult;
import dev.vigil.ingest.validate.HeartbeatValidator;
import dev.vigil.ingest.validate.ProbeResultValidator;
import dev.vigil.kit.http.HttpProblem;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.schemas.sign.RequestSigner;
import io.netty.handler.codec.http.HttpHeaders;
import java.time.Clock;
import java.util.List;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * The routes remote probe workers call, signed with HMAC-SHA-256 over {@link RequestSigner#canonicalForm}:
 * {@code POST /v1/probe-results} and {@code POST /v1/heartbeats}. Header checks (present, well formed, fresh)
 * happen before any body buffer exists, so an unsigned or stale request costs no memory; the body is then read
 * against the key id's share of the body budget (all unknown key ids share one), and the signature (a decoy's for an
 * unknown key id, so both answer the same), the key's region and its replay cache come after it. The body is a JSON array or
 * NDJSON; what differs per route is how its events are validated against the verified key.
 */
public final class SignedBatchHandler<T> {
    public static final String PROBE_RESULTS = "/v1/probe-results";
    public static final String HEARTBEATS = "/v1/heartbeats";

    /** Validates the parsed events of a request whose signature was verified for {@code key}. */
    @FunctionalInterface
    public interface Validator<T> {
        BatchResult<T> validate(List<JsonNode> events, SignatureVerifier.Verdict key);
    }

    private final String route;
    private final Validator<T> validator;
    private final SignatureVerifier verifier;
    private final BodyReader bodies;
    private final BatchParser parser;
    private final BatchResponder batches;
    private final Responder responder;
    private final String topic;

    public SignedBatchHandler(
            String route,
            Validator<T> validator,
            SignatureVerifier verifier,
            BodyReader bodies,
            BatchParser parser,
            BatchResponder batches,
            Responder responder,
            String topic) {
        this.route = route;
        this.validator = validator;
        this.verifier = verifier;
        this.bodies = bodies;
        this.parser = parser;
        this.batches = batches;
        this.responder = responder;
        this.topic = topic;
    }

    /**
     * ProbeResults keyed by monitorId; a result naming another region than the key's refuses the request; its
     * times may be at most {@code maxSkewMs} (the signature skew) ahead of the server clock.
     */
    public static SignedBatchHandler<ProbeResult> probeResults(
            SignatureVerifier verifier,
            BodyReader bodies,
            BatchParser parser,
            BatchResponder batches,
            Responder responder,
            String topic,
            long maxSkewMs,
            Clock clock) {
        ProbeResultValidator v = new ProbeResultValidator(maxSkewMs);
        return new SignedBatchHandler<>(
                PROBE_RESULTS,
                (events, key) -> v.validate(events, key.region(), clock.millis()),
                verifier,
                bodies,
                parser,
                batches,
                responder,
                topic);
    }

    /** WorkerHeartbeats keyed by workerId; each must carry the key's worker id and region. */
    public static SignedBatchHandler<WorkerHeartbeat> heartbeats(
            SignatureVerifier verifier,
            BodyReader bodies,
            BatchParser parser,
            BatchResponder batches,
            Responder responder,
            String topic,
            long maxSkewMs,
            Clock clock) {
        HeartbeatValidator v = new HeartbeatValidator(maxSkewMs);
        return new SignedBatchHandler<>(
                HEARTBEATS,
                (events, key) -> v.validate(events, key.workerId(), key.region(), clock.millis()),
                verifier,
                bodies,
                parser,
                batches,
                responder,
                topic);
    }

    public String route() {
        return route;
    }

    public Publisher<Void> handle(HttpServerRequest req, HttpServerResponse res) {
        Mono<Void> flow = Mono.defer(() -> {
            SignedRequest signed = signed(req.requestHeaders());
            SignatureVerifier.Verdict headers = verifier.checkHeaders(signed);
            refuse(headers);
            RequestChecks.Framing framing = RequestChecks.framing(req, true);
            bodies.checkDeclaredLength(req);
            // A key id proves nothing before the signature: each known one draws on its own share, all unknown ones on
            // one share together, so a stranger holds at most that much and never what a worker needs.
            BodyShares.Lease lease = bodies.lease(
                    verifier.known(headers.keyId()) ? "key:" + headers.keyId() : BodyShares.UNKNOWN_KEY,
                    BodyShares.Lane.GENERAL);
            return bodies.read(req, lease)
                    .flatMap(body -> Mono.defer(() -> {
                                SignatureVerifier.Verdict verdict = verifier.verify(signed, body);
                                refuse(verdict);
                                try {
                                    List<JsonNode> events = framing == RequestChecks.Framing.JSON
                                            ? parser.jsonArray(body)
                                            : parser.ndjson(body);
                                    BatchResult<T> batch = validator.validate(events, verdict);
                                    return batches.publish(
                                            route, topic, req, res, batch, () -> verifier.release(verdict));
                                } catch (HttpProblem p) {
                                    // A signed but unusable batch: the worker may fix and resend it under the same id.
                                    verifier.release(verdict);
                                    throw p;
                                }
                            })
                            .doFinally(s -> bodies.release(body)))
                    .doFinally(s -> lease.release());
        });
        return Responder.guard(flow, route, req, res, responder, bodies.limit());
    }

    static SignedRequest signed(HttpHeaders h) {
        return new SignedRequest(
                h.get(RequestSigner.HEADER_KEY_ID),
                h.get(RequestSigner.HEADER_TIMESTAMP),
                h.get(RequestSigner.HEADER_REQUEST_ID),
                h.get(RequestSigner.HEADER_REGION),
                h.get(RequestSigner.HEADER_SIGNATURE));
    }

    private static void refuse(SignatureVerifier.Verdict v) {
        if (v.ok()) {
            return;
        }
        SignatureVerifier.Failure f = v.failure();
        String type = f.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        throw switch (f) {
            case MISSING_HEADERS, STALE, BAD_SIGNATURE -> HttpProblem.unauthorized(type, f.detail());
            case BAD_TIMESTAMP, BAD_REQUEST_ID -> HttpProblem.badRequest(type, f.detail());
            case WRONG_REGION -> HttpProblem.forbidden(type, f.detail());
            case REPLAYED -> new HttpProblem(409, type, "Conflict", f.detail());
            case REPLAY_CACHE_FULL -> new HttpProblem(429, type, "Too many requests", f.detail());
        };
    }
}
