package dev.vigil.schemas.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.HeartbeatSchedules.Window;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The windows of heartbeat monitors: interval windows aligned to the epoch, and cron windows from one fire time to
 * the next, across both daylight-saving changes of 2026 in Europe/Paris (29 March: 02:00 CET jumps to 03:00 CEST;
 * 25 October: 03:00 CEST falls back to 02:00 CET, so 02:00-03:00 happens twice).
 */
class HeartbeatSchedulesTest {
    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    private static final long MINUTE = 60_000L;
    private static final long HOUR = 60 * MINUTE;
    private static final MonitorDefinition NIGHTLY = cron("0 2 * * *", "Europe/Paris");

    // ------------------------------------------------------------------------------------------ interval windows

    @Test
    void intervalWindowsAreAlignedToTheEpoch() {
        MonitorDefinition m = interval(300);
        long at = 1_700_000_123_456L;
        Window w = HeartbeatSchedules.windowAt(m, at);
        assertThat(w.start()).isEqualTo(1_700_000_100_000L).isEqualTo(at - at % 300_000);
        assertThat(w.end()).isEqualTo(w.start() + 300_000);
        assertThat(HeartbeatSchedules.windowAt(m, 0)).isEqualTo(new Window(0, 300_000));
        assertThat(HeartbeatSchedules.windowAt(m, 299_999)).isEqualTo(new Window(0, 300_000));
        assertThat(HeartbeatSchedules.windowAt(m, 300_000))
                .as("a boundary starts a window")
                .isEqualTo(new Window(300_000, 600_000));
        assertThat(HeartbeatSchedules.next(m, w)).isEqualTo(new Window(w.end(), w.end() + 300_000));
    }

    @Test
    void aWeeklyIntervalIsAlignedToTheEpochTooAndAMonitorWithoutAHeartbeatBlockUsesItsInterval() {
        MonitorDefinition weekly = interval(MonitorDefinition.MAX_HEARTBEAT_INTERVAL_SECONDS);
        long week = 7 * 24 * HOUR;
        // the epoch was a Thursday: weekly windows start on Thursdays 00:00 UTC
        Window w = HeartbeatSchedules.windowAt(
                weekly, Instant.parse("2026-03-29T12:00:00Z").toEpochMilli());
        assertThat(Instant.ofEpochMilli(w.start())).isEqualTo(Instant.parse("2026-03-26T00:00:00Z"));
        assertThat(w.end() - w.start()).isEqualTo(week);

        MonitorDefinition http = new MonitorDefinition(
                1,
                "api",
                null,
                "https://api.example.com/",
                null,
                30,
                null,
                List.of("eu-west"),
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        assertThat(HeartbeatSchedules.windowAt(http, 95_000)).isEqualTo(new Window(90_000, 120_000));
    }

    // ------------------------------------------------------------------------------------------ cron windows

    @Test
    void aTimeInsideACronWindowGetsTheWindowFromTheLastFireTimeToTheNext() {
        Window w = HeartbeatSchedules.windowAt(NIGHTLY, millis("2026-03-10T15:45:00+01:00"));
        assertThat(w).isEqualTo(window("2026-03-10T02:00+01:00", "2026-03-11T02:00+01:00"));
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, millis("2026-03-11T01:59:59.999+01:00")))
                .isEqualTo(w);
    }

    @Test
    void aTimeExactlyAtAFireTimeStartsThatWindow() {
        long fire = millis("2026-03-10T02:00+01:00");
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, fire))
                .isEqualTo(window("2026-03-10T02:00+01:00", "2026-03-11T02:00+01:00"));
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, fire - 1))
                .isEqualTo(window("2026-03-09T02:00+01:00", "2026-03-10T02:00+01:00"));
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, fire + 1).start()).isEqualTo(fire);
    }

    @Test
    void springForwardSkipsTheFireTimeThatDoesNotExist() {
        // 29 March 2026: 02:00 CET is followed by 03:00 CEST, so 02:00 does not exist and the job has no fire time
        Window before = window("2026-03-28T02:00+01:00", "2026-03-30T02:00+02:00");
        assertThat(before.end() - before.start()).isEqualTo(47 * HOUR);
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, millis("2026-03-28T02:00+01:00")))
                .isEqualTo(before);
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, millis("2026-03-29T01:59+01:00")))
                .isEqualTo(before);
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, millis("2026-03-29T03:00+02:00")))
                .isEqualTo(before);
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, millis("2026-03-30T01:59:59.999+02:00")))
                .isEqualTo(before);

        Window after = HeartbeatSchedules.next(NIGHTLY, before);
        assertThat(after).isEqualTo(window("2026-03-30T02:00+02:00", "2026-03-31T02:00+02:00"));
        assertThat(Instant.ofEpochMilli(after.start()))
                .as("02:00 CEST")
                .isEqualTo(Instant.parse("2026-03-30T00:00:00Z"));
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, after.start())).isEqualTo(after);
    }

    @Test
    void fallBackFiresOnceAtTheFirstOccurrenceOfTheRepeatedTime() {
        // 25 October 2026: 02:00-03:00 happens twice, 00:00-01:00 UTC (CEST) and 01:00-02:00 UTC (CET)
        Window day = window("2026-10-25T02:00+02:00", "2026-10-26T02:00+01:00");
        assertThat(day.end() - day.start()).isEqualTo(25 * HOUR);
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, millis("2026-10-25T02:00+02:00")))
                .isEqualTo(day);
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, millis("2026-10-25T02:30+02:00")))
                .isEqualTo(day);
        // The second 02:00 (CET) is not a fire time: it must not start a window overlapping `day`.
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, millis("2026-10-25T02:00+01:00")))
                .isEqualTo(day);
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, millis("2026-10-25T02:30+01:00")))
                .isEqualTo(day);
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, millis("2026-10-26T01:59:59.999+01:00")))
                .isEqualTo(day);

        Window previous = HeartbeatSchedules.windowAt(NIGHTLY, millis("2026-10-24T12:00+02:00"));
        assertThat(previous).isEqualTo(window("2026-10-24T02:00+02:00", "2026-10-25T02:00+02:00"));
        assertThat(HeartbeatSchedules.next(NIGHTLY, previous)).isEqualTo(day);
        assertThat(HeartbeatSchedules.next(NIGHTLY, day))
                .isEqualTo(window("2026-10-26T02:00+01:00", "2026-10-27T02:00+01:00"));
    }

    @Test
    void aHalfHourlyScheduleFiresOnceForEachWallClockTimeOfTheRepeatedHour() {
        MonitorDefinition halfHourly = cron("*/30 * * * *", "Europe/Paris");
        // autumn: 02:00 and 02:30 fire in the first pass (CEST); the next fire time is 03:00 CET, 90 minutes later
        Window overlap = window("2026-10-25T02:30+02:00", "2026-10-25T03:00+01:00");
        assertThat(overlap.end() - overlap.start()).isEqualTo(90 * MINUTE);
        assertThat(HeartbeatSchedules.windowAt(halfHourly, millis("2026-10-25T02:40+02:00")))
                .isEqualTo(overlap);
        assertThat(HeartbeatSchedules.windowAt(halfHourly, millis("2026-10-25T02:00+01:00")))
                .isEqualTo(overlap);
        assertThat(HeartbeatSchedules.windowAt(halfHourly, millis("2026-10-25T02:59:59.999+01:00")))
                .isEqualTo(overlap);
        assertThat(HeartbeatSchedules.windowAt(halfHourly, millis("2026-10-25T02:10+02:00")))
                .isEqualTo(window("2026-10-25T02:00+02:00", "2026-10-25T02:30+02:00"));
        assertThat(HeartbeatSchedules.next(halfHourly, overlap))
                .isEqualTo(window("2026-10-25T03:00+01:00", "2026-10-25T03:30+01:00"));
        // spring: 02:00 and 02:30 do not exist; 01:30 CET is followed by 03:00 CEST, 30 minutes later
        Window gap = HeartbeatSchedules.windowAt(halfHourly, millis("2026-03-29T01:45+01:00"));
        assertThat(gap).isEqualTo(window("2026-03-29T01:30+01:00", "2026-03-29T03:00+02:00"));
        assertThat(gap.end() - gap.start()).isEqualTo(30 * MINUTE);
    }

    /**
     * Every instant of both changes (every seven minutes across a week each) is in exactly one window of the
     * sequence {@code next} steps through: windows are contiguous and never overlap.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "0 2 * * *",
                "30 2 * * *",
                "0 3 * * *",
                "0 1 * * *",
                "*/30 * * * *",
                "15 2 * * 0",
                "0 2,3 * * *",
                "0 0 * * *"
            })
    void windowsAcrossBothChangesAreContiguousAndEveryInstantIsInTheOneThatContainsIt(String schedule) {
        MonitorDefinition m = cron(schedule, "Europe/Paris");
        for (String from : new String[] {"2026-03-25T00:00+01:00", "2026-10-21T00:00+02:00"}) {
            long start = millis(from);
            long stop = start + 8 * 24 * HOUR;
            List<Window> windows = new ArrayList<>();
            Window w = HeartbeatSchedules.windowAt(m, start);
            windows.add(w);
            while (w.end() <= stop) {
                Window n = HeartbeatSchedules.next(m, w);
                assertThat(n.start())
                        .as("%s: next starts where %s ends", schedule, w)
                        .isEqualTo(w.end());
                assertThat(n.end()).isGreaterThan(n.start());
                windows.add(n);
                w = n;
            }
            for (long t = start; t < stop; t += 7 * MINUTE) {
                Window at = HeartbeatSchedules.windowAt(m, t);
                assertThat(at.start()).isLessThanOrEqualTo(t);
                assertThat(at.end()).isGreaterThan(t);
                assertThat(windows)
                        .as("%s at %s", schedule, Instant.ofEpochMilli(t))
                        .contains(at);
            }
        }
    }

    @Test
    void theZoneDefaultsToUtc() {
        MonitorDefinition utc = cron("0 2 * * *", null);
        assertThat(utc.heartbeat().zone()).isEqualTo("UTC");
        assertThat(HeartbeatSchedules.windowAt(
                        utc, Instant.parse("2026-03-29T12:00:00Z").toEpochMilli()))
                .isEqualTo(new Window(
                        Instant.parse("2026-03-29T02:00:00Z").toEpochMilli(),
                        Instant.parse("2026-03-30T02:00:00Z").toEpochMilli()));
    }

    @Test
    void aScheduleThatFiresOnceEveryFourYearsStillHasWindows() {
        MonitorDefinition leap = cron("0 0 29 2 *", "UTC");
        Window w = HeartbeatSchedules.windowAt(
                leap, Instant.parse("2026-06-01T00:00:00Z").toEpochMilli());
        assertThat(w)
                .isEqualTo(new Window(
                        Instant.parse("2024-02-29T00:00:00Z").toEpochMilli(),
                        Instant.parse("2028-02-29T00:00:00Z").toEpochMilli()));
    }

    // ------------------------------------------------------------------------------------------ validation

    @ParameterizedTest
    @ValueSource(
            strings = {
                "0 2 * * *",
                "*/5 * * * *",
                "0 2 * * MON-FRI",
                "0 2 1,15 * *",
                "0 0 29 2 *",
                "0\t2 * * *",
                "0  2 * * *",
                "0 2 * jan sun",
                "0 9-17/2 * * 1-5"
            })
    void acceptsFiveFieldUnixCronExpressions(String schedule) {
        assertThat(new MonitorDefinition.Heartbeat(schedule, null, null, null).schedule())
                .isEqualTo(schedule);
        assertThat(new MonitorDefinition.Heartbeat("  " + schedule + " \n", null, null, null).schedule())
                .as("read trimmed")
                .isEqualTo(schedule);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "   ",
                "0 2 * *",
                "0 2 * * * *",
                "@daily",
                "61 2 * * *",
                "0 24 * * *",
                "0 2 ? * *",
                "0 2 L * *",
                "0 2 * * 1#2",
                "every day at 2",
                "0 2 * * \u0661",
                "+0 2 * * *",
                "0\n2 * * *",
                "0 0 31 2 *",
                "0 0 30 2 *",
                "0 0 31 4 *"
            })
    void refusesAnythingElseNamingTheSchedule(String schedule) {
        assertThatThrownBy(() -> new MonitorDefinition.Heartbeat(schedule, null, null, null))
                .isInstanceOfSatisfying(
                        ContractViolation.class, v -> assertThat(v.field()).isEqualTo("schedule"));
    }

    @Test
    void refusesASchedulePastTheLengthLimit() {
        String longest = "1,".repeat(55) + "12 2 * * *";
        assertThat(longest).hasSize(HeartbeatSchedules.MAX_LENGTH);
        assertThat(new MonitorDefinition.Heartbeat(longest, null, null, null).schedule())
                .isEqualTo(longest);
        String tooLong = "1,".repeat(56) + "2 2 * * *";
        assertThat(tooLong).hasSize(HeartbeatSchedules.MAX_LENGTH + 1);
        assertThatThrownBy(() -> new MonitorDefinition.Heartbeat(tooLong, null, null, null))
                .isInstanceOfSatisfying(
                        ContractViolation.class, v -> assertThat(v.field()).isEqualTo("schedule"));
    }

    // ------------------------------------------------------------------------------------------ helpers

    private static MonitorDefinition interval(int seconds) {
        return new MonitorDefinition(
                1,
                "queue-drain",
                null,
                null,
                null,
                seconds,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                CheckType.HEARTBEAT,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    private static MonitorDefinition cron(String schedule, String zone) {
        return new MonitorDefinition(
                1,
                "nightly-backup",
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                CheckType.HEARTBEAT,
                null,
                null,
                null,
                null,
                null,
                new MonitorDefinition.Heartbeat(schedule, zone, null, null));
    }

    private static long millis(String offsetDateTime) {
        return java.time.OffsetDateTime.parse(offsetDateTime).toInstant().toEpochMilli();
    }

    private static Window window(String start, String end) {
        return new Window(millis(start), millis(end));
    }

    @SuppressWarnings("unused")
    private static ZonedDateTime paris(long millis) {
        return Instant.ofEpochMilli(millis).atZone(PARIS);
    }

    @SuppressWarnings("unused")
    private static Duration length(Window w) {
        return Duration.ofMillis(w.end() - w.start());
    }
}
