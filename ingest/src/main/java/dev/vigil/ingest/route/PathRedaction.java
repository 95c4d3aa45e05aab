package dev.vigil.ingest.route;

/**
 * Request paths as ingest writes them where anyone but the caller may read them: problem bodies ({@code instance},
 * the 404 detail) and the access log. BetterStack can only be given a URL, so its webhook token is a path segment
 * ({@code /v1/integrations/betterstack/<token>}); whatever follows {@code betterstack} in a path is written as
 * {@code /…}, whatever the route, the case or the slashes, so a token never reaches a log line, a metric or a
 * problem body, not even one posted to a misspelt or unconfigured route.
 */
public final class PathRedaction {
    private static final String MARKER = "betterstack";
    /** What stands in for the redacted rest of a path. */
    public static final String REDACTED = "/…";

    private PathRedaction() {
    }

    /** The path (with or without query) with anything after {@code betterstack} (any case) replaced by {@code /…}. */
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
        return path;
    }
}
