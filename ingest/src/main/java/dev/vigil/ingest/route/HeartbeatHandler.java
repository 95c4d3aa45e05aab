package dev.vigil.ingest.route;

import dev.vigil.ingest.heartbeat.HeartbeatCatalog;
import dev.vigil.ingest.heartbeat.HeartbeatMonitor;
import dev.vigil.ingest.publish.PublishResult;
import dev.vigil.kit.http.HttpProblem;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.HeartbeatSchedules;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.json.Json;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Heartbeat pings: a cron job or batch job calls {@code POST /v1/heartbeat/<monitorId>} when it
 * ran, or {@code POST /v1/heartbeat/<monitorId>/fail} when it failed, with the monitor's ping token as
 * {@code Authorization: Bearer <token>} (or the query parameter {@code token}). A GET is a ping only of a monitor whose
 * definition sets {@code heartbeat.allowGet}; otherwise a GET with a good token is answered {@code 405} with
 * {@code Allow: POST} and counts for nothing (link previews and scanners GET every URL they see). Each
 * accepted ping is the push result of the window it arrives in ({@link HeartbeatSchedules#windowAt}): a
 * {@link ProbeResult} in region {@code push} from worker {@value #WORKER_ID}, {@code success}, or
 * {@code assertion_failure}/{@code reported_failure} for {@code /fail}, published to {@code vigil.probe-results} keyed
 * by monitor id through the same acknowledged (transactional) path as every route. The topology decides the window
 * with its first result, and a window without one by its end plus grace is a missed heartbeat.
 *
 * <p>Answers: {@code 202} once Kafka committed the result; {@code 200} when this window already has a published
 * result of the same kind (nothing is published again, so a job that pings in a loop costs one record per window);
 * both with {@code {"monitorId", "outcome", "window": {"start", "end"}, "published"}}. Refusals are problem+json:
 * {@code 401 missing-credentials} without a token; {@code 401 invalid-credentials}, one answer with one detail, for an
 * unknown monitor, a monitor of another type, a disabled one, one without a token and a wrong token alike (a 404 for
 * unknown ids would let anyone list the monitor ids; 401 says what the caller can fix); {@code 503 not-ready} with
 * Retry-After until ingest has read the monitor catalogue; {@code 503 kafka-unavailable} with Retry-After when Kafka
 * did not take the result (nothing published; the next ping publishes); {@code 413} for a body over
 * {@value #MAX_BODY_BYTES} bytes. Another path under {@value #PREFIX} or another method is an unknown route (404).
 *
 * <p>Order, as on every route: the token is checked before a single body byte is read; bodies are then read and
 * thrown away (never buffered: a job may post its log), up to the cap. The token is compared as sent (no percent
 * decoding; generated tokens are URL-safe) in constant time against the monitor's hash. It never reaches a log line,
 * a metric or a problem body: the access log writes the {@code token} parameter as {@code token=…}
 * ({@link PathRedaction}), metrics tag the route as {@value #ROUTE} or {@value #FAIL_ROUTE}, never the path.
 *
 * <p>Cost: a ping is a hash, a map lookup and, when its window is published already, a small JSON answer; the
 * window is computed once per window per monitor. A flood of pings for one monitor thus publishes nothing after the
 * first of each window and kind, and holds no queue other monitors wait behind; there is no per-monitor rate limit
 * beyond that (the edge guard bounds connections and bodies server-wide). Metrics:
 * {@code vigil.ingest.heartbeats{outcome}} with outcome {@code success}, {@code failure} (published),
 * {@code duplicate} (answered 200, not published), {@code refused} (401), {@code not_ready}, {@code unavailable}
 * (Kafka), {@code rejected} (413, 408, 405 for a GET without opt-in).
 */
public final class HeartbeatHandler {
    public static final String PREFIX = "/v1/heartbeat/";
    public static final String ROUTE = "/v1/heartbeat/{monitorId}";
    public static final String FAIL_ROUTE = ROUTE + "/fail";
    /** Bodies are ignored; a job may send a few lines of log, no more. */
    public static final int MAX_BODY_BYTES = 16 * 1024;
    /** The {@code workerId} of every ping result. */
    public static final String WORKER_ID = "ingest";

    public static final String METER = "vigil.ingest.heartbeats";
    static final String TOKEN_PARAMETER = "token";
    private static final String FAIL_SUFFIX = "/fail";
    private static final String CREDENTIALS = "a ping token for this heartbeat monitor is required, as "
            + "Authorization: Bearer <token> or ?token=<token>";
    private static final String REFUSED = "this monitor does not accept this token (or is no heartbeat monitor that "
            + "can be pinged); the ping URL is printed by vigil monitors apply";

    /** The bounded outcome tag of {@value #METER}. */
    enum Ping {
        SUCCESS,
        FAILURE,
        DUPLICATE,
        REFUSED,
        NOT_READY,
        UNAVAILABLE,
        REJECTED;

        String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final HeartbeatCatalog catalog;
    private final BatchResponder batches;
    private final Responder responder;
    private final String topic;
    private final Clock clock;
    private final Duration readTimeout;
    private final Map<Ping, Counter> counters = new EnumMap<>(Ping.class);

    /**
     * @param topic       where ping results go ({@code vigil.probe-results})
     * @param readTimeout how long a (discarded) body may take to arrive
     */
    public HeartbeatHandler(
            HeartbeatCatalog catalog,
            BatchResponder batches,
            Responder responder,
            MeterRegistry registry,
            String topic,
            Clock clock,
            Duration readTimeout) {
        this.catalog = catalog;
        this.batches = batches;
        this.responder = responder;
        this.topic = topic;
        this.clock = clock;
        this.readTimeout = readTimeout;
        for (Ping p : Ping.values()) {
            counters.put(
                    p,
                    Counter.builder(METER)
                            .description(
                                    "Heartbeat pings by outcome: success and failure published, duplicate answered without "
                                            + "publishing, refused, not_ready, unavailable, rejected")
                            .tag("outcome", p.tag())
                            .register(registry));
        }
    }

    /** The ping of one monitor: its id and whether it reports a failure. */
    record Target(String monitorId, boolean fail) {
        /** The target of a raw path, or null when it is no ping path ({@value #PREFIX}{@code <id>[/fail]}). */
        static Target of(String path) {
            if (!path.startsWith(PREFIX)) {
                return null;
            }
            String rest = path.substring(PREFIX.length());
            boolean fail = rest.endsWith(FAIL_SUFFIX);
            String id = fail ? rest.substring(0, rest.length() - FAIL_SUFFIX.length()) : rest;
            return id.isEmpty() || id.indexOf('/') >= 0 ? null : new Target(id, fail);
        }
    }

    /** A GET or POST to a ping path; anything else under {@value #PREFIX} is left to the unknown-route answer. */
    public static boolean matches(HttpServerRequest req) {
        HttpMethod m = req.method();
        return (HttpMethod.GET.equals(m) || HttpMethod.POST.equals(m))
                && Target.of(BetterStackWebhookHandler.rawPath(req.uri())) != null;
    }

    public Publisher<Void> handle(HttpServerRequest req, HttpServerResponse res) {
        String uri = req.uri();
        Target target = Target.of(BetterStackWebhookHandler.rawPath(uri));
        String route = target.fail() ? FAIL_ROUTE : ROUTE;
        Mono<Void> flow = Mono.defer(() -> {
                    String credential = credential(req, uri);
                    if (credential == null) {
                        throw HttpProblem.unauthorized("missing-credentials", CREDENTIALS);
                    }
                    if (!catalog.ready()) {
                        Responder.retryAfter(res, batches.retryAfterSeconds());
                        throw new HttpProblem(
                                503,
                                "not-ready",
                                "Service unavailable",
                                "ingest is still reading the monitor " + "catalogue; retry after "
                                        + batches.retryAfterSeconds() + " s");
                    }
                    HeartbeatMonitor monitor = catalog.authenticate(target.monitorId(), credential);
                    if (monitor == null) {
                        throw HttpProblem.unauthorized("invalid-credentials", REFUSED);
                    }
                    // Link previews, crawlers and mail scanners GET any URL they see: a GET is a ping only where the
                    // monitor
                    // opted in. Told only to a caller holding the token, so it says nothing to anyone else.
                    if (HttpMethod.GET.equals(req.method()) && !monitor.allowsGet()) {
                        res.header(HttpHeaderNames.ALLOW, "POST");
                        throw new HttpProblem(
                                405,
                                "method-not-allowed",
                                "Method not allowed",
                                "this heartbeat monitor takes "
                                        + "pings by POST (token in the Authorization header); a GET counts only where the monitor sets "
                                        + "heartbeat.allowGet: true");
                    }
                    return discardBody(req).then(Mono.defer(() -> record(route, res, monitor, !target.fail())));
                })
                .doOnError(
                        HttpProblem.class,
                        p -> count(
                                p.status() == 401
                                        ? Ping.REFUSED
                                        : p.status() == 503
                                                ? ("not-ready".equals(p.type()) ? Ping.NOT_READY : Ping.UNAVAILABLE)
                                                : Ping.REJECTED));
        return Responder.guard(flow, route, req, res, responder, MAX_BODY_BYTES);
    }

    /**
     * The credential as an {@code Authorization} header value: the header when present (a bearer token, or nothing
     * that matches), else the {@code token} query parameter, else null.
     */
    static String credential(HttpServerRequest req, String uri) {
        String header = req.requestHeaders().get(HttpHeaderNames.AUTHORIZATION);
        if (header != null) {
            return header;
        }
        String token = queryToken(uri);
        return token == null ? null : "Bearer " + token;
    }

    /** The first non-empty {@code token} query parameter, as sent (not decoded), or null. */
    static String queryToken(String uri) {
        int q = uri.indexOf('?');
        if (q < 0) {
            return null;
        }
        int end = uri.indexOf('#', q);
        end = end < 0 ? uri.length() : end;
        int n = TOKEN_PARAMETER.length();
        for (int i = q + 1; i < end; ) {
            int amp = uri.indexOf('&', i);
            amp = amp < 0 || amp > end ? end : amp;
            if (amp - i > n + 1 && uri.startsWith(TOKEN_PARAMETER, i) && uri.charAt(i + n) == '=') {
                return uri.substring(i + n + 1, amp);
            }
            i = amp + 1;
        }
        return null;
    }

    /** Reads and drops the body (a job's log, or nothing), at most {@value #MAX_BODY_BYTES} bytes, never buffering it. */
    private Mono<Void> discardBody(HttpServerRequest req) {
        String declared = req.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
        boolean chunked = req.requestHeaders().contains(HttpHeaderNames.TRANSFER_ENCODING);
        if (!chunked && (declared == null || declared.trim().equals("0"))) {
            return Mono.empty();
        }
        if (declared != null) {
            long length;
            try {
                length = Long.parseLong(declared.trim());
            } catch (NumberFormatException e) {
                throw HttpProblem.badRequest("bad-content-length", "Content-Length is not a number");
            }
            if (length > MAX_BODY_BYTES) {
                throw tooLarge();
            }
        }
        long[] seen = {0};
        return req.receive()
                .doOnNext(chunk -> {
                    seen[0] += chunk.readableBytes();
                    if (seen[0] > MAX_BODY_BYTES) {
                        throw tooLarge();
                    }
                })
                .then()
                .timeout(readTimeout)
                .onErrorMap(
                        e -> e instanceof TimeoutException,
                        e -> new HttpProblem(
                                408,
                                "request-timeout",
                                "Request timeout",
                                "the request body was not received within " + readTimeout.toSeconds() + " s"));
    }

    private static HttpProblem tooLarge() {
        return HttpProblem.tooLarge(
                "a heartbeat ping's body is ignored and may be at most " + MAX_BODY_BYTES + " bytes");
    }

    /** Publishes the ping's result unless its window already has one of this kind, and answers. */
    private Mono<Void> record(String route, HttpServerResponse res, HeartbeatMonitor monitor, boolean succeeded) {
        long now = clock.millis();
        HeartbeatSchedules.Window window = monitor.windowAt(now);
        HeartbeatMonitor.Claim claim = monitor.claim(succeeded, window.start());
        if (!claim.take()) {
            return Mono.fromFuture(claim.result(), true).flatMap(result -> {
                if (result != PublishResult.ACKNOWLEDGED) {
                    return Mono.error(batches.unavailable(res));
                }
                count(Ping.DUPLICATE);
                return responder.json(route, res, 200, answer(monitor, window, succeeded, false));
            });
        }
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(
                topic, monitor.id(), Json.bytes(result(monitor.id(), window.start(), now, succeeded)));
        CompletableFuture<PublishResult> sent;
        try {
            sent = batches.send(List.of(record));
        } catch (RuntimeException e) {
            monitor.settle(succeeded, claim, PublishResult.UNAVAILABLE);
            throw e;
        }
        sent.whenComplete(
                (result, e) -> monitor.settle(succeeded, claim, result == null ? PublishResult.UNAVAILABLE : result));
        return Mono.fromFuture(sent, true)
                .flatMap(result ->
                        batches.answer(route, 1, result, res, 202, answer(monitor, window, succeeded, true), () -> {}))
                .doOnSuccess(v -> count(succeeded ? Ping.SUCCESS : Ping.FAILURE));
    }

    /** The push result of a ping at {@code now} for the window starting at {@code windowStart}. */
    static ProbeResult result(String monitorId, long windowStart, long now, boolean succeeded) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String requestId = new UUID(random.nextLong(), random.nextLong()).toString();
        return new ProbeResult(
                1,
                monitorId,
                MonitorDefinition.PUSH_REGION,
                WORKER_ID,
                windowStart,
                now,
                succeeded ? Outcome.SUCCESS : Outcome.ASSERTION_FAILURE,
                succeeded ? null : ErrorKind.REPORTED_FAILURE,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                succeeded ? null : "the job reported a failure",
                requestId,
                CheckType.HEARTBEAT,
                null);
    }

    private static Map<String, Object> answer(
            HeartbeatMonitor monitor, HeartbeatSchedules.Window window, boolean succeeded, boolean published) {
        Map<String, Object> w = new LinkedHashMap<>();
        w.put("start", Instant.ofEpochMilli(window.start()).toString());
        w.put("end", Instant.ofEpochMilli(window.end()).toString());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("monitorId", monitor.id());
        body.put("outcome", (succeeded ? Outcome.SUCCESS : Outcome.ASSERTION_FAILURE).wire());
        body.put("window", w);
        body.put("published", published);
        return body;
    }

    private void count(Ping outcome) {
        counters.get(outcome).increment();
    }
}
