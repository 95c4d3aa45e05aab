package dev.vigil.probe.probe;

import static dev.vigil.probe.probe.Monitors.WINDOW;
import static dev.vigil.probe.probe.Monitors.dns;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.net.Cidr;
import dev.vigil.kit.net.HostResolver;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.validate.PrivacyGuard;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DnsProbeTest {
    private static final TargetGuard LOOPBACK_ALLOWED =
            new TargetGuard(List.of(Cidr.parse("127.0.0.0/8")), HostResolver.system());
    private static final TargetGuard STRICT = new TargetGuard(List.of(), HostResolver.system());
    private static TestDnsServer server;
    private static DnsProbe probe;

    @BeforeAll
    static void start() {
        server = new TestDnsServer();
        probe = new DnsProbe(LOOPBACK_ALLOWED, ProbeSettings.of("us-east", "w-1", "0.1.0"), List::of);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static ProbeResult run(DnsProbe p, MonitorDefinition m) {
        return p.probe(m, WINDOW).block(Duration.ofSeconds(15));
    }

    private static ProbeResult run(String query, String type, List<String> expect) {
        return run(probe, dns(query, type, server.resolver(), expect, 2000));
    }

    @Test
    void anARecordIsASuccessWithItsAnswersAndTheResolutionTime() {
        ProbeResult r = run("api.vigil.test", "A", List.of());
        assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.checkType()).isEqualTo(CheckType.DNS);
        assertThat(r.dnsAnswers()).containsExactly("93.184.216.34", "93.184.216.35");
        assertThat(r.responseMs()).isNotNull().isEqualTo(r.dnsMs()).isLessThanOrEqualTo(r.totalMs());
        assertThat(r.httpStatus()).isNull();
        assertThat(server.questions).contains("A api.vigil.test.");
    }

    @ParameterizedTest(name = "{1} {0} expects {2}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            api.vigil.test   | A     | 93.184.216.35
            v6.vigil.test    | AAAA  | 2606:4700::1111
            v6.vigil.test    | AAAA  | 2606:4700:0000:0:0:0:0:1111
            vigil.test       | MX    | MX1.Vigil.Test.
            vigil.test       | MX    | mx2.vigil.test
            vigil.test       | TXT   | V=SPF1 include:_spf.vigil.test -all
            vigil.test       | NS    | ns1.vigil.test.
            www.vigil.test   | CNAME | api.vigil.test
            www.vigil.test   | A     | 93.184.216.34
            """)
    void expectedValuesAreComparedCaseInsensitivelyWithoutTheTrailingDot(String query, String type, String expected) {
        ProbeResult r = run(query, type, List.of(expected));
        assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.dnsAnswers()).isNotEmpty();
    }

    @Test
    void answersAreShownAsPeopleWriteThem() {
        assertThat(run("vigil.test", "MX", List.of()).dnsAnswers())
                .containsExactly("10 mx1.vigil.test", "20 mx2.vigil.test");
        assertThat(run("vigil.test", "TXT", List.of()).dnsAnswers())
                .containsExactly("v=spf1 include:_spf.vigil.test -all");
        assertThat(run("v6.vigil.test", "AAAA", List.of()).dnsAnswers()).containsExactly("2606:4700::1111");
        assertThat(run("www.vigil.test", "CNAME", List.of()).dnsAnswers()).containsExactly("api.vigil.test");
    }

    @Test
    void everyExpectedValueMustBePresent() {
        ProbeResult r = run("api.vigil.test", "A", List.of("93.184.216.34", "93.184.216.99"));
        assertThat(r.outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
        assertThat(r.errorKind()).isNull();
        assertThat(r.detail()).isEqualTo("the A answer lacks the expected value 93.184.216.99");
        assertThat(r.dnsAnswers()).containsExactly("93.184.216.34", "93.184.216.35");
    }

    @Test
    void nxdomainIsAnAssertionFailure() {
        ProbeResult r = run("missing.vigil.test", "A", List.of());
        assertThat(r.outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
        assertThat(r.errorKind()).isNull();
        assertThat(r.detail()).isEqualTo("NXDOMAIN: missing.vigil.test does not exist");
        assertThat(r.dnsAnswers()).isEmpty();
        assertThat(r.responseMs()).isNotNull();
    }

    @Test
    void anEmptyAnswerWithoutExpectIsAnAssertionFailure() {
        ProbeResult r = run("v6.vigil.test", "A", List.of());
        assertThat(r.outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
        assertThat(r.detail()).isEqualTo("no A records for v6.vigil.test (the name exists)");
        assertThat(run("empty.vigil.test", "TXT", List.of()).outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
    }

    @Test
    void servfailIsANetworkFailureOfKindDns() {
        ProbeResult r = run("broken.vigil.test", "A", List.of());
        assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
        assertThat(r.errorKind()).isEqualTo(ErrorKind.DNS);
        assertThat(r.detail()).isEqualTo("the resolver answered SERVFAIL for broken.vigil.test");
    }

    @Test
    void noAnswerWithinTheDeadlineIsATimeout() {
        ProbeResult r = run(probe, dns("silent.vigil.test", "A", server.resolver(), List.of(), 1000));
        assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
        assertThat(r.errorKind()).isEqualTo(ErrorKind.TIMEOUT);
        assertThat(r.detail()).isEqualTo("no DNS answer within timeoutMs 1000");
        assertThat(r.totalMs()).isBetween(1000, 5000);
    }

    @Test
    void aResolverPortWithNobodyListeningIsConnectRefused() throws Exception {
        int port;
        try (var s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            port = s.getLocalPort();
        }
        ProbeResult r = run(probe, dns("api.vigil.test", "A", "127.0.0.1:" + port, List.of(), 1000));
        assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
        // Loopback answers a datagram to a closed port with ICMP port unreachable.
        assertThat(r.errorKind()).as(r.detail()).isEqualTo(ErrorKind.CONNECT_REFUSED);
        assertThat(r.detail()).contains("port unreachable");
    }

    @Test
    void answersAreBoundedInNumberAndLength() {
        ProbeResult many = run("many.vigil.test", "A", List.of("93.184.217.20"));
        assertThat(many.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(many.dnsAnswers()).hasSize(DnsProbe.MAX_ANSWERS);
        ProbeResult long_ = run("long.vigil.test", "TXT", List.of());
        assertThat(long_.dnsAnswers()).singleElement().satisfies(a -> {
            assertThat(a).hasSize(DnsProbe.MAX_ANSWER_CHARS).endsWith("...");
        });
    }

    @Test
    void anAnswerCarryingPersonalDataIsWithheld() {
        ProbeResult r = run("_dmarc.vigil.test", "TXT", List.of());
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.dnsAnswers()).containsExactly("withheld: it would carry personal data");
        r.dnsAnswers()
                .forEach(a -> assertThat(PrivacyGuard.check("dnsAnswers", a)).isEmpty());
    }

    @Test
    void theWorkersOwnResolversAreUsedWithoutTheGuardButInternalAddressesAreWithheld() {
        var system = new DnsProbe(STRICT, ProbeSettings.of("us-east", "w-1", "0.1.0"), () -> List.of(server.address()));
        ProbeResult r = run(system, dns("internal.vigil.test", "A", null, List.of("10.1.2.3"), 2000));
        assertThat(r.outcome()).as(String.valueOf(r.detail())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.dnsAnswers()).containsExactly("withheld: private address", "93.184.216.36");
        // Through a resolver the monitor names, the answer is the resolver's to give.
        ProbeResult named = run(probe, dns("internal.vigil.test", "A", server.resolver(), List.of(), 2000));
        assertThat(named.dnsAnswers()).containsExactly("10.1.2.3", "93.184.216.36");
    }

    @Test
    void aWorkerWithoutResolversDoesNotProbeDnsMonitorsThatNameNone() {
        ProbeResult r = probe.probe(dns("api.vigil.test", "A", null, List.of(), 2000), WINDOW)
                .block(Duration.ofSeconds(5));
        assertThat(r).isNull();
    }

    @Test
    void aResolverInABlockedRangeIsRefusedBeforeAnyPacket() {
        var strict = new DnsProbe(STRICT, ProbeSettings.of("us-east", "w-1", "0.1.0"), List::of);
        int before = server.queries.get();
        ProbeResult r = run(strict, dns("api.vigil.test", "A", server.resolver(), List.of(), 2000));
        assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
        assertThat(r.errorKind()).isEqualTo(ErrorKind.BLOCKED_TARGET);
        assertThat(r.detail()).contains("resolver refused").contains("loopback");
        assertThat(server.queries.get()).isEqualTo(before);
    }

    @Test
    void resolverAddressesParse() {
        assertThat(DnsProbe.ResolverAddress.parse("9.9.9.9")).isEqualTo(new DnsProbe.ResolverAddress("9.9.9.9", 53));
        assertThat(DnsProbe.ResolverAddress.parse("9.9.9.9:5353"))
                .isEqualTo(new DnsProbe.ResolverAddress("9.9.9.9", 5353));
        assertThat(DnsProbe.ResolverAddress.parse("[2620:fe::fe]:54"))
                .isEqualTo(new DnsProbe.ResolverAddress("[2620:fe::fe]", 54));
        assertThat(DnsProbe.ResolverAddress.parse("[2620:fe::fe]"))
                .isEqualTo(new DnsProbe.ResolverAddress("[2620:fe::fe]", 53));
        assertThat(DnsProbe.ResolverAddress.parse("2620:fe::fe"))
                .isEqualTo(new DnsProbe.ResolverAddress("2620:fe::fe", 53));
    }

    @Test
    void ipv6AnswersAreWrittenInTheirShortForm() throws Exception {
        assertThat(DnsProbe.ipv6(InetAddress.getByName("2001:db8:0:0:1:0:0:1").getAddress()))
                .isEqualTo("2001:db8::1:0:0:1");
        assertThat(DnsProbe.ipv6(InetAddress.getByName("::1").getAddress())).isEqualTo("::1");
        assertThat(DnsProbe.ipv6(InetAddress.getByName("fe80::").getAddress())).isEqualTo("fe80::");
        assertThat(DnsProbe.ipv6(InetAddress.getByName("2001:db8:1:2:3:4:5:6").getAddress()))
                .isEqualTo("2001:db8:1:2:3:4:5:6");
        assertThat(DnsProbe.ipv6(InetAddress.getByName("2001:0:0:1:0:0:0:1").getAddress()))
                .isEqualTo("2001:0:0:1::1");
    }
}
