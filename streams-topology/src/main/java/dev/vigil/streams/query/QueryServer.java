package dev.vigil.streams.query;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/** The HTTP server of the query API: a Reactor Netty server dispatching GET requests through a {@link RouteTable}. */
public final class QueryServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QueryServer.class);
    static final Duration HANDLER_TIMEOUT = Duration.ofSeconds(15);

    private final DisposableServer server;

    private QueryServer(DisposableServer server) {
        this.server = server;
    }

    /** Binds {@code host:port} (0 = a free port) and serves {@code routes}. */
    public static QueryServer start(String host, int port, RouteTable routes) {
        DisposableServer server = HttpServer.create()
                .host(host)
                .port(port)
                .handle((req, res) -> dispatch(routes, req, res))
                .bindNow(Duration.ofSeconds(10));
        LOG.info("query API listening on {}:{}", host, server.port());
        return new QueryServer(server);
    }

    public int port() {
        return server.port();
    }

    private static Mono<Void> dispatch(RouteTable routes, HttpServerRequest req, HttpServerResponse res) {
        QueryStringDecoder decoder = new QueryStringDecoder(req.uri());
        String path = decoder.path();
        Mono<HttpResult> result;
        if (!HttpMethod.GET.equals(req.method()) && !HttpMethod.HEAD.equals(req.method())) {
            result = Mono.just(HttpResult.problem(405, "method-not-allowed", "Method not allowed",
                    "this API answers GET only", path));
            res.header("Allow", "GET");
        } else {
            var match = routes.match(path);
            if (match.isEmpty()) {
                result = Mono.just(HttpResult.notFound("no such endpoint: " + path, path));
            } else {
                Map<String, String> query = new HashMap<>();
                for (Map.Entry<String, List<String>> e : decoder.parameters().entrySet()) {
                    if (!e.getValue().isEmpty()) {
                        query.put(e.getKey(), e.getValue().get(0));
                    }
                }
                boolean forwarded = req.requestHeaders().contains(QueryRequest.FORWARDED_HEADER);
                QueryRequest request = new QueryRequest(path, match.get().params(), query, forwarded, req.uri());
                result = Mono.defer(() -> match.get().handler().handle(request))
                        .timeout(HANDLER_TIMEOUT)
                        .onErrorResume(e -> {
                            LOG.warn("query {} failed", path, e);
                            return Mono.just(e instanceof QueryBackend.Unavailable u
                                    ? HttpResult.unavailable(u.getMessage(), path)
                                    : HttpResult.problem(500, "internal", "Internal error",
                                            "the query failed; see the instance's log", path));
                        });
            }
        }
        return result.flatMap(r -> {
            res.status(HttpResponseStatus.valueOf(r.status()));
            res.header("Content-Type", r.contentType());
            r.headers().forEach(res::header);
            return res.sendByteArray(Mono.just(r.body())).then();
        });
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }
}
