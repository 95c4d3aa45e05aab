package dev.vigil.kit.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Applies {@link ServerLimits} to a Reactor Netty server: Reactor Netty's own idle and body-read timeouts, and a
 * {@link GuardHandler} per connection for what Reactor Netty does not bound (the time to send a request head, the
 * bytes of all bodies held at once, the Host header). Every Vigil HTTP server is built through {@link #apply}.
 *
 * <p>Metrics: {@code vigil.http.refused{server, reason}} (reason {@code host}, {@code budget},
 * {@code header_timeout}, {@code idle_connection}) and {@code vigil.http.body.in.flight.bytes{server}}.
 */
public final class ServerGuard {
    private ServerGuard() {}

    /** Counts refusals by reason. */
    static final class Refusals {
        private final MeterRegistry registry;
        private final String server;
        private final Map<String, Counter> counters = new ConcurrentHashMap<>();

        Refusals(MeterRegistry registry, String server) {
            this.registry = registry;
            this.server = server;
        }

        void count(String reason) {
            counters.computeIfAbsent(reason, r -> Counter.builder("vigil.http.refused")
                            .description("requests refused at the server's edge, before any handler")
                            .tag("server", server)
                            .tag("reason", r)
                            .register(registry))
                    .increment();
        }
    }

    /** {@code server} configured with {@code limits}; {@code name} tags the metrics (e.g. {@code query}). */
    public static HttpServer apply(HttpServer server, ServerLimits limits, String name, MeterRegistry registry) {
        MeterRegistry meters = registry == null ? new SimpleMeterRegistry() : registry;
        BodyBudget budget = new BodyBudget(limits.maxInFlightBodyBytes());
        Gauge.builder("vigil.http.body.in.flight.bytes", budget, BodyBudget::used)
                .description("request body bytes held until their requests are answered")
                .tag("server", name)
                .register(meters);
        Refusals refusals = new Refusals(meters, name);
        return server.idleTimeout(limits.idleTimeout())
                .readTimeout(limits.requestTimeout())
                .requestTimeout(limits.requestTimeout())
                .doOnChannelInit((observer, channel, remote) -> {
                    if (channel.pipeline().get(NettyPipeline.HttpCodec) != null) {
                        GuardHandler guard = new GuardHandler(limits, budget, refusals);
                        channel.pipeline()
                                .addBefore(NettyPipeline.HttpCodec, HANDLER_NAME + ".firstBytes", guard.firstBytes);
                        channel.pipeline().addAfter(NettyPipeline.HttpCodec, HANDLER_NAME, guard);
                    }
                });
    }

    static final String HANDLER_NAME = "vigil.edgeGuard";
}
