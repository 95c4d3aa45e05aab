package dev.vigil.schemas.silence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.json.Json;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Weekly maintenance windows: {@link Silence#activeAt} with a {@link Schedule}, at fixed instants. */
class RecurringSilenceTest {
    static final long MIN = 60_000L;

    static long t(String iso) {
        return Instant.parse(iso).toEpochMilli();
    }

    static Schedule schedule(String days, String at, int minutes, String zone) {
        return new Schedule(Arrays.asList(days.split(",")), at, minutes, zone);
    }

    static Silence series(Schedule schedule, String startsAt, String endsAt) {
        return new Silence(
                1,
                "maint",
                "monitor/db-*",
                null,
                null,
                t(startsAt),
                t(endsAt),
                "ops",
                "weekly db maintenance",
                t(startsAt) - 1000,
                null,
                schedule);
    }

    @Test
    void activeOnlyInsideAnOccurrenceOnTheListedDays() {
        // 2026-11-30 is a Monday
        Silence s = series(schedule("mon,wed", "02:00", 60, "UTC"), "2026-11-30T00:00:00Z", "2026-12-31T00:00:00Z");
        assertThat(s.activeAt(t("2026-11-30T01:59:59.999Z"))).isFalse();
        assertThat(s.activeAt(t("2026-11-30T02:00:00Z"))).isTrue();
        assertThat(s.activeAt(t("2026-11-30T02:59:59.999Z"))).isTrue();
        assertThat(s.activeAt(t("2026-11-30T03:00:00Z"))).isFalse();
        assertThat(s.activeAt(t("2026-12-01T02:30:00Z")))
                .as("tuesday is not listed")
                .isFalse();
        assertThat(s.activeAt(t("2026-12-02T02:30:00Z"))).as("wednesday").isTrue();
        assertThat(s.activeAt(t("2026-12-07T02:30:00Z"))).as("next monday").isTrue();
        assertThat(s.expiredAt(t("2026-12-01T02:30:00Z")))
                .as("between occurrences the series goes on")
                .isFalse();
    }

    @Test
    void anOccurrenceMayRunPastMidnightIntoAnUnlistedDay() {
        // 2026-12-05 is a Saturday; Sunday is not listed but Saturday's occurrence runs into it
        Silence s = series(schedule("sat", "23:00", 120, "UTC"), "2026-11-30T00:00:00Z", "2026-12-31T00:00:00Z");
        assertThat(s.activeAt(t("2026-12-04T23:30:00Z"))).as("friday").isFalse();
        assertThat(s.activeAt(t("2026-12-05T23:30:00Z"))).isTrue();
        assertThat(s.activeAt(t("2026-12-06T00:59:59.999Z"))).isTrue();
        assertThat(s.activeAt(t("2026-12-06T01:00:00Z"))).isFalse();
        assertThat(s.activeAt(t("2026-12-06T23:30:00Z")))
                .as("sunday's own evening")
                .isFalse();
    }

    @Test
    void theSeriesBoundsCountOnlyOccurrencesStartingInsideAndCutTheLastAtEndsAt() {
        Schedule mondays = schedule("mon", "02:00", 60, "UTC");
        // starts in the middle of Monday's occurrence: that one does not count, the next Monday's does
        Silence s = series(mondays, "2026-11-30T02:30:00Z", "2026-12-14T02:30:00Z");
        assertThat(s.activeAt(t("2026-11-30T02:45:00Z"))).isFalse();
        assertThat(s.activeAt(t("2026-12-07T02:00:00Z"))).isTrue();
        // the occurrence that starts before endsAt is cut there
        assertThat(s.activeAt(t("2026-12-14T02:29:59.999Z"))).isTrue();
        assertThat(s.activeAt(t("2026-12-14T02:30:00Z"))).isFalse();
        assertThat(s.expiredAt(t("2026-12-14T02:30:00Z"))).isTrue();
        assertThat(s.activeAt(t("2026-12-21T02:15:00Z"))).as("after the series").isFalse();
        // a series starting exactly at an occurrence's start includes it
        Silence exact = series(mondays, "2026-11-30T02:00:00Z", "2026-12-14T00:00:00Z");
        assertThat(exact.activeAt(t("2026-11-30T02:00:00Z"))).isTrue();
        assertThat(exact.activeAt(t("2026-11-30T01:59:59.999Z"))).isFalse();
    }

    @Test
    void nextActiveAtFindsTheCurrentOrNextOccurrence() {
        Silence s = series(schedule("mon", "02:00", 60, "UTC"), "2026-11-30T02:30:00Z", "2026-12-14T02:30:00Z");
        assertThat(s.nextActiveAt(t("2026-11-25T00:00:00Z"))).hasValue(t("2026-12-07T02:00:00Z"));
        assertThat(s.nextActiveAt(t("2026-12-07T02:10:00Z"))).hasValue(t("2026-12-07T02:10:00Z"));
        assertThat(s.nextActiveAt(t("2026-12-07T03:00:00Z"))).hasValue(t("2026-12-14T02:00:00Z"));
        assertThat(s.nextActiveAt(t("2026-12-14T02:30:00Z"))).isEmpty();
        // only Sundays within Monday to Friday: never active
        Silence never = series(schedule("sun", "02:00", 60, "UTC"), "2026-11-30T00:00:00Z", "2026-12-05T00:00:00Z");
        assertThat(never.nextActiveAt(t("2026-11-30T00:00:00Z"))).isEmpty();
        // a one-off silence: from now on when started, else at its start
        Silence once =
                SilenceTest.silence("once", "*", null, null, t("2026-12-01T00:00:00Z"), t("2026-12-02T00:00:00Z"));
        assertThat(once.nextActiveAt(t("2026-11-30T00:00:00Z"))).hasValue(t("2026-12-01T00:00:00Z"));
        assertThat(once.nextActiveAt(t("2026-12-01T05:00:00Z"))).hasValue(t("2026-12-01T05:00:00Z"));
        assertThat(once.nextActiveAt(t("2026-12-02T00:00:00Z"))).isEmpty();
    }

    @Test
    void springForwardGapStartsAtTheFirstValidInstantAfterTheGap() {
        // Europe/Paris, Sunday 2027-03-28: 02:00 CET jumps to 03:00 CEST (01:00Z), so 02:30 does not exist that day
        Schedule sundays = schedule("sun", "02:30", 60, "Europe/Paris");
        Silence s = series(sundays, "2027-03-01T00:00:00Z", "2027-05-01T00:00:00Z");
        // the week before, winter time: 02:30 CET = 01:30Z
        assertThat(s.activeAt(t("2027-03-21T01:29:59.999Z"))).isFalse();
        assertThat(s.activeAt(t("2027-03-21T01:30:00Z"))).isTrue();
        assertThat(s.activeAt(t("2027-03-21T02:29:59.999Z"))).isTrue();
        assertThat(s.activeAt(t("2027-03-21T02:30:00Z"))).isFalse();
        // the change night: from 03:00 CEST (the end of the gap, 01:00Z) for a full hour
        assertThat(sundays.occurrenceStart(LocalDate.parse("2027-03-28"))).isEqualTo(t("2027-03-28T01:00:00Z"));
        assertThat(s.activeAt(t("2027-03-28T00:59:59.999Z"))).isFalse();
        assertThat(s.activeAt(t("2027-03-28T01:00:00Z"))).isTrue();
        assertThat(s.activeAt(t("2027-03-28T01:59:59.999Z"))).isTrue();
        assertThat(s.activeAt(t("2027-03-28T02:00:00Z"))).isFalse();
        // the week after, summer time: 02:30 CEST = 00:30Z
        assertThat(s.activeAt(t("2027-04-04T00:30:00Z"))).isTrue();
        assertThat(s.activeAt(t("2027-04-04T01:30:00Z"))).isFalse();
    }

    @Test
    void fallBackNightKeepsTheElapsedDurationAndTakesTheEarlierOffsetInTheOverlap() {
        // Europe/Paris, Sunday 2026-10-25: 03:00 CEST falls back to 02:00 CET (01:00Z); 02:00-03:00 happens twice
        Schedule early = schedule("sun", "01:30", 120, "Europe/Paris");
        Silence s = series(early, "2026-10-01T00:00:00Z", "2026-12-01T00:00:00Z");
        // 01:30 CEST = 23:30Z the evening before; two real hours end at 01:30Z, which is 02:30 CET on the wall
        assertThat(early.occurrenceStart(LocalDate.parse("2026-10-25"))).isEqualTo(t("2026-10-24T23:30:00Z"));
        assertThat(s.activeAt(t("2026-10-24T23:29:59.999Z"))).isFalse();
        assertThat(s.activeAt(t("2026-10-24T23:30:00Z"))).isTrue();
        assertThat(s.activeAt(t("2026-10-25T01:29:59.999Z"))).isTrue();
        assertThat(s.activeAt(t("2026-10-25T01:30:00Z")))
                .as("not until 03:30 on the wall")
                .isFalse();
        // the week after, winter time: 01:30 CET = 00:30Z
        assertThat(s.activeAt(t("2026-11-01T00:30:00Z"))).isTrue();
        assertThat(s.activeAt(t("2026-11-01T02:30:00Z"))).isFalse();

        // 02:30 happens twice that night: the first time (CEST, 00:30Z) only
        Schedule overlap = schedule("sun", "02:30", 30, "Europe/Paris");
        Silence o = series(overlap, "2026-10-01T00:00:00Z", "2026-12-01T00:00:00Z");
        assertThat(overlap.occurrenceStart(LocalDate.parse("2026-10-25"))).isEqualTo(t("2026-10-25T00:30:00Z"));
        assertThat(o.activeAt(t("2026-10-25T00:45:00Z"))).isTrue();
        assertThat(o.activeAt(t("2026-10-25T01:00:00Z"))).isFalse();
        assertThat(o.activeAt(t("2026-10-25T01:45:00Z")))
                .as("02:45 CET, the second time round")
                .isFalse();
    }

    @Test
    void theDayIsTheLocalDayInAZoneFarFromUtc() {
        // Pacific/Auckland: Monday 09:00 is Sunday evening in UTC (NZDT +13 in January, NZST +12 in July)
        Schedule mondayMornings = schedule("mon", "09:00", 30, "Pacific/Auckland");
        Silence s = series(mondayMornings, "2027-01-01T00:00:00Z", "2027-12-31T00:00:00Z");
        assertThat(s.activeAt(t("2027-01-17T20:10:00Z")))
                .as("sunday in UTC, monday in Auckland")
                .isTrue();
        assertThat(s.activeAt(t("2027-01-18T20:10:00Z")))
                .as("monday in UTC, tuesday in Auckland")
                .isFalse();
        assertThat(s.activeAt(t("2027-01-18T09:10:00Z"))).as("09:10 UTC monday").isFalse();
        assertThat(s.activeAt(t("2027-07-18T20:10:00Z")))
                .as("winter: 08:10 NZST")
                .isFalse();
        assertThat(s.activeAt(t("2027-07-18T21:10:00Z")))
                .as("winter: 09:10 NZST")
                .isTrue();
        // its own spring-forward gap (Sunday 2026-09-27, 02:00 NZST -> 03:00 NZDT at 14:00Z)
        Schedule gap = schedule("sun", "02:30", 60, "Pacific/Auckland");
        assertThat(gap.occurrenceStart(LocalDate.parse("2026-09-27"))).isEqualTo(t("2026-09-26T14:00:00Z"));
    }

    @Test
    void matcherUsesTheSchedule() {
        Silence s = series(schedule("mon", "02:00", 60, "UTC"), "2026-11-30T00:00:00Z", "2026-12-31T00:00:00Z");
        SilenceMatcher m = new SilenceMatcher(List.of(s));
        assertThat(m.isSilenced("monitor/db-main", null, Map.of(), t("2026-11-30T02:10:00Z")))
                .isTrue();
        assertThat(m.isSilenced("monitor/db-main", null, Map.of(), t("2026-11-30T03:10:00Z")))
                .isFalse();
        assertThat(m.isSilenced("monitor/web", null, Map.of(), t("2026-11-30T02:10:00Z")))
                .isFalse();
        assertThat(m.current(t("2026-11-30T03:10:00Z")))
                .as("between occurrences it is still current")
                .containsExactly(s);
    }

    @Test
    void expireKeepsTheScheduleAndEndsTheSeries() {
        Silence s = series(schedule("mon", "02:00", 60, "UTC"), "2026-11-30T00:00:00Z", "2026-12-31T00:00:00Z");
        Silence ended = s.expire(t("2026-11-30T02:10:00Z")).orElseThrow();
        assertThat(ended.schedule()).isEqualTo(s.schedule());
        assertThat(ended.activeAt(t("2026-11-30T02:09:59.999Z"))).isTrue();
        assertThat(ended.activeAt(t("2026-11-30T02:10:00Z"))).isFalse();
        assertThat(ended.activeAt(t("2026-12-07T02:10:00Z"))).isFalse();
        assertThat(s.expire(t("2026-11-29T00:00:00Z")))
                .as("not started: deleted")
                .isEmpty();
    }

    @Test
    void daysAreKeptInWeekOrder() {
        assertThat(schedule("sun,wed,mon", "02:00", 60, "UTC").days()).containsExactly("mon", "wed", "sun");
        assertThat(schedule("sun,wed,mon", "02:00", 60, "UTC")).isEqualTo(schedule("mon,wed,sun", "02:00", 60, "UTC"));
    }

    static Stream<Arguments> invalidSchedules() {
        return Stream.of(
                Arguments.of("no days", (Runnable) () -> new Schedule(List.of(), "02:00", 60, "UTC"), "days"),
                Arguments.of("days missing", (Runnable) () -> new Schedule(null, "02:00", 60, "UTC"), "days"),
                Arguments.of("unknown day", (Runnable) () -> schedule("mon,tues", "02:00", 60, "UTC"), "days[1]"),
                Arguments.of("upper-case day", (Runnable) () -> schedule("Mon", "02:00", 60, "UTC"), "days[0]"),
                Arguments.of("repeated day", (Runnable) () -> schedule("mon,tue,mon", "02:00", 60, "UTC"), "days[2]"),
                Arguments.of(
                        "null day",
                        (Runnable) () -> new Schedule(Arrays.asList("mon", null), "02:00", 60, "UTC"),
                        "days[1]"),
                Arguments.of("one-digit hour", (Runnable) () -> schedule("mon", "2:00", 60, "UTC"), "at"),
                Arguments.of("24:00", (Runnable) () -> schedule("mon", "24:00", 60, "UTC"), "at"),
                Arguments.of("seconds", (Runnable) () -> schedule("mon", "02:00:00", 60, "UTC"), "at"),
                Arguments.of("no at", (Runnable) () -> new Schedule(List.of("mon"), null, 60, "UTC"), "at"),
                Arguments.of("zero minutes", (Runnable) () -> schedule("mon", "02:00", 0, "UTC"), "durationMinutes"),
                Arguments.of("over a day", (Runnable) () -> schedule("mon", "02:00", 1441, "UTC"), "durationMinutes"),
                Arguments.of(
                        "no duration",
                        (Runnable) () -> new Schedule(List.of("mon"), "02:00", null, "UTC"),
                        "durationMinutes"),
                Arguments.of("unknown zone", (Runnable) () -> schedule("mon", "02:00", 60, "Europe/Atlantis"), "zone"),
                Arguments.of("fixed offset", (Runnable) () -> schedule("mon", "02:00", 60, "+02:00"), "zone"),
                Arguments.of("lower-case zone", (Runnable) () -> schedule("mon", "02:00", 60, "europe/paris"), "zone"),
                Arguments.of("no zone", (Runnable) () -> new Schedule(List.of("mon"), "02:00", 60, null), "zone"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidSchedules")
    void invalidSchedulesAreRefusedNamingTheField(String name, Runnable make, String field) {
        assertThatThrownBy(make::run)
                .isInstanceOf(ContractViolation.class)
                .satisfies(e -> assertThat(((ContractViolation) e).field()).isEqualTo(field));
    }

    @Test
    void utcAndTheLongestDurationAreAllowed() {
        assertThat(schedule("mon,tue,wed,thu,fri,sat,sun", "00:00", 1440, "UTC").durationMinutes())
                .isEqualTo(1440);
        assertThat(schedule("mon", "23:59", 1, "Etc/UTC").zone()).isEqualTo("Etc/UTC");
    }

    @Test
    void scheduleRoundTripsAndOldRecordsWithoutOneStillRead() {
        Silence s = series(
                schedule("tue,mon", "02:00", 90, "Europe/Paris"), "2026-11-30T00:00:00Z", "2026-12-31T00:00:00Z");
        byte[] bytes = Json.bytes(s);
        assertThat(Json.read(bytes, Silence.class)).isEqualTo(s);
        JsonNode written = Json.tree(bytes).path("schedule");
        List<String> names = new java.util.ArrayList<>();
        written.fieldNames().forEachRemaining(names::add);
        assertThat(names)
                .as("only the four fields go on the wire")
                .containsExactlyInAnyOrder("days", "at", "durationMinutes", "zone");
        assertThat(written.path("days").toString()).isEqualTo("[\"mon\",\"tue\"]");
        assertThat(written.path("at").asText()).isEqualTo("02:00");
        assertThat(written.path("durationMinutes").asInt()).isEqualTo(90);
        assertThat(written.path("zone").asText()).isEqualTo("Europe/Paris");

        // a record as written before schedules existed
        String old =
                "{\"schemaVersion\":1,\"id\":\"maint-1\",\"fingerprint\":\"monitor/checkout-*\",\"startsAt\":1767225600000,"
                        + "\"endsAt\":1767229200000,\"author\":\"ops\",\"reason\":\"deploy window\",\"createdAt\":1767225599000}";
        Silence read = Json.read(old, Silence.class);
        assertThat(read.schedule()).isNull();
        assertThat(read.activeAt(1767225600000L)).isTrue();
        assertThat(Json.tree(Json.bytes(read)).has("schedule"))
                .as("nulls are not written")
                .isFalse();
    }

    @Test
    void aBadScheduleOnTheWireNamesItsPath() {
        String bad =
                "{\"id\":\"s\",\"fingerprint\":\"*\",\"startsAt\":1,\"endsAt\":2,\"author\":\"a\",\"reason\":\"r\",\"createdAt\":1,"
                        + "\"schedule\":{\"days\":[\"mon\"],\"at\":\"02:00\",\"durationMinutes\":60,\"zone\":\"Mars/Olympus\"}}";
        assertThatThrownBy(() -> Json.read(bad, Silence.class))
                .isInstanceOfSatisfying(
                        ContractViolation.class, e -> assertThat(e.field()).isEqualTo("schedule.zone"));
        String textMinutes = bad.replace("\"durationMinutes\":60", "\"durationMinutes\":\"60\"")
                .replace("Mars/Olympus", "UTC");
        assertThatThrownBy(() -> Json.read(textMinutes, Silence.class))
                .isInstanceOfSatisfying(
                        ContractViolation.class, e -> assertThat(e.field()).isEqualTo("schedule.durationMinutes"));
    }
}
