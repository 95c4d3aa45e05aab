package dev.vigil.schemas.contract;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What to probe, from where, and what counts as healthy. Key of {@code vigil.monitors}; a tombstone
 * deletes the monitor. Defaults are applied here so every consumer sees the same effective values.
 */
public record MonitorDefinition(
        Integer schemaVersion,
        String id,
        String name,
        String url,
        String method,
        Integer intervalSeconds,
        Integer timeoutMs,
        List<String> regions,
        Expect expect,
        Integer tlsExpiryWarnDays,
        @JsonDeserialize(using = Severity.Strict.class) Severity severity,
        String service,
        String component,
        Map<String, String> links,
        Boolean enabled) {

    public static final int DEFAULT_INTERVAL_SECONDS = 60;
    public static final int DEFAULT_TIMEOUT_MS = 2500;
    public static final int DEFAULT_TLS_EXPIRY_WARN_DAYS = 14;
    private static final Pattern HEALTH_PATH = Pattern.compile(".*/(health|healthz|healthcheck|livez|readyz)/?");

    public MonitorDefinition {
        schemaVersion = Require.schemaVersion(schemaVersion);
        id = Require.slug("id", id);
        name = name == null ? id : Require.text("name", name, 200);
        url = Require.text("url", url, 2048);
        URI uri = parseUrl(url);
        method = method == null ? "GET" : method;
        if (!"GET".equals(method)) {
            throw new ContractViolation("method", "must be GET");
        }
        intervalSeconds = intervalSeconds == null ? DEFAULT_INTERVAL_SECONDS : intervalSeconds;
        Require.range("intervalSeconds", intervalSeconds, 10, 3600);
        timeoutMs = timeoutMs == null ? DEFAULT_TIMEOUT_MS : timeoutMs;
        Require.range("timeoutMs", timeoutMs, 1000, 30000);
        if (timeoutMs >= intervalSeconds * 1000) {
            throw new ContractViolation("timeoutMs", "must be less than intervalSeconds * 1000");
        }
        regions = Require.list("regions", Require.present("regions", regions), 32);
        if (regions.isEmpty()) {
            throw new ContractViolation("regions", "must name at least one region");
        }
        for (int i = 0; i < regions.size(); i++) {
            Require.slug("regions[" + i + "]", regions.get(i));
        }
        if (new HashSet<>(regions).size() != regions.size()) {
            throw new ContractViolation("regions", "must not repeat a region");
        }
        expect = expect == null ? Expect.defaultsFor(uri) : expect;
        tlsExpiryWarnDays = tlsExpiryWarnDays == null ? DEFAULT_TLS_EXPIRY_WARN_DAYS : tlsExpiryWarnDays;
        Require.range("tlsExpiryWarnDays", tlsExpiryWarnDays, 0, 365);
        severity = severity == null ? Severity.CRITICAL : severity;
        service = service == null ? id : Require.text("service", service, 100);
        component = Require.optionalText("component", component, 100);
        links = Require.stringMap("links", links, 8, 32, 2048);
        enabled = enabled == null ? Boolean.TRUE : enabled;
    }

    public long intervalMs() {
        return intervalSeconds * 1000L;
    }

    /** True when this monitor is probed from {@code region}. */
    public boolean selects(String region) {
        return regions.contains(region);
    }

    private static URI parseUrl(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (java.net.URISyntaxException e) {
            throw new ContractViolation("url", "must be an absolute http or https URL");
        }
        String scheme = uri.getScheme();
        if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw new ContractViolation("url", "must be an absolute http or https URL");
        }
        if (uri.getRawUserInfo() != null) {
            throw new ContractViolation("url", "must not embed credentials");
        }
        return uri;
    }

    /** What a successful probe looks like. */
    public record Expect(List<String> statusCodes, JsonAssertion json, String bodyContains, Integer maxResponseMs) {
        private static final Pattern STATUS_RANGE = Pattern.compile("[1-5][0-9]{2}(-[1-5][0-9]{2})?");
        public static final List<String> DEFAULT_STATUS_CODES = List.of("200-399");

        public Expect {
            statusCodes = Require.list("statusCodes", statusCodes, 16);
            if (statusCodes.isEmpty()) {
                statusCodes = DEFAULT_STATUS_CODES;
            }
            for (int i = 0; i < statusCodes.size(); i++) {
                String field = "statusCodes[" + i + "]";
                String range = Require.matches(field, statusCodes.get(i), STATUS_RANGE,
                        "a status code or range such as 200 or 200-399");
                if (range.length() == 7 && Integer.parseInt(range.substring(0, 3)) > Integer.parseInt(range.substring(4))) {
                    throw new ContractViolation(field, "must be a range whose start is not after its end");
                }
            }
            bodyContains = Require.optionalText("bodyContains", bodyContains, 1024);
            if (bodyContains != null && bodyContains.isEmpty()) {
                throw new ContractViolation("bodyContains", "must not be empty");
            }
            if (maxResponseMs != null) {
                Require.range("maxResponseMs", maxResponseMs, 1, 30000);
            }
        }

        /** Defaults: 200-399, and for {@code /health}-style URLs a JSON {@code status} of ok or healthy. */
        static Expect defaultsFor(URI uri) {
            String path = uri.getPath() == null ? "" : uri.getPath();
            JsonAssertion json = HEALTH_PATH.matcher(path).matches() ? JsonAssertion.HEALTH : null;
            return new Expect(DEFAULT_STATUS_CODES, json, null, null);
        }

        public boolean acceptsStatus(int status) {
            for (String range : statusCodes) {
                int lo = Integer.parseInt(range.substring(0, 3));
                int hi = range.length() == 7 ? Integer.parseInt(range.substring(4)) : lo;
                if (status >= lo && status <= hi) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The value at a JSON pointer of the body must be one of the listed strings. */
    public record JsonAssertion(String pointer, List<String> anyOf) {
        public static final JsonAssertion HEALTH = new JsonAssertion("/status", List.of("ok", "healthy"));

        public JsonAssertion {
            Require.text("pointer", pointer, 256);
            if (!pointer.startsWith("/")) {
                throw new ContractViolation("pointer", "must be a JSON pointer starting with /");
            }
            anyOf = Require.list("anyOf", Require.present("anyOf", anyOf), 16);
            if (anyOf.isEmpty()) {
                throw new ContractViolation("anyOf", "must list at least one accepted value");
            }
        }
    }
}
