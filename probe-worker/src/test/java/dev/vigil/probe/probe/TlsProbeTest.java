package dev.vigil.probe.probe;

import static dev.vigil.probe.probe.Monitors.WINDOW;
import static dev.vigil.probe.probe.Monitors.tls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.kit.net.Cidr;
import dev.vigil.kit.net.HostResolver;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class TlsProbeTest {
    private static TestCertificates certs;
    /** localhost and other.vigil.test name the loopback address; nothing else resolves. */
    private static final HostResolver NAMES =
            host -> Set.of("localhost", "other.vigil.test").contains(host)
                    ? Mono.just(List.of(InetAddress.getLoopbackAddress()))
                    : Mono.error(new UnknownHostException(host));

    private static final TargetGuard LOOPBACK_ALLOWED = new TargetGuard(List.of(Cidr.parse("127.0.0.0/8")), NAMES);
    private static TlsProbe trustingCa;

    @BeforeAll
    static void certificates() throws Exception {
        certs = TestCertificates.generate(Path.of(
                System.getProperty("java.io.tmpdir"),
                "vigil-tls-probe-test-certs-" + ProcessHandle.current().pid()));
        trustingCa = new TlsProbe(
                LOOPBACK_ALLOWED, ProbeSettings.of("us-east", "w-1", "0.1.0").withTrust(certs.caTrust));
    }

    private static ProbeResult run(TlsProbe p, MonitorDefinition m) {
        return p.probe(m, WINDOW).block(Duration.ofSeconds(15));
    }

    @Test
    void aValidCertificateIsASuccessWithDaysLeftAndTimingsAndSniIsTheHost() throws Exception {
        try (var server = new TestTlsServer(certs.caSigned)) {
            ProbeResult r = run(trustingCa, tls("localhost", server.port(), 3000, null));
            assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
            assertThat(r.checkType()).isEqualTo(CheckType.TLS);
            assertThat(r.tlsDaysLeft()).isBetween(TestCertificates.VALIDITY_DAYS - 2, TestCertificates.VALIDITY_DAYS);
            assertThat(r.tlsMs()).isNotNull();
            assertThat(r.connectMs()).isNotNull();
            assertThat(r.responseMs()).isGreaterThanOrEqualTo(r.tlsMs());
            assertThat(r.httpStatus()).isNull();
            await().atMost(Duration.ofSeconds(5)).until(() -> server.connections.get() == 1);
            assertThat(server.serverNames).containsExactly("localhost");
        }
    }

    @Test
    void fewerDaysLeftThanTheWarningStaysASuccessTheTopologyWarns() throws Exception {
        try (var server = new TestTlsServer(certs.caSigned)) {
            ProbeResult r = run(trustingCa, tls("localhost", server.port(), 3000, 60));
            assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(r.tlsDaysLeft()).isLessThan(60);
        }
    }

    @Test
    void anIpLiteralIsVerifiedAgainstTheAddressWithoutSni() throws Exception {
        try (var server = new TestTlsServer(certs.caSigned)) {
            ProbeResult r = run(trustingCa, tls("127.0.0.1", server.port(), 3000, null));
            assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
            await().atMost(Duration.ofSeconds(5)).until(() -> server.connections.get() == 1);
            assertThat(server.serverNames).isEmpty();
        }
    }

    @Test
    void anExpiredCertificateIsATlsFailureThatStillReportsItsDays() throws Exception {
        try (var server = new TestTlsServer(certs.expired)) {
            ProbeResult r = run(trustingCa, tls("localhost", server.port(), 3000, null));
            assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
            assertThat(r.errorKind()).isEqualTo(ErrorKind.TLS);
            assertThat(r.detail()).isEqualTo("certificate expired");
            assertThat(r.tlsDaysLeft())
                    .isBetween(-TestCertificates.EXPIRED_DAYS_AGO - 1, -TestCertificates.EXPIRED_DAYS_AGO + 1);
        }
    }

    @Test
    void aCertificateForAnotherNameIsAHostnameMismatch() throws Exception {
        try (var server = new TestTlsServer(certs.caSigned)) {
            ProbeResult r = run(trustingCa, tls("other.vigil.test", server.port(), 3000, null));
            assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
            assertThat(r.errorKind()).isEqualTo(ErrorKind.TLS);
            assertThat(r.detail()).startsWith("hostname mismatch");
            assertThat(r.tlsDaysLeft()).isNull();
        }
    }

    @Test
    void aSelfSignedCertificateIsAnUntrustedChain() throws Exception {
        try (var server = new TestTlsServer(certs.selfSigned)) {
            ProbeResult r = run(trustingCa, tls("localhost", server.port(), 3000, null));
            assertThat(r.errorKind()).isEqualTo(ErrorKind.TLS);
            assertThat(r.detail()).startsWith("untrusted chain");
            assertThat(r.tlsDaysLeft()).isNull();
        }
    }

    @Test
    void theJdkTrustAloneDoesNotTrustTheTestCa() throws Exception {
        var jdkOnly = new TlsProbe(LOOPBACK_ALLOWED, ProbeSettings.of("us-east", "w-1", "0.1.0"));
        try (var server = new TestTlsServer(certs.caSigned)) {
            ProbeResult r = run(jdkOnly, tls("localhost", server.port(), 3000, null));
            assertThat(r.errorKind()).isEqualTo(ErrorKind.TLS);
            assertThat(r.detail()).startsWith("untrusted chain");
        }
    }

    @Test
    void aServerThatDoesNotSpeakTlsIsATlsFailure() {
        try (var server = new TestTcpServer(s -> {
            s.getOutputStream()
                    .write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().flush();
            TestTcpServer.holdOpen(s);
        })) {
            ProbeResult r = run(trustingCa, tls("localhost", server.port(), 3000, null));
            assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
            assertThat(r.errorKind()).isEqualTo(ErrorKind.TLS);
            assertThat(r.detail()).contains("TLS");
        }
    }

    @Test
    void aServerThatNeverAnswersTheHandshakeTimesOut() {
        try (var server = new TestTcpServer(TestTcpServer::holdOpen)) {
            ProbeResult r = run(trustingCa, tls("localhost", server.port(), 1000, null));
            assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
            assertThat(r.errorKind()).isEqualTo(ErrorKind.TIMEOUT);
            assertThat(r.detail()).contains("handshake");
            assertThat(r.connectMs()).isNotNull();
            assertThat(r.totalMs()).isBetween(1000, 5000);
        }
    }

    @Test
    void aClosedPortIsConnectRefused() throws Exception {
        int port;
        try (var s = new java.net.ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        ProbeResult r = run(trustingCa, tls("localhost", port, 2000, null));
        assertThat(r.errorKind()).isEqualTo(ErrorKind.CONNECT_REFUSED);
    }

    @Test
    void anUnknownNameIsDns() {
        ProbeResult r = run(trustingCa, tls("nowhere.vigil.test", 443, 2000, null));
        assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
        assertThat(r.errorKind()).isEqualTo(ErrorKind.DNS);
    }
}
