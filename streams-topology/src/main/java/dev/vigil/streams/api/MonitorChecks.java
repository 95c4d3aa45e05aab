package dev.vigil.streams.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.net.Cidr;
import dev.vigil.kit.net.HostResolver;
import dev.vigil.kit.net.Target;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.HeaderValue;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.streams.rules.AlertLinks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import reactor.core.publisher.Mono;

/**
 * What the management API checks of a monitor before it publishes it, beyond the contract's own rules:
 * <ul>
 *   <li><b>the body</b>, read strictly ({@link RequestBodies#contract}): an unknown member is an error;</li>
 *   <li><b>credentials by reference</b>: a header that carries a credential by its name ({@code Authorization},
 *       {@code Cookie}, {@code X-Api-Key}, anything naming a token, secret, password, key or session) must be a
 *       {@code secretEnv} reference, never a value written into the monitor, which every reader of the topic, of
 *       the API and of an export would see;</li>
 *   <li><b>links of their own</b>: a link may not take the name of one the console's pages carry ({@code incident},
 *       {@code monitor}, …);</li>
 *   <li><b>regions</b>: a probed monitor names only regions a probe worker has served ({@link RegionCheck}), unless
 *       the request names the region as being rolled out;</li>
 *   <li><b>the target</b>, judged as the probe workers will judge it ({@link TargetGuard} with their allow-list): a
 *       target they would refuse (loopback, private, link-local, metadata addresses…) is refused now rather than
 *       failing every window; a name that does not resolve (yet) is accepted with a warning.</li>
 * </ul>
 */
public final class MonitorChecks {
    /** Header names that carry a credential whatever their value: only a {@code secretEnv} reference is accepted. */
    static final Set<String> CREDENTIAL_HEADERS =
            Set.of("authorization", "proxy-authorization", "cookie", "x-api-key", "api-key", "x-auth-token");

    private static final List<String> CREDENTIAL_WORDS =
            List.of("token", "secret", "password", "passwd", "apikey", "api-key", "api_key", "session", "auth");

    /** What the API shows with a monitor that is not part of it: tolerated, and dropped, on the way back in. */
    static final List<String> SHOWN_ONLY = List.of("revision", "checksPerDay", "heartbeat.hasToken");

    private final TargetGuard guard;
    private final Duration resolveTimeout;

    public MonitorChecks(List<String> probeAllowList, Duration resolveTimeout) {
        this(new TargetGuard(probeAllowList.stream().map(Cidr::parse).toList(), HostResolver.system()), resolveTimeout);
    }

    MonitorChecks(TargetGuard guard, Duration resolveTimeout) {
        this.guard = guard;
        this.resolveTimeout = resolveTimeout;
    }

    /**
     * A monitor from a request body member: the contract read strictly, then the credential rule. {@code pathId}, when
     * given, is the id of the URL ({@code PUT /v1/monitors/{id}}): a body without {@code id} takes it, one with another
     * id is refused. Violations name the member under {@code prefix}.
     */
    public static MonitorDefinition read(JsonNode node, String pathId, String prefix) {
        MonitorDefinition m =
                RequestBodies.managed(node, MonitorDefinition.class, pathId, prefix, "monitor", SHOWN_ONLY);
        credentialsByReference(m, prefix);
        linksOfTheirOwn(m, prefix);
        return m;
    }

    /** Refuses a link named as one of the console's own, which every page of the monitor carries already. */
    static void linksOfTheirOwn(MonitorDefinition m, String prefix) {
        for (String name : m.links().keySet()) {
            if (AlertLinks.CONSOLE_LINKS.contains(name)) {
                throw new ContractViolation(
                        field(prefix, "links." + name),
                        "is the name of a link every page carries to the console ("
                                + String.join(", ", new java.util.TreeSet<>(AlertLinks.CONSOLE_LINKS))
                                + "); give yours another name, such as runbook or dashboard");
            }
        }
    }

    /** Refuses a credential header written inline. */
    static void credentialsByReference(MonitorDefinition m, String prefix) {
        for (Map.Entry<String, HeaderValue> h : m.headers().entrySet()) {
            if (h.getValue().value() != null && carriesCredential(h.getKey())) {
                throw new ContractViolation(
                        field(prefix, "headers." + h.getKey()),
                        "carries a credential: give it as {\"secretEnv\": \"VARIABLE\"} (the probe worker reads the "
                                + "variable), never the value itself, which everyone who can read monitors would see");
            }
        }
    }

    static boolean carriesCredential(String headerName) {
        String n = headerName.toLowerCase(Locale.ROOT);
        if (CREDENTIAL_HEADERS.contains(n)) {
            return true;
        }
        for (String word : CREDENTIAL_WORDS) {
            if (n.contains(word)) {
                return true;
            }
        }
        return false;
    }

    /** The member name under a prefix, as violations spell it. */
    static String field(String prefix, String member) {
        return prefix.isEmpty() ? member : prefix + "." + member;
    }

    /**
     * The regions of a probed monitor no worker has served and the request does not name as rolled out, as
     * violations of {@code regions[i]}; empty when every region is known.
     */
    static List<ContractViolation> unknownRegions(
            MonitorDefinition m, Map<String, RegionStatus> known, Set<String> rollingOut, String prefix) {
        List<ContractViolation> out = new ArrayList<>();
        if (!m.isProbed()) {
            return out;
        }
        Set<String> served = RegionCheck.served(known);
        for (int i = 0; i < m.regions().size(); i++) {
            String r = m.regions().get(i);
            if (!served.contains(r) && !rollingOut.contains(r)) {
                out.add(new ContractViolation(
                        field(prefix, "regions[" + i + "]"),
                        "'" + r + "' is served by no probe worker (known: "
                                + (served.isEmpty() ? "none yet" : String.join(", ", served))
                                + "); start a worker there, or name it in allowRegions if it is being rolled out"));
            }
        }
        return out;
    }

    /** What the target check found: allowed, refused (with the member at fault), unresolved, or not judged. */
    public record TargetVerdict(String verdict, String field, String detail) {
        static TargetVerdict notJudged(String why) {
            return new TargetVerdict("not-judged", null, why);
        }

        public boolean refused() {
            return verdict.equals("refused");
        }
    }

    /** The target as a probe worker would judge it; never fails (a slow lookup is {@code unresolved}). */
    public Mono<TargetVerdict> target(MonitorDefinition m, String prefix) {
        Mono<Target> check;
        String member;
        switch (m.type()) {
            case HTTP -> {
                check = guard.check(m.url());
                member = "url";
            }
            case TCP -> {
                check = guard.checkEndpoint("tcp", m.tcp().host(), m.tcp().port());
                member = "tcp.host";
            }
            case TLS -> {
                check = guard.checkEndpoint("tls", m.tls().host(), m.tls().port());
                member = "tls.host";
            }
            case DNS -> {
                if (m.dns().resolver() == null) {
                    return Mono.just(TargetVerdict.notJudged(
                            "asked through each probe worker's own resolvers: nothing to judge"));
                }
                String[] hostPort = resolverHostPort(m.dns().resolver());
                check = guard.checkEndpoint("dns", hostPort[0], Integer.parseInt(hostPort[1]));
                member = "dns.resolver";
            }
            default -> {
                return Mono.just(
                        TargetVerdict.notJudged("a heartbeat is pushed to Vigil: there is no target to reach"));
            }
        }
        String at = field(prefix, member);
        return check.timeout(resolveTimeout)
                .map(t -> {
                    if (t instanceof Target.Allowed a) {
                        return new TargetVerdict(
                                "allowed",
                                at,
                                "a probe worker may reach " + a.address().getHostAddress());
                    }
                    if (t instanceof Target.Refused r) {
                        return new TargetVerdict(
                                "refused", at, "a probe worker would refuse this target: " + r.reason());
                    }
                    return new TargetVerdict(
                            "unresolved",
                            at,
                            ((Target.Unresolved) t).reason() + " here; probes will fail until it does");
                })
                .onErrorResume(e -> Mono.just(new TargetVerdict(
                        "unresolved",
                        at,
                        "the name did not resolve within " + resolveTimeout.toMillis() + " ms here; not judged")));
    }

    /** {@code ip[:port]}, {@code [ipv6][:port]} or a bare IPv6 as host and port (53 by default). */
    static String[] resolverHostPort(String resolver) {
        if (resolver.startsWith("[")) {
            int close = resolver.indexOf(']');
            String host = resolver.substring(1, close);
            String rest = resolver.substring(close + 1);
            return new String[] {host, rest.startsWith(":") ? rest.substring(1) : "53"};
        }
        int colons = (int) resolver.chars().filter(c -> c == ':').count();
        if (colons == 1) {
            int c = resolver.indexOf(':');
            return new String[] {resolver.substring(0, c), resolver.substring(c + 1)};
        }
        return new String[] {resolver, "53"};
    }

    /** The target checks a day the monitor costs: its regions × 86,400 / its interval; 0 for a heartbeat. */
    public static long checksPerDay(MonitorDefinition m) {
        return m.isProbed() ? RegionCheck.checksPerDay(m) : 0;
    }
}
