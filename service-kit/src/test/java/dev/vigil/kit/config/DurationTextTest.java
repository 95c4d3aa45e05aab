package dev.vigil.kit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationTextTest {
    @Test
    void readsEveryUnitAndIso() {
        assertThat(DurationText.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(DurationText.parse("10s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(DurationText.parse(" 15m ")).isEqualTo(Duration.ofMinutes(15));
        assertThat(DurationText.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(DurationText.parse("7d")).isEqualTo(Duration.ofDays(7));
        assertThat(DurationText.parse("PT1H30M")).isEqualTo(Duration.ofMinutes(90));
        assertThat(DurationText.parse("0s")).isZero();
    }

    @Test
    void refusesBareNumbersUnknownUnitsAndNegativesWithoutRepeatingTheText() {
        for (String bad : new String[] {"5000", "10 s", "1w", "soon", "", "1.5s", "-5s"}) {
            assertThatThrownBy(() -> DurationText.parse(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(DurationText.EXPECTED);
        }
        assertThatThrownBy(() -> DurationText.parse("PT-1S")).hasMessage("must not be negative");
        assertThatThrownBy(() -> DurationText.parse(null)).hasMessage(DurationText.EXPECTED);
    }

    @Test
    void formatsTheShortestTextThatReadsBack() {
        assertThat(DurationText.format(Duration.ofMinutes(15))).isEqualTo("15m");
        assertThat(DurationText.format(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(DurationText.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(DurationText.format(Duration.ofDays(90))).isEqualTo("90d");
        assertThat(DurationText.format(Duration.ofHours(1))).isEqualTo("1h");
        assertThat(DurationText.format(Duration.ZERO)).isEqualTo("0s");
        for (Duration d : new Duration[] {Duration.ofMillis(1), Duration.ofMinutes(61), Duration.ofNanos(5)}) {
            assertThat(DurationText.parse(DurationText.format(d))).isEqualTo(d);
        }
    }
}
