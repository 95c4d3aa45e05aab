package dev.vigil.bench.probe;

import dev.vigil.schemas.contract.CheckType;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.tcp.TcpServer;

/**
 * The local targets of the probe benchmark, one per check type: the HTTP {@link ProbeTarget}, a TCP banner server,
 * a TLS server (a certificate of {@link BenchCertificates}) and a UDP DNS responder (dnsjava messages) answering A
 * records for {@value #DNS_ZONE}. Like {@link ProbeTarget} they run in their own JVM by default, so the worker's CPU
 * figures are the worker's alone: as a process ({@code ProbeTargets <type> [server.p12]}) it prints
 * {@code PORT <n>} and serves until its standard input closes.
 *
 * <p>The TCP and TLS servers listen on 0.0.0.0 so the harness can spread connections over 127.0.0.x (the probe closes
 * first, so the TIME_WAIT sockets are on the client side, one set per destination address). The DNS responder is
 * bound to 127.0.0.1 only: a socket on 0.0.0.0 would answer a query sent to 127.0.0.5 from 127.0.0.1, and dnsjava
 * rightly ignores an answer from another address. UDP leaves nothing in TIME_WAIT, so one address is enough.
 */
public final class ProbeTargets {
    /** What the TCP server sends on accept, like an SSH server's identification line. */
    public static final String BANNER = "SSH-2.0-VigilBench_1.0\r\n";
    /** What the tcp monitors and the bare client wait for. */
    public static final String BANNER_EXPECT = "SSH-2.0-VigilBench";
    /** Every name under this zone has one A record, {@value #DNS_ANSWER}; other names are NXDOMAIN. */
    public static final String DNS_ZONE = "bench.vigil.test.";
    /** The A record (TEST-NET-1, documentation range). */
    public static final String DNS_ANSWER = "192.0.2.10";

    private ProbeTargets() {}

    /** A running target. */
    public interface Server extends AutoCloseable {
        int port();

        @Override
        void close();
    }

    /**
     * Starts the target of {@code type} on an ephemeral port.
     *
     * @param serverKeys the TLS server's PKCS#12 key store ({@link BenchCertificates#serverKeyStore()}); tls only
     */
    public static Server start(CheckType type, Path serverKeys) {
        return switch (type) {
            case HTTP -> {
                ProbeTarget t = new ProbeTarget(0);
                yield new Server() {
                    public int port() {
                        return t.port();
                    }

                    public void close() {
                        t.close();
                    }
                };
            }
            case TCP -> tcp();
            case TLS -> tls(serverKeys);
            case DNS -> new DnsResponder();
            default -> throw new IllegalArgumentException("no benchmark target for type " + type.wire());
        };
    }

    /** Sends the banner on accept, then holds the connection until the client hangs up. */
    static Server tcp() {
        byte[] banner = BANNER.getBytes(StandardCharsets.US_ASCII);
        DisposableServer server = TcpServer.create()
                .host("0.0.0.0")
                .port(0)
                .handle((in, out) -> out.sendByteArray(Mono.just(banner))
                        .then()
                        .then(in.receive().then()))
                .bindNow(Duration.ofSeconds(10));
        return netty(server);
    }

    /** Completes the handshake, then holds the connection until the client hangs up. */
    static Server tls(Path serverKeys) {
        if (serverKeys == null) {
            throw new IllegalArgumentException("the tls target needs the server's key store");
        }
        SslContext ctx;
        try {
            ctx = SslContextBuilder.forServer(BenchCertificates.keyManagers(serverKeys))
                    .build();
        } catch (Exception e) {
            throw new IllegalStateException("the TLS server context cannot be built from " + serverKeys, e);
        }
        DisposableServer server = TcpServer.create()
                .host("0.0.0.0")
                .port(0)
                .secure(spec -> spec.sslContext(ctx))
                .handle((in, out) -> in.receive().then())
                .bindNow(Duration.ofSeconds(10));
        return netty(server);
    }

    private static Server netty(DisposableServer server) {
        return new Server() {
            public int port() {
                return server.port();
            }

            public void close() {
                server.disposeNow(Duration.ofSeconds(5));
            }
        };
    }

    /**
     * An authoritative UDP responder on 127.0.0.1 built with dnsjava's {@link Message}: A queries for names under
     * {@value #DNS_ZONE} get {@value #DNS_ANSWER}, other types under it an empty NOERROR, other names NXDOMAIN.
     * One thread; a malformed packet is counted and dropped.
     */
    static final class DnsResponder implements Server {
        final AtomicLong queries = new AtomicLong();
        final AtomicLong malformed = new AtomicLong();
        private final DatagramSocket socket;
        private final Name zone;
        private final InetAddress answer;

        DnsResponder() {
            try {
                zone = Name.fromString(DNS_ZONE);
                answer = InetAddress.getByName(DNS_ANSWER);
                socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
                socket.setReceiveBufferSize(1 << 20);
                socket.setSendBufferSize(1 << 20);
            } catch (TextParseException e) {
                throw new IllegalStateException(e);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Thread t = new Thread(this::serve, "bench-dns-responder");
            t.setDaemon(true);
            t.start();
        }

        private void serve() {
            byte[] buf = new byte[4096];
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            while (!socket.isClosed()) {
                try {
                    p.setLength(buf.length);
                    socket.receive(p);
                    queries.incrementAndGet();
                    byte[] wire;
                    try {
                        wire = answer(new Message(Arrays.copyOf(p.getData(), p.getLength())));
                    } catch (IOException | RuntimeException e) {
                        malformed.incrementAndGet();
                        continue;
                    }
                    socket.send(new DatagramPacket(wire, wire.length, p.getSocketAddress()));
                } catch (IOException e) {
                    if (socket.isClosed()) {
                        return;
                    }
                }
            }
        }

        private byte[] answer(Message query) {
            Record q = query.getQuestion();
            Message out = new Message(query.getHeader().getID());
            out.getHeader().setFlag(Flags.QR);
            out.getHeader().setFlag(Flags.AA);
            if (query.getHeader().getFlag(Flags.RD)) {
                out.getHeader().setFlag(Flags.RD);
            }
            if (q == null) {
                out.getHeader().setRcode(Rcode.FORMERR);
                return out.toWire(512);
            }
            out.addRecord(q, Section.QUESTION);
            Name qname = q.getName();
            if (!qname.subdomain(zone)) {
                out.getHeader().setRcode(Rcode.NXDOMAIN);
            } else if (q.getType() == Type.A) {
                out.addRecord(new ARecord(qname, DClass.IN, 60, answer), Section.ANSWER);
            }
            return out.toWire(512);
        }

        @Override
        public int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    /** {@code ProbeTargets <http|tcp|tls|dns> [server.p12]}: prints {@code PORT <n>}, serves until stdin closes. */
    public static void main(String[] args) throws IOException {
        ProbeTarget.quietLogging();
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: ProbeTargets <http|tcp|tls|dns> [server.p12]");
        }
        CheckType type = CheckType.fromWire(args[0].toLowerCase(Locale.ROOT));
        try (Server target = start(type, args.length > 1 ? Path.of(args[1]) : null)) {
            System.out.println("PORT " + target.port());
            System.out.flush();
            while (System.in.read() != -1) {
                // serve until the parent closes our stdin
            }
        }
    }
}
