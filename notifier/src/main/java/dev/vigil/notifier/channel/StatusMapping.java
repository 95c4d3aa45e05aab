package dev.vigil.notifier.channel;

import dev.vigil.notifier.core.DeliveryOutcome;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The shared HTTP status → outcome rules (SPEC section 8): 2xx delivered; 408, 429 and 5xx transient (with the
 * Retry-After when given, in seconds or as an HTTP date); any other status permanent. Adapters add their vendor's
 * exceptions on top.
 */
public final class StatusMapping {
    private StatusMapping() {
    }

    public static DeliveryOutcome map(String vendor, HttpReply reply, Clock clock) {
        int s = reply.status();
        if (s >= 200 && s < 300) {
            return new DeliveryOutcome.Delivered(s, null);
        }
        if (isTransient(s)) {
            return new DeliveryOutcome.Transient(vendor + " answered HTTP " + s + snippet(reply.body()),
                    retryAfter(reply.header("retry-after"), clock), s);
        }
        return new DeliveryOutcome.Permanent(vendor + " answered HTTP " + s + snippet(reply.body()), s);
    }

    public static boolean isTransient(int status) {
        return status == 408 || status == 429 || status >= 500;
    }

    /** Seconds ("2", "1.5") or an HTTP date; null when absent or unreadable; never negative. */
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

    /** A short, single-line excerpt of a vendor's error body for the reason (vendor errors carry no secrets of ours). */
    public static String snippet(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        return ": " + Text.truncate(Text.oneLine(body).strip(), 200);
    }
}
