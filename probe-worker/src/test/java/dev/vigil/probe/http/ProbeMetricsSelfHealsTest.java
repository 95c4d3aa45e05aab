package dev.vigil.probe.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProbeMetricsSelfHealsTest {
    @Test
    void aBatchTakenOnARetryIsCountedAsASelfHealFromZero() {
        ProbeMetrics metrics = new ProbeMetrics();
        try {
            assertThat(metrics.scrape()).contains("vigil_self_heals_total{kind=\"publish_retry_succeeded\"} 0.0");
            metrics.retrySucceeded();
            assertThat(metrics.scrape()).contains("vigil_self_heals_total{kind=\"publish_retry_succeeded\"} 1.0");
        } finally {
            metrics.close();
        }
    }
}
