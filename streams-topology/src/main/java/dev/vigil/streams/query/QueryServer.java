package dev.vigil.streams.query;

import dev.vigil.kit.auth.Principal;
import dev.vigil.kit.auth.Scope;
import dev.vigil.kit.http.Replies;
import dev.vigil.kit.http.ServerGuard;
import dev.vigil.kit.http.ServerLimits;
import dev.vigil.kit.ops.Check;
import dev.vigil.kit.ops.OpsRoutes;
import dev.vigil.streams.query.ApiRoutes.Method;
import dev.vigil.streams.query.ApiRoutes.Route;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.ByteArrayOutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.http.server.HttpServerRoutes;

/**
 * The HTTP server of the query API: a Reactor Netty server whose own routing matches the service kit's ops endpoints
 * and the {@link ApiRoutes}. Every API answer but a public route's is given only to a caller {@link ApiAccess}
 * admits, a refusal included: without a valid token, an unknown path or a wrong method is 401 too.
 *
 * <ul>
 *   <li>a route's template matches the path as sent, and each {@code {parameter}} is %-decoded on its own, so a
 *   fingerprint such as {@code monitor%2Fshop} is one parameter; an empty parameter matches nothing; a trailing
 *   slash names the same path;</li>
 *   <li>{@code HEAD} is answered by the {@code GET} route;</li>
 *   <li>a known path asked with another method Reactor Netty's routing can name (GET, HEAD, POST, PUT, DELETE,
 *   OPTIONS) is 405 with {@code Allow}; a method no route can answer is 501; anything else is 404.</li>
 * </ul>
 */
public final class QueryServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QueryServer.class);
    static final Duration HANDLER_TIMEOUT = Duration.ofSeconds(15);
    /** Largest request body a route accepts unless it says otherwise; beyond it the answer is 413. */
    public static final int MAX_BODY_BYTES = ApiRoutes.DEFAULT_MAX_BODY_BYTES;
    /** The methods {@link HttpServerRoutes} has a route for; a known path asked with one it does not answer is 405. */
    private static final List<HttpMethod> ROUTABLE = List.of(
            HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST, HttpMethod.PUT, HttpMethod.DELETE, HttpMethod.OPTIONS);

    private final DisposableServer server;

    private QueryServer(DisposableServer server) {
        this.server = server;
    }

    /**
     * Binds {@code host:port} (0 = a free port) and serves {@code ops} and {@code routes}, the latter to callers
     * {@code access} admits, behind the shared edge guard ({@code limits}: timeouts, body budget, Host allow-list).
     */
    public static QueryServer start(
            String host,
            int port,
            ApiRoutes routes,
            OpsRoutes ops,
            ApiAccess access,
            ServerLimits limits,
            MeterRegistry registry) {
        // Compressed above 1 KiB when the client accepts it: the console polls /v1/status, which grows with the fleet.
        DisposableServer server = ServerGuard.apply(
                        HttpServer.create().host(host).port(port), limits, "query", registry)
                .compress(1024)
                .route(r -> {
                    ops.accept(r);
                    mount(r, routes, access);
                })
                .bindNow(Duration.ofSeconds(10));
        if (access.noClientTokens()) {
            LOG.warn("no query API token is configured: every /v1 request will be refused with 401 "
                    + "(add auth.tokens or auth.tokensFile; vigil token create prints one)");
        }
        LOG.info("query API listening on {}:{}", host, server.port());
        return new QueryServer(server);
    }

    /**
     * The ops endpoints of an instance over {@code backend}: healthy unless Kafka Streams shut down on a fatal error,
     * ready when its stores can answer; their 503s ask to retry after {@link HttpResult#RETRY_AFTER_SECONDS}.
     */
    public static OpsRoutes ops(QueryBackend backend, Supplier<String> prometheusScrape) {
        return OpsRoutes.of(prometheusScrape)
                // a client shut down after a fatal stream-thread error never recovers by itself: unhealthy, so a
                // supervisor restarts the process; every other state (starting, rebalancing) is only not ready
                .health(() -> failed(backend.state())
                        ? Check.down("Kafka Streams stopped after a fatal error (state " + backend.state()
                                + "); the log says why")
                        : Check.up())
                .readiness(() -> backend.ready()
                        ? Check.up(Collections.singletonMap("streams", backend.state()))
                        : Check.down("Kafka Streams is " + backend.state()))
                .retryAfter(Duration.ofSeconds(HttpResult.RETRY_AFTER_SECONDS));
    }

    /** Kafka Streams' {@code PENDING_ERROR} and {@code ERROR}: the states a client reaches only after shutting down on a fatal error. */
    static boolean failed(String streamsState) {
        return "ERROR".equals(streamsState) || "PENDING_ERROR".equals(streamsState);
    }

    public int port() {
        return server.port();
    }

    /**
     * The API routes, then 405 for the other methods of each known template, then 404 (or 501) for the rest. Each
     * template is routed with and without a trailing slash: {@code /v1/status/} is {@code /v1/status}.
     */
    private static void mount(HttpServerRoutes r, ApiRoutes routes, ApiAccess access) {
        Map<String, Set<Method>> methods = new LinkedHashMap<>();
        for (Route route : routes.routes()) {
            BiFunction<HttpServerRequest, HttpServerResponse, Publisher<Void>> handler =
                    (req, res) -> dispatch(route, access, req, res);
            for (String template : spellings(route.template())) {
                switch (route.method()) {
                    case GET -> r.get(template, handler).head(template, handler);
                    case POST -> r.post(template, handler);
                    case PUT -> r.put(template, handler);
                    case DELETE -> r.delete(template, handler);
                }
            }
            methods.computeIfAbsent(route.template(), t -> EnumSet.noneOf(Method.class))
                    .add(route.method());
        }
        // After every route: Reactor Netty answers with the first route that matches, in the order they were added.
        methods.forEach((template, answered) -> {
            String allow = allowHeader(answered);
            BiFunction<HttpServerRequest, HttpServerResponse, Publisher<Void>> refuse =
                    (req, res) -> notAllowed(allow, access, req, res);
            for (HttpMethod m : ROUTABLE) {
                if (!answered.contains(method(m))) {
                    spellings(template).forEach(t -> route(r, m, t, refuse));
                }
            }
        });
        List<KnownPath> known = methods.entrySet().stream()
                .map(e -> new KnownPath(KnownPath.pattern(e.getKey()), allowHeader(e.getValue())))
                .toList();
        r.route(req -> true, (req, res) -> unmatched(access, known, req, res));
    }

    /** A template's path as a pattern, with the methods it answers: a method no route can take is refused with 405. */
    private record KnownPath(Pattern path, String allow) {
        static Pattern pattern(String template) {
            StringBuilder regex = new StringBuilder();
            for (String part : template.split("(?=\\{)|(?<=\\})")) {
                regex.append(part.startsWith("{") && part.endsWith("}") ? "[^/]+" : Pattern.quote(part));
            }
            return Pattern.compile(regex + "/?");
        }
    }

    private static List<String> spellings(String template) {
        return template.endsWith("/") ? List.of(template) : List.of(template, template + "/");
    }

    private static void route(
            HttpServerRoutes r,
            HttpMethod m,
            String template,
            BiFunction<HttpServerRequest, HttpServerResponse, Publisher<Void>> handler) {
        switch (m.name()) {
            case "GET" -> r.get(template, handler);
            case "HEAD" -> r.head(template, handler);
            case "POST" -> r.post(template, handler);
            case "PUT" -> r.put(template, handler);
            case "DELETE" -> r.delete(template, handler);
            case "OPTIONS" -> r.options(template, handler);
            default -> throw new IllegalArgumentException("no route for " + m);
        }
    }

    /** The request's decoded path and query; null when either has a malformed %-escape. */
    private record Target(String path, Map<String, List<String>> query) {
        static Target of(HttpServerRequest req) {
            QueryStringDecoder decoder = new QueryStringDecoder(req.uri());
            try {
                return new Target(decoder.path(), decoder.parameters());
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
    }

    private static final HttpResult MALFORMED =
            HttpResult.badRequest("the request path or query has a malformed %-escape", null);

    private static Mono<Void> dispatch(Route route, ApiAccess access, HttpServerRequest req, HttpServerResponse res) {
        Target target = Target.of(req);
        if (target == null) {
            // a malformed %-escape: nothing to route, nothing to authenticate against
            return respond(Mono.just(MALFORMED), res);
        }
        Map<String, String> params = pathParams(req);
        if (params == null) {
            return unmatched(access, List.of(), req, res);
        }
        String path = target.path();
        Method method = route.method();
        Principal principal = null;
        if (!ApiAccess.isPublic(method, route.template())) {
            principal = access.authenticate(req.requestHeaders().get(HttpHeaderNames.AUTHORIZATION))
                    .orElse(null);
            if (principal == null) {
                return respond(Mono.just(unauthorized(req, path)), res);
            }
        }
        if (method.hasBody() && !isJson(req.requestHeaders().get(HttpHeaderNames.CONTENT_TYPE))) {
            return respond(
                    Mono.just(HttpResult.problem(
                            415,
                            "unsupported-media-type",
                            "Unsupported media type",
                            "send the body as application/json",
                            path)),
                    res);
        }
        Scope needed = ApiAccess.required(method, route.template());
        if (principal != null && needed != null && !principal.may(needed)) {
            return respond(
                    Mono.just(HttpResult.problem(
                            403,
                            "forbidden",
                            "Forbidden",
                            "the token '" + principal.name() + "' lacks the '" + needed.wire()
                                    + "' scope this endpoint needs",
                            path)),
                    res);
        }
        Map<String, String> query = new HashMap<>();
        for (Map.Entry<String, List<String>> e : target.query().entrySet()) {
            if (!e.getValue().isEmpty()) {
                query.put(e.getKey(), e.getValue().get(0));
            }
        }
        // Only a peer instance may say it already forwarded a request (it then must not forward again).
        boolean forwarded = principal != null
                && principal.instance()
                && req.requestHeaders().contains(QueryRequest.FORWARDED_HEADER);
        Principal caller = principal;
        String remote = req.remoteAddress() == null
                ? ""
                : req.remoteAddress().getAddress().getHostAddress();
        Map<String, String> conditions = new HashMap<>();
        for (String name : QueryRequest.CONDITION_HEADERS) {
            String value = req.requestHeaders().get(name);
            if (value != null) {
                conditions.put(name, value);
            }
        }
        int maxBody = route.maxBodyBytes();
        Mono<byte[]> body = method.hasBody() ? readBody(req, maxBody) : Mono.just(new byte[0]);
        Mono<HttpResult> result = body.flatMap(bytes -> route.handler()
                        .handle(new QueryRequest(
                                method, path, params, query, forwarded, req.uri(), bytes, caller, remote, conditions)))
                .timeout(HANDLER_TIMEOUT)
                .onErrorResume(e -> {
                    if (e instanceof BodyTooLarge) {
                        return Mono.just(HttpResult.problem(
                                413,
                                "payload-too-large",
                                "Payload too large",
                                "the request body must be at most " + maxBody + " bytes",
                                path));
                    }
                    if (e instanceof java.util.concurrent.TimeoutException) {
                        // not a fault of the request or a bug: this instance could not answer in time
                        LOG.warn("query {} got no answer within {} s", path, HANDLER_TIMEOUT.toSeconds());
                        return Mono.just(HttpResult.unavailable(
                                "no answer within " + HANDLER_TIMEOUT.toSeconds() + " s; retry shortly", path));
                    }
                    LOG.warn("query {} failed", path, e);
                    return Mono.just(
                            e instanceof QueryBackend.Unavailable u
                                    ? HttpResult.unavailable(u.getMessage(), path)
                                    : HttpResult.problem(
                                            500,
                                            "internal",
                                            "Internal error",
                                            "the query failed; see the instance's log",
                                            path));
                });
        return respond(result, res);
    }

    /** The route's path parameters, each %-decoded; null when one is empty or malformed (then no route matched). */
    private static Map<String, String> pathParams(HttpServerRequest req) {
        Map<String, String> raw = req.params();
        Map<String, String> params = new HashMap<>();
        if (raw == null) {
            return params;
        }
        for (Map.Entry<String, String> e : raw.entrySet()) {
            if (e.getValue() == null || e.getValue().isEmpty()) {
                return null;
            }
            try {
                params.put(e.getKey(), URLDecoder.decode(e.getValue(), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException malformed) {
                return null;
            }
        }
        return params;
    }

    /** A known path asked with a method none of its routes answers: 405 with {@code Allow}, to an admitted caller. */
    private static Mono<Void> notAllowed(
            String allow, ApiAccess access, HttpServerRequest req, HttpServerResponse res) {
        Target target = Target.of(req);
        if (target == null) {
            return respond(Mono.just(MALFORMED), res);
        }
        if (access.authenticate(req.requestHeaders().get(HttpHeaderNames.AUTHORIZATION))
                .isEmpty()) {
            return respond(Mono.just(unauthorized(req, target.path())), res);
        }
        res.header(HttpHeaderNames.ALLOW, allow);
        return respond(
                Mono.just(HttpResult.problem(
                        405,
                        "method-not-allowed",
                        "Method not allowed",
                        target.path() + " answers " + allow + " only",
                        target.path())),
                res);
    }

    /**
     * No route matched: 405 for a method no route can take (TRACE, PATCH ...) on a known path, 501 for such a method
     * elsewhere, 404 for the rest; to an admitted caller.
     */
    private static Mono<Void> unmatched(
            ApiAccess access, List<KnownPath> known, HttpServerRequest req, HttpServerResponse res) {
        Target target = Target.of(req);
        if (target == null) {
            return respond(Mono.just(MALFORMED), res);
        }
        String path = target.path();
        if (!ROUTABLE.contains(req.method())) {
            for (KnownPath k : known) {
                if (k.path().matcher(path).matches()) {
                    return notAllowed(k.allow(), access, req, res);
                }
            }
        }
        if (access.authenticate(req.requestHeaders().get(HttpHeaderNames.AUTHORIZATION))
                .isEmpty()) {
            return respond(Mono.just(unauthorized(req, path)), res);
        }
        if (!ROUTABLE.contains(req.method())) {
            return respond(
                    Mono.just(HttpResult.problem(
                            501,
                            "not-implemented",
                            "Not implemented",
                            "no endpoint of this API answers " + req.method().name(),
                            path)),
                    res);
        }
        return respond(Mono.just(HttpResult.notFound("no such endpoint: " + path, path)), res);
    }

    private static HttpResult unauthorized(HttpServerRequest req, String path) {
        boolean presented = req.requestHeaders().contains(HttpHeaderNames.AUTHORIZATION);
        HttpResult p = HttpResult.problem(
                401,
                presented ? "invalid-credentials" : "missing-credentials",
                "Unauthorized",
                presented ? "the token is not valid" : "an Authorization: Bearer <token> header is required",
                path);
        return new HttpResult(401, p.contentType(), p.body(), Map.of("WWW-Authenticate", "Bearer realm=\"vigil\""));
    }

    /**
     * Writes the answer through the kit's {@link Replies#offEventLoop}: handlers read RocksDB stores (disk I/O), so
     * the answer is computed there too, and it never completes on the event loop.
     */
    private static Mono<Void> respond(Mono<HttpResult> result, HttpServerResponse res) {
        return Replies.offEventLoop(result.flatMap(r -> {
            res.status(HttpResponseStatus.valueOf(r.status()));
            res.header(HttpHeaderNames.CONTENT_TYPE, r.contentType());
            // Every answer: no MIME sniffing (a JSON body must never be run as a script), no referrer leaks.
            res.header("X-Content-Type-Options", "nosniff");
            res.header("Referrer-Policy", "no-referrer");
            r.headers().forEach(res::header);
            return res.sendByteArray(Mono.just(r.body())).then();
        }));
    }

    /** The API method a request method is answered by ({@code HEAD} by {@code GET}); null for any other. */
    private static Method method(HttpMethod m) {
        if (HttpMethod.GET.equals(m) || HttpMethod.HEAD.equals(m)) {
            return Method.GET;
        }
        if (HttpMethod.POST.equals(m)) {
            return Method.POST;
        }
        if (HttpMethod.PUT.equals(m)) {
            return Method.PUT;
        }
        if (HttpMethod.DELETE.equals(m)) {
            return Method.DELETE;
        }
        return null;
    }

    private static String allowHeader(Set<Method> allowed) {
        return Arrays.stream(Method.values())
                .filter(allowed::contains)
                .map(m -> m == Method.GET ? "GET, HEAD" : m.name())
                .collect(Collectors.joining(", "));
    }

    /** {@code application/json} or {@code application/*+json}, parameters such as charset ignored. */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semi = contentType.indexOf(';');
        String type =
                (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
        return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
    }

    /** The whole body, failing with {@link BodyTooLarge} as soon as it exceeds {@code max} bytes. */
    private static Mono<byte[]> readBody(HttpServerRequest req, int max) {
        String declared = req.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
        if (declared != null) {
            try {
                if (Long.parseLong(declared.trim()) > max) {
                    return Mono.error(new BodyTooLarge());
                }
            } catch (NumberFormatException e) {
                // let the streamed count decide
            }
        }
        return req.receive()
                .asByteArray()
                .reduceWith(ByteArrayOutputStream::new, (buf, chunk) -> {
                    if (buf.size() + chunk.length > max) {
                        throw new BodyTooLarge();
                    }
                    buf.writeBytes(chunk);
                    return buf;
                })
                .map(ByteArrayOutputStream::toByteArray);
    }

    private static final class BodyTooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BodyTooLarge() {
            super("request body too large", null, false, false);
        }
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }
}
