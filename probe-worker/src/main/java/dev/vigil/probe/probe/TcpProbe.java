package dev.vigil.probe.probe;

import dev.vigil.kit.net.Target;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeoutException;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;

/**
 * A TCP check: connect to {@code tcp.host:tcp.port} through the {@link TargetGuard} (resolved, classified, and
 * connected to the address that was checked), optionally write {@code send}, then read at most
 * {@value #MAX_READ_BYTES} bytes until {@code expect} has arrived. One deadline, the monitor's timeoutMs, covers the
 * lookup, the connect and the read. Results carry dnsMs, connectMs and responseMs (from the start of the check to the
 * connect, or to the end of the expected text).
 *
 * <p>Details name what went wrong and how many bytes arrived, never the bytes: a banner can carry versions or
 * internal names the monitor's owner did not mean to publish.
 */
public final class TcpProbe implements Probe {
    public static final int MAX_READ_BYTES = 4096;

    private final GuardedConnection connection;
    private final ProbeSettings settings;

    public TcpProbe(TargetGuard guard, ProbeSettings settings) {
        this.connection = new GuardedConnection(guard);
        this.settings = settings;
    }

    @Override
    public Mono<ProbeResult> probe(MonitorDefinition monitor, long windowStart) {
        return Mono.defer(() -> new Run(monitor, windowStart).execute());
    }

    /** How a read ended. */
    private enum Read {
        FOUND,
        FULL,
        CLOSED
    }

    /** The first bytes the server sent, searched for the expected text as they arrive. */
    private static final class Banner {
        private final byte[] want;
        private final byte[] got = new byte[MAX_READ_BYTES];
        private int length;

        Banner(byte[] want) {
            this.want = want;
        }

        /** @return null while more bytes are needed */
        Read add(ByteBuf buf) {
            int n = Math.min(buf.readableBytes(), got.length - length);
            buf.getBytes(buf.readerIndex(), got, length, n);
            int from = Math.max(0, length - want.length + 1);
            length += n;
            if (indexOf(from) >= 0) {
                return Read.FOUND;
            }
            return length >= got.length ? Read.FULL : null;
        }

        private int indexOf(int from) {
            outer:
            for (int i = from; i + want.length <= length; i++) {
                for (int j = 0; j < want.length; j++) {
                    if (got[i + j] != want[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }
    }

    private final class Run {
        final MonitorDefinition monitor;
        final MonitorDefinition.Tcp tcp;
        final long windowStart;
        final String requestId = Results.requestId();
        final long startNanos = System.nanoTime();
        final long startedAt;
        final Phases phases = new Phases();
        volatile Target.Allowed target;
        volatile Banner banner;
        volatile long foundNanos;

        Run(MonitorDefinition monitor, long windowStart) {
            this.monitor = monitor;
            this.tcp = monitor.tcp();
            this.windowStart = windowStart;
            this.startedAt = Math.max(settings.wallClock().getAsLong(), windowStart);
        }

        Mono<ProbeResult> execute() {
            return connection.run(
                    "tcp", tcp.host(), tcp.port(), monitor, startNanos, phases, c -> c, new GuardedConnection.Check() {
                        @Override
                        public ProbeResult failure(ErrorKind kind, String detail, long dnsNanos) {
                            return Run.this.failure(kind, detail, dnsNanos);
                        }

                        @Override
                        public Mono<ProbeResult> connected(Connection conn, Target.Allowed allowed) {
                            target = allowed;
                            return read(conn);
                        }

                        @Override
                        public ProbeResult failed(Throwable error, Target.Allowed allowed) {
                            target = allowed;
                            return onError(error);
                        }
                    });
        }

        private Mono<ProbeResult> read(Connection conn) {
            Mono<Void> send = tcp.send() == null
                    ? Mono.empty()
                    : conn.outbound()
                            .sendByteArray(Mono.just(tcp.send().getBytes(StandardCharsets.UTF_8)))
                            .then();
            if (tcp.expect() == null) {
                return send.then(Mono.fromCallable(() -> success(phases.connected)));
            }
            Banner b = new Banner(tcp.expect().getBytes(StandardCharsets.UTF_8));
            banner = b;
            return send.then(conn.inbound()
                            .receive()
                            .<Read>handle((buf, sink) -> {
                                Read r = b.add(buf);
                                if (r != null) {
                                    foundNanos = System.nanoTime();
                                    sink.next(r);
                                    sink.complete();
                                }
                            })
                            .next()
                            .defaultIfEmpty(Read.CLOSED))
                    .map(this::onRead);
        }

        private ProbeResult onRead(Read read) {
            int got = banner.length;
            return switch (read) {
                case FOUND -> success(foundNanos);
                case FULL -> assertion(
                        "the expected text was not in the first " + MAX_READ_BYTES + " bytes the server sent");
                case CLOSED -> assertion(
                        got == 0
                                ? "the server closed the connection without sending anything"
                                : "the server closed the connection after " + got
                                        + " bytes without sending the expected text");
            };
        }

        private ProbeResult onError(Throwable e) {
            boolean connected = phases.connected != 0;
            if (e instanceof TimeoutException && target != null) {
                if (!connected) {
                    return failure(
                            ErrorKind.CONNECT_TIMEOUT,
                            "not connected within timeoutMs " + monitor.timeoutMs(),
                            target.dnsNanos());
                }
                Banner b = banner;
                if (b != null && b.length > 0) {
                    return assertion("the expected text did not arrive within timeoutMs " + monitor.timeoutMs() + " ("
                            + b.length + " bytes received)");
                }
                return failure(
                        ErrorKind.TIMEOUT,
                        (b == null ? "the send did not complete" : "connected, but the server sent nothing")
                                + " within timeoutMs " + monitor.timeoutMs(),
                        target.dnsNanos());
            }
            return failure(
                    ErrorKinds.classify(e, connected), ErrorKinds.describe(e), target == null ? 0 : target.dnsNanos());
        }

        private ProbeResult success(long doneNanos) {
            int responseMs = Results.millis(doneNanos - startNanos);
            String slow = Results.tooSlow(monitor, responseMs);
            return result(
                    slow == null ? Outcome.SUCCESS : Outcome.ASSERTION_FAILURE,
                    null,
                    responseMs,
                    slow,
                    target.dnsNanos());
        }

        private ProbeResult assertion(String detail) {
            return result(Outcome.ASSERTION_FAILURE, null, null, detail, target.dnsNanos());
        }

        private ProbeResult failure(ErrorKind kind, String detail, long dnsNanos) {
            return result(Outcome.NETWORK_FAILURE, kind, null, detail, dnsNanos);
        }

        private ProbeResult result(Outcome outcome, ErrorKind kind, Integer responseMs, String detail, long dnsNanos) {
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
                            null,
                            null,
                            detail,
                            null));
        }
    }
}
