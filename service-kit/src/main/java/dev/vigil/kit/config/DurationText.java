package dev.vigil.kit.config;

import dev.vigil.schemas.contract.ContractViolation;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations in configuration: {@code 500ms}, {@code 10s}, {@code 5m}, {@code 1h}, {@code 2d} or ISO-8601 ({@code PT1H}). */
public final class DurationText {
    private static final Pattern SHORT = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

    private DurationText() {
    }

    public static Duration parse(String field, String text) {
        if (text == null || text.isBlank()) {
            throw new ContractViolation(field, "is required (e.g. 10s, 5m, 1h)");
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
                throw new ContractViolation(field, "must be a duration such as 500ms, 10s, 5m, 1h or PT1H");
            }
        }
        if (d.isNegative() || d.isZero()) {
            throw new ContractViolation(field, "must be positive");
        }
        return d;
    }
}
