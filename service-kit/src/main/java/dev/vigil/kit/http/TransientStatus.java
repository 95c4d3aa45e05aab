package dev.vigil.kit.http;

import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The one rule for "is this HTTP answer worth retrying": 408, 429 and every 5xx are transient (the server may take
 * the same request later); every other status is the answer. With it, the one reading of {@code Retry-After}.
 */
public final class TransientStatus {
    private TransientStatus() {}

    public static boolean isTransient(int status) {
        return status == 408 || status == 429 || status >= 500;
    }

    /**
     * {@code Retry-After} as delay-seconds ({@code 2}, {@code 1.5}) or an HTTP date; null when absent, unreadable
     * or longer than a day; never negative (a date in the past is zero).
     */
    public static Duration retryAfter(String value, Clock clock) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.strip();
        try {
            double secs = Double.parseDouble(v);
            if (secs < 0 || Double.isNaN(secs) || secs > 86_400) {
                return null;
            }
            return Duration.ofMillis((long) Math.ceil(secs * 1000));
        } catch (NumberFormatException e) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
                Duration d = Duration.between(clock.instant(), at.toInstant());
                return d.isNegative() ? Duration.ZERO : d;
            } catch (DateTimeParseException ex) {
                return null;
            }
        }
    }
}
