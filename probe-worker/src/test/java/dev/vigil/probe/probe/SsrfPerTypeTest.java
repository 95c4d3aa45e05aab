package dev.vigil.probe.probe;

import static dev.vigil.probe.probe.Monitors.WINDOW;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.net.Cidr;
import dev.vigil.kit.net.HostResolver;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.core.publisher.Mono;

/**
 * The SSRF guard covers every address a check connects to, whatever its type: with the production guard (no
 * allow-list) internal addresses are {@code blocked_target} before any packet, and even a loopback allow-list does
 * not open IPv6 loopback, mapped forms or numeric tricks.
 */
class SsrfPerTypeTest {
    /** Names that resolve to internal addresses, to show the check is on the resolved address, not the name. */
    private static final HostResolver INTERNAL_NAMES = host -> switch (host) {
        case "metadata.vigil.test" -> Mono.just(List.of(addr("169.254.169.254")));
        case "db.vigil.test" -> Mono.just(List.of(addr("10.0.0.5")));
        default -> Mono.error(new UnknownHostException(host));
    };

    private static final ProbeSettings SETTINGS = ProbeSettings.of("us-east", "w-1", "0.1.0");
    private static final TargetGuard NO_ALLOW_LIST = new TargetGuard(List.of(), INTERNAL_NAMES);
    private static final TargetGuard LOOPBACK_V4_ALLOWED =
            new TargetGuard(List.of(Cidr.parse("127.0.0.0/8")), INTERNAL_NAMES);

    private static InetAddress addr(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static MonitorDefinition monitor(String type, String host, int port) {
        return switch (type) {
            case "tcp" -> Monitors.tcp(host, port, null, null, 2000);
            case "tls" -> Monitors.tls(host, port, 2000, null);
            case "dns" -> Monitors.dns(
                    "example.com",
                    "A",
                    host.indexOf(':') >= 0 && !host.startsWith("[") ? host : host + ":" + port,
                    List.of(),
                    2000);
            default -> throw new IllegalArgumentException(type);
        };
    }

    private static Probe probe(String type, TargetGuard guard) {
        return switch (type) {
            case "tcp" -> new TcpProbe(guard, SETTINGS);
            case "tls" -> new TlsProbe(guard, SETTINGS);
            case "dns" -> new DnsProbe(guard, SETTINGS, List::of);
            default -> throw new IllegalArgumentException(type);
        };
    }

    @ParameterizedTest(name = "{0} {1}:{2} -> {3}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            tcp | 127.0.0.1            | 5432 | loopback
            dns | 169.254.169.254      | 53   | link-local
            tls | [::1]                | 443  | loopback
            tcp | 10.0.0.5             | 6379 | private
            tcp | db.vigil.test        | 6379 | private
            tls | metadata.vigil.test  | 443  | link-local
            tls | ::1                  | 443  | loopback
            dns | [fd00::53]           | 53   | private
            dns | 100.64.0.53          | 53   | carrier-grade NAT
            tcp | ::ffff:127.0.0.1     | 22   | IPv4-mapped
            tcp | 2130706433           | 22   | ambiguous numeric
            tls | 0x7f.1               | 443  | ambiguous numeric
            tcp | 0.0.0.0              | 22   | unspecified
            """)
    void internalTargetsAreBlockedForEveryType(String type, String host, int port, String reason) {
        ProbeResult r = probe(type, NO_ALLOW_LIST)
                .probe(monitor(type, host, port), WINDOW)
                .block(Duration.ofSeconds(10));
        assertThat(r.outcome()).isEqualTo(Outcome.NETWORK_FAILURE);
        assertThat(r.errorKind()).isEqualTo(ErrorKind.BLOCKED_TARGET);
        assertThat(r.detail()).contains(reason);
        assertThat(r.connectMs()).isNull();
        assertThat(r.totalMs()).isLessThan(1000);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            tcp | [::1]
            tls | ::ffff:127.0.0.1
            dns | [::1]
            tcp | 127.1
            tls | 169.254.169.254
            """)
    void aLoopbackAllowListOpensNothingElse(String type, String host) {
        ProbeResult r = probe(type, LOOPBACK_V4_ALLOWED)
                .probe(monitor(type, host, 53), WINDOW)
                .block(Duration.ofSeconds(10));
        assertThat(r.errorKind()).isEqualTo(ErrorKind.BLOCKED_TARGET);
    }
}
