package dev.vigil.kit.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class TransientStatusTest {
    private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    @Test
    void timeoutsRateLimitsAndServerErrorsAreTransientTheRestIsTheAnswer() {
        for (int s : new int[] {408, 429, 500, 502, 503, 504, 599}) {
            assertThat(TransientStatus.isTransient(s)).as("status %d", s).isTrue();
        }
        for (int s : new int[] {200, 202, 301, 400, 401, 403, 404, 405, 410, 413, 421, 422}) {
            assertThat(TransientStatus.isTransient(s)).as("status %d", s).isFalse();
        }
    }

    @Test
    void retryAfterInSecondsOrAsADate() {
        assertThat(TransientStatus.retryAfter("2", clock)).isEqualTo(Duration.ofSeconds(2));
        assertThat(TransientStatus.retryAfter("0.5", clock)).isEqualTo(Duration.ofMillis(500));
        assertThat(TransientStatus.retryAfter("Thu, 01 Jan 2026 00:00:30 GMT", clock))
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(TransientStatus.retryAfter("Wed, 31 Dec 2025 23:00:00 GMT", clock))
                .isEqualTo(Duration.ZERO);
        assertThat(TransientStatus.retryAfter("soon", clock)).isNull();
        assertThat(TransientStatus.retryAfter("-3", clock)).isNull();
        assertThat(TransientStatus.retryAfter("90000", clock)).isNull();
        assertThat(TransientStatus.retryAfter(null, clock)).isNull();
    }
}
