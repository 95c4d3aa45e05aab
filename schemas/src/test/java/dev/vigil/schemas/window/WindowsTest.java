package dev.vigil.schemas.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class WindowsTest {
    @ParameterizedTest
    @CsvSource({
            "0, 10000, 0",
            "9999, 10000, 0",
            "10000, 10000, 10000",
            "1764531314123, 60000, 1764531300000",
            "1764531314123, 300000, 1764531300000",
            "-1, 10000, -10000"})
    void windowStartIsTheBoundaryAtOrBefore(long t, long interval, long expected) {
        assertThat(Windows.windowStart(t, interval)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"10000, 2500", "60000, 15000", "300000, 15000", "3600000, 15000", "40000, 10000"})
    void spreadIsAQuarterCappedAtFifteenSeconds(long interval, long expected) {
        assertThat(Windows.spreadMs(interval)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(longs = {10_000, 60_000, 300_000})
    void offsetsAreDeterministicInsideTheSpreadAndSpreadOut(long interval) {
        Set<Long> distinct = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String id = "monitor-" + i;
            long offset = Windows.offsetMs(id, interval);
            assertThat(offset).isBetween(0L, Windows.spreadMs(interval) - 1);
            assertThat(Windows.offsetMs(id, interval)).isEqualTo(offset);
            distinct.add(offset);
        }
        // 1,000 monitors must not collapse onto a handful of start instants.
        assertThat(distinct.size()).isGreaterThan(Math.min(500, (int) Windows.spreadMs(interval) / 4));
    }

    @Test
    void scheduledAtStaysInItsWindowForEveryWindow() {
        long interval = 60_000;
        long window = Windows.windowStart(1_764_531_314_123L, interval);
        for (int i = 0; i < 1000; i++) {
            long at = Windows.scheduledAt("api", window, interval);
            assertThat(Windows.windowStart(at, interval)).isEqualTo(window);
            long next = Windows.nextWindowStart(window, interval);
            assertThat(next - window).isEqualTo(interval);
            window = next;
        }
    }

    @Test
    void collectionDeadlineAddsSpreadTimeoutAndGrace() {
        assertThat(Windows.collectionDeadline(600_000, 60_000, 2_500, 5_000)).isEqualTo(600_000 + 15_000 + 2_500 + 5_000);
        assertThat(Windows.collectionDeadline(0, 10_000, 1_000, 0)).isEqualTo(2_500 + 1_000);
    }

    @Test
    void fnvMatchesTheReferenceVectors() {
        // Published FNV-1a 64 test vectors: the offsets must not change between releases.
        assertThat(Windows.fnv1a64("")).isEqualTo(0xcbf29ce484222325L);
        assertThat(Windows.fnv1a64("a")).isEqualTo(0xaf63dc4c8601ec8cL);
        assertThat(Windows.fnv1a64("foobar")).isEqualTo(0x85944171f73967e8L);
    }

    @Test
    void rejectsNonPositiveIntervals() {
        assertThatThrownBy(() -> Windows.windowStart(1, 0)).hasMessageContaining("interval must be positive");
        assertThatThrownBy(() -> Windows.collectionDeadline(0, 10_000, -1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
