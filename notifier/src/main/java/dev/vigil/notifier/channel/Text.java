package dev.vigil.notifier.channel;

/** Safe truncation for vendor limits: counts UTF-16 units (what Slack and Discord count), never splits a surrogate pair. */
public final class Text {
    public static final String ELLIPSIS = "…";

    private Text() {
    }

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

    /** One line, control characters replaced: vendor titles and log lines. */
    public static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\p{Cntrl}+", " ");
    }
}
