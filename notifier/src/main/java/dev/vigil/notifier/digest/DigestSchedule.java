package dev.vigil.notifier.digest;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

/**
 * When the daily digest is due: at a wall-clock time in a zone, once per local date. On the day clocks go forward,
 * a time that does not exist that day (02:30 in Europe/Berlin) is due at the same moment one hour later (03:30, the
 * gap's length); on the day they go back, a time that happens twice is due at its first occurrence. The digest of a
 * day covers the time since the previous day's due moment, so a day of 23 or 25 hours is covered whole.
 */
public record DigestSchedule(LocalTime at, ZoneId zone) {
    public DigestSchedule {
        if (at == null || zone == null) {
            throw new IllegalArgumentException("a digest schedule needs a time and a zone");
        }
    }

    /** The moment the digest of {@code day} is due. */
    public Instant dueOn(LocalDate day) {
        return ZonedDateTime.of(day, at, zone).toInstant();
    }

    /** The latest day whose digest is due at or before {@code now}. */
    public LocalDate latestDueDay(Instant now) {
        LocalDate today = now.atZone(zone).toLocalDate();
        return dueOn(today).isAfter(now) ? today.minusDays(1) : today;
    }

    /** The first day whose digest is due after {@code now}. */
    public LocalDate nextDueDay(Instant now) {
        return latestDueDay(now).plusDays(1);
    }

    /** Where {@code day}'s digest starts: the previous day's due moment. */
    public Instant windowStart(LocalDate day) {
        return dueOn(day.minusDays(1));
    }
}
