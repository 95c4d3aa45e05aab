package dev.vigil.kit.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.core.publisher.Mono;

class TargetGuardTest {
    /** A fake DNS: names resolve to what the table says, nothing touches the network. */
    private static final Map<String, List<String>> DNS = Map.ofEntries(
            Map.entry("example.com", List.of("93.184.216.34")),
            Map.entry("public6.example", List.of("2606:4700:4700::1111")),
            Map.entry("dual.example", List.of("93.184.216.34", "2606:4700:4700::1111")),
            Map.entry("localhost", List.of("127.0.0.1", "::1")),
            Map.entry("internal.example", List.of("10.1.2.3")),
            Map.entry("rebind.example", List.of("93.184.216.34", "192.168.1.1")),
            Map.entry("metadata.example", List.of("169.254.169.254")),
            Map.entry("cgnat.example", List.of("100.64.0.1")),
            Map.entry("ula.example", List.of("fd12:3456::1")),
            Map.entry("mapped.example", List.of("::ffff:7f00:1")),
            Map.entry("allowed-internal.example", List.of("10.20.0.5")));

    private static final AtomicInteger LOOKUPS = new AtomicInteger();

    private static final HostResolver FAKE = host -> {
        LOOKUPS.incrementAndGet();
        List<String> addrs = DNS.get(host);
        if (addrs == null) {
            return Mono.error(new UnknownHostException(host));
        }
        return Mono.fromCallable(() -> addrs.stream().map(TargetGuardTest::addr).toList());
    };

    private final TargetGuard guard = new TargetGuard(List.of(Cidr.parse("10.20.0.0/16")), FAKE);

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            http://example.com/health                    | allowed  |
            https://example.com:8443/x?y=1               | allowed  |
            HTTPS://EXAMPLE.COM/                         | allowed  |
            http://example.com./                         | allowed  |
            http://93.184.216.34/                        | allowed  |
            http://[2606:4700:4700::1111]/               | allowed  |
            http://public6.example/                      | allowed  |
            http://dual.example/                         | allowed  |
            http://8.8.8.8:53/                           | allowed  |
            http://allowed-internal.example/             | allowed  |
            http://10.20.255.254/                        | allowed  |
            http://localhost/                            | refused  | loopback
            http://127.0.0.1/                            | refused  | loopback
            http://127.255.255.254:8080/                 | refused  | loopback
            http://[::1]/                                | refused  | loopback
            http://0.0.0.0/                              | refused  | unspecified
            http://[::]/                                 | refused  | unspecified
            http://0.1.2.3/                              | refused  | reserved
            http://10.0.0.1/                             | refused  | private
            http://172.16.0.1/                           | refused  | private
            http://172.31.255.255/                       | refused  | private
            http://192.168.0.1/                          | refused  | private
            http://internal.example/                     | refused  | private
            http://rebind.example/                       | refused  | private
            http://[fd12:3456::1]/                       | refused  | private
            http://ula.example/                          | refused  | private
            http://[fec0::1]/                            | refused  | private
            http://169.254.169.254/latest/meta-data/     | refused  | link-local
            http://metadata.example/                     | refused  | link-local
            http://[fe80::1]/                            | refused  | link-local
            http://100.64.0.1/                           | refused  | carrier-grade NAT
            http://100.127.255.255/                      | refused  | carrier-grade NAT
            http://cgnat.example/                        | refused  | carrier-grade NAT
            http://224.0.0.1/                            | refused  | multicast
            http://239.255.255.250/                      | refused  | multicast
            http://[ff02::1]/                            | refused  | multicast
            http://255.255.255.255/                      | refused  | broadcast
            http://192.0.2.10/                           | refused  | documentation
            http://198.51.100.7/                         | refused  | documentation
            http://203.0.113.9/                          | refused  | documentation
            http://[2001:db8::1]/                        | refused  | documentation
            http://198.18.0.1/                           | refused  | benchmarking
            http://198.19.255.1/                         | refused  | benchmarking
            http://[2001:2::1]/                          | refused  | benchmarking
            http://240.0.0.1/                            | refused  | reserved
            http://192.0.0.8/                            | refused  | reserved
            http://[::ffff:127.0.0.1]/                   | refused  | IPv4-mapped
            http://[::ffff:8.8.8.8]/                     | refused  | IPv4-mapped
            http://[::ffff:7f00:1]/                      | refused  | IPv4-mapped
            http://mapped.example/                       | refused  | IPv4-mapped
            http://[::127.0.0.1]/                        | refused  | reserved
            http://[64:ff9b::7f00:1]/                    | refused  | IPv6 transition
            http://[2002:7f00:1::1]/                     | refused  | IPv6 transition
            http://[2001:0:4136:e378::1]/                | refused  | IPv6 transition
            http://2130706433/                           | refused  | ambiguous numeric
            http://0x7f000001/                           | refused  | ambiguous numeric
            http://0x7f.0.0.1/                           | refused  | ambiguous numeric
            http://0177.0.0.1/                           | refused  | ambiguous numeric
            http://017700000001/                         | refused  | ambiguous numeric
            http://127.1/                                | refused  | ambiguous numeric
            http://127.0.1/                              | refused  | ambiguous numeric
            http://010.0.0.1/                            | refused  | ambiguous numeric
            http://1.2.3.4.5/                            | refused  | ambiguous numeric
            http://example.0x7f/                         | refused  | ambiguous numeric
            http://user:pass@example.com/                | refused  | credentials
            http://user@example.com/                     | refused  | credentials
            http://example.com@127.0.0.1/                | refused  | credentials
            ftp://example.com/                           | refused  | scheme
            file:///etc/passwd                           | refused  | scheme
            gopher://example.com:70/                     | refused  | scheme
            javascript:alert(1)                          | refused  | scheme
            /relative/path                               | refused  | absolute
            http:///nohost                               | refused  | host
            http://exa mple.com/                         | refused  | valid URL
            http://%31%32%37.0.0.1/                      | refused  | host
            http://[::1%25eth0]/                         | refused  | IPv6
            http://example.com:0/                        | refused  | port
            http://nowhere.example/                      | unresolved | did not resolve
            """)
    void classifiesUrls(String url, String expected, String reasonFragment) {
        Target target = guard.check(url).block(Duration.ofSeconds(5));
        switch (expected) {
            case "allowed" -> assertThat(target).isInstanceOf(Target.Allowed.class);
            case "refused" -> {
                assertThat(target).isInstanceOf(Target.Refused.class);
                assertThat(((Target.Refused) target).reason()).containsIgnoringCase(reasonFragment);
            }
            case "unresolved" -> {
                assertThat(target).isInstanceOf(Target.Unresolved.class);
                assertThat(((Target.Unresolved) target).reason()).contains(reasonFragment);
            }
            default -> throw new IllegalArgumentException(expected);
        }
        // The second check of the same URL (next window) comes from the parse cache and must agree.
        Target again = guard.check(url).block(Duration.ofSeconds(5));
        assertThat(again).isInstanceOf(target.getClass());
        if (target instanceof Target.Allowed first) {
            var second = (Target.Allowed) again;
            assertThat(second.address()).isEqualTo(first.address());
            assertThat(second.uri()).isEqualTo(first.uri());
        }
    }

    @ParameterizedTest(name = "{0}:{1} -> {2}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            example.com          | 5432  | allowed    |
            EXAMPLE.COM.         | 443   | allowed    |
            93.184.216.34        | 25    | allowed    |
            2606:4700:4700::1111 | 853   | allowed    |
            [2606:4700:4700::1111] | 853 | allowed    |
            allowed-internal.example | 6379 | allowed |
            localhost            | 5432  | refused    | loopback
            127.0.0.1            | 5432  | refused    | loopback
            ::1                  | 443   | refused    | loopback
            [::1]                | 443   | refused    | loopback
            169.254.169.254      | 53    | refused    | link-local
            metadata.example     | 80    | refused    | link-local
            ::ffff:127.0.0.1     | 22    | refused    | IPv4-mapped
            2130706433           | 22    | refused    | ambiguous numeric
            0x7f.1               | 22    | refused    | ambiguous numeric
            [::1%25lo]           | 22    | refused    | IPv6
            [::1                 | 22    | refused    | IPv6
            exa_mple..com        | 22    | refused    | not a valid host name
            example.com          | 0     | refused    | port
            example.com          | 70000 | refused    | port
            nowhere.example      | 22    | unresolved | did not resolve
            """)
    void classifiesEndpoints(String host, int port, String expected, String reasonFragment) {
        Target target = guard.checkEndpoint("tcp", host, port).block(Duration.ofSeconds(5));
        switch (expected) {
            case "allowed" -> {
                var a = (Target.Allowed) target;
                assertThat(a.port()).isEqualTo(port);
                assertThat(a.uri().getScheme()).isEqualTo("tcp");
                assertThat(a.socketAddress().isUnresolved()).isFalse();
            }
            case "refused" -> assertThat(((Target.Refused) target).reason()).containsIgnoringCase(reasonFragment);
            case "unresolved" -> assertThat(((Target.Unresolved) target).reason())
                    .contains(reasonFragment);
            default -> throw new IllegalArgumentException(expected);
        }
    }

    @Test
    void anEndpointConnectsToTheCheckedAddressUnderItsName() {
        var a = (Target.Allowed)
                guard.checkEndpoint("tls", "Example.com.", 8443).block();
        assertThat(a.secure()).isTrue();
        assertThat(a.host()).isEqualTo("example.com");
        assertThat(a.socketAddress().getHostString()).isEqualTo("example.com");
        assertThat(a.socketAddress().getAddress().getHostAddress()).isEqualTo("93.184.216.34");
        assertThat(a.uri().toString()).isEqualTo("tls://example.com:8443");
        var v6 = (Target.Allowed)
                guard.checkEndpoint("tcp", "2606:4700:4700::1111", 53).block();
        assertThat(v6.uri().toString()).isEqualTo("tcp://[2606:4700:4700::1111]:53");
        int before = LOOKUPS.get();
        guard.checkEndpoint("dns", "169.254.169.254", 53).block();
        assertThat(LOOKUPS.get()).isEqualTo(before);
    }

    @Test
    void connectsToTheAddressItCheckedWithTheOriginalNameForTls() {
        var allowed = (Target.Allowed)
                guard.check("https://example.com:8443/a/b?c=d#frag").block();
        var sa = allowed.socketAddress();
        assertThat(sa.isUnresolved()).isFalse();
        assertThat(sa.getAddress().getHostAddress()).isEqualTo("93.184.216.34");
        assertThat(sa.getHostString()).isEqualTo("example.com");
        assertThat(sa.getPort()).isEqualTo(8443);
        assertThat(allowed.hostHeader()).isEqualTo("example.com:8443");
        assertThat(allowed.pathAndQuery()).isEqualTo("/a/b?c=d");
        assertThat(allowed.uri().getFragment()).isNull();
    }

    @Test
    void literalAddressesAreNotLookedUp() {
        int before = LOOKUPS.get();
        guard.check("http://93.184.216.34/").block();
        guard.check("http://[::1]/").block();
        guard.check("http://2130706433/").block();
        assertThat(LOOKUPS.get()).isEqualTo(before);
    }

    @Test
    void allowListOpensInternalRangesExplicitly() {
        var open = new TargetGuard(List.of(Cidr.parse("127.0.0.0/8"), Cidr.parse("::1/128")), FAKE);
        assertThat(open.check("http://127.0.0.1:9000/").block()).isInstanceOf(Target.Allowed.class);
        assertThat(open.check("http://localhost/").block()).isInstanceOf(Target.Allowed.class);
        // The allow-list does not reopen the numeric tricks or mapped forms of an allowed range.
        assertThat(open.check("http://127.1/").block()).isInstanceOf(Target.Refused.class);
        assertThat(open.check("http://[::ffff:127.0.0.1]/").block()).isInstanceOf(Target.Refused.class);
        assertThat(open.check("http://10.0.0.1/").block()).isInstanceOf(Target.Refused.class);
    }

    @Test
    void cidrParsingNamesTheProblem() {
        assertThatThrownBy(() -> Cidr.parse("10.1.2.3/8")).hasMessageContaining("did you mean 10.0.0.0/8");
        assertThatThrownBy(() -> Cidr.parse("10.0.0.0/33")).hasMessageContaining("prefix length");
        assertThatThrownBy(() -> Cidr.parse("intranet/8")).hasMessageContaining("not a CIDR block");
        assertThat(Cidr.parse("fd00::/8").contains(addr("fd12::1"))).isTrue();
        assertThat(Cidr.parse("0.0.0.0/0").contains(addr("8.8.8.8"))).isTrue();
        assertThat(Cidr.parse("0.0.0.0/0").contains(addr("::1"))).isFalse();
    }

    private static InetAddress addr(String literal) {
        try {
            byte[] b = Cidr.literal(literal);
            return b.length == 16 ? java.net.Inet6Address.getByAddress(null, b, -1) : InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
