package dev.vigil.streams.query;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * A time given to the API (query parameter or body field): an ISO-8601 instant or epoch milliseconds between
 * 1970-01-01 and 9999-12-31. Anything else, including instants Java can parse but not turn into epoch
 * milliseconds ({@code +999999999-01-01T00:00:00Z}), is an {@link IllegalArgumentException} naming the field:
 * a 400, never a 500.
 */
public final class TimeParam {
    /** 9999-12-31T23:59:59.999Z. */
    public static final long MAX_EPOCH_MS = 253_402_300_799_999L;

    private TimeParam() {}

    public static long epochMillis(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("'" + name + "' is required (ISO-8601 instant or epoch milliseconds)");
        }
        long ms;
        try {
            if (value.length() <= 19 && value.chars().allMatch(Character::isDigit)) {
                ms = Long.parseLong(value);
            } else {
                ms = Instant.parse(value).toEpochMilli();
            }
        } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
            throw outOfRange(name);
        }
        return check(name, ms);
    }

    /** Checks an epoch-millisecond value already parsed (e.g. a JSON number). */
    public static long check(String name, long ms) {
        if (ms < 0 || ms > MAX_EPOCH_MS) {
            throw outOfRange(name);
        }
        return ms;
    }

    public static Instant instant(String name, String value) {
        return Instant.ofEpochMilli(epochMillis(name, value));
    }

    private static IllegalArgumentException outOfRange(String name) {
        return new IllegalArgumentException("'" + name + "' must be an ISO-8601 instant or epoch milliseconds between "
                + "1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z");
    }
}
