package dev.vigil.notifier.core;

/**
 * Text rules shared by every adapter: safe truncation for vendor limits (counts UTF-16 units, what Slack and
 * Discord count, never splits a surrogate pair) and removal of invisible characters.
 */
public final class Text {
    public static final String ELLIPSIS = "…";

    private Text() {}

    public static String truncate(String s, int max) {
        if (s == null) {
            return "";
        }
        if (s.length() <= max) {
            return s;
        }
        if (max <= 0) {
            return "";
        }
        int cut = max - ELLIPSIS.length();
        if (cut <= 0) {
            return s.substring(0, safeCut(s, max));
        }
        return s.substring(0, safeCut(s, cut)) + ELLIPSIS;
    }

    private static int safeCut(String s, int cut) {
        return cut > 0 && Character.isHighSurrogate(s.charAt(cut - 1)) ? cut - 1 : cut;
    }

    private static final java.util.regex.Pattern ONE_LINE = java.util.regex.Pattern.compile("[\\p{Cc}\\u2028\\u2029]+");

    /** One line, control characters replaced: vendor titles and log lines. */
    public static String oneLine(String s) {
        // \p{Cc} covers C1 controls such as NEL (U+0085) too, which \p{Cntrl} (ASCII only) lets through; U+2028 and
        // U+2029 are line and paragraph separators that many renderers break on
        return s == null ? "" : ONE_LINE.matcher(s).replaceAll(" ");
    }

    /**
     * Removes bidi controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and zero-width characters
     * (U+200B-U+200D, U+2060, U+FEFF). They render as nothing, yet can reverse what follows them or split a word a
     * reader (or a filter) would recognise, so a page could show something other than what was sent.
     * Returns {@code s} itself when there is nothing to remove.
     */
    public static String stripInvisible(String s) {
        if (s == null) {
            return null;
        }
        int first = firstInvisible(s);
        if (first < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        sb.append(s, 0, first);
        for (int i = first + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!isInvisible(c)) {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** True when {@link #stripInvisible} would change {@code s}. */
    public static boolean hasInvisible(String s) {
        return s != null && firstInvisible(s) >= 0;
    }

    private static int firstInvisible(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (isInvisible(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /** All of them are in the BMP, so a char test never meets half a surrogate pair. */
    public static boolean isInvisible(char c) {
        return c == '\u061C' // arabic letter mark
                || (c >= '\u200B' && c <= '\u200D') // zero-width space, non-joiner, joiner
                || c == '\u200E'
                || c == '\u200F' // left-to-right and right-to-left marks
                || (c >= '\u202A' && c <= '\u202E') // embeddings and overrides
                || c == '\u2060' // word joiner
                || (c >= '\u2066' && c <= '\u2069') // isolates
                || c == '\uFEFF'; // zero-width no-break space (byte order mark)
    }
}
