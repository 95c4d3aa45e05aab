package dev.vigil.probe.probe;

import dev.vigil.kit.net.Target;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.ProbeResult;
import io.netty.channel.ChannelOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.tcp.TcpClient;

/**
 * The connection the TCP and TLS checks share: the endpoint through the {@link TargetGuard} (resolved, classified, and
 * connected to the address that was checked), a refused or unresolved target answered without connecting, the connect
 * given what is left of the monitor's one deadline, the phases timed from the channel's first event, one deadline over
 * lookup, connect and whatever the check does on the connection, and the connection closed however the check ends.
 */
final class GuardedConnection {
    /** What a check does with its connection and how it words its results. */
    interface Check {
        /** A result that says what failed, with the time the lookup took. */
        ProbeResult failure(ErrorKind kind, String detail, long dnsNanos);

        /** The check's work once connected (a read, the handshake's certificate …). */
        Mono<ProbeResult> connected(Connection connection, Target.Allowed target);

        /**
         * The result of an error, or of the deadline once the target was resolved (connect, handshake or read).
         *
         * @param target null when the error came before the target was resolved
         */
        ProbeResult failed(Throwable error, Target.Allowed target);
    }

    private final TargetGuard guard;
    private final TcpClient base = TcpClient.newConnection();

    GuardedConnection(TargetGuard guard) {
        this.guard = guard;
    }

    /**
     * @param scheme    the check's name for the guard ({@code tcp}, {@code tls})
     * @param startNanos when the check started: the deadline counts from there
     * @param secure    adds what the check needs to the client (TLS), or leaves it
     */
    Mono<ProbeResult> run(
            String scheme,
            String host,
            int port,
            MonitorDefinition monitor,
            long startNanos,
            Phases phases,
            UnaryOperator<TcpClient> secure,
            Check check) {
        AtomicReference<Target.Allowed> resolved = new AtomicReference<>();
        AtomicReference<Connection> open = new AtomicReference<>();
        return guard.checkEndpoint(scheme, host, port)
                .flatMap(t -> {
                    if (t instanceof Target.Refused r) {
                        return Mono.just(
                                check.failure(ErrorKind.BLOCKED_TARGET, "target refused: " + r.reason(), r.dnsNanos()));
                    }
                    if (t instanceof Target.Unresolved u) {
                        return Mono.just(check.failure(ErrorKind.DNS, u.reason(), u.dnsNanos()));
                    }
                    Target.Allowed allowed = (Target.Allowed) t;
                    resolved.set(allowed);
                    long remainingMs = Math.max(
                            1, monitor.timeoutMs() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
                    return secure.apply(base.remoteAddress(allowed::socketAddress)
                                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) remainingMs)
                                    .doOnChannelInit((observer, channel, address) -> {
                                        phases.connecting();
                                        channel.pipeline().addFirst("vigil.phase", phases);
                                    }))
                            .connect()
                            .flatMap(conn -> {
                                open.set(conn);
                                return check.connected(conn, allowed);
                            });
                })
                .timeout(Duration.ofMillis(monitor.timeoutMs()))
                .onErrorResume(e -> {
                    Target.Allowed allowed = resolved.get();
                    if (allowed == null && e instanceof TimeoutException) {
                        return Mono.just(check.failure(
                                ErrorKind.DNS,
                                "host lookup did not finish within timeoutMs " + monitor.timeoutMs(),
                                System.nanoTime() - startNanos));
                    }
                    return Mono.just(check.failed(e, allowed));
                })
                .doFinally(s -> {
                    Connection c = open.get();
                    if (c != null) {
                        c.dispose();
                    }
                });
    }
}
