package dev.vigil.kit.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations in configuration, the one way every service writes them: {@code 500ms}, {@code 10s}, {@code 5m},
 * {@code 1h}, {@code 7d}, or ISO-8601 ({@code PT1H}). A bare number is refused: its unit would be a guess.
 */
public final class DurationText {
    /** The message of every duration that cannot be read; it never repeats the value. */
    public static final String EXPECTED = "must be a duration such as 500ms, 10s, 5m, 1h or PT1H";

    private static final Pattern SHORT = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)");
    private static final long[] UNIT_MILLIS = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};
    private static final String[] UNIT_NAMES = {"d", "h", "m", "s", "ms"};

    private DurationText() {}

    /**
     * @return the duration, zero included (whether zero is allowed is the setting's range to say)
     * @throws IllegalArgumentException with {@link #EXPECTED} (or "must not be negative"), never the text itself
     */
    public static Duration parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(EXPECTED);
        }
        String t = text.strip();
        Matcher m = SHORT.matcher(t);
        Duration d;
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            d = switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        } else {
            try {
                d = Duration.parse(t);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(EXPECTED);
            }
        }
        if (d.isNegative()) {
            throw new IllegalArgumentException("must not be negative");
        }
        return d;
    }

    /** The shortest text {@link #parse} reads back as {@code d}: {@code 15m}, not {@code 900s} or {@code PT15M}. */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        if (d.isNegative() || d.getNano() % 1_000_000 != 0) {
            return d.toString();
        }
        long ms = d.toMillis();
        for (int i = 0; i < UNIT_MILLIS.length; i++) {
            if (ms % UNIT_MILLIS[i] == 0) {
                return ms / UNIT_MILLIS[i] + UNIT_NAMES[i];
            }
        }
        return ms + "ms";
    }
}
