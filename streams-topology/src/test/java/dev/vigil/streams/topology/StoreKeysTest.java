package dev.vigil.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.streams.store.StoreKeys;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keys are byte-for-byte what {@code String.format} gave, so stores written before keep their keys. */
class StoreKeysTest {
    @Test
    void sameKeysAsTheFormatterForEveryWidthAndMagnitude() {
        for (int width : List.of(7, 19)) {
            for (long n : List.of(
                    0L, 1L, 9L, 10L, 20_000L, 1_764_547_200_000L, 9_999_999L, 10_000_000L, Long.MAX_VALUE, -1L, -42L)) {
                assertThat(StoreKeys.of("api-7", n, width))
                        .as("width %d, %d", width, n)
                        .isEqualTo("api-7|" + String.format("%0" + width + "d", n));
            }
        }
    }

    @Test
    void keysOfOneIdSortByNumberAndAfterTheirPrefix() {
        String early = StoreKeys.of("api", 999L, 19);
        String late = StoreKeys.of("api", 1_000L, 19);
        assertThat(early).startsWith(StoreKeys.prefix("api")).isLessThan(late);
        assertThat(StoreKeys.of("api-2", 0L, 19))
                .as("'-' sorts before '|': another id never falls inside api's range")
                .isLessThan(StoreKeys.prefix("api"));
    }
}
