package dev.vigil.kit.http;

import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The limits every Vigil HTTP server enforces at its edge, before any handler runs.
 *
 * @param headerTimeout        a connection must deliver a complete request head within this time of opening (or of
 *                             its previous answer); a client trickling header bytes (slowloris) is answered 408 and cut
 * @param requestTimeout       the whole request body must arrive within this time of its head
 * @param idleTimeout          a keep-alive connection with no request is closed after this time
 * @param maxInFlightBodyBytes request body bytes the server holds at once, over all connections, until each request
 *                             is answered; a request that would exceed it is answered 503 with Retry-After
 * @param allowedHosts         host names accepted in the {@code Host} header (case-insensitive, port ignored); empty
 *                             accepts any. Loopback-bound servers default to the loopback names, which defeats DNS
 *                             rebinding: a browser tricked into calling 127.0.0.1 still sends the attacker's name
 */
public record ServerLimits(
        Duration headerTimeout,
        Duration requestTimeout,
        Duration idleTimeout,
        long maxInFlightBodyBytes,
        Set<String> allowedHosts) {
    public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
    public static final long DEFAULT_MAX_IN_FLIGHT_BODY_BYTES = 64L * 1024 * 1024;
    /** The names a browser sends for a loopback address. */
    public static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "::1", "[::1]");

    public ServerLimits {
        requirePositive("headerTimeout", headerTimeout);
        requirePositive("requestTimeout", requestTimeout);
        requirePositive("idleTimeout", idleTimeout);
        if (maxInFlightBodyBytes < 1) {
            throw new IllegalArgumentException("maxInFlightBodyBytes must be at least 1");
        }
        allowedHosts = allowedHosts == null
                ? Set.of()
                : allowedHosts.stream()
                        .map(h -> h.trim().toLowerCase(Locale.ROOT))
                        .filter(h -> !h.isEmpty())
                        .collect(Collectors.toUnmodifiableSet());
    }

    /** The defaults for a server bound to {@code bindHost}: loopback names only when it is a loopback address. */
    public static ServerLimits defaults(String bindHost) {
        return new ServerLimits(
                DEFAULT_HEADER_TIMEOUT,
                DEFAULT_REQUEST_TIMEOUT,
                DEFAULT_IDLE_TIMEOUT,
                DEFAULT_MAX_IN_FLIGHT_BODY_BYTES,
                defaultAllowedHosts(bindHost, Set.of()));
    }

    /** Loopback binds accept the loopback names plus {@code extra}; other binds accept {@code extra} (empty: any). */
    public static Set<String> defaultAllowedHosts(String bindHost, Set<String> extra) {
        if (!isLoopback(bindHost)) {
            return extra == null ? Set.of() : Set.copyOf(extra);
        }
        java.util.HashSet<String> names = new java.util.HashSet<>(LOOPBACK_NAMES);
        if (extra != null) {
            names.addAll(extra);
        }
        return Set.copyOf(names);
    }

    /** A literal loopback address or {@code localhost} (no DNS look-up: a bind address is configuration). */
    public static boolean isLoopback(String bindHost) {
        if (bindHost == null) {
            return false;
        }
        String h = bindHost.trim().toLowerCase(Locale.ROOT);
        return h.equals("localhost")
                || h.startsWith("127.")
                || h.equals("::1")
                || h.equals("[::1]")
                || h.equals("0:0:0:0:0:0:0:1");
    }

    public ServerLimits withAllowedHosts(Set<String> hosts) {
        return new ServerLimits(headerTimeout, requestTimeout, idleTimeout, maxInFlightBodyBytes, hosts);
    }

    public ServerLimits withMaxInFlightBodyBytes(long bytes) {
        return new ServerLimits(headerTimeout, requestTimeout, idleTimeout, bytes, allowedHosts);
    }

    public ServerLimits withHeaderTimeout(Duration d) {
        return new ServerLimits(d, requestTimeout, idleTimeout, maxInFlightBodyBytes, allowedHosts);
    }

    public ServerLimits withRequestTimeout(Duration d) {
        return new ServerLimits(headerTimeout, d, idleTimeout, maxInFlightBodyBytes, allowedHosts);
    }

    /** Whether a {@code Host} header value names an allowed host (always true with an empty allow-list). */
    public boolean hostAllowed(String hostHeader) {
        if (allowedHosts.isEmpty()) {
            return true;
        }
        if (hostHeader == null) {
            return false;
        }
        String h = hostHeader.trim().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            if (end < 0) {
                return false;
            }
            String rest = h.substring(end + 1);
            if (!rest.isEmpty() && !validPort(rest)) {
                return false;
            }
            h = h.substring(0, end + 1);
            return allowedHosts.contains(h) || allowedHosts.contains(h.substring(1, h.length() - 1));
        }
        int colon = h.lastIndexOf(':');
        if (colon >= 0) {
            if (!validPort(h.substring(colon))) {
                return false;
            }
            h = h.substring(0, colon);
        }
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        return allowedHosts.contains(h);
    }

    private static boolean validPort(String colonPort) {
        if (colonPort.length() < 2 || colonPort.length() > 6 || colonPort.charAt(0) != ':') {
            return false;
        }
        for (int i = 1; i < colonPort.length(); i++) {
            if (colonPort.charAt(i) < '0' || colonPort.charAt(i) > '9') {
                return false;
            }
        }
        return Integer.parseInt(colonPort.substring(1)) <= 65535;
    }

    private static void requirePositive(String name, Duration d) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be a positive duration");
        }
    }
}
