package dev.vigil.streams.console;

import java.util.Locale;

/** Flat two-part SVG badges (label | value), the shape README badges have; every text escaped. */
public final class Badges {
    static final int MAX_LABEL = 40;

    private Badges() {
    }

    /** {@code <name> | up}, coloured by status. */
    public static String status(String name, String status) {
        return badge(truncate(name), status, colour(status));
    }

    /** {@code uptime 30d | 99.95%}, or {@code no data}. */
    public static String uptime(int days, Double percent) {
        String value = percent == null ? "no data" : String.format(Locale.ROOT, "%.2f%%", percent);
        String colour = percent == null ? "#6e7681" : percent >= 99.9 ? "#1a7f37" : percent >= 99 ? "#9a6700" : "#cf222e";
        return badge("uptime " + days + "d", value, colour);
    }

    static String colour(String status) {
        return switch (status) {
            case "up" -> "#1a7f37";
            case "degraded" -> "#9a6700";
            case "down" -> "#cf222e";
            default -> "#6e7681";
        };
    }

    private static String truncate(String s) {
        return s.length() <= MAX_LABEL ? s : s.substring(0, MAX_LABEL - 1) + "…";
    }

    /** Text widths are estimated (Verdana 11 px averages about 7 px a character); the badge need only fit. */
    static String badge(String label, String value, String colour) {
        int lw = 10 + 7 * label.codePointCount(0, label.length());
        int vw = 10 + 7 * value.codePointCount(0, value.length());
        int w = lw + vw;
        String l = Html.escape(label);
        String v = Html.escape(value);
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + w + "\" height=\"20\" role=\"img\" aria-label=\""
                + l + ": " + v + "\"><title>" + l + ": " + v + "</title>"
                + "<rect width=\"" + lw + "\" height=\"20\" rx=\"3\" fill=\"#555\"/>"
                + "<rect x=\"" + lw + "\" width=\"" + vw + "\" height=\"20\" rx=\"3\" fill=\"" + colour + "\"/>"
                + "<g fill=\"#fff\" font-family=\"Verdana,DejaVu Sans,sans-serif\" font-size=\"11\" text-anchor=\"middle\">"
                + "<text x=\"" + (lw / 2) + "\" y=\"14\">" + l + "</text>"
                + "<text x=\"" + (lw + vw / 2) + "\" y=\"14\">" + v + "</text></g></svg>";
    }
}
