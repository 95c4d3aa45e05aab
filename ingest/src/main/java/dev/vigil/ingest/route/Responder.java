package dev.vigil.ingest.route;

import dev.vigil.kit.http.HttpProblem;
import dev.vigil.kit.http.Problem;
import dev.vigil.kit.http.Replies;
import dev.vigil.schemas.json.Json;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.channel.AbortedException;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Writes JSON and problem responses through the service kit's {@link Replies} (never from the event loop) and counts
 * every response by route and status.
 */
public final class Responder {
    private static final Logger LOG = LoggerFactory.getLogger(Responder.class);
    public static final String JSON = "application/json";

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    public Responder(MeterRegistry registry) {
        this.registry = registry;
    }

    public Mono<Void> json(String route, HttpServerResponse res, int status, Object body) {
        return send(route, res, status, JSON, Json.bytes(body));
    }

    public Mono<Void> problem(String route, HttpServerRequest req, HttpServerResponse res, HttpProblem p) {
        Map<String, Object> body =
                p.problem("/" + PathRedaction.redact(req.path())).members();
        body.putAll(p.extensions());
        // a refusal that says when to come back (a quota, a busy budget) says it in the header too
        if (p.extensions().get("retryAfterSeconds") instanceof Number seconds) {
            retryAfter(res, seconds.intValue());
        }
        if (p.status() == 401) {
            res.header(
                    HttpHeaderNames.WWW_AUTHENTICATE,
                    route.equals(SignedBatchHandler.PROBE_RESULTS) || route.equals(SignedBatchHandler.HEARTBEATS)
                            ? "Vigil-HMAC-SHA256 realm=\"vigil-ingest\""
                            : "Bearer realm=\"vigil-ingest\"");
        }
        return send(route, res, p.status(), Problem.CONTENT_TYPE, Json.bytes(body));
    }

    /**
     * Unexpected failure: logged with its classes and where it was thrown only, never a message or a stack trace (either
     * may quote the body, a header or a token), answered 500.
     */
    public Mono<Void> unexpected(String route, HttpServerRequest req, HttpServerResponse res, Throwable e) {
        logUnexpected(route, e);
        return problem(
                route,
                req,
                res,
                new HttpProblem(
                        500, "internal", "Internal error", "the request could not be processed; it was not accepted"));
    }

    static void logUnexpected(String route, Throwable e) {
        LOG.error("unexpected failure on {}: {}", route, SafeFailure.describe(e));
    }

    /** The Retry-After header for 503 answers. */
    public static void retryAfter(HttpServerResponse res, int seconds) {
        res.header(HttpHeaderNames.RETRY_AFTER, Integer.toString(seconds));
    }

    private Mono<Void> send(String route, HttpServerResponse res, int status, String contentType, byte[] bytes) {
        count(route, status);
        return Replies.send(res, status, contentType, bytes);
    }

    private void count(String route, int status) {
        counter(route, status).increment();
    }

    /** Registers the count of {@code route}'s {@code status} answers now, at 0, instead of with the first one. */
    public void expect(String route, int status) {
        counter(route, status);
    }

    private Counter counter(String route, int status) {
        return counters.computeIfAbsent(route + " " + status, k -> Counter.builder("vigil.ingest.requests")
                .description("HTTP requests answered, by route and status")
                .tag("route", route)
                .tag("status", Integer.toString(status))
                .register(registry));
    }

    /**
     * Runs a route, answering an {@link HttpProblem} as problem+json and anything else as 500. A request
     * refused before its body was read (auth, content type) is answered at once, then its body is drained, up
     * to the body limit and for at most 5 s, before the exchange ends: the answer never waits for a body the
     * client may never send (an unauthenticated request declaring a large Content-Length gets its 401 at once),
     * and a keep-alive client that is still writing its body does not see the connection reset under it. Past the
     * limit (413) nothing is drained and the connection is closed after the answer. A request whose connection
     * went away before it was answered (the client gave up, or the edge guard cut it) has no one to answer: it is
     * logged at debug, not as a failure of ours.
     */
    public static Publisher<Void> guard(
            Mono<Void> flow,
            String route,
            HttpServerRequest req,
            HttpServerResponse res,
            Responder r,
            long drainLimit) {
        return flow.onErrorResume(AbortedException.class, e -> gone(route))
                .onErrorResume(HttpProblem.class, p -> r.problem(route, req, res, p)
                        .then(drain(req, p.status() == 413 ? 0 : drainLimit)))
                .onErrorResume(AbortedException.class, e -> gone(route))
                .onErrorResume(e -> !(e instanceof HttpProblem), e -> r.unexpected(route, req, res, e));
    }

    private static Mono<Void> gone(String route) {
        LOG.debug("connection closed before {} was answered", route);
        return Mono.empty();
    }

    private static Mono<Void> drain(HttpServerRequest req, long limit) {
        if (limit <= 0) {
            return Mono.empty();
        }
        long[] seen = {0};
        return req.receive()
                .takeWhile(buf -> (seen[0] += buf.readableBytes()) <= limit)
                .then()
                .timeout(java.time.Duration.ofSeconds(5))
                .onErrorResume(e -> Mono.empty()); // already consumed, or the peer went away: nothing to drain
    }
}
