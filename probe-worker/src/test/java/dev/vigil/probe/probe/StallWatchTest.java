package dev.vigil.probe.probe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StallWatchTest {
    private static final long T0 = 1_800_000_000_000L;

    @Test
    void theWorstLatenessOfTheSecondsAskedForIsKept() {
        try (StallWatch watch = StallWatch.start()) {
            watch.record(T0 + 100, 30);
            watch.record(T0 + 900, 400);
            watch.record(T0 + 950, 20);
            watch.record(T0 + 2_500, 120);
            assertThat(watch.worstMs(T0, T0 + 999)).isEqualTo(400);
            assertThat(watch.worstMs(T0 + 1_000, T0 + 1_999)).isZero();
            assertThat(watch.worstMs(T0 + 1_000, T0 + 3_000)).isEqualTo(120);
            assertThat(watch.worstMs(T0 - 5_000, T0 + 5_000)).isEqualTo(400);
        }
    }

    @Test
    void aSecondLongPastDoesNotSpeakForTheSecondThatReusesItsSlot() {
        try (StallWatch watch = StallWatch.start()) {
            watch.record(T0, 900);
            long later = T0 + StallWatch.SECONDS * 1000L;
            assertThat(watch.worstMs(later, later + 999))
                    .as("the slot holds an older second")
                    .isZero();
            watch.record(later + 10, 40);
            assertThat(watch.worstMs(later, later + 999)).isEqualTo(40);
            assertThat(watch.worstMs(T0, T0 + 999)).as("overwritten").isZero();
        }
    }
}
