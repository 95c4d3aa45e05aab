package dev.vigil.schemas.contract;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The windows of a heartbeat monitor: fixed {@code intervalSeconds} windows aligned to the epoch, or, with a cron
 * {@code schedule}, from one fire time to the next. Cron expressions are five-field UNIX ones, parsed by cron-utils
 * (the same library everywhere: the CLI validates with it, ingest places pings with it, the topology decides missed
 * windows with it).
 *
 * <p>Fire times are wall-clock times in the monitor's zone. Across daylight-saving changes: a wall-clock time the
 * spring change skips does not fire (with {@code 0 2 * * *} in Europe/Paris there is no fire time on 29 March 2026,
 * and the window from 28 March 02:00 CET runs to 30 March 02:00 CEST, 47 hours); a wall-clock time the autumn change
 * repeats fires once, at its first occurrence (25 October 2026 02:00 CEST, not again at 02:00 CET; that window is 25
 * hours long). A job that cron runs once a day therefore pings once per window, and a window may be longer than the
 * schedule's period but never holds two of its runs. Every instant is in exactly one window, and {@link #next} of a
 * window starts where it ends.
 *
 * <p>cron-utils' own {@code nextExecution}/{@code lastExecution} in a zone with daylight saving do not keep to one
 * such sequence (in the autumn overlap {@code lastExecution} also returns the second 02:00, and {@code nextExecution}
 * does too from some instants but not from others), so it is asked only about wall-clock times: the expression is
 * evaluated on local date-times as if they were UTC, where there is no daylight saving, and each fire time is then
 * placed in the zone.
 */
public final class HeartbeatSchedules {
    private static final CronParser PARSER = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    /**
     * Five fields of ASCII cron characters separated by spaces or tabs (after trimming). cron-utils alone would also
     * take digits of other scripts (U+0660) and signs ({@code +3}), which no cron does; this is also the schema's
     * pattern.
     */
    static final Pattern SHAPE = Pattern.compile("[0-9A-Za-z*/,-]+([\\t ]+[0-9A-Za-z*/,-]+){4}");

    public static final int MAX_LENGTH = 120;
    /** Where validation looks for a fire time: a cron that never fires ({@code 0 0 31 2 *}) has no windows. */
    private static final ZonedDateTime REFERENCE = ZonedDateTime.of(2000, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    /** Parsed schedules: ingest places every ping, the topology every window; parsing is the expensive part. */
    private static final Map<String, ExecutionTime> CACHE = new ConcurrentHashMap<>();

    private static final int CACHE_LIMIT = 4096;
    /** Daylight-saving gaps in a row that a search steps over before it gives up (one is the most seen). */
    private static final int MAX_GAPS = 16;

    private HeartbeatSchedules() {}

    /** Refuses {@code expression} (already trimmed) unless it is a five-field UNIX cron expression that fires. */
    static void validate(String field, String expression) {
        if (expression.isEmpty()
                || expression.length() > MAX_LENGTH
                || !SHAPE.matcher(expression).matches()) {
            throw new ContractViolation(
                    field,
                    "must be a five-field cron expression (minute hour day-of-month month "
                            + "day-of-week, e.g. \"0 2 * * *\"), at most " + MAX_LENGTH + " characters");
        }
        ExecutionTime times;
        try {
            var cron = PARSER.parse(expression);
            cron.validate();
            times = ExecutionTime.forCron(cron);
        } catch (RuntimeException e) {
            // IllegalArgumentException for most mistakes, but cron-utils throws others for some inputs
            throw new ContractViolation(
                    field,
                    "is not a five-field cron expression (minute hour day-of-month month "
                            + "day-of-week, e.g. \"0 2 * * *\"): "
                            + (e instanceof IllegalArgumentException ? e.getMessage() : "it cannot be parsed"));
        }
        if (times.nextExecution(REFERENCE).isEmpty()) {
            throw new ContractViolation(field, "never fires (e.g. 31 February)");
        }
    }

    /**
     * The window {@code [start, end)} (epoch ms) of a heartbeat monitor that contains {@code at}: the last fire time
     * at or before {@code at} (a time exactly at a fire time starts that window) to the next fire time after it.
     */
    public static Window windowAt(MonitorDefinition m, long at) {
        if (m.heartbeat() == null || m.heartbeat().schedule() == null) {
            long start = Math.floorDiv(at, m.intervalMs()) * m.intervalMs();
            return new Window(start, start + m.intervalMs());
        }
        String schedule = m.heartbeat().schedule();
        ExecutionTime times = executionTime(schedule);
        ZoneId zone = ZoneId.of(m.heartbeat().zone());
        ZoneRules rules = zone.getRules();
        Instant t = Instant.ofEpochMilli(at);
        LocalDateTime local = LocalDateTime.ofInstant(t, zone);
        // The latest wall-clock time whose first occurrence is at or before t: t's own, except during the second
        // pass through an autumn overlap, when all of the repeated wall-clock times first occurred before t.
        LocalDateTime bound = local;
        ZoneOffsetTransition transition = rules.getTransition(local);
        if (transition != null && transition.isOverlap() && rules.getOffset(t).equals(transition.getOffsetAfter())) {
            bound = transition.getDateTimeBefore().minusNanos(1);
        }
        LocalDateTime start = lastFire(times, bound, rules, schedule);
        LocalDateTime end = nextFire(times, start, rules, schedule);
        return new Window(place(start, zone), place(end, zone));
    }

    /** The window after {@code w}. */
    public static Window next(MonitorDefinition m, Window w) {
        return windowAt(m, w.end());
    }

    /** The latest wall-clock fire time at or before {@code bound} that exists in the zone (not in a spring gap). */
    private static LocalDateTime lastFire(ExecutionTime times, LocalDateTime bound, ZoneRules rules, String schedule) {
        // lastExecution answers the latest fire time strictly before its argument; fire times are whole minutes
        LocalDateTime before = bound.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        for (int i = 0; i < MAX_GAPS; i++) {
            LocalDateTime fire = wallClock(times.lastExecution(pseudo(before)), schedule, bound);
            ZoneOffsetTransition gap = rules.getTransition(fire);
            if (gap == null || !gap.isGap()) {
                return fire;
            }
            before = gap.getDateTimeBefore();
        }
        throw new IllegalStateException("cron " + schedule + " fires only in daylight-saving gaps before " + bound);
    }

    /** The first wall-clock fire time after {@code after} that exists in the zone (not in a spring gap). */
    private static LocalDateTime nextFire(ExecutionTime times, LocalDateTime after, ZoneRules rules, String schedule) {
        LocalDateTime from = after;
        for (int i = 0; i < MAX_GAPS; i++) {
            LocalDateTime fire = wallClock(times.nextExecution(pseudo(from)), schedule, after);
            ZoneOffsetTransition gap = rules.getTransition(fire);
            if (gap == null || !gap.isGap()) {
                return fire;
            }
            // the first wall-clock time after the gap is its end; nextExecution answers strictly after its argument
            from = gap.getDateTimeAfter().minusSeconds(1);
        }
        throw new IllegalStateException("cron " + schedule + " fires only in daylight-saving gaps after " + after);
    }

    /** A local date-time on cron-utils' side: UTC, where wall-clock arithmetic has no daylight saving. */
    private static ZonedDateTime pseudo(LocalDateTime local) {
        return local.atZone(ZoneOffset.UTC);
    }

    private static LocalDateTime wallClock(Optional<ZonedDateTime> fire, String schedule, LocalDateTime around) {
        return fire.orElseThrow(
                        () -> new IllegalStateException("cron " + schedule + " has no fire time around " + around))
                .toLocalDateTime();
    }

    /** The instant of a wall-clock fire time that exists in the zone: its first occurrence (the earlier offset). */
    private static long place(LocalDateTime fire, ZoneId zone) {
        return ZonedDateTime.ofLocal(fire, zone, null).toInstant().toEpochMilli();
    }

    private static ExecutionTime executionTime(String schedule) {
        ExecutionTime times = CACHE.get(schedule);
        if (times == null) {
            times = ExecutionTime.forCron(PARSER.parse(schedule));
            if (CACHE.size() >= CACHE_LIMIT) {
                CACHE.clear();
            }
            CACHE.put(schedule, times);
        }
        return times;
    }

    /** One heartbeat window, {@code [start, end)} epoch ms. */
    public record Window(long start, long end) {}
}
