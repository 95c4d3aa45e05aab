package dev.vigil.kit.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
    @Test
    void theCeilingGrowsByTheMultiplierUpToTheCap() {
        Backoff b = new Backoff(Duration.ofMillis(500), 2.0, Duration.ofSeconds(30), () -> 0.5);
        assertThat(b.ceiling(1)).isEqualTo(Duration.ofMillis(500));
        assertThat(b.ceiling(2)).isEqualTo(Duration.ofSeconds(1));
        assertThat(b.ceiling(4)).isEqualTo(Duration.ofSeconds(4));
        assertThat(b.ceiling(7)).isEqualTo(Duration.ofSeconds(30));
        assertThat(b.ceiling(1000)).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void theDelayIsFullyJitteredBelowTheCeiling() {
        assertThat(new Backoff(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1), () -> 0.0).delay(3))
                .isEqualTo(Duration.ZERO);
        assertThat(new Backoff(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1), () -> 0.25).delay(3))
                .isEqualTo(Duration.ofSeconds(1));
        Backoff real = Backoff.jittered(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1));
        for (int i = 0; i < 1000; i++) {
            assertThat(real.delay(3)).isBetween(Duration.ZERO, Duration.ofSeconds(4));
        }
    }

    @Test
    void aRetryAfterIsAFloorNotACeiling() {
        Backoff b = new Backoff(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1), () -> 0.5);
        assertThat(b.delay(1, Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(10));
        assertThat(b.delay(5, Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(8));
    }

    @Test
    void aDeadlineIsPassedOnlyBeyondIt() {
        assertThat(Backoff.exceeds(Duration.ofSeconds(50), Duration.ofSeconds(10), Duration.ofMinutes(1)))
                .isFalse();
        assertThat(Backoff.exceeds(Duration.ofSeconds(50), Duration.ofSeconds(11), Duration.ofMinutes(1)))
                .isTrue();
    }

    @Test
    void nonsenseSettingsAreRefused() {
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, 2, Duration.ofSeconds(1), () -> 0))
                .hasMessageContaining("base must be positive");
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), 2, Duration.ofSeconds(1), () -> 0))
                .hasMessageContaining("cap must be at least the base");
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(1), () -> 0))
                .hasMessageContaining("multiplier must be at least 1");
    }
}
