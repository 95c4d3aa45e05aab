package dev.vigil.ingest.route;

import dev.vigil.ingest.auth.WebhookToken;
import dev.vigil.ingest.betterstack.BetterStackTranslator;
import dev.vigil.ingest.betterstack.UpdateFreshness;
import dev.vigil.ingest.quota.BodyShares;
import dev.vigil.kit.http.HttpProblem;
import dev.vigil.schemas.contract.VendorIncidentUpdate;
import dev.vigil.schemas.json.Json;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * BetterStack's outgoing incident webhook: {@code POST /v1/integrations/betterstack/<token>} (BetterStack lets one
 * configure only a URL, so the token travels in the path) or {@code POST /v1/integrations/betterstack} with
 * {@code Authorization: Bearer <token>} (a proxy, a test). BetterStack posts the incident resource whenever an incident
 * is created, acknowledged or resolved (<a href="https://betterstack.com/docs/uptime/webhooks/">Uptime webhooks</a>;
 * body: <a href="https://betterstack.com/docs/uptime/api/incidents-api-response-params/">incident response
 * parameters</a>), without a signature. A person's acknowledgement or resolution becomes a {@link VendorIncidentUpdate}
 * on the vendor-updates topic ({@link BetterStackTranslator} decides which calls are one), from which the notifier
 * acknowledges the Vigil incident: an acknowledgement in either tool then silences the reminders of both.
 *
 * <p>Order, as on every ingest route: the token is checked before any body buffer exists (401, the same answer
 * whichever part of which form was wrong), then the content type (415) and the declared length (413), then the body is
 * read, capped at {@value #MAX_BODY_BYTES} bytes (an incident is a few KiB). A call that stands for nothing to do is
 * answered 202 {@code {"accepted":0,"ignored":"…"}}, so BetterStack does not resend it; an update is answered 202
 * {@code {"accepted":1}} only once Kafka committed it, 503 with Retry-After when it could not.
 *
 * <p>The token is held as a hash only and compared in constant time ({@link WebhookToken}); metrics tag the path form
 * as {@value #PATH_ROUTE}, and problem bodies and the access log write the path as {@code /v1/integrations/betterstack/…}
 * ({@link PathRedaction}).
 *
 * <p>Metrics: {@code vigil.ingest.webhooks{vendor, outcome, reason}}: outcome {@code accepted} (reason the action),
 * {@code ignored} (reason {@link BetterStackTranslator.Reason#tag()}), {@code rejected} (reason the problem type),
 * {@code unavailable} (reason {@code kafka}).
 */
public final class BetterStackWebhookHandler {
    public static final String ROUTE = "/v1/integrations/betterstack";
    /** The path form as routes are named in metrics; the token itself never is. */
    public static final String PATH_ROUTE = ROUTE + "/{token}";
    /** The cap on a webhook body (within {@code limits.maxBodyBytes}). */
    public static final int MAX_BODY_BYTES = 64 * 1024;

    public static final String METER = "vigil.ingest.webhooks";
    /** How long after the act an update still counts: BetterStack calls at once and retries within minutes. */
    public static final long DEFAULT_MAX_AGE_MS = 5 * 60_000L;
    /** Updates remembered at once to tell replays apart (fresh ones only). */
    public static final int DEFAULT_REMEMBERED = 10_000;

    private static final String CREDENTIALS = "a valid webhook token is required, in the path (" + ROUTE
            + "/<token>) or as Authorization: Bearer <token>";

    private final WebhookToken token;
    private final BodyReader bodies;
    private final BetterStackTranslator translator;
    private final BatchResponder batches;
    private final Responder responder;
    private final MeterRegistry registry;
    private final String topic;
    private final Clock clock;
    private final UpdateFreshness freshness;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    /**
     * @param bodies     the server's body reader; this route reads at most {@value #MAX_BODY_BYTES} bytes of it
     * @param maxAheadMs how far the vendor's times may be ahead of the server clock
     */
    public BetterStackWebhookHandler(
            WebhookToken token,
            BodyReader bodies,
            long maxAheadMs,
            BatchResponder batches,
            Responder responder,
            MeterRegistry registry,
            String topic,
            Clock clock) {
        this(
                token,
                bodies,
                maxAheadMs,
                batches,
                responder,
                registry,
                topic,
                clock,
                new UpdateFreshness(DEFAULT_MAX_AGE_MS, DEFAULT_REMEMBERED));
    }

    /** @param freshness how old an update may be, and the memory of those applied (replays are ignored) */
    public BetterStackWebhookHandler(
            WebhookToken token,
            BodyReader bodies,
            long maxAheadMs,
            BatchResponder batches,
            Responder responder,
            MeterRegistry registry,
            String topic,
            Clock clock,
            UpdateFreshness freshness) {
        this.freshness = freshness;
        this.token = token;
        this.bodies = bodies.withLimit(MAX_BODY_BYTES);
        this.translator = new BetterStackTranslator(maxAheadMs);
        this.batches = batches;
        this.responder = responder;
        this.registry = registry;
        this.topic = topic;
        this.clock = clock;
    }

    /**
     * A POST to the route or anywhere below it: everything below it is this handler's to refuse (a token with a
     * trailing slash or an extra segment is a wrong token, not an unknown route).
     */
    public static boolean matches(HttpServerRequest req) {
        if (!HttpMethod.POST.equals(req.method())) {
            return false;
        }
        String path = rawPath(req.uri());
        return path.equals(ROUTE) || path.startsWith(ROUTE + "/");
    }

    public Publisher<Void> handle(HttpServerRequest req, HttpServerResponse res) {
        String path = rawPath(req.uri());
        String route = path.equals(ROUTE) ? ROUTE : PATH_ROUTE;
        Mono<Void> flow = Mono.defer(() -> {
                    authenticate(path, req);
                    RequestChecks.framing(req, false);
                    bodies.checkDeclaredLength(req);
                    BodyShares.Lease lease = bodies.lease("betterstack", BodyShares.Lane.ALERTS);
                    return bodies.read(req, lease)
                            .flatMap(body ->
                                    Mono.defer(() -> answer(route, res, body)).doFinally(s -> bodies.release(body)))
                            .doFinally(s -> lease.release());
                })
                .doOnError(HttpProblem.class, p -> {
                    if (p.status() == 503) {
                        count("unavailable", "kafka");
                    } else {
                        count("rejected", p.type());
                    }
                });
        return Responder.guard(flow, route, req, res, responder, bodies.limit());
    }

    private Mono<Void> answer(String route, HttpServerResponse res, byte[] body) {
        BetterStackTranslator.Translation translation = translator.translate(body, clock.millis());
        if (translation instanceof BetterStackTranslator.Ignored ignored) {
            count("ignored", ignored.reason().tag());
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("accepted", 0);
            answer.put("ignored", ignored.detail());
            return responder.json(route, res, 202, answer);
        }
        BetterStackTranslator.Update translated = (BetterStackTranslator.Update) translation;
        VendorIncidentUpdate update = translated.update();
        Long vendorTime = translated.vendorTime();
        switch (freshness.admit(update, vendorTime, clock.millis())) {
            case NEW -> {}
            case STALE -> {
                return ignore(
                        route,
                        res,
                        BetterStackTranslator.Reason.STALE,
                        "the " + update.action().wire() + " happened more than " + freshness.maxAgeMs() / 1000
                                + " s ago: a late or replayed call");
            }
            case NO_TIME -> {
                return ignore(
                        route,
                        res,
                        BetterStackTranslator.Reason.NO_TIME,
                        "the incident carries no "
                                + (update.action() == VendorIncidentUpdate.Action.RESOLVED
                                        ? "resolved_at"
                                        : "acknowledged_at")
                                + ", so whether this call is fresh cannot be told");
            }
            case REPLAYED -> {
                return ignore(route, res, BetterStackTranslator.Reason.REPLAYED, "this update was applied already");
            }
            case FULL -> {
                Responder.retryAfter(res, batches.retryAfterSeconds());
                throw new HttpProblem(
                        503,
                        "busy",
                        "Service unavailable",
                        "too many webhook updates within "
                                + freshness.maxAgeMs() / 1000 + " s to tell replays apart; resend after "
                                + batches.retryAfterSeconds() + " s");
            }
        }
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, update.key(), Json.bytes(update));
        // not published after all: a resend must count, so the update is no longer remembered as applied
        return batches.publishRecords(
                        route, List.of(record), res, Map.of("accepted", 1), () -> freshness.forget(update, vendorTime))
                .doOnSuccess(v -> count("accepted", update.action().wire()));
    }

    /** Answered 2xx, so BetterStack does not resend it; nothing is published, the reason is counted. */
    private Mono<Void> ignore(
            String route, HttpServerResponse res, BetterStackTranslator.Reason reason, String detail) {
        count("ignored", reason.tag());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("accepted", 0);
        answer.put("ignored", detail);
        return responder.json(route, res, 202, answer);
    }

    /** 401 unless the path segment (path form) or the Authorization header (bare route) carries the token. */
    private void authenticate(String path, HttpServerRequest req) {
        if (path.equals(ROUTE)) {
            String header = req.requestHeaders().get(HttpHeaderNames.AUTHORIZATION);
            if (header == null) {
                throw HttpProblem.unauthorized("missing-credentials", CREDENTIALS);
            }
            if (!token.matchesAuthorization(header)) {
                throw HttpProblem.unauthorized("invalid-credentials", CREDENTIALS);
            }
            return;
        }
        if (!token.matchesPathSegment(path.substring(ROUTE.length() + 1))) {
            throw HttpProblem.unauthorized("invalid-credentials", CREDENTIALS);
        }
    }

    /** The request target without query or fragment, as sent (not decoded). */
    static String rawPath(String uri) {
        int end = uri.length();
        int q = uri.indexOf('?');
        int h = uri.indexOf('#');
        if (q >= 0) {
            end = q;
        }
        if (h >= 0 && h < end) {
            end = h;
        }
        return uri.substring(0, end);
    }

    private void count(String outcome, String reason) {
        counters.computeIfAbsent(outcome + " " + reason, k -> Counter.builder(METER)
                        .description(
                                "Vendor webhook calls by outcome: accepted (by action), ignored, rejected (by problem type), unavailable")
                        .tag("vendor", BetterStackTranslator.VENDOR)
                        .tag("outcome", outcome)
                        .tag("reason", reason)
                        .register(registry))
                .increment();
    }
}
