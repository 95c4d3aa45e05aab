package dev.vigil.schemas.silence;

import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.Require;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The weekly recurrence of a maintenance window (docs/design.md#incident-lifecycle): an occurrence starts on each of {@code days} at
 * {@code at} local time in {@code zone} and lasts {@code durationMinutes} of real elapsed time, so it may run past
 * midnight into the next day. The silence carrying the schedule bounds the series ({@link Silence#activeAt}).
 *
 * <p>Local time is resolved as follows:
 * <ul>
 *   <li>an {@code at} inside a spring-forward gap (Europe/Paris, last Sunday of March: 02:00 jumps to 03:00) starts
 *       the occurrence at the first valid instant after the gap, the transition itself (03:00 local), so the window
 *       keeps its full duration. This is deliberately not {@code ZonedDateTime.of}, which would move 02:30 on by the
 *       gap's length, to 03:30;</li>
 *   <li>an {@code at} inside an autumn overlap (02:00–03:00 happens twice) uses the earlier offset (summer time),
 *       as {@code ZonedDateTime.of} does, so the occurrence happens once, the first time the clock shows it;</li>
 *   <li>the duration is elapsed time, not wall-clock time: a two-hour window from 01:30 on the fall-back night ends
 *       at 02:30 winter time.</li>
 * </ul>
 * Zone rules are the JDK's time-zone database, so instances on the same JDK agree; a replay gives the same answer.
 *
 * @param days the weekdays occurrences start on, lower-case three letters ({@code mon} … {@code sun}), at least one,
 *             each once; kept in week order (Monday first) so equal schedules are equal records
 * @param at the local start time, {@code HH:MM} (24-hour)
 * @param durationMinutes how long each occurrence lasts, 1 to 1440 (a day)
 * @param zone an IANA time-zone id such as {@code Europe/Paris}, or {@code UTC}; fixed offsets such as {@code +02:00}
 *             are refused (they would silently ignore daylight saving time)
 */
public record Schedule(List<String> days, String at, Integer durationMinutes, String zone) {
    /** The wire names of the days, in {@link java.time.DayOfWeek} order (Monday first). */
    public static final List<String> DAY_NAMES = List.of("mon", "tue", "wed", "thu", "fri", "sat", "sun");

    public static final int MAX_DURATION_MINUTES = 24 * 60;
    static final Pattern AT = Pattern.compile("([01][0-9]|2[0-3]):[0-5][0-9]");
    /** Region ids known to this JDK; read once (the JDK copies the set on every call). */
    private static final Set<String> ZONES = Set.copyOf(ZoneId.getAvailableZoneIds());

    private static final long MINUTE_MS = 60_000L;

    public Schedule {
        Require.present("days", days);
        if (days.isEmpty()) {
            throw new ContractViolation("days", "must list at least one day (" + String.join(", ", DAY_NAMES) + ")");
        }
        boolean[] seen = new boolean[7];
        for (int i = 0; i < days.size(); i++) {
            String day = Require.present("days[" + i + "]", days.get(i));
            int index = DAY_NAMES.indexOf(day);
            if (index < 0) {
                throw new ContractViolation("days[" + i + "]", "must be one of " + String.join(", ", DAY_NAMES));
            }
            if (seen[index]) {
                throw new ContractViolation("days[" + i + "]", "repeats an earlier day");
            }
            seen[index] = true;
        }
        List<String> ordered = new ArrayList<>(days.size());
        for (int i = 0; i < 7; i++) {
            if (seen[i]) {
                ordered.add(DAY_NAMES.get(i));
            }
        }
        days = List.copyOf(ordered);
        Require.matches("at", at, AT, "a local time HH:MM such as 02:00 (24-hour)");
        Require.range("durationMinutes", Require.present("durationMinutes", durationMinutes), 1, MAX_DURATION_MINUTES);
        Require.present("zone", zone);
        if (zone.length() > 64 || !ZONES.contains(zone)) {
            throw new ContractViolation("zone", "must be an IANA time-zone id such as Europe/Paris or UTC");
        }
    }

    /**
     * True when an occurrence that started at or after {@code notBefore} is in force at {@code t}: it started at
     * or before {@code t} and its duration has not elapsed.
     */
    public boolean inOccurrence(long t, long notBefore) {
        ZoneId zoneId = ZoneId.of(zone);
        LocalDate today = Instant.ofEpochMilli(t).atZone(zoneId).toLocalDate();
        long length = durationMinutes * MINUTE_MS;
        // An occurrence lasts at most a day, so it started on the local day of t or the one before; a day more on
        // either side covers zones whose clocks skipped or repeated a whole day (Pacific/Apia in 2011).
        for (LocalDate d = today.minusDays(3); !d.isAfter(today.plusDays(1)); d = d.plusDays(1)) {
            if (listed(d)) {
                long start = occurrenceStart(d, zoneId);
                if (start >= notBefore && start <= t && t < start + length) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The start of the earliest occurrence that starts at or after {@code from} (epoch ms). */
    public OptionalLong nextStart(long from) {
        ZoneId zoneId = ZoneId.of(zone);
        LocalDate first = Instant.ofEpochMilli(from).atZone(zoneId).toLocalDate();
        long best = Long.MAX_VALUE;
        // every listed weekday comes round within a week; a day either side as in inOccurrence
        for (LocalDate d = first.minusDays(1); !d.isAfter(first.plusDays(8)); d = d.plusDays(1)) {
            if (listed(d)) {
                long start = occurrenceStart(d, zoneId);
                if (start >= from && start < best) {
                    best = start;
                }
            }
        }
        return best == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(best);
    }

    /**
     * The instant (epoch ms) the occurrence of local day {@code day} starts: {@code at} on that day in the zone; in a
     * gap, the first valid instant after it; in an overlap, the earlier offset.
     */
    public long occurrenceStart(LocalDate day) {
        return occurrenceStart(day, ZoneId.of(zone));
    }

    private long occurrenceStart(LocalDate day, ZoneId zoneId) {
        LocalDateTime local = day.atTime(LocalTime.parse(at));
        ZoneRules rules = zoneId.getRules();
        List<ZoneOffset> offsets = rules.getValidOffsets(local);
        if (offsets.isEmpty()) {
            return rules.getTransition(local).getInstant().toEpochMilli();
        }
        // one offset normally; two in an overlap, the earlier (pre-transition) offset first
        return local.toInstant(offsets.get(0)).toEpochMilli();
    }

    private boolean listed(LocalDate d) {
        return days.contains(DAY_NAMES.get(d.getDayOfWeek().ordinal()));
    }

    /** {@code mon,tue 02:00 for 60m Europe/Paris}: for audit details and logs. */
    public String text() {
        return String.join(",", days) + " " + at + " for " + durationMinutes + "m " + zone;
    }
}
