package dev.vigil.probe.probe;

import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.HeaderValue;
import dev.vigil.schemas.contract.MonitorDefinition;
import java.util.List;
import java.util.Map;

/** Monitor definitions of every check type for the probe tests. */
final class Monitors {
    static final long WINDOW = 1_700_000_000_000L;

    private Monitors() {}

    static MonitorDefinition http(
            String url,
            String method,
            Map<String, HeaderValue> headers,
            String body,
            MonitorDefinition.Expect expect,
            int timeoutMs) {
        return new MonitorDefinition(
                1,
                "api",
                null,
                url,
                method,
                10,
                timeoutMs,
                List.of("us-east"),
                expect,
                null,
                null,
                null,
                null,
                null,
                null,
                CheckType.HTTP,
                headers,
                body,
                null,
                null,
                null,
                null);
    }

    static MonitorDefinition tcp(String host, int port, String send, String expect, int timeoutMs) {
        return tcp(host, port, send, expect, timeoutMs, null);
    }

    static MonitorDefinition tcp(
            String host, int port, String send, String expect, int timeoutMs, Integer maxResponseMs) {
        return new MonitorDefinition(
                1,
                "db",
                null,
                null,
                null,
                10,
                timeoutMs,
                List.of("us-east"),
                maxResponse(maxResponseMs),
                null,
                null,
                null,
                null,
                null,
                null,
                CheckType.TCP,
                null,
                null,
                new MonitorDefinition.Tcp(host, port, send, expect),
                null,
                null,
                null);
    }

    static MonitorDefinition tls(String host, int port, int timeoutMs, Integer warnDays) {
        return new MonitorDefinition(
                1,
                "cert",
                null,
                null,
                null,
                10,
                timeoutMs,
                List.of("us-east"),
                null,
                warnDays,
                null,
                null,
                null,
                null,
                null,
                CheckType.TLS,
                null,
                null,
                null,
                null,
                new MonitorDefinition.Tls(host, port),
                null);
    }

    static MonitorDefinition dns(String query, String type, String resolver, List<String> expect, int timeoutMs) {
        return new MonitorDefinition(
                1,
                "zone",
                null,
                null,
                null,
                10,
                timeoutMs,
                List.of("us-east"),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                CheckType.DNS,
                null,
                null,
                null,
                new MonitorDefinition.Dns(query, type, resolver, expect),
                null,
                null);
    }

    static MonitorDefinition heartbeat() {
        return new MonitorDefinition(
                1,
                "nightly",
                null,
                null,
                null,
                3600,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                CheckType.HEARTBEAT,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    private static MonitorDefinition.Expect maxResponse(Integer ms) {
        return ms == null ? null : new MonitorDefinition.Expect(null, null, null, ms);
    }
}
