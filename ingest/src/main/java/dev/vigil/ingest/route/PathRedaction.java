package dev.vigil.ingest.route;

/**
 * Request paths as ingest writes them where anyone but the caller may read them: problem bodies ({@code instance},
 * the 404 detail) and the access log. Two credentials can travel in a URL:
 * <ul>
 *   <li>BetterStack can only be given a URL, so its webhook token is a path segment
 *       ({@code /v1/integrations/betterstack/<token>}); whatever follows {@code betterstack} in a path is written as
 *       {@code /…}, whatever the route, the case or the slashes;</li>
 *   <li>a heartbeat ping from a crontab line carries its token as a query parameter
 *       ({@code /v1/heartbeat/<id>?token=<token>}). No ingest route takes any other query parameter, so every
 *       parameter's value is written as {@code …} (its name stays), and a parameter without a name (a token pasted
 *       as {@code ?<token>}) as {@code …}: a token in the query is hidden however it was spelt.</li>
 * </ul>
 * So a token never reaches a log line, a metric or a problem body, not even one sent to a misspelt or unconfigured
 * route.
 */
public final class PathRedaction {
    private static final String MARKER = "betterstack";
    /** What stands in for the redacted rest of a path. */
    public static final String REDACTED = "/…";
    /** What stands in for a redacted query parameter value. */
    public static final String REDACTED_VALUE = "…";

    private PathRedaction() {}

    /**
     * The path (with or without query) with anything after {@code betterstack} (any case) replaced by {@code /…}, and
     * every query parameter value by {@code …}.
     */
    public static String redact(String path) {
        if (path == null) {
            return null;
        }
        int n = MARKER.length();
        for (int i = 0; i + n <= path.length(); i++) {
            if (path.regionMatches(true, i, MARKER, 0, n)) {
                return i + n == path.length() ? path : path.substring(0, i + n) + REDACTED;
            }
        }
        int q = path.indexOf('?');
        return q < 0 ? path : path.substring(0, q + 1) + redactQuery(path.substring(q + 1));
    }

    /** Every value written as {@code …}: names stay (they say what was sent), a bare parameter becomes {@code …}. */
    private static String redactQuery(String query) {
        StringBuilder out = new StringBuilder(query.length());
        int i = 0;
        while (true) {
            int amp = query.indexOf('&', i);
            int end = amp < 0 ? query.length() : amp;
            int eq = query.indexOf('=', i);
            if (eq >= 0 && eq < end) {
                out.append(query, i, eq).append('=').append(REDACTED_VALUE);
            } else if (end > i) {
                out.append(REDACTED_VALUE);
            }
            if (amp < 0) {
                return out.toString();
            }
            out.append('&');
            i = amp + 1;
        }
    }
}
