package dev.vigil.ingest.route;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.ingest.auth.SignatureVerifier;
import dev.vigil.ingest.auth.SignedRequest;
import dev.vigil.ingest.validate.BatchParser;
import dev.vigil.ingest.validate.ProbeResultValidator;
import dev.vigil.schemas.sign.RequestSigner;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.List;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * {@code POST /v1/probe-results}: batches from remote probe workers, signed with HMAC-SHA-256 over
 * {@link RequestSigner#canonicalForm}. Header checks (key, region, staleness) happen before the body is
 * read; the signature and the replay cache after.
 */
public final class ProbeResultsHandler {
    public static final String ROUTE = "/v1/probe-results";

    private final SignatureVerifier verifier;
    private final BodyReader bodies;
    private final BatchParser parser;
    private final ProbeResultValidator validator = new ProbeResultValidator();
    private final BatchResponder batches;
    private final Responder responder;
    private final String topic;

    public ProbeResultsHandler(SignatureVerifier verifier, BodyReader bodies, BatchParser parser,
                               BatchResponder batches, Responder responder, String topic) {
        this.verifier = verifier;
        this.bodies = bodies;
        this.parser = parser;
        this.batches = batches;
        this.responder = responder;
        this.topic = topic;
    }

    public Publisher<Void> handle(HttpServerRequest req, HttpServerResponse res) {
        Mono<Void> flow = Mono.defer(() -> {
            SignedRequest signed = signed(req.requestHeaders());
            refuse(verifier.checkHeaders(signed));
            RequestChecks.Framing framing = RequestChecks.framing(req, true);
            bodies.checkDeclaredLength(req);
            return bodies.read(req).flatMap(body -> Mono.defer(() -> {
                SignatureVerifier.Verdict verdict = verifier.verify(signed, body);
                refuse(verdict);
                List<JsonNode> results;
                try {
                    results = framing == RequestChecks.Framing.JSON ? parser.jsonArray(body) : parser.ndjson(body);
                    var batch = validator.validate(results, verdict.region());
                    return batches.publish(ROUTE, topic, req, res, batch, () -> verifier.release(verdict));
                } catch (HttpProblem p) {
                    // A signed but unusable batch: the worker may fix and resend it under the same id.
                    verifier.release(verdict);
                    throw p;
                }
            }).doFinally(s -> bodies.release(body)));
        });
        return Responder.guard(flow, ROUTE, req, res, responder, bodies.limit());
    }

    static SignedRequest signed(HttpHeaders h) {
        return new SignedRequest(h.get(RequestSigner.HEADER_KEY_ID), h.get(RequestSigner.HEADER_TIMESTAMP),
                h.get(RequestSigner.HEADER_REQUEST_ID), h.get(RequestSigner.HEADER_REGION), h.get(RequestSigner.HEADER_SIGNATURE));
    }

    private static void refuse(SignatureVerifier.Verdict v) {
        if (v.ok()) {
            return;
        }
        SignatureVerifier.Failure f = v.failure();
        String type = f.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        throw switch (f) {
            case MISSING_HEADERS, UNKNOWN_KEY, STALE, BAD_SIGNATURE -> HttpProblem.unauthorized(type, f.detail());
            case BAD_TIMESTAMP, BAD_REQUEST_ID -> HttpProblem.badRequest(type, f.detail());
            case WRONG_REGION -> HttpProblem.forbidden(type, f.detail());
            case REPLAYED -> new HttpProblem(409, type, "Conflict", f.detail());
            case REPLAY_CACHE_FULL -> new HttpProblem(429, type, "Too many requests", f.detail());
        };
    }
}
