package dev.vigil.kit.net;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import reactor.core.publisher.Mono;

/**
 * Outbound safety for probes (docs/design.md#probes). A URL may be fetched only if it is an absolute http(s) URL
 * without user-info, its host is a hostname or a canonical IP literal, and every address the host resolves
 * to is public or inside the explicit allow-list. Every other check type connects to a host and port (a TCP or
 * TLS target, a DNS resolver): {@link #checkEndpoint} applies the same host and address rules to those. The
 * returned {@link Target.Allowed} carries the checked address so the caller connects to exactly that address (no
 * second lookup between check and connect). Checking never throws: refusals are values.
 */
public final class TargetGuard {
    private static final int PARSE_CACHE_LIMIT = 100_000;

    private final List<Cidr> allowList;
    private final HostResolver resolver;
    /** Monitor URLs repeat every window: their syntactic verdict (Parsed or the refusal text) is kept. */
    private final java.util.concurrent.ConcurrentHashMap<String, Object> parsed =
            new java.util.concurrent.ConcurrentHashMap<>();

    public TargetGuard(List<Cidr> allowList, HostResolver resolver) {
        this.allowList = List.copyOf(allowList);
        this.resolver = resolver;
    }

    public static TargetGuard withAllowList(List<String> cidrs) {
        return new TargetGuard(cidrs.stream().map(Cidr::parse).toList(), HostResolver.system());
    }

    /** Checks a URL: syntax first, then (for host names) DNS, then every resolved address. */
    public Mono<Target> check(String url) {
        Object cached = url == null ? null : this.parsed.get(url);
        if (cached == null) {
            try {
                cached = parse(url);
            } catch (RefusedException e) {
                cached = e.getMessage();
            }
            if (url != null) {
                if (this.parsed.size() >= PARSE_CACHE_LIMIT) {
                    this.parsed.clear();
                }
                this.parsed.put(url, cached);
            }
        }
        if (cached instanceof String refusal) {
            return Mono.just(new Target.Refused(refusal, 0));
        }
        return resolveAndDecide((Parsed) cached);
    }

    /**
     * Checks a host and port a non-HTTP check connects to ({@code tcp}, {@code tls}, a DNS resolver): the same host
     * rules as a URL's host (canonical names and literals only), then DNS, then every resolved address. The
     * {@link Target.Allowed} it returns carries a {@code scheme://host:port} URI and the checked address to connect to.
     *
     * @param scheme {@code tcp}, {@code tls} or {@code dns}: names the check in the URI, and {@code tls} marks it secure
     */
    public Mono<Target> checkEndpoint(String scheme, String host, int port) {
        Parsed parsed;
        try {
            parsed = parseEndpoint(scheme, host, port);
        } catch (RefusedException e) {
            return Mono.just(new Target.Refused(e.getMessage(), 0));
        }
        return resolveAndDecide(parsed);
    }

    private Mono<Target> resolveAndDecide(Parsed parsed) {
        if (parsed.literal() != null) {
            return Mono.just(decide(parsed, List.of(parsed.literal()), 0));
        }
        long t0 = System.nanoTime();
        return resolver.resolve(parsed.host())
                .map(addresses -> decide(parsed, addresses, System.nanoTime() - t0))
                .onErrorResume(e -> Mono.just(new Target.Unresolved(
                        e instanceof UnknownHostException
                                ? "host name did not resolve"
                                : "host lookup failed: " + e.getClass().getSimpleName(),
                        System.nanoTime() - t0)));
    }

    /** The allow/refuse decision for a set of resolved addresses: all must pass. Pure. */
    Target decide(Parsed parsed, List<InetAddress> addresses, long dnsNanos) {
        if (addresses.isEmpty()) {
            return new Target.Unresolved("host name has no addresses", dnsNanos);
        }
        for (InetAddress a : addresses) {
            String refusal = refusal(a.getAddress());
            if (refusal != null) {
                return new Target.Refused(refusal, dnsNanos);
            }
        }
        return new Target.Allowed(
                parsed.uri(), parsed.host(), parsed.port(), parsed.secure(), addresses.get(0), dnsNanos);
    }

    /** Why an address must not be probed, or null when it may be. */
    public String refusal(byte[] address) {
        AddressClass kind = AddressClassifier.classify(address);
        if (kind.isPublic()) {
            return null;
        }
        InetAddress a = raw(address);
        for (Cidr c : allowList) {
            if (c.contains(a)) {
                return null;
            }
        }
        return "address is " + kind.label() + " and not in the allow-list";
    }

    /** The syntactic part of the check, before any lookup. Throws {@link RefusedException}. */
    public static Parsed parse(String url) {
        if (url == null || url.isBlank()) {
            throw new RefusedException("URL is empty");
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new RefusedException("not a valid URL");
        }
        String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
        if (scheme == null || !uri.isAbsolute()) {
            throw new RefusedException("not an absolute URL");
        }
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new RefusedException("scheme " + scheme + " is not allowed (http or https only)");
        }
        String authority = uri.getRawAuthority();
        if (authority == null || authority.isEmpty()) {
            throw new RefusedException("URL has no host");
        }
        if (uri.getRawUserInfo() != null || authority.indexOf('@') >= 0) {
            throw new RefusedException("URL embeds credentials");
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            // java.net.URI gives no host for registry-style authorities such as 0x7f.1: classify the raw text.
            String raw = authority.startsWith("[") ? authority : authority.replaceFirst(":[0-9]*$", "");
            if (!raw.isEmpty() && !raw.startsWith("[") && HostSyntax.ambiguousNumeric(raw.toLowerCase(Locale.ROOT))) {
                throw new RefusedException("URL host is an ambiguous numeric IPv4 form (decimal, octal, hex or short)");
            }
            throw new RefusedException("URL host is not a valid host name or IP address");
        }
        boolean secure = scheme.equals("https");
        int port = uri.getPort() == -1 ? (secure ? 443 : 80) : uri.getPort();
        if (port < 1 || port > 65535) {
            throw new RefusedException("port " + port + " is out of range");
        }
        HostPart hp = hostPart(host, "URL host");
        host = hp.host();
        InetAddress literal = hp.literal();
        URI normalized;
        try {
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            normalized = new URI(
                    scheme + "://" + authority + path + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
        } catch (URISyntaxException e) {
            throw new RefusedException("not a valid URL");
        }
        return new Parsed(normalized, host, port, secure, literal);
    }

    /** The syntactic part of an endpoint check. Throws {@link RefusedException}. */
    public static Parsed parseEndpoint(String scheme, String host, int port) {
        if (host == null || host.isBlank()) {
            throw new RefusedException("host is empty");
        }
        if (port < 1 || port > 65535) {
            throw new RefusedException("port " + port + " is out of range");
        }
        String h = host.strip();
        if (h.indexOf(':') >= 0 && !h.startsWith("[")) {
            h = "[" + h + "]";
        }
        HostPart hp = hostPart(h, "host");
        try {
            URI uri = new URI(scheme, null, hp.host(), port, null, null, null);
            return new Parsed(uri, hp.host(), port, "tls".equals(scheme), hp.literal());
        } catch (URISyntaxException e) {
            throw new RefusedException("host is not a valid host name or IP address");
        }
    }

    /** A host without brackets, and its address when it is a literal. */
    private record HostPart(String host, InetAddress literal) {}

    /**
     * The host rules shared by URLs and endpoints: a bracketed IPv6 literal without zone, a canonical dotted quad,
     * or a plausible DNS name; never a numeric form a resolver would read as some other IPv4 address.
     */
    private static HostPart hostPart(String host, String label) {
        if (host.startsWith("[")) {
            byte[] bytes = host.endsWith("]") ? Cidr.literal(host) : null;
            if (bytes == null || host.indexOf('%') >= 0) {
                throw new RefusedException(label + " is not a valid IPv6 address");
            }
            return new HostPart(host.substring(1, host.length() - 1), raw(bytes));
        }
        String lower = host.toLowerCase(Locale.ROOT);
        if (HostSyntax.ambiguousNumeric(lower)) {
            throw new RefusedException(label + " is an ambiguous numeric IPv4 form (decimal, octal, hex or short)");
        }
        byte[] quad = HostSyntax.dottedQuad(lower);
        if (quad == null && !HostSyntax.validHostname(lower)) {
            throw new RefusedException(label + " is not a valid host name");
        }
        return new HostPart(
                lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower, quad == null ? null : raw(quad));
    }

    private static InetAddress raw(byte[] bytes) {
        try {
            return bytes.length == 16
                    ? java.net.Inet6Address.getByAddress(null, bytes, -1)
                    : InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** A syntactically acceptable URL: host without brackets, effective port, literal address if any. */
    public record Parsed(URI uri, String host, int port, boolean secure, InetAddress literal) {}

    /** A URL refused before any lookup. */
    public static final class RefusedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RefusedException(String message) {
            super(message, null, false, false);
        }
    }
}
