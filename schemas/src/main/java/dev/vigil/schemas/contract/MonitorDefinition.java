package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What to probe, from where, and what counts as healthy. Key of {@code vigil.monitors}; a tombstone
 * deletes the monitor. Defaults are applied here so every consumer sees the same effective values.
 *
 * <p>{@code type} (docs/monitors.md#check-types, default {@code http}) says which of the per-type fields apply: {@code url},
 * {@code method}, {@code headers}, {@code body} and {@code expect} for {@code http}; {@code tcp}, {@code dns},
 * {@code tls} or {@code heartbeat} for the others (each type refuses the others' fields, so a typo is an error, not
 * a silently ignored setting). A {@code heartbeat} monitor is pushed to, not probed: its only region is
 * {@link #PUSH_REGION}.
 *
 * <p>Like {@link Expect} and {@link JsonAssertion}, the nested records name their own fields ({@code host}, not
 * {@code tcp.host}); read from JSON, the violation is re-rooted under the path being read ({@code tcp.host}).
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
        Boolean enabled,
        CheckType type,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, HeaderValue> headers,
        String body,
        Tcp tcp,
        Dns dns,
        Tls tls,
        Heartbeat heartbeat,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> dependsOn) {

    /** The one region of a heartbeat monitor's verdict: its results come from pings at ingest. */
    public static final String PUSH_REGION = "push";
    /**
     * The region of {@code vigil drill}'s synthetic monitors: no worker serves it on purpose (the drill publishes their
     * results itself), so it is never a blind region, nor a region an operator's monitor may name.
     */
    public static final String DRILL_REGION = "drill";

    public static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
    public static final int MAX_BODY_CHARS = 65_536;
    /** A heartbeat may be expected as rarely as once a week (a weekly job); probes at most once an hour. */
    public static final int MAX_HEARTBEAT_INTERVAL_SECONDS = 7 * 24 * 3600;
    /** Header names a probe sets itself, or that would smuggle a second request: refused in {@code headers}. */
    private static final Set<String> RESERVED_HEADERS = Set.of(
            "host",
            "content-length",
            "transfer-encoding",
            "connection",
            "upgrade",
            "te",
            "trailer",
            "keep-alive",
            "proxy-connection",
            "expect");

    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}");
    static final Pattern HOST = Pattern.compile(
            "(\\[[0-9A-Fa-f:.]{2,45}]|[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|[0-9A-Fa-f:.]{2,45})");

    /**
     * At most this many parents: a dependency names the few things a monitor cannot work without (its database, its
     * gateway), not a service map.
     */
    public static final int MAX_DEPENDS_ON = 16;

    public static final int DEFAULT_INTERVAL_SECONDS = 60;
    public static final int DEFAULT_TIMEOUT_MS = 2500;
    public static final int DEFAULT_TLS_EXPIRY_WARN_DAYS = 14;
    private static final Pattern HEALTH_PATH = Pattern.compile(".*/(health|healthz|healthcheck|livez|readyz)/?");

    public MonitorDefinition {
        schemaVersion = Require.schemaVersion(schemaVersion);
        id = Require.slug("id", id);
        name = name == null ? id : Require.text("name", name, 200);
        type = type == null ? CheckType.HTTP : type;
        URI uri = null;
        if (type == CheckType.HTTP) {
            url = Require.text("url", url, 2048);
            uri = parseUrl(url);
            method = method == null ? "GET" : method;
            if (!METHODS.contains(method)) {
                throw new ContractViolation("method", "must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
            }
            headers = headers(headers);
            requireHttpsForSecrets(uri, headers);
            if (body != null) {
                if (body.length() > MAX_BODY_CHARS) {
                    throw new ContractViolation("body", "must be at most 65536 characters");
                }
                if (method.equals("GET") || method.equals("HEAD")) {
                    throw new ContractViolation(
                            "body",
                            "a " + method + " request sends no body (a body needs POST, PUT, "
                                    + "PATCH, DELETE or OPTIONS)");
                }
            }
            refuse(type, "tcp", tcp, "dns", dns, "tls", tls, "heartbeat", heartbeat);
        } else {
            refuse(
                    type,
                    "url",
                    url,
                    "method",
                    method,
                    "body",
                    body,
                    "headers",
                    headers == null || headers.isEmpty() ? null : headers);
            headers = Map.of();
            switch (type) {
                case TCP -> {
                    Require.present("tcp", tcp);
                    refuse(type, "dns", dns, "tls", tls, "heartbeat", heartbeat);
                }
                case DNS -> {
                    Require.present("dns", dns);
                    refuse(type, "tcp", tcp, "tls", tls, "heartbeat", heartbeat);
                }
                case TLS -> {
                    Require.present("tls", tls);
                    refuse(type, "tcp", tcp, "dns", dns, "heartbeat", heartbeat);
                }
                case HEARTBEAT -> {
                    heartbeat = heartbeat == null ? Heartbeat.defaults() : heartbeat;
                    refuse(type, "tcp", tcp, "dns", dns, "tls", tls);
                }
                default -> throw new IllegalStateException(type.wire());
            }
            if (expect != null) {
                refuseHttpExpectations(type, expect);
            }
        }
        intervalSeconds = intervalSeconds == null ? DEFAULT_INTERVAL_SECONDS : intervalSeconds;
        Require.range(
                "intervalSeconds",
                intervalSeconds,
                10,
                type == CheckType.HEARTBEAT ? MAX_HEARTBEAT_INTERVAL_SECONDS : 3600);
        timeoutMs = timeoutMs == null ? DEFAULT_TIMEOUT_MS : timeoutMs;
        Require.range("timeoutMs", timeoutMs, 1000, 30000);
        if (timeoutMs >= intervalSeconds * 1000) {
            throw new ContractViolation("timeoutMs", "must be less than intervalSeconds * 1000");
        }
        if (type == CheckType.HEARTBEAT) {
            if (regions != null && !regions.isEmpty() && !regions.equals(List.of(PUSH_REGION))) {
                throw new ContractViolation(
                        "regions",
                        "a heartbeat monitor is pushed to, not probed: name no regions " + "(or exactly [push])");
            }
            regions = List.of(PUSH_REGION);
        }
        regions = Require.list("regions", Require.present("regions", regions), 32);
        if (regions.isEmpty()) {
            throw new ContractViolation("regions", "must name at least one region");
        }
        for (int i = 0; i < regions.size(); i++) {
            Require.slug("regions[" + i + "]", regions.get(i));
            if (type != CheckType.HEARTBEAT && PUSH_REGION.equals(regions.get(i))) {
                throw new ContractViolation(
                        "regions[" + i + "]",
                        "push is the region of heartbeat monitors; " + "a " + type.wire()
                                + " monitor is probed from real regions");
            }
        }
        if (new HashSet<>(regions).size() != regions.size()) {
            throw new ContractViolation("regions", "must not repeat a region");
        }
        expect = expect == null ? (uri == null ? Expect.NONE : Expect.defaultsFor(uri)) : expect;
        tlsExpiryWarnDays = tlsExpiryWarnDays == null ? DEFAULT_TLS_EXPIRY_WARN_DAYS : tlsExpiryWarnDays;
        Require.range("tlsExpiryWarnDays", tlsExpiryWarnDays, 0, 365);
        severity = severity == null ? Severity.CRITICAL : severity;
        service = service == null ? id : Require.text("service", service, 100);
        component = Require.optionalText("component", component, 100);
        links = Require.stringMap("links", links, 8, 32, 2048);
        enabled = enabled == null ? Boolean.TRUE : enabled;
        dependsOn = dependsOn(id, dependsOn);
    }

    /** Every component but {@code dependsOn} (no parents): the shape before dependencies existed. */
    public MonitorDefinition(
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
            Severity severity,
            String service,
            String component,
            Map<String, String> links,
            Boolean enabled,
            CheckType type,
            Map<String, HeaderValue> headers,
            String body,
            Tcp tcp,
            Dns dns,
            Tls tls,
            Heartbeat heartbeat) {
        this(
                schemaVersion,
                id,
                name,
                url,
                method,
                intervalSeconds,
                timeoutMs,
                regions,
                expect,
                tlsExpiryWarnDays,
                severity,
                service,
                component,
                links,
                enabled,
                type,
                headers,
                body,
                tcp,
                dns,
                tls,
                heartbeat,
                null);
    }

    /** The same monitor with {@code parents} as its dependencies. */
    public MonitorDefinition withDependsOn(List<String> parents) {
        return new MonitorDefinition(
                schemaVersion,
                id,
                name,
                url,
                method,
                intervalSeconds,
                timeoutMs,
                regions,
                expect,
                tlsExpiryWarnDays,
                severity,
                service,
                component,
                links,
                enabled,
                type,
                headers,
                body,
                tcp,
                dns,
                tls,
                heartbeat,
                parents);
    }

    /**
     * The parents' ids: each a monitor id, none twice, never the monitor itself. Whether each names an existing
     * monitor, and whether they close a cycle, needs the whole catalog: the API checks that when a monitor is applied.
     */
    private static List<String> dependsOn(String id, List<String> parents) {
        parents = Require.list("dependsOn", parents, MAX_DEPENDS_ON);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < parents.size(); i++) {
            String parent = Require.slug("dependsOn[" + i + "]", parents.get(i));
            if (parent.equals(id)) {
                throw new ContractViolation("dependsOn[" + i + "]", "a monitor cannot depend on itself");
            }
            if (!seen.add(parent)) {
                throw new ContractViolation("dependsOn[" + i + "]", "names " + parent + " twice");
            }
        }
        return parents;
    }

    /** An http monitor as before check types existed (GET, no headers, no body). */
    public MonitorDefinition(
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
            Severity severity,
            String service,
            String component,
            Map<String, String> links,
            Boolean enabled) {
        this(
                schemaVersion,
                id,
                name,
                url,
                method,
                intervalSeconds,
                timeoutMs,
                regions,
                expect,
                tlsExpiryWarnDays,
                severity,
                service,
                component,
                links,
                enabled,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    /** What the monitor checks, for people: the URL, {@code tcp://host:port}, {@code dns:A/name}, … */
    public String target() {
        return switch (type) {
            case HTTP -> url;
            case TCP -> "tcp://" + tcp.host() + ":" + tcp.port();
            case DNS -> "dns:" + dns.recordType() + "/" + dns.query()
                    + (dns.resolver() == null ? "" : "@" + dns.resolver());
            case TLS -> "tls://" + tls.host() + ":" + tls.port();
            case HEARTBEAT -> "heartbeat ("
                    + (heartbeat.schedule() == null
                            ? "every " + intervalSeconds + " s"
                            : "cron " + heartbeat.schedule() + " " + heartbeat.zone())
                    + ", grace " + heartbeat.graceSeconds() + " s)";
        };
    }

    /**
     * True for every type a probe worker runs (all but heartbeat). Not a wire field: without {@link JsonIgnore}
     * Jackson would write it as {@code "probed"}.
     */
    @JsonIgnore
    public boolean isProbed() {
        return type != CheckType.HEARTBEAT;
    }

    private static Map<String, HeaderValue> headers(Map<String, HeaderValue> headers) {
        if (headers == null || headers.isEmpty()) {
            return Map.of();
        }
        if (headers.size() > 32) {
            throw new ContractViolation("headers", "at most 32 headers");
        }
        Set<String> seen = new HashSet<>();
        for (var e : headers.entrySet()) {
            String field = "headers." + e.getKey();
            Require.matches(field, e.getKey(), HEADER_NAME, "an HTTP header name (token characters, at most 64)");
            String lower = e.getKey().toLowerCase(java.util.Locale.ROOT);
            if (RESERVED_HEADERS.contains(lower)) {
                throw new ContractViolation(field, "is set by the probe itself and cannot be configured");
            }
            if (!seen.add(lower)) {
                throw new ContractViolation(field, "is listed twice (header names are case-insensitive)");
            }
            Require.present(field, e.getValue());
        }
        return java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(headers));
    }

    /**
     * A {@code secretEnv} header is only ever sent over https (the probe drops it on any hop that is not), so a monitor
     * that would send one over plain http is refused here, when it is applied, rather than probed without it: anyone on
     * the path could read a secret sent in clear text.
     */
    private static void requireHttpsForSecrets(URI uri, Map<String, HeaderValue> headers) {
        if ("https".equals(uri.getScheme())) {
            return;
        }
        for (var e : headers.entrySet()) {
            if (e.getValue().isSecret()) {
                throw new ContractViolation(
                        "headers." + e.getKey(),
                        "reads " + e.getValue().secretEnv()
                                + " from the probe worker's environment, and secrets are only sent over https: the url must "
                                + "start with https:// (over plain http anyone on the path could read it)");
            }
        }
    }

    /** Only {@code maxResponseMs} applies to the non-http types; the default status codes are the same as none. */
    private static void refuseHttpExpectations(CheckType type, Expect expect) {
        String field = !expect.statusCodes().equals(Expect.DEFAULT_STATUS_CODES)
                ? "statusCodes"
                : expect.json() != null
                        ? "json"
                        : expect.bodyContains() != null
                                ? "bodyContains"
                                : expect.bodyNotContains() != null
                                        ? "bodyNotContains"
                                        : !expect.headers().isEmpty() ? "headers" : null;
        if (field != null) {
            throw new ContractViolation(
                    "expect." + field,
                    "does not apply to a " + type.wire()
                            + " monitor (only expect.maxResponseMs does; status, JSON, body and header expectations are for http)");
        }
    }

    private static void refuse(CheckType type, Object... namesAndValues) {
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] != null) {
                throw new ContractViolation(
                        (String) namesAndValues[i], "does not apply to a " + type.wire() + " monitor");
            }
        }
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

    /**
     * What a successful probe looks like. For http: status codes, an optional JSON assertion, text the body must
     * ({@code bodyContains}) or must not ({@code bodyNotContains}) contain, response headers ({@code headers}: name →
     * the exact value, or {@code re:} and a regular expression in RE2 syntax the whole value must match), and a response-time
     * bound. The other types use only {@code maxResponseMs}.
     */
    public record Expect(
            List<String> statusCodes,
            JsonAssertion json,
            String bodyContains,
            Integer maxResponseMs,
            String bodyNotContains,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> headers) {
        private static final Pattern STATUS_RANGE = Pattern.compile("[1-5][0-9]{2}(-[1-5][0-9]{2})?");
        public static final List<String> DEFAULT_STATUS_CODES = List.of("200-399");
        /** The prefix of a header expectation that is a regular expression. */
        public static final String REGEX_PREFIX = "re:";
        /** No expectation beyond the defaults (the non-http types). */
        static final Expect NONE = new Expect(DEFAULT_STATUS_CODES, null, null, null);

        public Expect {
            statusCodes = Require.list("statusCodes", statusCodes, 16);
            if (statusCodes.isEmpty()) {
                statusCodes = DEFAULT_STATUS_CODES;
            }
            for (int i = 0; i < statusCodes.size(); i++) {
                String field = "statusCodes[" + i + "]";
                String range = Require.matches(
                        field, statusCodes.get(i), STATUS_RANGE, "a status code or range such as 200 or 200-399");
                if (range.length() == 7
                        && Integer.parseInt(range.substring(0, 3)) > Integer.parseInt(range.substring(4))) {
                    throw new ContractViolation(field, "must be a range whose start is not after its end");
                }
            }
            bodyContains = Require.optionalText("bodyContains", bodyContains, 1024);
            if (bodyContains != null && bodyContains.isEmpty()) {
                throw new ContractViolation("bodyContains", "must not be empty");
            }
            bodyNotContains = Require.optionalText("bodyNotContains", bodyNotContains, 1024);
            if (bodyNotContains != null && bodyNotContains.isEmpty()) {
                throw new ContractViolation("bodyNotContains", "must not be empty");
            }
            if (maxResponseMs != null) {
                Require.range("maxResponseMs", maxResponseMs, 1, 30000);
            }
            headers = Require.stringMap("headers", headers, 16, 64, 512);
            for (var e : headers.entrySet()) {
                Require.matches("headers." + e.getKey(), e.getKey(), HEADER_NAME, "an HTTP header name");
                if (e.getValue().startsWith(REGEX_PREFIX)) {
                    UserRegex.validate("headers." + e.getKey(), e.getValue().substring(REGEX_PREFIX.length()));
                }
            }
        }

        /** Status codes, JSON, body text and response time, as before header and absent-text expectations. */
        public Expect(List<String> statusCodes, JsonAssertion json, String bodyContains, Integer maxResponseMs) {
            this(statusCodes, json, bodyContains, maxResponseMs, null, null);
        }

        /**
         * True when {@code actual} (null: the header is absent) meets the expectation for {@code name}. A {@code re:}
         * pattern runs with {@link UserRegex} (linear time; a value over {@link UserRegex#MAX_INPUT_CHARS} does not
         * match), so a hostile server's header cannot stall the thread that checks it.
         */
        public static boolean headerMatches(String expected, String actual) {
            if (actual == null) {
                return false;
            }
            if (expected.startsWith(REGEX_PREFIX)) {
                return UserRegex.matchesWhole(expected.substring(REGEX_PREFIX.length()), actual);
            }
            return expected.equals(actual);
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

    /** A TCP check: connect to {@code host:port}; optionally {@code send} text and {@code expect} it in the banner. */
    public record Tcp(String host, Integer port, String send, String expect) {
        public Tcp {
            Require.matches("host", host, HOST, "a host name or an IP address");
            Require.range("port", Require.present("port", port), 1, 65535);
            send = protocolText("send", send, 4096);
            expect = protocolText("expect", expect, 1024);
        }

        /** Line-based protocols need their line endings: tab, CR and LF pass, every other control character does not. */
        private static String protocolText(String field, String value, int max) {
            if (value == null) {
                return null;
            }
            if (value.isEmpty()) {
                throw new ContractViolation(field, "must not be empty");
            }
            if (value.length() > max) {
                throw new ContractViolation(field, "must be at most " + max + " characters");
            }
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c < 0x20 && c != '\t' && c != '\r' && c != '\n') {
                    throw new ContractViolation(field, "must not contain control characters other than tab, CR and LF");
                }
            }
            return value;
        }
    }

    /**
     * A DNS check: resolve {@code query} for {@code recordType} (A, AAAA, CNAME, MX, TXT, NS; read case-insensitively,
     * written in upper case) through {@code resolver} ({@code ipv4}, {@code ipv4:port}, {@code [ipv6]},
     * {@code [ipv6]:port} or a bare {@code ipv6}, port 1-65535; absent: the system's resolvers). The answer must contain every value of
     * {@code expect} (compared case-insensitively, without a trailing dot), or, without one, be non-empty.
     */
    public record Dns(
            String query,
            String recordType,
            String resolver,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> expect) {
        public static final Set<String> RECORD_TYPES = Set.of("A", "AAAA", "CNAME", "MX", "TXT", "NS");
        private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_]([A-Za-z0-9_.-]{0,251}[A-Za-z0-9.])?");
        private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
        private static final String IPV4 = OCTET + "(\\." + OCTET + "){3}";
        /** The shape of an IPv6 literal (hex groups and colons, optionally ending in an IPv4 address). */
        private static final String IPV6 =
                "(([0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}|([0-9A-Fa-f]{0,4}:){2,6}" + IPV4 + ")";

        private static final String PORT =
                "(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})";
        /** {@code ipv4[:port]}, {@code [ipv6][:port]} or a bare {@code ipv6}; the port 1-65535. */
        static final Pattern RESOLVER =
                Pattern.compile(IPV4 + "(:" + PORT + ")?|\\[" + IPV6 + "](:" + PORT + ")?|" + IPV6);

        public Dns {
            Require.matches("query", query, NAME, "a DNS name such as example.com");
            recordType = recordType == null ? "A" : asciiUpperCase(recordType);
            if (!RECORD_TYPES.contains(recordType)) {
                throw new ContractViolation("recordType", "must be one of A, AAAA, CNAME, MX, TXT, NS");
            }
            if (resolver != null) {
                Require.matches(
                        "resolver",
                        resolver,
                        RESOLVER,
                        "an IP address, optionally with :port " + "(e.g. 9.9.9.9 or [2620:fe::fe]:53)");
            }
            expect = Require.list("expect", expect, 16);
            for (int i = 0; i < expect.size(); i++) {
                Require.text("expect[" + i + "]", expect.get(i), 255);
            }
        }

        /**
         * Upper-cases a-z only ({@code recordType} is read case-insensitively in ASCII): {@code String.toUpperCase}
         * would also turn U+017F (long s) into S, and accept a spelling of NS that the schema's pattern does not.
         */
        private static String asciiUpperCase(String s) {
            char[] chars = s.toCharArray();
            for (int i = 0; i < chars.length; i++) {
                if (chars[i] >= 'a' && chars[i] <= 'z') {
                    chars[i] = (char) (chars[i] - ('a' - 'A'));
                }
            }
            return new String(chars);
        }
    }

    /** A TLS check on any port: handshake, chain and host name validity, days left ({@code tlsExpiryWarnDays}). */
    public record Tls(String host, Integer port) {
        public Tls {
            Require.matches("host", host, HOST, "a host name or an IP address");
            port = port == null ? 443 : port;
            Require.range("port", port, 1, 65535);
        }
    }

    /**
     * A heartbeat (push) monitor, for cron jobs and batch work: the job pings ingest once per window. Windows are
     * {@code intervalSeconds} long, or, with a {@code schedule}, run from one cron fire time to the next (a
     * five-field UNIX cron expression in {@code zone}, default UTC). A window without a ping by its end plus
     * {@code graceSeconds} (default 60) is a failure. {@code tokenSha256} is the hash of the monitor's ping token
     * ({@code vigil monitors apply} creates the token and prints the ping command once); without one every ping is
     * refused. Pings are POSTs; {@code allowGet} (default false) also accepts a GET with {@code ?token=}, which link
     * previews, crawlers and prefetching mail clients send on their own, and whose URL lands in logs and histories.
     */
    public record Heartbeat(String schedule, String zone, Integer graceSeconds, String tokenSha256, Boolean allowGet) {
        private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

        public Heartbeat {
            if (schedule != null) {
                schedule = schedule.trim();
                HeartbeatSchedules.validate("schedule", schedule);
            }
            zone = zone == null ? "UTC" : zone;
            try {
                java.time.ZoneId.of(zone);
            } catch (java.time.DateTimeException e) {
                throw new ContractViolation("zone", "must be an IANA time zone such as Europe/Paris");
            }
            graceSeconds = graceSeconds == null ? 60 : graceSeconds;
            Require.range("graceSeconds", graceSeconds, 0, 86_400);
            if (tokenSha256 != null) {
                Require.matches("tokenSha256", tokenSha256, SHA256, "the lower-case hex SHA-256 of the ping token");
            }
            allowGet = allowGet != null && allowGet;
        }

        /** POST pings only. */
        public Heartbeat(String schedule, String zone, Integer graceSeconds, String tokenSha256) {
            this(schedule, zone, graceSeconds, tokenSha256, null);
        }

        static Heartbeat defaults() {
            return new Heartbeat(null, null, null, null, null);
        }

        /** The same heartbeat with the hash of its ping token. */
        public Heartbeat withTokenSha256(String sha256) {
            return new Heartbeat(schedule, zone, graceSeconds, sha256, allowGet);
        }
    }
}
