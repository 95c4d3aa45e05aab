package dev.vigil.streams.alerting;

import static dev.vigil.streams.ProcessorContexts.addKeyValueStore;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.ProcessorContexts;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.metrics.MetricAggregateSerde;
import dev.vigil.streams.metrics.SeriesState;
import dev.vigil.streams.topology.StoreNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * Kafka Streams revives a corrupted exactly-once task by restoring its stores to the last commit and initialising
 * the same processor instance again; the aborted transaction's metrics then come again. The series kept in memory
 * must be the restored ones, or the replayed metrics meet minutes that were only closed in the aborted transaction
 * and are counted late, and the page they caused is never sent.
 */
class MetricAlertProcessorTest {
    private static final long MIN = 60_000L;
    private static final long W0 = 1_800_000_000_000L - 1_800_000_000_000L % MIN;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AlertingConfig config = AlertingConfig.defaults();

    @Test
    void aReplayedMinuteIsClosedAndPagesAgainAfterASecondInit() {
        var processor = new MetricAlertProcessor(
                config,
                StoreNames.metricAlerts(),
                "alerts",
                "dead-letters",
                new AlertEmitter.Counters(registry),
                Counter.builder("late").register(registry),
                Counter.builder("expired").register(registry));
        List<DomainMetric> metrics = List.of(dlq(W0 + 10_000), dlq(W0 + MIN + 5_000)); // the second closes minute W0

        var aborted = context();
        processor.init(aborted);
        metrics.forEach(m -> processor.process(new Record<>(m.key(), m, m.timestamp())));
        assertThat(opened(aborted))
                .as("the dead-letter rule pages when the minute closes")
                .hasSize(1);

        var revived = context();
        processor.init(revived);
        metrics.forEach(m -> processor.process(new Record<>(m.key(), m, m.timestamp())));

        assertThat(opened(revived))
                .as("the aborted page was never committed: it is sent again")
                .hasSize(1);
        assertThat(registry.get("late").counter().count()).isZero();
    }

    private static DomainMetric dlq(long ts) {
        return new DomainMetric(1, "shop", "dlq_routed", "archived", "/cart", null, null, null, ts);
    }

    private static List<AlertEvent> opened(MockProcessorContext<String, Object> context) {
        return context.forwarded("alerts").stream()
                .map(f -> (AlertEvent) f.record().value())
                .filter(e -> e.state() == AlertState.OPENED)
                .toList();
    }

    /** Stores as restored to the commit before the metrics: empty. */
    private MockProcessorContext<String, Object> context() {
        var context = ProcessorContexts.context(W0);
        var windows = Stores.windowStoreBuilder(
                        Stores.inMemoryWindowStore(
                                StoreNames.METRIC_WINDOWS_STORE,
                                config.metricRetention(),
                                Duration.ofMinutes(1),
                                false),
                        Serdes.String(),
                        new MetricAggregateSerde())
                .withLoggingDisabled()
                .build();
        windows.init(context.getStateStoreContext(), windows);
        context.addStateStore(windows);
        addKeyValueStore(context, StoreNames.METRIC_SERIES_STORE, new JsonSerde<>(SeriesState.class));
        addKeyValueStore(context, StoreNames.RULES_STORE, VigilSerdes.alertRule());
        addKeyValueStore(context, StoreNames.SILENCES_STORE, new JsonSerde<>(Silence.class));
        addKeyValueStore(context, StoreNames.METRIC_ALERTS_STORE, new JsonSerde<>(AlertStateRecord.class));
        return context;
    }
}
