package dev.vigil.probe.probe;

import static dev.vigil.probe.probe.Monitors.WINDOW;
import static dev.vigil.probe.probe.Monitors.tcp;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.net.Cidr;
import dev.vigil.kit.net.HostResolver;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TcpProbeTest {
    private static final TargetGuard LOOPBACK_ALLOWED =
            new TargetGuard(List.of(Cidr.parse("127.0.0.0/8")), HostResolver.system());
    private final TcpProbe probe = new TcpProbe(LOOPBACK_ALLOWED, ProbeSettings.of("us-east", "w-1", "0.1.0"));

    private ProbeResult run(TcpProbe p, MonitorDefinition m) {
        return p.probe(m, WINDOW).block(Duration.ofSeconds(15));
    }

    private ProbeResult run(MonitorDefinition m) {
        return run(probe, m);
    }

    @Test
    void aConnectAloneIsASuccessWithPhaseTimings() {
        try (var server = new TestTcpServer(TestTcpServer::holdOpen)) {
            ProbeResult r = run(tcp("127.0.0.1", server.port(), null, null, 2000));
            assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
            assertThat(r.checkType()).isEqualTo(CheckType.TCP);
            assertThat(r.errorKind()).isNull();
            assertThat(r.httpStatus()).isNull();
            assertThat(r.connectMs()).isNotNull();
            assertThat(r.dnsMs()).isZero();
            assertThat(r.responseMs()).isNotNull().isLessThanOrEqualTo(r.totalMs());
            assertThat(r.windowStart()).isEqualTo(WINDOW);
            assertThat(r.monitorId()).isEqualTo("db");
        }
    }

    @Test
    void theExpectedBannerAfterASendIsASuccess() {
        List<String> received = new ArrayList<>();
        try (var server = new TestTcpServer(s -> {
            byte[] buf = new byte[64];
            int n = s.getInputStream().read(buf);
            received.add(new String(buf, 0, n, StandardCharsets.UTF_8));
            OutputStream out = s.getOutputStream();
            out.write("+PO".getBytes(StandardCharsets.UTF_8));
            out.flush();
            // The expected text arrives split over two segments.
            TestTcpServer.sendLater(s, Duration.ofMillis(50), "NG\r\n");
            TestTcpServer.holdOpen(s);
        })) {
            ProbeResult r = run(tcp("127.0.0.1", server.port(), "PING", "+PONG", 3000));
            assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
            assertThat(received).containsExactly("PING");
            assertThat(r.responseMs()).isGreaterThanOrEqualTo(r.connectMs());
        }
    }

    @Test
    void aBannerWithoutTheExpectedTextIsAnAssertionFailureThatDoesNotRepeatIt() {
        try (var server = new TestTcpServer(s -> {
            s.getOutputStream().write("SSH-2.0-OpenSSH_7.4 internal-build-host\r\n".getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().flush();
        })) {
            ProbeResult r = run(tcp("127.0.0.1", server.port(), null, "220 ", 2000));
            assertThat(r.outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
            assertThat(r.errorKind()).isNull();
            assertThat(r.detail())
                    .contains("closed the connection after 41 bytes")
                    .doesNotContain("SSH")
                    .doesNotContain("OpenSSH")
                    .doesNotContain("internal");
        }
    }

    @Test
    void aBannerThatKeepsTheConnectionOpenFailsAtTheDeadline() {
        try (var server = new TestTcpServer(s -> {
            s.getOutputStream().write("HELLO".getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().flush();
            TestTcpServer.holdOpen(s);
        })) {
            ProbeResult r = run(tcp("127.0.0.1", server.port(), null, "WELCOME", 1000));
            assertThat(r.outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
            assertThat(r.detail())
                    .contains("did not arrive within timeoutMs 1000")
                    .contains("5 bytes received")
                    .doesNotContain("HELLO");
            assertThat(r.totalMs()).isBetween(1000, 5000);
        }
    }

    @Test
    void readingStopsAtFourKibibytes() {
        try (var server = new TestTcpServer(s -> {
            byte[] junk = new byte[64 * 1024];
            java.util.Arrays.fill(junk, (byte) 'x');
            s.getOutputStream().write(junk);
            TestTcpServer.holdOpen(s);
        })) {
            ProbeResult r = run(tcp("127.0.0.1", server.port(), null, "READY", 3000));
            assertThat(r.outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
            assertThat(r.detail()).contains("first 4096 bytes");
            assertThat(r.totalMs()).isLessThan(3000);
        }
    }

    @Test
    void aSilentServerIsATimeout() {
        try (var server = new TestTcpServer(TestTcpServer::holdOpen)) {
            ProbeResult r = run(tcp("127.0.0.1", server.port(), null, "220", 1000));
            assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
            assertThat(r.errorKind()).isEqualTo(ErrorKind.TIMEOUT);
            assertThat(r.detail()).contains("sent nothing");
            assertThat(r.connectMs()).isNotNull();
        }
    }

    @Test
    void aClosedPortIsConnectRefused() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        ProbeResult r = run(tcp("127.0.0.1", port, null, null, 2000));
        assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
        assertThat(r.errorKind()).isEqualTo(ErrorKind.CONNECT_REFUSED);
        assertThat(r.connectMs()).isNull();
    }

    @Test
    void aResetDuringTheReadIsReset() {
        try (var server = new TestTcpServer(s -> {
            s.getInputStream().read();
            s.setSoLinger(true, 0);
        })) {
            ProbeResult r = run(tcp("127.0.0.1", server.port(), "x", "OK", 2000));
            assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
            assertThat(r.errorKind()).isEqualTo(ErrorKind.RESET);
        }
    }

    @Test
    void aFullAcceptQueueIsAConnectTimeout() throws Exception {
        // A listener that never accepts, with its backlog filled: the kernel drops further SYNs.
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            List<Socket> fillers = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    Socket f = new Socket();
                    try {
                        f.connect(s.getLocalSocketAddress(), 200);
                        fillers.add(f);
                    } catch (java.io.IOException full) {
                        f.close();
                        break;
                    }
                }
                ProbeResult r = run(tcp("127.0.0.1", s.getLocalPort(), null, null, 1000));
                assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
                assertThat(r.errorKind()).isEqualTo(ErrorKind.CONNECT_TIMEOUT);
                assertThat(r.totalMs()).isBetween(900, 5000);
            } finally {
                for (Socket f : fillers) {
                    f.close();
                }
            }
        }
    }

    @Test
    void maxResponseMsAppliesToTheBanner() {
        try (var server = new TestTcpServer(s -> {
            TestTcpServer.sendLater(s, Duration.ofMillis(300), "READY\n");
            TestTcpServer.holdOpen(s);
        })) {
            ProbeResult r = run(tcp("127.0.0.1", server.port(), null, "READY", 3000, 100));
            assertThat(r.outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
            assertThat(r.detail()).contains("more than maxResponseMs 100");
            assertThat(r.responseMs()).isGreaterThanOrEqualTo(250);
        }
    }

    @Test
    void theConnectionIsClosedWhenTheCheckEnds() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        try (var server = new TestTcpServer(s -> {
            if (s.getInputStream().read() == -1) {
                closed.countDown();
            }
        })) {
            ProbeResult r = run(tcp("127.0.0.1", server.port(), null, null, 2000));
            assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aNameIsResolvedOnceAndTheCheckedAddressIsConnected() {
        var lookups = new java.util.concurrent.atomic.AtomicInteger();
        var guard = new TargetGuard(List.of(Cidr.parse("127.0.0.0/8")), host -> {
            lookups.incrementAndGet();
            return host.equals("db.vigil.test")
                    ? reactor.core.publisher.Mono.just(List.of(InetAddress.getLoopbackAddress()))
                    : reactor.core.publisher.Mono.error(new java.net.UnknownHostException(host));
        });
        var p = new TcpProbe(guard, ProbeSettings.of("us-east", "w-1", "0.1.0"));
        try (var server = new TestTcpServer(TestTcpServer::holdOpen)) {
            assertThat(run(p, tcp("db.vigil.test", server.port(), null, null, 2000))
                            .outcome())
                    .isEqualTo(Outcome.SUCCESS);
            assertThat(lookups.get()).isEqualTo(1);
            ProbeResult unknown = run(p, tcp("nowhere.vigil.test", server.port(), null, null, 2000));
            assertThat(unknown.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
            assertThat(unknown.errorKind()).isEqualTo(ErrorKind.DNS);
            assertThat(server.accepted.get()).isEqualTo(1);
        }
    }
}
