package dev.vigil.probe.probe;

import dev.vigil.kit.net.AddressClassifier;
import dev.vigil.kit.net.Target;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.validate.PrivacyGuard;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.Address;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.ExtendedResolver;
import org.xbill.DNS.MXRecord;
import org.xbill.DNS.Message;
import org.xbill.DNS.NSRecord;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Resolver;
import org.xbill.DNS.ResolverConfig;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.TXTRecord;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;
import org.xbill.DNS.WireParseException;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A DNS check: ask for {@code dns.recordType} records of {@code dns.query}, through {@code dns.resolver} (an IP, port
 * 53 unless given) or, without one, this worker's own resolvers (dnsjava's {@link ResolverConfig}: resolv.conf and
 * friends). The query is asynchronous ({@link Resolver#sendAsync}), so no thread waits for the answer; one deadline,
 * the monitor's timeoutMs, covers it. responseMs (and dnsMs) is the resolution time.
 *
 * <p>A resolver the monitor names is something the worker sends packets to, so it goes through the
 * {@link TargetGuard} like any target: a resolver in a blocked range (169.254.169.254, private, loopback, ...) is
 * {@code blocked_target} and no packet is sent. The worker's own resolvers are its configuration, not the monitor's,
 * and are used as they are (the http check resolves names through them too); but the addresses they answer with may
 * be internal, so an A or AAAA answer the guard would refuse is withheld from {@code dnsAnswers}.
 *
 * <p>Verdicts: an answer that does not satisfy the check (NXDOMAIN, no records of the type, an expected value
 * missing) is {@code assertion_failure}: the DNS worked and said something the monitor does not accept. A resolver
 * that could not answer is {@code network_failure}: SERVFAIL, REFUSED or another error code, or a malformed answer,
 * with errorKind {@code dns}; no answer in time, {@code timeout}; an ICMP port unreachable, {@code connect_refused}.
 */
public final class DnsProbe implements Probe {
    private static final Logger LOG = LoggerFactory.getLogger(DnsProbe.class);
    public static final int MAX_ANSWERS = 16;
    public static final int MAX_ANSWER_CHARS = 255;
    public static final int DEFAULT_PORT = 53;
    /** Continuations run on Reactor's parallel threads, never on dnsjava's single selector thread. */
    private static final Executor CALLBACKS = task -> Schedulers.parallel().schedule(task);

    private final TargetGuard guard;
    private final ProbeSettings settings;
    private final Supplier<List<InetSocketAddress>> systemResolvers;
    private final AtomicBoolean warnedNoResolvers = new AtomicBoolean();

    public DnsProbe(TargetGuard guard, ProbeSettings settings) {
        this(guard, settings, () -> ResolverConfig.getCurrentConfig().servers());
    }

    /** @param systemResolvers this worker's resolvers, for monitors that name none */
    DnsProbe(TargetGuard guard, ProbeSettings settings, Supplier<List<InetSocketAddress>> systemResolvers) {
        this.guard = guard;
        this.settings = settings;
        this.systemResolvers = systemResolvers;
    }

    @Override
    public Mono<ProbeResult> probe(MonitorDefinition monitor, long windowStart) {
        return Mono.defer(() -> new Run(monitor, windowStart).execute());
    }

    /** A resolver as a monitor writes it: {@code 9.9.9.9}, {@code 9.9.9.9:5353}, {@code [2620:fe::fe]:53}, {@code 2620:fe::fe}. */
    record ResolverAddress(String host, int port) {
        static ResolverAddress parse(String s) {
            String t = s.strip();
            if (t.startsWith("[")) {
                int end = t.indexOf(']');
                if (end < 0) {
                    return new ResolverAddress(t, DEFAULT_PORT);
                }
                String rest = t.substring(end + 1);
                return new ResolverAddress(
                        t.substring(0, end + 1), rest.startsWith(":") ? port(rest.substring(1)) : DEFAULT_PORT);
            }
            int first = t.indexOf(':');
            if (first < 0 || t.indexOf(':', first + 1) >= 0) {
                return new ResolverAddress(t, DEFAULT_PORT);
            }
            return new ResolverAddress(t.substring(0, first), port(t.substring(first + 1)));
        }

        private static int port(String digits) {
            try {
                return Integer.parseInt(digits);
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }

    private final class Run {
        final MonitorDefinition monitor;
        final MonitorDefinition.Dns dns;
        final int type;
        final long windowStart;
        final String requestId = Results.requestId();
        final long startNanos = System.nanoTime();
        final long startedAt;
        volatile long sentNanos;
        volatile boolean system;

        Run(MonitorDefinition monitor, long windowStart) {
            this.monitor = monitor;
            this.dns = monitor.dns();
            this.type = Type.value(dns.recordType());
            this.windowStart = windowStart;
            this.startedAt = Math.max(settings.wallClock().getAsLong(), windowStart);
        }

        Mono<ProbeResult> execute() {
            Name name;
            try {
                name = Name.fromString(dns.query(), Name.root);
            } catch (TextParseException e) {
                return Mono.just(failure(ErrorKind.OTHER, "query is not a valid DNS name"));
            }
            Message query = Message.newQuery(Record.newRecord(name, type, DClass.IN));
            return (dns.resolver() == null ? viaSystem(query) : viaNamed(query))
                    .timeout(Duration.ofMillis(monitor.timeoutMs()))
                    .onErrorResume(e -> Mono.just(onError(e)));
        }

        /** Through this worker's own resolvers; empty (not probed, logged once) when it has none. */
        private Mono<ProbeResult> viaSystem(Message query) {
            system = true;
            List<InetSocketAddress> servers = systemResolvers.get();
            if (servers == null || servers.isEmpty()) {
                if (warnedNoResolvers.compareAndSet(false, true)) {
                    LOG.warn(
                            "dns monitors without a resolver are not probed: this worker has no DNS resolvers configured");
                }
                return Mono.empty();
            }
            List<Resolver> each = new ArrayList<>();
            for (InetSocketAddress s : servers) {
                each.add(new SimpleResolver(s));
            }
            return send(each.size() == 1 ? each.get(0) : new ExtendedResolver(each), query);
        }

        /** Through the monitor's resolver, once the guard has allowed its address; no packet otherwise. */
        private Mono<ProbeResult> viaNamed(Message query) {
            ResolverAddress ra = ResolverAddress.parse(dns.resolver());
            return guard.checkEndpoint("dns", ra.host(), ra.port()).flatMap(t -> {
                if (t instanceof Target.Refused r) {
                    return Mono.just(failure(ErrorKind.BLOCKED_TARGET, "resolver refused: " + r.reason()));
                }
                if (t instanceof Target.Unresolved u) {
                    return Mono.just(failure(ErrorKind.DNS, "resolver " + u.reason()));
                }
                Target.Allowed a = (Target.Allowed) t;
                return send(new SimpleResolver(new InetSocketAddress(a.address(), a.port())), query);
            });
        }

        private Mono<ProbeResult> send(Resolver resolver, Message query) {
            // Our deadline ends the query; dnsjava's own timeout is only its clean-up.
            resolver.setTimeout(Duration.ofMillis(monitor.timeoutMs() + 1000L));
            return Mono.defer(() -> {
                        sentNanos = System.nanoTime();
                        return Mono.fromCompletionStage(resolver.sendAsync(query, CALLBACKS));
                    })
                    .map(this::onAnswer);
        }

        private ProbeResult onAnswer(Message answer) {
            int responseMs = Results.millis(System.nanoTime() - sentNanos);
            int rcode = answer.getRcode();
            if (rcode == Rcode.NXDOMAIN) {
                return result(
                        Outcome.ASSERTION_FAILURE,
                        null,
                        responseMs,
                        "NXDOMAIN: " + dns.query() + " does not exist",
                        List.of());
            }
            if (rcode != Rcode.NOERROR) {
                return result(
                        Outcome.NETWORK_FAILURE,
                        ErrorKind.DNS,
                        responseMs,
                        "the resolver answered " + Rcode.string(rcode) + " for " + dns.query(),
                        List.of());
            }
            List<Record> records = new ArrayList<>();
            for (Record r : answer.getSection(Section.ANSWER)) {
                if (r.getType() == type) {
                    records.add(r);
                }
            }
            List<String> shown = shown(records);
            if (records.isEmpty()) {
                return result(
                        Outcome.ASSERTION_FAILURE,
                        null,
                        responseMs,
                        "no " + dns.recordType() + " records for " + dns.query() + " (the name exists)",
                        shown);
            }
            List<String> missing = new ArrayList<>();
            for (String want : dns.expect()) {
                if (records.stream().noneMatch(r -> matches(type, want, r))) {
                    missing.add(want);
                }
            }
            if (!missing.isEmpty()) {
                return result(
                        Outcome.ASSERTION_FAILURE,
                        null,
                        responseMs,
                        "the " + dns.recordType()
                                + " answer lacks "
                                + (missing.size() == 1 ? "the expected value " : "the expected values ")
                                + String.join(", ", missing),
                        shown);
            }
            String slow = Results.tooSlow(monitor, responseMs);
            return result(slow == null ? Outcome.SUCCESS : Outcome.ASSERTION_FAILURE, null, responseMs, slow, shown);
        }

        /** Answers as published: at most 16, each at most 255 characters, nothing internal or personal. */
        private List<String> shown(List<Record> records) {
            List<String> out = new ArrayList<>();
            for (Record r : records) {
                if (out.size() == MAX_ANSWERS) {
                    break;
                }
                String v = display(r);
                byte[] address = address(r);
                if (system && address != null && guard.refusal(address) != null) {
                    v = "withheld: " + AddressClassifier.classify(address).label() + " address";
                } else if (PrivacyGuard.check("dnsAnswers", v).isPresent()) {
                    v = "withheld: it would carry personal data";
                }
                out.add(Results.truncate(v, MAX_ANSWER_CHARS));
            }
            return out;
        }

        private ProbeResult onError(Throwable e) {
            if (e instanceof TimeoutException) {
                return failure(ErrorKind.TIMEOUT, "no DNS answer within timeoutMs " + monitor.timeoutMs());
            }
            for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof PortUnreachableException) {
                    return failure(ErrorKind.CONNECT_REFUSED, "the resolver's port is closed (ICMP port unreachable)");
                }
                if (t instanceof WireParseException) {
                    return failure(ErrorKind.DNS, "the resolver's answer is malformed");
                }
            }
            ErrorKind kind = ErrorKinds.classify(e, false);
            return failure(
                    kind == ErrorKind.OTHER || kind == ErrorKind.CONNECT_TIMEOUT ? ErrorKind.DNS : kind,
                    "DNS query failed: " + ErrorKinds.describe(e));
        }

        private ProbeResult failure(ErrorKind kind, String detail) {
            Integer ms = sentNanos == 0 ? null : Results.millis(System.nanoTime() - sentNanos);
            return result(Outcome.NETWORK_FAILURE, kind, ms, detail, List.of());
        }

        private ProbeResult result(
                Outcome outcome, ErrorKind kind, Integer responseMs, String detail, List<String> answers) {
            Integer shownMs = outcome == Outcome.NETWORK_FAILURE ? null : responseMs;
            return Results.of(
                    settings,
                    monitor,
                    windowStart,
                    startedAt,
                    startNanos,
                    requestId,
                    new Results.Fields(outcome, kind, shownMs, responseMs, null, null, null, detail, answers));
        }
    }

    /** The record's value as published: an address, a host name without the final dot, {@code 10 mx.host}, TXT text. */
    static String display(Record r) {
        if (r instanceof MXRecord mx) {
            return mx.getPriority() + " " + mx.getTarget().toString(true);
        }
        return value(r);
    }

    /** The value an expectation is compared with: for MX the exchange host, for TXT the record's strings joined. */
    static String value(Record r) {
        if (r instanceof ARecord a) {
            return a.getAddress().getHostAddress();
        }
        if (r instanceof AAAARecord a) {
            return ipv6(a.getAddress().getAddress());
        }
        if (r instanceof CNAMERecord c) {
            return c.getTarget().toString(true);
        }
        if (r instanceof NSRecord ns) {
            return ns.getTarget().toString(true);
        }
        if (r instanceof MXRecord mx) {
            return mx.getTarget().toString(true);
        }
        if (r instanceof TXTRecord txt) {
            return String.join("", txt.getStrings());
        }
        return r.rdataToString();
    }

    private static byte[] address(Record r) {
        if (r instanceof ARecord a) {
            return a.getAddress().getAddress();
        }
        if (r instanceof AAAARecord a) {
            return a.getAddress().getAddress();
        }
        return null;
    }

    /**
     * Whether {@code expected} names this record: case-insensitive, a trailing dot ignored; addresses compare as
     * addresses, so {@code 2001:db8::1} matches however the answer spells it.
     */
    static boolean matches(int type, String expected, Record r) {
        if (type == Type.A || type == Type.AAAA) {
            byte[] want = Address.toByteArray(expected.strip(), type == Type.A ? Address.IPv4 : Address.IPv6);
            byte[] got = address(r);
            if (want != null && got != null) {
                return java.util.Arrays.equals(want, got);
            }
        }
        return normal(expected).equals(normal(value(r)));
    }

    private static String normal(String s) {
        String t = s.strip().toLowerCase(Locale.ROOT);
        return t.endsWith(".") ? t.substring(0, t.length() - 1) : t;
    }

    /** RFC 5952 text of an IPv6 address: lower-case, no leading zeros, the longest run of zero groups as {@code ::}. */
    static String ipv6(byte[] b) {
        if (b.length != 16) {
            return Address.toDottedQuad(b);
        }
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = (b[2 * i] & 0xff) << 8 | b[2 * i + 1] & 0xff;
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }
}
