package dev.vigil.kit.ops;

import dev.vigil.kit.http.Problem;
import dev.vigil.kit.http.Replies;
import dev.vigil.kit.http.ServerGuard;
import dev.vigil.kit.http.ServerLimits;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A small server of its own for the {@link OpsRoutes}, for a service whose work is not HTTP (the notifier, the probe
 * worker): behind the edge guard with {@link ServerLimits#defaults}, anything but the ops endpoints answered 404
 * problem+json.
 */
public final class OpsServer implements AutoCloseable {
    static final Duration BIND_TIMEOUT = Duration.ofSeconds(10);
    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final DisposableServer server;

    private OpsServer(DisposableServer server) {
        this.server = server;
    }

    /**
     * Binds {@code host:port} (0 = a free port) and serves {@code routes}.
     *
     * @param name     tags the edge guard's metrics ({@code server=name})
     * @param registry where the edge guard's metrics go; null: nowhere
     * @throws RuntimeException when the address cannot be bound
     */
    public static OpsServer start(String host, int port, String name, MeterRegistry registry, OpsRoutes routes) {
        DisposableServer server = ServerGuard.apply(
                        HttpServer.create().host(host).port(port), ServerLimits.defaults(host), name, registry)
                .route(routes.andThen(r -> r.route(
                        req -> true,
                        (req, res) -> Replies.problem(
                                res,
                                Problem.of(
                                                404,
                                                "not-found",
                                                "Not found",
                                                "no such endpoint; try /health, /ready or /metrics")
                                        .at(OpsRoutes.rawPath(req))))))
                .bindNow(BIND_TIMEOUT);
        return new OpsServer(server);
    }

    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.disposeNow(CLOSE_TIMEOUT);
    }
}
