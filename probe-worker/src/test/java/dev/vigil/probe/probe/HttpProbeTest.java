package dev.vigil.probe.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.net.Cidr;
import dev.vigil.kit.net.HostResolver;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class HttpProbeTest {
    private static final long WINDOW = 1_700_000_000_000L;
    private static TestTargets targets;
    private static TestCertificates certs;
    private static final TargetGuard LOCAL_ALLOWED =
            new TargetGuard(List.of(Cidr.parse("127.0.0.0/8")), HostResolver.system());
    private static HttpProbe probe;

    @BeforeAll
    static void start() throws Exception {
        targets = TestTargets.plain();
        certs = TestCertificates.generate(Path.of(
                System.getProperty("java.io.tmpdir"),
                "vigil-probe-test-certs-" + ProcessHandle.current().pid()));
        probe = new HttpProbe(LOCAL_ALLOWED, ProbeSettings.of("us-east", "w-1", "0.1.0"));
    }

    @AfterAll
    static void stop() {
        targets.close();
    }

    static MonitorDefinition monitor(String url, int timeoutMs) {
        return new MonitorDefinition(
                1, "api", null, url, null, 10, timeoutMs, List.of("us-east"), null, null, null, null, null, null, null);
    }

    static MonitorDefinition healthMonitor(String url, int timeoutMs) {
        var expect = new MonitorDefinition.Expect(null, MonitorDefinition.JsonAssertion.HEALTH, null, null);
        return new MonitorDefinition(
                1,
                "api",
                null,
                url,
                null,
                10,
                timeoutMs,
                List.of("us-east"),
                expect,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    private static ProbeResult run(HttpProbe p, MonitorDefinition m) {
        return p.probe(m, WINDOW).block(Duration.ofSeconds(15));
    }

    @Test
    void healthyJsonEndpointSucceedsAndIdentifiesItself() {
        ProbeResult r = run(probe, healthMonitor(targets.url("/ok"), 2000));
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.errorKind()).isNull();
        assertThat(r.httpStatus()).isEqualTo(200);
        assertThat(r.bytesRead()).isEqualTo("{\"status\":\"ok\",\"version\":\"1.2.3\"}".length());
        assertThat(r.windowStart()).isEqualTo(WINDOW);
        assertThat(r.region()).isEqualTo("us-east");
        assertThat(r.workerId()).isEqualTo("w-1");
        assertThat(r.finalUrl()).isEqualTo(targets.url("/ok"));
        assertThat(r.responseMs()).isNotNull();
        assertThat(r.totalMs()).isGreaterThanOrEqualTo(r.responseMs());
        assertThat(r.connectMs()).isNotNull();
        assertThat(r.dnsMs()).isZero();
        assertThat(r.tlsMs()).isNull();
        assertThat(r.tlsDaysLeft()).isNull();
        assertThat(dev.vigil.schemas.validate.PrivacyGuard.inspect(r)).isEmpty();
        var headers = targets.requestHeaders.get("/ok");
        assertThat(headers)
                .containsEntry("user-agent", "Vigil/0.1.0")
                .containsEntry("x-vigil-monitor", "api")
                .containsEntry("x-vigil-region", "us-east")
                .containsEntry("host", "127.0.0.1:" + targets.port())
                .containsEntry("x-vigil-request-id", r.requestId())
                .doesNotContainKeys("cookie", "authorization");
    }

    @Test
    void jsonStatusDownIsAnAssertionFailure() {
        ProbeResult r = run(probe, healthMonitor(targets.url("/down"), 2000));
        assertThat(r.outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
        assertThat(r.httpStatus()).isEqualTo(200);
        assertThat(r.detail()).contains("/status").doesNotContain("down");
    }

    @Test
    void serverErrorIsAnHttpFailure() {
        ProbeResult r = run(probe, monitor(targets.url("/error"), 2000));
        assertThat(r.outcome()).isEqualTo(Outcome.HTTP_FAILURE);
        assertThat(r.httpStatus()).isEqualTo(500);
        assertThat(r.errorKind()).isNull();
    }

    @Test
    void slowTargetTimesOutAtTheDeadlineAndTheConnectionIsClosed() throws Exception {
        ProbeResult r = run(probe, monitor(targets.url("/slow"), 1000));
        assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
        assertThat(r.errorKind()).isEqualTo(ErrorKind.TIMEOUT);
        assertThat(r.httpStatus()).isNull();
        // The probe ended at its deadline, not when the target (20 s) answered: the server saw the close first.
        assertThat(r.totalMs()).isGreaterThanOrEqualTo(1000).isLessThan(10_000);
        assertThat(targets.slowConnectionClosed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(targets.slowResponsesSent.get()).isZero();
    }

    @Test
    void followsFiveRedirectsWithoutForwardingCookies() {
        ProbeResult r = run(probe, monitor(targets.url("/redirect/5"), 3000));
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.redirects()).isEqualTo(5);
        assertThat(r.httpStatus()).isEqualTo(200);
        assertThat(r.finalUrl()).isEqualTo(targets.url("/redirect/0")).doesNotContain("token");
        assertThat(targets.requestHeaders.get("/redirect/0")).doesNotContainKeys("cookie", "authorization");
    }

    @Test
    void sixRedirectsHitTheLimit() {
        ProbeResult r = run(probe, monitor(targets.url("/redirect/6"), 3000));
        assertThat(r.outcome()).isEqualTo(Outcome.HTTP_FAILURE);
        assertThat(r.errorKind()).isEqualTo(ErrorKind.REDIRECT_LIMIT);
        assertThat(r.redirects()).isEqualTo(5);
        assertThat(r.httpStatus()).isEqualTo(302);
    }

    @Test
    void redirectToAPrivateAddressIsBlocked() {
        ProbeResult r = run(probe, monitor(targets.url("/to-private"), 2000));
        assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
        assertThat(r.errorKind()).isEqualTo(ErrorKind.BLOCKED_TARGET);
        assertThat(r.detail()).contains("private");
        assertThat(r.finalUrl()).isEqualTo("http://10.0.0.1/admin");
    }

    @Test
    void firstHopToABlockedTargetNeverConnects() {
        var strict = new HttpProbe(
                new TargetGuard(List.of(), HostResolver.system()), ProbeSettings.of("us-east", "w-1", "0.1.0"));
        ProbeResult r = run(strict, monitor(targets.url("/ok"), 2000));
        assertThat(r.errorKind()).isEqualTo(ErrorKind.BLOCKED_TARGET);
        assertThat(r.connectMs()).isNull();
    }

    /** A resolver that knows names real DNS does not: any second lookup elsewhere would fail. */
    private static TargetGuard fakeDns(java.util.concurrent.atomic.AtomicInteger lookups, String name) {
        return new TargetGuard(List.of(Cidr.parse("127.0.0.0/8")), host -> {
            lookups.incrementAndGet();
            return host.equals(name)
                    ? reactor.core.publisher.Mono.just(List.of(java.net.InetAddress.getLoopbackAddress()))
                    : reactor.core.publisher.Mono.error(new java.net.UnknownHostException(host));
        });
    }

    @Test
    void connectsToTheCheckedAddressWithoutASecondLookup() {
        var lookups = new java.util.concurrent.atomic.AtomicInteger();
        var p = new HttpProbe(fakeDns(lookups, "rebind.vigil.test"), ProbeSettings.of("us-east", "w-1", "0.1.0"));
        ProbeResult r = run(p, healthMonitor("http://rebind.vigil.test:" + targets.port() + "/ok", 2000));
        assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
        assertThat(lookups.get()).isEqualTo(1);
        assertThat(targets.requestHeaders.get("/ok")).containsEntry("host", "rebind.vigil.test:" + targets.port());
    }

    @Test
    void tlsVerifiesTheOriginalHostNameNotTheAddress() throws Exception {
        try (TestTargets tls = TestTargets.secure(certs.caSigned)) {
            var lookups = new java.util.concurrent.atomic.AtomicInteger();
            var p = new HttpProbe(
                    fakeDns(lookups, "other.vigil.test"),
                    ProbeSettings.of("us-east", "w-1", "0.1.0").withTrust(certs.caTrust));
            // The certificate is for localhost/127.0.0.1, the URL names another host on the same address.
            ProbeResult r = run(p, monitor("https://other.vigil.test:" + tls.port() + "/ok", 3000));
            assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
            assertThat(r.errorKind()).isEqualTo(ErrorKind.TLS);
        }
    }

    @Test
    void bigBodyIsCappedAndTheConnectionCancelled() throws Exception {
        ProbeResult r = run(probe, monitor(targets.url("/big"), 5000));
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.bytesRead()).isEqualTo(65_536L);
        assertThat(targets.bigConnectionClosed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(targets.bigBytesSent.get()).isLessThan(TestTargets.BIG_BODY_BYTES);
    }

    @Test
    void connectionRefused() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        ProbeResult r = run(probe, monitor("http://127.0.0.1:" + port + "/", 2000));
        assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
        assertThat(r.errorKind()).isEqualTo(ErrorKind.CONNECT_REFUSED);
    }

    @Test
    void selfSignedHttpsIsATlsFailure() throws Exception {
        try (TestTargets tls = TestTargets.secure(certs.selfSigned)) {
            var trustingCa = new HttpProbe(
                    LOCAL_ALLOWED, ProbeSettings.of("us-east", "w-1", "0.1.0").withTrust(certs.caTrust));
            ProbeResult r = run(trustingCa, monitor(tls.httpsUrl("/ok"), 3000));
            assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
            assertThat(r.errorKind()).isEqualTo(ErrorKind.TLS);
            ProbeResult defaultTrust = run(probe, monitor(tls.httpsUrl("/ok"), 3000));
            assertThat(defaultTrust.errorKind()).isEqualTo(ErrorKind.TLS);
        }
    }

    @Test
    void aConfiguredCaFileIsTrustedNextToTheJdkCas() throws Exception {
        Path pem = Path.of(
                System.getProperty("java.io.tmpdir"),
                "vigil-probe-test-certs-" + ProcessHandle.current().pid(),
                "ca.crt");
        var tmf = TrustStores.jdkPlus(pem);
        var issuers = ((javax.net.ssl.X509TrustManager) tmf.getTrustManagers()[0]).getAcceptedIssuers();
        assertThat(issuers.length).isGreaterThan(1);
        try (TestTargets tls = TestTargets.secure(certs.caSigned)) {
            var p = new HttpProbe(
                    LOCAL_ALLOWED, ProbeSettings.of("us-east", "w-1", "0.1.0").withTrust(tmf));
            assertThat(run(p, monitor(tls.httpsUrl("/ok"), 3000)).outcome()).isEqualTo(Outcome.SUCCESS);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TrustStores.jdkPlus(Path.of("/nonexistent/ca.pem")))
                .hasMessageContaining("trustedCaFile");
    }

    @Test
    void httpsWithATrustedCaReportsTlsDaysLeft() throws Exception {
        try (TestTargets tls = TestTargets.secure(certs.caSigned)) {
            var trustingCa = new HttpProbe(
                    LOCAL_ALLOWED, ProbeSettings.of("us-east", "w-1", "0.1.0").withTrust(certs.caTrust));
            ProbeResult r = run(trustingCa, monitor(tls.httpsUrl("/ok"), 3000));
            assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
            assertThat(r.tlsDaysLeft()).isBetween(TestCertificates.VALIDITY_DAYS - 2, TestCertificates.VALIDITY_DAYS);
            assertThat(r.tlsMs()).isNotNull();
            assertThat(r.connectMs()).isNotNull();
            assertThat(r.finalUrl()).startsWith("https://127.0.0.1:");
        }
    }
}
