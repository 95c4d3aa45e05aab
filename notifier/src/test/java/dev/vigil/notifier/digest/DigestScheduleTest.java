package dev.vigil.notifier.digest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class DigestScheduleTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void dueAtTheLocalTimeInTheZone() {
        DigestSchedule s = new DigestSchedule(LocalTime.of(9, 0), BERLIN);
        // winter: UTC+1
        assertThat(s.dueOn(LocalDate.of(2026, 12, 6))).isEqualTo(Instant.parse("2026-12-06T08:00:00Z"));
        // summer: UTC+2
        assertThat(s.dueOn(LocalDate.of(2026, 7, 6))).isEqualTo(Instant.parse("2026-07-06T07:00:00Z"));
    }

    @Test
    void latestDueDayTurnsAtTheTimeNotAtMidnight() {
        DigestSchedule s = new DigestSchedule(LocalTime.of(9, 0), BERLIN);
        assertThat(s.latestDueDay(Instant.parse("2026-12-06T07:59:59Z"))).isEqualTo(LocalDate.of(2026, 12, 5));
        assertThat(s.latestDueDay(Instant.parse("2026-12-06T08:00:00Z"))).isEqualTo(LocalDate.of(2026, 12, 6));
        // 23:30 UTC on the 6th is already the 7th in Berlin, but before 09:00 there
        assertThat(s.latestDueDay(Instant.parse("2026-12-06T23:30:00Z"))).isEqualTo(LocalDate.of(2026, 12, 6));
        assertThat(s.nextDueDay(Instant.parse("2026-12-06T23:30:00Z"))).isEqualTo(LocalDate.of(2026, 12, 7));
    }

    @Test
    void aTimeInTheSpringGapIsDueAnHourLaterAndTheDayIsTwentyThreeHours() {
        DigestSchedule gap = new DigestSchedule(LocalTime.of(2, 30), BERLIN);
        LocalDate spring = LocalDate.of(2026, 3, 29); // 02:00 CET -> 03:00 CEST
        assertThat(gap.dueOn(spring)).isEqualTo(Instant.parse("2026-03-29T01:30:00Z")); // 03:30 CEST
        assertThat(gap.latestDueDay(Instant.parse("2026-03-29T01:29:59Z"))).isEqualTo(spring.minusDays(1));
        assertThat(gap.latestDueDay(Instant.parse("2026-03-29T01:30:00Z"))).isEqualTo(spring);

        DigestSchedule nine = new DigestSchedule(LocalTime.of(9, 0), BERLIN);
        assertThat(Duration.between(nine.windowStart(spring), nine.dueOn(spring)))
                .isEqualTo(Duration.ofHours(23));
    }

    @Test
    void aTimeThatHappensTwiceIsDueAtItsFirstOccurrenceAndTheDayIsTwentyFiveHours() {
        DigestSchedule twice = new DigestSchedule(LocalTime.of(2, 30), BERLIN);
        LocalDate autumn = LocalDate.of(2026, 10, 25); // 03:00 CEST -> 02:00 CET
        assertThat(twice.dueOn(autumn)).isEqualTo(Instant.parse("2026-10-25T00:30:00Z")); // 02:30 CEST
        // the second 02:30 (CET) is not a second due moment
        assertThat(twice.latestDueDay(Instant.parse("2026-10-25T01:30:00Z"))).isEqualTo(autumn);
        assertThat(twice.nextDueDay(Instant.parse("2026-10-25T01:30:00Z"))).isEqualTo(autumn.plusDays(1));

        DigestSchedule nine = new DigestSchedule(LocalTime.of(9, 0), BERLIN);
        assertThat(Duration.between(nine.windowStart(autumn), nine.dueOn(autumn)))
                .isEqualTo(Duration.ofHours(25));
    }
}
