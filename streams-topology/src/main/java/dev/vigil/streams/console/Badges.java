package dev.vigil.streams.console;

import com.samskivert.mustache.Template;
import dev.vigil.kit.template.Templates;
import java.util.Locale;

/** Flat two-part SVG badges (label | value), the shape README badges have, from a template that escapes every text. */
public final class Badges {
    static final int MAX_LABEL = 40;

    private Badges() {}

    /** {@code <name> | up}, coloured by status. */
    public static String status(String name, String status) {
        return badge(truncate(name), status, colour(status));
    }

    /** {@code uptime 30d | 99.95%}, or {@code no data}. */
    public static String uptime(int days, Double percent) {
        String value = percent == null ? "no data" : String.format(Locale.ROOT, "%.2f%%", percent);
        String colour =
                percent == null ? "#6e7681" : percent >= 99.9 ? "#1a7f37" : percent >= 99 ? "#9a6700" : "#cf222e";
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

    private static final Template BADGE = Templates.html("templates/badge.svg.mustache");

    record BadgeView(
            String label,
            String value,
            String colour,
            int width,
            int labelWidth,
            int valueWidth,
            int labelCenter,
            int valueCenter) {}

    /** Text widths are estimated (Verdana 11 px averages about 7 px a character); the badge need only fit. */
    static String badge(String label, String value, String colour) {
        int lw = 10 + 7 * label.codePointCount(0, label.length());
        int vw = 10 + 7 * value.codePointCount(0, value.length());
        return BADGE.execute(new BadgeView(
                StatusPageHtml.text(label), StatusPageHtml.text(value), colour, lw + vw, lw, vw, lw / 2, lw + vw / 2));
    }
}
