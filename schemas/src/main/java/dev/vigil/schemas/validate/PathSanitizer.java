package dev.vigil.schemas.validate;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Turns whatever a producer has for "the path" into a {@code DomainMetric.pathname}: starts with {@code /},
 * no query string or fragment, no control characters, no empty, {@code .} or {@code ..} segments, at most
 * {@value #MAX_LENGTH} characters, and never carrying data the {@link PrivacyGuard} forbids.
 *
 * <ul>
 *   <li>An absolute URL keeps only its path ({@code https://host/menu?x=1} becomes {@code /menu}).</li>
 *   <li>Anything else with a scheme ({@code mailto:}, {@code javascript:}, {@code data:}) is not a path and
 *       becomes {@code /}; so do null and blank. A relative path gets a leading {@code /}.</li>
 *   <li>{@code //a//b} is a path with doubled slashes, not a protocol-relative URL: it becomes {@code /a/b}.
 *       A trailing slash is kept.</li>
 *   <li>A segment the guard flags (an e-mail address, a phone or card number, a token, also when
 *       percent-encoded) is replaced by {@value #REDACTED}, so the route stays countable while the data
 *       goes. Ordinary ids ({@code /menu/2024}, UUIDs, numeric ids) are untouched. If the result as a
 *       whole would still be flagged (a pattern spanning segments, or one made by truncation), it becomes
 *       {@code /{redacted}}.</li>
 * </ul>
 *
 * <p>Percent-encoding is kept as it came; decoding only happens to look for data.
 */
public final class PathSanitizer {
    public static final int MAX_LENGTH = 512;
    public static final String REDACTED = "{redacted}";

    private static final Pattern ABSOLUTE_URL = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://");
    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:");

    private PathSanitizer() {}

    public static String sanitize(String pathname) {
        if (pathname == null) {
            return "/";
        }
        String path = withoutControlCharacters(pathname).strip();
        // both patterns start with a letter: the common "/..." needs neither
        if (!path.startsWith("/")) {
            var url = ABSOLUTE_URL.matcher(path);
            if (url.lookingAt()) {
                int pathStart = indexOfAny(path, "/?#", url.end());
                path = pathStart < 0 ? "" : path.substring(pathStart);
            } else if (SCHEME.matcher(path).lookingAt()) {
                return "/";
            }
        }
        int queryOrFragment = indexOfAny(path, "?#", 0);
        if (queryOrFragment >= 0) {
            path = path.substring(0, queryOrFragment);
        }
        String result = bounded(normalised(path));
        return PiiDetector.detect(result) == null ? result : "/" + REDACTED;
    }

    /** Joins the non-empty segments, resolving dot segments and redacting flagged ones. */
    private static String normalised(String path) {
        List<String> segments = new ArrayList<>();
        boolean trailingSlash = false;
        int start = 0;
        while (start <= path.length()) {
            int slash = path.indexOf('/', start);
            int end = slash < 0 ? path.length() : slash;
            String segment = path.substring(start, end);
            trailingSlash = segment.isEmpty() || segment.equals(".") || segment.equals("..");
            if (segment.equals("..")) {
                if (!segments.isEmpty()) {
                    segments.remove(segments.size() - 1);
                }
            } else if (!segment.isEmpty() && !segment.equals(".")) {
                segments.add(PiiDetector.detect(segment) == null ? segment : REDACTED);
            }
            start = end + 1;
        }
        if (segments.isEmpty()) {
            return "/";
        }
        var out = new StringBuilder(path.length() + 1);
        for (String segment : segments) {
            out.append('/').append(segment);
        }
        if (trailingSlash) {
            out.append('/');
        }
        return out.toString();
    }

    private static String bounded(String path) {
        if (path.length() <= MAX_LENGTH) {
            return path;
        }
        int end = Character.isHighSurrogate(path.charAt(MAX_LENGTH - 1)) ? MAX_LENGTH - 1 : MAX_LENGTH;
        return path.substring(0, end);
    }

    private static String withoutControlCharacters(String value) {
        StringBuilder out = null;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean control = c < 0x20 || c == 0x7f;
            if (control && out == null) {
                out = new StringBuilder(value.length()).append(value, 0, i);
            } else if (!control && out != null) {
                out.append(c);
            }
        }
        return out == null ? value : out.toString();
    }

    private static int indexOfAny(String s, String chars, int from) {
        for (int i = from; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }
}
