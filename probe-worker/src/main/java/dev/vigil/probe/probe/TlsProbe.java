package dev.vigil.probe.probe;

import dev.vigil.kit.net.Target;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLException;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;

/**
 * A TLS check on any port: connect to {@code tls.host:tls.port} through the {@link TargetGuard}, handshake with
 * SNI = host, validate the chain against the worker's trust (the JDK's CAs plus {@code trustedCaFile}, see
 * {@link TrustStores}) and the host name (HTTPS endpoint identification), then close. One deadline, the monitor's
 * timeoutMs, covers lookup, connect and handshake.
 *
 * <p>A valid certificate is a success whatever its days left: the result carries {@code tlsDaysLeft}, and the
 * topology's TLS rule warns from it against {@code tlsExpiryWarnDays}, exactly as for an https monitor. A refused
 * certificate is {@code network_failure} with errorKind {@code tls} and a detail that says which check failed
 * ({@link CertificateVerdicts}); an expired one still reports its (negative) days left.
 */
public final class TlsProbe implements Probe {
    private final GuardedConnection connection;
    private final ProbeSettings settings;
    private final SslContext sslContext;

    public TlsProbe(TargetGuard guard, ProbeSettings settings) {
        this.connection = new GuardedConnection(guard);
        this.settings = settings;
        try {
            // Built once: an SslContext per probe would cost more than the probe.
            this.sslContext = SslContextBuilder.forClient()
                    .trustManager(CertificateVerdicts.of(settings.trust()))
                    .endpointIdentificationAlgorithm("HTTPS")
                    .build();
        } catch (SSLException e) {
            throw new IllegalStateException("the TLS client context cannot be built", e);
        }
    }

    @Override
    public Mono<ProbeResult> probe(MonitorDefinition monitor, long windowStart) {
        return Mono.defer(() -> new Run(monitor, windowStart).execute());
    }

    private final class Run {
        final MonitorDefinition monitor;
        final MonitorDefinition.Tls tls;
        final long windowStart;
        final String requestId = Results.requestId();
        final long startNanos = System.nanoTime();
        final long startedAt;
        final Phases phases = new Phases();
        volatile Target.Allowed target;

        Run(MonitorDefinition monitor, long windowStart) {
            this.monitor = monitor;
            this.tls = monitor.tls();
            this.windowStart = windowStart;
            this.startedAt = Math.max(settings.wallClock().getAsLong(), windowStart);
        }

        Mono<ProbeResult> execute() {
            // An IP literal gets no SNI (RFC 6066 allows host names only); the address is then what is verified.
            boolean literal = tls.host().indexOf(':') >= 0 || tls.host().matches("[0-9.]+");
            return connection.run(
                    "tls",
                    tls.host(),
                    tls.port(),
                    monitor,
                    startNanos,
                    phases,
                    client -> client.secure(spec -> {
                        // Our deadline ends the handshake; the provider's own timeout must not end it first.
                        var b = spec.sslContext(sslContext)
                                .handshakeTimeout(Duration.ofMillis(monitor.timeoutMs() + 1000L));
                        if (!literal) {
                            b.serverNames(new SNIHostName(tls.host()));
                        }
                    }),
                    new GuardedConnection.Check() {
                        @Override
                        public ProbeResult failure(ErrorKind kind, String detail, long dnsNanos) {
                            return Run.this.failure(kind, detail, dnsNanos, null);
                        }

                        @Override
                        public Mono<ProbeResult> connected(Connection conn, Target.Allowed allowed) {
                            target = allowed;
                            return Mono.fromCallable(() -> handshaken(conn, allowed));
                        }

                        @Override
                        public ProbeResult failed(Throwable error, Target.Allowed allowed) {
                            target = allowed;
                            return onError(error);
                        }
                    });
        }

        private ProbeResult handshaken(Connection conn, Target.Allowed allowed) {
            long done = phases.tlsDone != 0 ? phases.tlsDone : System.nanoTime();
            X509Certificate leaf = phases.certificate;
            if (leaf == null) {
                SslHandler ssl = conn.channel().pipeline().get(SslHandler.class);
                leaf = ssl == null ? null : Phases.leaf(ssl);
            }
            int responseMs = Results.millis(done - startNanos);
            String slow = Results.tooSlow(monitor, responseMs);
            return result(
                    slow == null ? Outcome.SUCCESS : Outcome.ASSERTION_FAILURE,
                    null,
                    responseMs,
                    slow,
                    allowed.dnsNanos(),
                    leaf);
        }

        private ProbeResult onError(Throwable e) {
            boolean connected = phases.connected != 0;
            long dns = target == null ? System.nanoTime() - startNanos : target.dnsNanos();
            if (e instanceof TimeoutException && target != null) {
                return connected
                        ? failure(
                                ErrorKind.TIMEOUT,
                                "TLS handshake did not complete within timeoutMs " + monitor.timeoutMs(),
                                dns,
                                null)
                        : failure(
                                ErrorKind.CONNECT_TIMEOUT,
                                "not connected within timeoutMs " + monitor.timeoutMs(),
                                dns,
                                null);
            }
            for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof CertificateVerdicts.Rejected r) {
                    X509Certificate leaf = r.reason == CertificateVerdicts.Reason.EXPIRED ? r.leaf : null;
                    return failure(ErrorKind.TLS, r.reason.detail, dns, leaf);
                }
                if (t instanceof NotSslRecordException) {
                    return failure(ErrorKind.TLS, "the server did not answer with TLS", dns, null);
                }
            }
            ErrorKind kind = ErrorKinds.classify(e, connected);
            String detail = kind == ErrorKind.TLS ? "TLS handshake failed: " + sslMessage(e) : ErrorKinds.describe(e);
            return failure(kind, detail, dns, null);
        }

        private ProbeResult failure(ErrorKind kind, String detail, long dnsNanos, X509Certificate leaf) {
            return result(Outcome.NETWORK_FAILURE, kind, null, detail, dnsNanos, leaf);
        }

        private ProbeResult result(
                Outcome outcome,
                ErrorKind kind,
                Integer responseMs,
                String detail,
                long dnsNanos,
                X509Certificate leaf) {
            Integer days = leaf == null
                    ? null
                    : Results.daysLeft(leaf, settings.wallClock().getAsLong());
            return Results.of(
                    settings,
                    monitor,
                    windowStart,
                    startedAt,
                    startNanos,
                    requestId,
                    new Results.Fields(
                            outcome,
                            kind,
                            responseMs,
                            Results.millis(dnsNanos),
                            phases.connectMs(),
                            phases.tlsMs(),
                            days,
                            detail,
                            null));
        }
    }

    /** The handshake's own words (an alert name, a protocol mismatch), short; never a certificate's contents. */
    private static String sslMessage(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException && t.getMessage() != null) {
                return Results.truncate(t.getMessage(), 120);
            }
        }
        return ErrorKinds.describe(e);
    }
}
