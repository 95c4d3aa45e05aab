package dev.vigil.kit.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;

/** The outcome of checking one URL: a checked address to connect to, a refusal, or a failed lookup. */
public sealed interface Target {
    /** Time spent resolving the host, in nanoseconds (0 for literal addresses). */
    long dnsNanos();

    /**
     * May be fetched. {@link #socketAddress()} carries both the checked IP and the original host name, so
     * connecting never looks the name up again while TLS still verifies and sends SNI for the name.
     */
    record Allowed(URI uri, String host, int port, boolean secure, InetAddress address, long dnsNanos)
            implements Target {
        public InetSocketAddress socketAddress() {
            try {
                return new InetSocketAddress(InetAddress.getByAddress(host, address.getAddress()), port);
            } catch (java.net.UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }

        /** The Host header: the host as written in the URL, with the port unless it is the scheme's default. */
        public String hostHeader() {
            String h = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
            return port == (secure ? 443 : 80) ? h : h + ":" + port;
        }

        /** Path and query as sent on the request line. */
        public String pathAndQuery() {
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        }
    }

    /** Must not be fetched; the reason names the rule, never secrets from the URL. */
    record Refused(String reason, long dnsNanos) implements Target {}

    /** The host name did not resolve. */
    record Unresolved(String reason, long dnsNanos) implements Target {}
}
