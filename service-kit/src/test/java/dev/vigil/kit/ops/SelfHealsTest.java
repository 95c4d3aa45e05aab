package dev.vigil.kit.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

class SelfHealsTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @Test
    void theKindsAServiceHealsAreScrapedAtZeroBeforeTheFirstRecovery() {
        new SelfHeals(registry, SelfHeals.DELIVERY_RETRY_SUCCEEDED, SelfHeals.CLAIM_RESENT);
        assertThat(registry.scrape())
                .contains("vigil_self_heals_total{kind=\"delivery_retry_succeeded\"} 0.0")
                .contains("vigil_self_heals_total{kind=\"claim_resent\"} 0.0")
                .doesNotContain("streams_thread_replaced");
    }

    @Test
    void eachRecordCountsOneOfItsKindOnTheOneSeries() {
        SelfHeals heals = new SelfHeals(registry, SelfHeals.STREAMS_THREAD_REPLACED);
        heals.record(SelfHeals.STREAMS_THREAD_REPLACED);
        heals.record(SelfHeals.STREAMS_THREAD_REPLACED);
        heals.record(SelfHeals.CONSUMER_REBALANCE_SURVIVED);
        assertThat(heals.count(SelfHeals.STREAMS_THREAD_REPLACED)).isEqualTo(2.0);
        assertThat(heals.count(SelfHeals.CONSUMER_REBALANCE_SURVIVED)).isEqualTo(1.0);
        assertThat(registry.scrape())
                .contains("vigil_self_heals_total{kind=\"streams_thread_replaced\"} 2.0")
                .contains("vigil_self_heals_total{kind=\"consumer_rebalance_survived\"} 1.0");
        // a second instance on the same registry (the standalone runs several services in one JVM) adds to it
        new SelfHeals(registry).record(SelfHeals.STREAMS_THREAD_REPLACED);
        assertThat(heals.count(SelfHeals.STREAMS_THREAD_REPLACED)).isEqualTo(3.0);
    }

    @Test
    void aKindOutsideTheListIsRefused() {
        SelfHeals heals = new SelfHeals(registry);
        assertThatThrownBy(() -> heals.record("retry_succeeded")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SelfHeals(registry, "anything")).isInstanceOf(IllegalArgumentException.class);
        assertThat(registry.scrape()).doesNotContain("vigil_self_heals_total");
    }
}
