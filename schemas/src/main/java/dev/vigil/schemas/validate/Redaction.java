package dev.vigil.schemas.validate;

import dev.vigil.schemas.contract.HeaderValue;
import dev.vigil.schemas.contract.MonitorDefinition;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one rule for what a {@code read} token may see of a monitor's configuration: everything that can carry a
 * credential is replaced by {@link #MARKER}, everything that says what is being checked stays. Every answer that shows
 * a URL or a header value to a reader (the query API, the console, status pages, the CLI) goes through here, so the
 * rule cannot drift between them.
 *
 * <ul>
 *   <li>{@link #redactUrl(String)}: user info ({@code user:password@}) is dropped; every query and fragment parameter
 *       keeps its name and loses its value ({@code ?api_key=abc&page=2} becomes {@code ?api_key=REDACTED&page=REDACTED});
 *       a parameter without {@code =} is replaced whole, since it may be a bare token. Scheme, host, port and path stay.</li>
 *   <li>{@link #redactHeaders(Map)}: header names stay, every value becomes {@link #MARKER} (a plain value, and the
 *       variable name of a {@code secretEnv} one alike: a reader needs to know a header is sent, not what it holds).</li>
 *   <li>{@link #redact(MonitorDefinition)}: a monitor as a reader sees it: its url and links through
 *       {@link #redactUrl}, its request headers through {@link #redactHeaders}, and the other inline texts that are
 *       sent to the target (an http body, a tcp {@code send}) replaced by {@link #MARKER}. Expectations, regions,
 *       names and timings are unchanged.</li>
 * </ul>
 *
 * Pure and stateless; null in, null out. Never throws on a malformed URL: the same text rules apply to whatever is
 * there.
 */
public final class Redaction {
    /** What a redacted value reads as. */
    public static final String MARKER = "REDACTED";

    private Redaction() {}

    /** {@code url} without user info and with every query and fragment value replaced by {@link #MARKER}. */
    public static String redactUrl(String url) {
        if (url == null) {
            return null;
        }
        int hash = url.indexOf('#');
        String fragment = hash >= 0 ? url.substring(hash + 1) : null;
        String beforeFragment = hash >= 0 ? url.substring(0, hash) : url;
        int question = beforeFragment.indexOf('?');
        String query = question >= 0 ? beforeFragment.substring(question + 1) : null;
        String base = withoutUserInfo(question >= 0 ? beforeFragment.substring(0, question) : beforeFragment);
        var out = new StringBuilder(url.length() + 16).append(base);
        if (query != null) {
            out.append('?').append(redactParameters(query));
        }
        if (fragment != null) {
            out.append('#').append(redactParameters(fragment));
        }
        return out.toString();
    }

    /** The same header names (in the same order) with every value replaced by {@link #MARKER}. */
    public static Map<String, String> redactHeaders(Map<String, ?> headers) {
        if (headers == null) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String name : headers.keySet()) {
            out.put(name, MARKER);
        }
        return Collections.unmodifiableMap(out);
    }

    /** One header value as a reader sees it: {@link #MARKER}, or null for none. */
    public static String redactHeaderValue(Object value) {
        return value == null ? null : MARKER;
    }

    /** {@code monitor} as a {@code read} token may see it (see the class comment for what changes). */
    public static MonitorDefinition redact(MonitorDefinition monitor) {
        if (monitor == null) {
            return null;
        }
        Map<String, HeaderValue> headers = null;
        if (monitor.headers() != null && !monitor.headers().isEmpty()) {
            headers = new TreeMap<>();
            for (String name : monitor.headers().keySet()) {
                headers.put(name, HeaderValue.plain(MARKER));
            }
        }
        Map<String, String> links = null;
        if (monitor.links() != null) {
            links = new TreeMap<>();
            for (var e : monitor.links().entrySet()) {
                links.put(e.getKey(), redactUrl(e.getValue()));
            }
        }
        MonitorDefinition.Tcp tcp = monitor.tcp();
        if (tcp != null && tcp.send() != null) {
            tcp = new MonitorDefinition.Tcp(tcp.host(), tcp.port(), MARKER, tcp.expect());
        }
        return new MonitorDefinition(
                monitor.schemaVersion(),
                monitor.id(),
                monitor.name(),
                redactUrl(monitor.url()),
                monitor.method(),
                monitor.intervalSeconds(),
                monitor.timeoutMs(),
                monitor.regions(),
                monitor.expect(),
                monitor.tlsExpiryWarnDays(),
                monitor.severity(),
                monitor.service(),
                monitor.component(),
                links,
                monitor.enabled(),
                monitor.type(),
                headers,
                monitor.body() == null ? null : MARKER,
                tcp,
                monitor.dns(),
                monitor.tls(),
                monitor.heartbeat(),
                monitor.dependsOn());
    }

    /** scheme://user:pass@host/path becomes scheme://host/path; the last {@code @} of the authority ends user info. */
    private static String withoutUserInfo(String base) {
        int scheme = base.indexOf("//");
        if (scheme < 0) {
            return base;
        }
        int authorityStart = scheme + 2;
        int authorityEnd = base.indexOf('/', authorityStart);
        if (authorityEnd < 0) {
            authorityEnd = base.length();
        }
        int at = base.lastIndexOf('@', authorityEnd - 1);
        if (at < authorityStart) {
            return base;
        }
        return base.substring(0, authorityStart) + base.substring(at + 1);
    }

    private static String redactParameters(String parameters) {
        if (parameters.isEmpty()) {
            return parameters;
        }
        var out = new StringBuilder(parameters.length() + 16);
        int start = 0;
        while (start <= parameters.length()) {
            int end = nextSeparator(parameters, start);
            String part = parameters.substring(start, end);
            int eq = part.indexOf('=');
            if (!part.isEmpty()) {
                out.append(eq > 0 ? part.substring(0, eq + 1) + MARKER : MARKER);
            }
            if (end < parameters.length()) {
                out.append(parameters.charAt(end));
            }
            start = end + 1;
        }
        return out.toString();
    }

    private static int nextSeparator(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '&' || c == ';') {
                return i;
            }
        }
        return s.length();
    }
}
