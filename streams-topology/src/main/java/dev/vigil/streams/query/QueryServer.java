package dev.vigil.streams.query;

import dev.vigil.kit.auth.Principal;
import dev.vigil.kit.auth.Scope;
import dev.vigil.kit.http.ServerGuard;
import dev.vigil.kit.http.ServerLimits;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/** The HTTP server of the query API: a Reactor Netty server dispatching GET, POST and DELETE requests through a {@link RouteTable}. */
public final class QueryServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QueryServer.class);
    static final Duration HANDLER_TIMEOUT = Duration.ofSeconds(15);
    /** Largest request body accepted (POST); beyond it the answer is 413. */
    public static final int MAX_BODY_BYTES = 64 * 1024;

    private final DisposableServer server;

    private QueryServer(DisposableServer server) {
        this.server = server;
    }

    /**
     * Binds {@code host:port} (0 = a free port) and serves {@code routes} to callers {@code access} admits, behind the
     * shared edge guard ({@code limits}: timeouts, body budget, Host allow-list).
     */
    public static QueryServer start(String host, int port, RouteTable routes, ApiAccess access, ServerLimits limits,
                                    MeterRegistry registry) {
        // Compressed above 1 KiB when the client accepts it: the console polls /v1/status, which grows with the fleet.
        DisposableServer server = ServerGuard.apply(HttpServer.create().host(host).port(port), limits, "query", registry)
                .compress(1024)
                .handle((req, res) -> dispatch(routes, access, req, res))
                .bindNow(Duration.ofSeconds(10));
        if (access.noClientTokens()) {
            LOG.warn("no query API token is configured: every /v1 request will be refused with 401 "
                    + "(add auth.tokens or auth.tokensFile; vigil token create prints one)");
        }
        LOG.info("query API listening on {}:{}", host, server.port());
        return new QueryServer(server);
    }

    public int port() {
        return server.port();
    }

    private static Mono<Void> dispatch(RouteTable routes, ApiAccess access, HttpServerRequest req, HttpServerResponse res) {
        QueryStringDecoder decoder = new QueryStringDecoder(req.uri());
        String path;
        try {
            path = decoder.path();
            decoder.parameters();
        } catch (IllegalArgumentException e) {
            // a malformed %-escape: nothing to route, nothing to authenticate against
            return respond(Mono.just(HttpResult.badRequest("the request path or query has a malformed %-escape", null)), res);
        }
        RouteTable.Method method = method(req.method());
        // Routes match the raw path and decode each segment, so a fingerprint such as monitor%2Fshop is one parameter.
        RouteTable.Lookup lookup = routes.lookup(method, decoder.rawPath());
        boolean open = lookup.match().isPresent() && ApiAccess.isPublic(method, lookup.match().get().template());
        Principal principal = null;
        if (!open) {
            principal = access.authenticate(req.requestHeaders().get(HttpHeaderNames.AUTHORIZATION)).orElse(null);
        }
        Mono<HttpResult> result;
        if (principal == null && !open) {
            boolean presented = req.requestHeaders().contains(HttpHeaderNames.AUTHORIZATION);
            HttpResult p = HttpResult.problem(401, presented ? "invalid-credentials" : "missing-credentials",
                    "Unauthorized", presented ? "the token is not valid"
                            : "an Authorization: Bearer <token> header is required", path);
            result = Mono.just(new HttpResult(401, p.contentType(), p.body(), Map.of("WWW-Authenticate", "Bearer realm=\"vigil\"")));
        } else if (lookup.match().isEmpty()) {
            if (lookup.allowed().isEmpty()) {
                result = Mono.just(HttpResult.notFound("no such endpoint: " + path, path));
            } else {
                String allow = allowHeader(lookup.allowed());
                res.header("Allow", allow);
                result = Mono.just(HttpResult.problem(405, "method-not-allowed", "Method not allowed",
                        path + " answers " + allow + " only", path));
            }
        } else if (method == RouteTable.Method.POST && !isJson(req.requestHeaders().get(HttpHeaderNames.CONTENT_TYPE))) {
            result = Mono.just(HttpResult.problem(415, "unsupported-media-type", "Unsupported media type",
                    "send the body as application/json", path));
        } else {
            RouteTable.Match match = lookup.match().get();
            Scope needed = ApiAccess.required(method, match.template());
            if (principal != null && needed != null && !principal.may(needed)) {
                return respond(Mono.just(HttpResult.problem(403, "forbidden", "Forbidden", "the token '" + principal.name()
                        + "' lacks the '" + needed.wire() + "' scope this endpoint needs", path)), res);
            }
            Map<String, String> query = new HashMap<>();
            for (Map.Entry<String, List<String>> e : decoder.parameters().entrySet()) {
                if (!e.getValue().isEmpty()) {
                    query.put(e.getKey(), e.getValue().get(0));
                }
            }
            // Only a peer instance may say it already forwarded a request (it then must not forward again).
            boolean forwarded = principal != null && principal.instance()
                    && req.requestHeaders().contains(QueryRequest.FORWARDED_HEADER);
            Principal caller = principal;
            String remote = req.remoteAddress() == null ? "" : req.remoteAddress().getAddress().getHostAddress();
            Mono<byte[]> body = method == RouteTable.Method.POST ? readBody(req) : Mono.just(new byte[0]);
            result = body
                    .flatMap(bytes -> match.handler().handle(
                            new QueryRequest(method, path, match.params(), query, forwarded, req.uri(), bytes, caller, remote)))
                    .timeout(HANDLER_TIMEOUT)
                    .onErrorResume(e -> {
                        if (e instanceof BodyTooLarge) {
                            return Mono.just(HttpResult.problem(413, "payload-too-large", "Payload too large",
                                    "the request body must be at most " + MAX_BODY_BYTES + " bytes", path));
                        }
                        LOG.warn("query {} failed", path, e);
                        return Mono.just(e instanceof QueryBackend.Unavailable u
                                ? HttpResult.unavailable(u.getMessage(), path)
                                : HttpResult.problem(500, "internal", "Internal error",
                                        "the query failed; see the instance's log", path));
                    });
        }
        // Answers are computed on boundedElastic, never on the event loop: handlers read RocksDB stores (disk
        // I/O), and an answer completing synchronously on the event loop for a keep-alive request that arrived
        // while the previous response was in flight leaves the connection unread in Reactor Netty 1.3.7
        // (reactor-netty#4347; QueryServerKeepAliveTest reproduces it).
        return respond(result, res);
    }

    private static Mono<Void> respond(Mono<HttpResult> result, HttpServerResponse res) {
        return result.subscribeOn(Schedulers.boundedElastic()).flatMap(r -> {
            res.status(HttpResponseStatus.valueOf(r.status()));
            res.header("Content-Type", r.contentType());
            // Every answer: no MIME sniffing (a JSON body must never be run as a script), no referrer leaks.
            res.header("X-Content-Type-Options", "nosniff");
            res.header("Referrer-Policy", "no-referrer");
            r.headers().forEach(res::header);
            return res.sendByteArray(Mono.just(r.body())).then();
        });
    }

    /** HEAD is answered like GET; methods no route can answer map to null (405 on a known path). */
    private static RouteTable.Method method(HttpMethod m) {
        if (HttpMethod.GET.equals(m) || HttpMethod.HEAD.equals(m)) {
            return RouteTable.Method.GET;
        }
        if (HttpMethod.POST.equals(m)) {
            return RouteTable.Method.POST;
        }
        if (HttpMethod.DELETE.equals(m)) {
            return RouteTable.Method.DELETE;
        }
        return null;
    }

    private static String allowHeader(Set<RouteTable.Method> allowed) {
        return java.util.Arrays.stream(RouteTable.Method.values()).filter(allowed::contains)
                .map(m -> m == RouteTable.Method.GET ? "GET, HEAD" : m.name())
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /** {@code application/json} or {@code application/*+json}, parameters such as charset ignored. */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semi = contentType.indexOf(';');
        String type = (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(java.util.Locale.ROOT);
        return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
    }

    /** The whole body, failing with {@link BodyTooLarge} as soon as it exceeds {@link #MAX_BODY_BYTES}. */
    private static Mono<byte[]> readBody(HttpServerRequest req) {
        String declared = req.requestHeaders().get(HttpHeaderNames.CONTENT_LENGTH);
        if (declared != null) {
            try {
                if (Long.parseLong(declared.trim()) > MAX_BODY_BYTES) {
                    return Mono.error(new BodyTooLarge());
                }
            } catch (NumberFormatException e) {
                // let the streamed count decide
            }
        }
        return req.receive().asByteArray()
                .reduceWith(ByteArrayOutputStream::new, (buf, chunk) -> {
                    if (buf.size() + chunk.length > MAX_BODY_BYTES) {
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
