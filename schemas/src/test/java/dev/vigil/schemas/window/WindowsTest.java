package dev.vigil.schemas.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WindowsTest {
    @ParameterizedTest
    @CsvSource({
        "0, 10000, 0",
        "9999, 10000, 0",
        "10000, 10000, 10000",
        "1764531314123, 60000, 1764531300000",
        "1764531314123, 300000, 1764531300000",
        "-1, 10000, -10000"
    })
    void windowStartIsTheBoundaryAtOrBefore(long t, long interval, long expected) {
        assertThat(Windows.windowStart(t, interval)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
        "10000, 2500, 7500",
        "60000, 2500, 57500",
        "300000, 30000, 270000",
        "3600000, 5000, 3595000",
        "10000, 10000, 0",
        "10000, 12000, 0"
    })
    void spreadIsTheIntervalLessTheTimeoutNeverNegative(long interval, long timeout, long expected) {
        assertThat(Windows.spreadMs(interval, timeout)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"10000, 2500", "60000, 2500", "300000, 30000"})
    void offsetsAreDeterministicInsideTheSpreadAndSpreadOut(long interval, long timeout) {
        long spread = Windows.spreadMs(interval, timeout);
        Set<Long> distinct = new HashSet<>();
        long max = 0;
        for (int i = 0; i < 1000; i++) {
            String id = "monitor-" + i;
            long offset = Windows.offsetMs(id, interval, timeout);
            assertThat(offset).isBetween(0L, spread - 1);
            assertThat(Windows.offsetMs(id, interval, timeout)).isEqualTo(offset);
            distinct.add(offset);
            max = Math.max(max, offset);
        }
        // 1,000 monitors must not collapse onto a handful of start instants,
        assertThat(distinct.size()).isGreaterThan(900);
        // and they reach into the last tenth of the spread, not only its start.
        assertThat(max).isGreaterThan(spread * 9 / 10);
    }

    @Test
    void aFleetsPeakProbeStartRateIsItsAverageRate() {
        long interval = 60_000;
        long timeout = 2_500;
        int monitors = 10_000;
        long window = Windows.windowStart(1_764_531_314_123L, interval);
        int[] perSecond = new int[(int) (interval / 1000)];
        for (int i = 0; i < monitors; i++) {
            long at = Windows.scheduledAt("mon-" + i, window, interval, timeout);
            perSecond[(int) ((at - window) / 1000)]++;
        }
        double mean = monitors / (Windows.spreadMs(interval, timeout) / 1000.0);
        int peak = 0;
        for (int count : perSecond) {
            peak = Math.max(peak, count);
        }
        assertThat(peak)
                .as("busiest second against a mean of %.0f starts/s", mean)
                .isLessThanOrEqualTo((int) (2 * mean));
        // every whole second of the spread has starts: no idle stretch and no burst at the window's start
        for (int s = 0; s < Windows.spreadMs(interval, timeout) / 1000; s++) {
            assertThat(perSecond[s]).as("second %d", s).isGreaterThan((int) (mean / 2));
        }
    }

    @Test
    void scheduledAtStaysInItsWindowAndTheProbeEndsInsideIt() {
        long interval = 60_000;
        long timeout = 2_500;
        long window = Windows.windowStart(1_764_531_314_123L, interval);
        for (int i = 0; i < 1000; i++) {
            long at = Windows.scheduledAt("api-" + i, window, interval, timeout);
            assertThat(Windows.windowStart(at, interval)).isEqualTo(window);
            assertThat(at + timeout).isLessThan(window + interval);
            long next = Windows.nextWindowStart(window, interval);
            assertThat(next - window).isEqualTo(interval);
            window = next;
        }
    }

    @Test
    void collectionDeadlineIsTheMonitorsOwnScheduledStartPlusTimeoutAndGrace() {
        long ws = 600_000;
        for (String id : new String[] {"api", "web", "checkout", "a"}) {
            long at = Windows.scheduledAt(id, ws, 60_000, 2_500);
            assertThat(Windows.collectionDeadline(id, ws, 60_000, 2_500, 5_000)).isEqualTo(at + 2_500 + 5_000);
            assertThat(Windows.collectionDeadline(id, ws, 60_000, 2_500, 5_000))
                    .isLessThanOrEqualTo(Windows.latestCollectionDeadline(ws, 60_000, 2_500, 5_000));
        }
        // two monitors of the same window are due at different times
        assertThat(Windows.collectionDeadline("api", ws, 60_000, 2_500, 5_000))
                .isNotEqualTo(Windows.collectionDeadline("web", ws, 60_000, 2_500, 5_000));
    }

    @Test
    void theLatestCollectionDeadlineIsTheLastOffsetsDeadline() {
        assertThat(Windows.latestCollectionDeadline(600_000, 60_000, 2_500, 5_000))
                .isEqualTo(600_000 + 57_499 + 2_500 + 5_000);
        assertThat(Windows.latestCollectionDeadline(0, 10_000, 10_000, 0)).isEqualTo(10_000);
        long latest = 0;
        for (int i = 0; i < 20_000; i++) {
            latest = Math.max(latest, Windows.collectionDeadline("m-" + i, 0, 10_000, 1_000, 0));
        }
        // The maximum over many ids reaches it, and none exceeds it.
        assertThat(latest)
                .isBetween(
                        Windows.latestCollectionDeadline(0, 10_000, 1_000, 0) - 20,
                        Windows.latestCollectionDeadline(0, 10_000, 1_000, 0));
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
        assertThatThrownBy(() -> Windows.collectionDeadline("api", 0, 10_000, -1, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Windows.spreadMs(0, 1_000)).hasMessageContaining("interval must be positive");
    }
}
