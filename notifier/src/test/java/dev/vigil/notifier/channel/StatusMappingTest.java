package dev.vigil.notifier.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.core.DeliveryOutcome;
import java.time.Clock;
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
}
