package dev.vigil.standalone.launch;

import dev.vigil.schemas.contract.MonitorDefinition;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The standalone's end-to-end canary: an http monitor of the query API's own {@code /health} on this machine,
 * probed from every region, whose verdicts Streams passes to the notifier's dead-man's switch. Its bound is three
 * intervals plus its deadline (timeout and grace), rounded up to whole seconds.
 */
public final class Canary {
    /** Streams' default canary monitor id ({@code alerting.canaryMonitorId}). */
    public static final String ID = "vigil-canary";

    public static final int INTERVAL_SECONDS = 10;
    public static final int TIMEOUT_MS = 2500;
    public static final Duration MAX_AGE = Duration.ofSeconds(3L * INTERVAL_SECONDS + 10);

    private Canary() {}

    /** The address this JVM's probes reach the query API at: its bind address, or loopback when bound to all. */
    static String host(String bindHost) {
        try {
            InetAddress a = InetAddress.getByName(bindHost);
            if (a.isAnyLocalAddress()) {
                return "127.0.0.1";
            }
            return a.getHostAddress().contains(":") ? "[" + a.getHostAddress() + "]" : a.getHostAddress();
        } catch (UnknownHostException e) {
            return "127.0.0.1";
        }
    }

    /** The one address the probes must be allowed to reach for the canary, as a CIDR. */
    static String allowEntry(String bindHost) {
        String h = host(bindHost);
        return h.startsWith("[") ? h.substring(1, h.length() - 1) + "/128" : h + "/32";
    }

    static MonitorDefinition monitor(String bindHost, int queryPort, List<String> regions) {
        return new MonitorDefinition(
                1,
                ID,
                "Vigil canary (end to end)",
                "http://" + host(bindHost) + ":" + queryPort + "/health",
                "GET",
                INTERVAL_SECONDS,
                TIMEOUT_MS,
                regions,
                null,
                null,
                null,
                "vigil",
                "canary",
                Map.of(),
                true);
    }
}
