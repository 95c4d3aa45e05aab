package dev.vigil.notifier.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.core.DeliveryOutcome;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusMappingTest {
    private final Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    private DeliveryOutcome map(int status) {
        return StatusMapping.map("v", new HttpReply(status, Map.of(), "oops\nline2"), clock);
    }

    @Test
    void classes() {
        assertThat(map(200)).isInstanceOf(DeliveryOutcome.Delivered.class);
        assertThat(map(204)).isInstanceOf(DeliveryOutcome.Delivered.class);
        for (int s : new int[] {408, 429, 500, 502, 503, 504}) {
            assertThat(map(s)).as("status %d", s).isInstanceOf(DeliveryOutcome.Transient.class);
        }
        for (int s : new int[] {301, 400, 401, 403, 404, 405, 410, 413, 422}) {
            assertThat(map(s)).as("status %d", s).isInstanceOf(DeliveryOutcome.Permanent.class);
        }
        assertThat(((DeliveryOutcome.Permanent) map(404)).reason()).isEqualTo("v answered HTTP 404: oops line2");
    }

    @Test
    void retryAfterInSecondsOrAsADate() {
        assertThat(StatusMapping.retryAfter("2", clock)).isEqualTo(Duration.ofSeconds(2));
        assertThat(StatusMapping.retryAfter("0.5", clock)).isEqualTo(Duration.ofMillis(500));
        assertThat(StatusMapping.retryAfter("Thu, 01 Jan 2026 00:00:30 GMT", clock)).isEqualTo(Duration.ofSeconds(30));
        assertThat(StatusMapping.retryAfter("Wed, 31 Dec 2025 23:00:00 GMT", clock)).isEqualTo(Duration.ZERO);
        assertThat(StatusMapping.retryAfter("soon", clock)).isNull();
        assertThat(StatusMapping.retryAfter("-3", clock)).isNull();
        assertThat(StatusMapping.retryAfter(null, clock)).isNull();
    }
}
