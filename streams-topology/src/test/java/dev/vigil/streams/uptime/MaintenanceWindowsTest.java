package dev.vigil.streams.uptime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Status;
import dev.vigil.schemas.silence.Schedule;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.uptime.MaintenanceWindows.Occurrence;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MaintenanceWindowsTest {
    static final long MIN = 60_000L;
    static final long HOUR = 60 * MIN;
    static final long DAY = 24 * HOUR;
    static final long JAN_1 = LocalDate.parse("2027-01-01").toEpochDay() * DAY;
    static final MonitorDefinition API = new MonitorDefinition(
            1,
            "api",
            null,
            "https://example.com/api",
            null,
            60,
            2500,
            List.of("eu-west"),
            null,
            null,
            null,
            "payments",
            "db",
            null,
            null);

    private static Silence series(
            String id,
            String fingerprint,
            String service,
            Map<String, String> attributes,
            long startsAt,
            long endsAt,
            Schedule schedule) {
        return new Silence(
                1,
                id,
                fingerprint,
                service,
                attributes,
                startsAt,
                endsAt,
                "ops",
                "reason " + id,
                startsAt,
                null,
                schedule);
    }

    private static Silence daily(String id, String fingerprint, String at, int minutes) {
        return series(
                id,
                fingerprint,
                null,
                null,
                JAN_1,
                JAN_1 + 300 * DAY,
                new Schedule(List.of("mon", "tue", "wed", "thu", "fri", "sat", "sun"), at, minutes, "UTC"));
    }

    private static long at(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    @Test
    void listsEveryOccurrenceInForceDuringTheRangeEarliestFirstThenById() {
        long from = at("2027-02-10T00:00:00Z");
        long to = at("2027-02-12T00:00:00Z");
        var occurrences = MaintenanceWindows.overlapping(
                List.of(
                        daily("late", "monitor/api", "23:30", 60), // the one of Feb 9 runs into the range
                        daily("early", "monitor/*", "23:30", 60),
                        daily("other", "monitor/web", "01:00", 60), // another monitor
                        new Silence(
                                1,
                                "one-off",
                                "monitor/api",
                                null,
                                null,
                                from,
                                to,
                                "ops",
                                "noise",
                                from)), // not maintenance
                "api",
                API,
                from,
                to,
                100);

        assertThat(occurrences.truncated()).isFalse();
        assertThat(occurrences.occurrences())
                .containsExactly(
                        new Occurrence("early", at("2027-02-09T23:30:00Z"), at("2027-02-10T00:30:00Z"), "reason early"),
                        new Occurrence("late", at("2027-02-09T23:30:00Z"), at("2027-02-10T00:30:00Z"), "reason late"),
                        new Occurrence("early", at("2027-02-10T23:30:00Z"), at("2027-02-11T00:30:00Z"), "reason early"),
                        new Occurrence("late", at("2027-02-10T23:30:00Z"), at("2027-02-11T00:30:00Z"), "reason late"),
                        new Occurrence("early", at("2027-02-11T23:30:00Z"), at("2027-02-12T00:30:00Z"), "reason early"),
                        new Occurrence("late", at("2027-02-11T23:30:00Z"), at("2027-02-12T00:30:00Z"), "reason late"));
    }

    @Test
    void anOccurrenceEndingAtTheRangeStartIsOutAndOneRunningAtEndsAtIsCutThere() {
        long from = at("2027-02-10T01:00:00Z");
        Silence s = series(
                "s",
                "monitor/api",
                null,
                null,
                JAN_1,
                at("2027-02-11T00:30:00Z"),
                new Schedule(List.of("mon", "tue", "wed", "thu", "fri", "sat", "sun"), "00:00", 60, "UTC"));
        var occurrences = MaintenanceWindows.overlapping(List.of(s), "api", API, from, from + 5 * DAY, 100);
        // Feb 10 00:00-01:00 ends at `from`; Feb 11's is cut at endsAt; none after the series
        assertThat(occurrences.occurrences())
                .containsExactly(
                        new Occurrence("s", at("2027-02-11T00:00:00Z"), at("2027-02-11T00:30:00Z"), "reason s"));
    }

    @Test
    void matchesServiceAndDefinitionAttributesAndTakesPerWindowAttributesAsMet() {
        long from = at("2027-02-10T00:00:00Z");
        long to = from + DAY;
        Schedule nightly = new Schedule(List.of("wed"), "02:00", 30, "UTC");
        var occurrences = MaintenanceWindows.overlapping(
                List.of(
                        series(
                                "by-service",
                                null,
                                "payments",
                                Map.of("component", "db"),
                                JAN_1,
                                JAN_1 + 300 * DAY,
                                nightly),
                        series(
                                "when-down",
                                "monitor/api",
                                null,
                                Map.of("status", "down"),
                                JAN_1,
                                JAN_1 + 300 * DAY,
                                nightly),
                        series("wrong-service", null, "content", null, JAN_1, JAN_1 + 300 * DAY, nightly),
                        series(
                                "wrong-component",
                                "monitor/api",
                                null,
                                Map.of("component", "cache"),
                                JAN_1,
                                JAN_1 + 300 * DAY,
                                nightly)),
                "api",
                API,
                from,
                to,
                100);
        assertThat(occurrences.occurrences())
                .extracting(Occurrence::silenceId)
                .containsExactly("by-service", "when-down");
    }

    @Test
    void aDeletedMonitorIsJudgedOnItsFingerprintAndIdAlone() {
        long from = at("2027-02-10T00:00:00Z");
        Schedule nightly = new Schedule(List.of("wed"), "02:00", 30, "UTC");
        var occurrences = MaintenanceWindows.overlapping(
                List.of(
                        series("by-fingerprint", "monitor/api", null, null, JAN_1, JAN_1 + 300 * DAY, nightly),
                        series("by-service", null, "payments", null, JAN_1, JAN_1 + 300 * DAY, nightly)),
                "api",
                null,
                from,
                from + DAY,
                100);
        assertThat(occurrences.occurrences()).extracting(Occurrence::silenceId).containsExactly("by-fingerprint");
    }

    @Test
    void atMostTheLimitTheEarliestOnesAndSaysSo() {
        long from = at("2027-02-01T00:00:00Z");
        long to = from + 10 * DAY;
        var all = List.of(daily("a", "monitor/api", "03:00", 10), daily("b", "monitor/api", "04:00", 10));
        var cut = MaintenanceWindows.overlapping(all, "api", API, from, to, 5);
        assertThat(cut.truncated()).isTrue();
        assertThat(cut.occurrences())
                .extracting(Occurrence::from)
                .containsExactly(
                        at("2027-02-01T03:00:00Z"),
                        at("2027-02-01T04:00:00Z"),
                        at("2027-02-02T03:00:00Z"),
                        at("2027-02-02T04:00:00Z"),
                        at("2027-02-03T03:00:00Z"));
        var exact = MaintenanceWindows.overlapping(all, "api", API, from, to, 20);
        assertThat(exact.truncated()).isFalse();
        assertThat(exact.occurrences()).hasSize(20);
    }

    @Test
    void occurrencesFollowTheZoneAcrossDaylightSavingTime() {
        Silence paris = series(
                "paris",
                "monitor/api",
                null,
                null,
                JAN_1,
                JAN_1 + 300 * DAY,
                new Schedule(List.of("mon", "sun"), "02:00", 60, "Europe/Paris"));
        var occurrences = MaintenanceWindows.overlapping(
                List.of(paris), "api", API, at("2027-03-22T00:00:00Z"), at("2027-03-30T00:00:00Z"), 100);
        assertThat(occurrences.occurrences())
                .extracting(Occurrence::from)
                .containsExactly(
                        at("2027-03-22T01:00:00Z"), // Monday, CET
                        at("2027-03-28T01:00:00Z"), // Sunday of the change: 02:00 is skipped, starts at 03:00 CEST
                        at("2027-03-29T00:00:00Z")); // Monday, CEST
    }

    @Test
    void aDayCountsMaintenanceWindowsWithinTheirStatusAndLeavesThemOutOfTheSecondFigure() {
        DailyUptime d = DailyUptime.empty(1)
                .plus(Status.UP)
                .plus(Status.DOWN)
                .plus(Status.DOWN, true)
                .plus(Status.UNKNOWN, true)
                .plus(Status.DEGRADED, true);
        assertThat(d).isEqualTo(new DailyUptime(1, 1, 1, 2, 1, 0, 1, 1, 1));
        assertThat(d.maintenance()).isEqualTo(3);
        assertThat(d.uptimePercent()).isEqualTo(50.0); // (1 + 1) / 4
        assertThat(d.uptimeExcludingMaintenancePercent()).isEqualTo(50.0); // up and down outside
        DailyUptime allInMaintenance =
                DailyUptime.empty(1).plus(Status.DOWN, true).plus(Status.UNKNOWN);
        assertThat(allInMaintenance.uptimePercent()).isZero();
        assertThat(allInMaintenance.uptimeExcludingMaintenancePercent())
                .as("no decided window outside")
                .isNull();
    }
}
