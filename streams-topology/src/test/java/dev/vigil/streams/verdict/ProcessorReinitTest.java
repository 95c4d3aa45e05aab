package dev.vigil.streams.verdict;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.monitor;
import static dev.vigil.streams.Fixtures.regions;
import static dev.vigil.streams.Fixtures.success;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.Status;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.streams.alerting.AlertEmitter;
import dev.vigil.streams.alerting.AlertStateRecord;
import dev.vigil.streams.alerting.AlertingConfig;
import dev.vigil.streams.alerting.AlertingTopology;
import dev.vigil.streams.alerting.MonitorAlertProcessor;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.rules.MonitorRuleStateSerde;
import dev.vigil.streams.silence.Silence;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.Test;

/**
 * Kafka Streams revives a corrupted exactly-once task by wiping its stores, restoring them to the last commit and
 * calling {@code init} again on the <em>same</em> processor instances; the records of the aborted transaction are
 * then processed again. A processor's in-memory caches must describe the restored stores after that second init,
 * not what the aborted transaction did — else the replayed records meet stale state and are dropped.
 */
class ProcessorReinitTest {
    private static final long NOW = W0 + 1_000;
    private final TopologyConfig config = TopologyConfig.defaults();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void verdictProcessorReplaysAnAbortedResultIntoTheRestoredPendingStore() {
        MonitorDefinition shop = monitor("shop", regions(3));
        ProbeResult eu = success("shop", "eu-west", W0);
        var processor = new VerdictProcessor(config, "verdicts", "dead-letters", new VerdictMetrics(registry));

        // the aborted transaction: the first result of W0 opened a pending window
        var aborted = verdictContext(shop);
        processor.init(aborted);
        processor.process(new Record<>("shop", eu, W0));
        assertThat(pendingStore(aborted).get(PendingWindow.key("shop", W0)).results()).containsOnlyKeys("eu-west");

        // revive: stores restored to the last commit (the definition only), same instance initialised again
        var revived = verdictContext(shop);
        processor.init(revived);
        processor.process(new Record<>("shop", eu, W0));

        assertThat(registry.get("vigil.verdict.duplicate.results").counter().count())
                .as("the replayed result is not a duplicate of a window the restored stores never held").isZero();
        assertThat(pendingStore(revived).get(PendingWindow.key("shop", W0)).results()).containsOnlyKeys("eu-west");
        processor.process(new Record<>("shop", success("shop", "us-east", W0), W0));
        processor.process(new Record<>("shop", success("shop", "ap-south", W0), W0));
        List<MonitorStatus> verdicts = revived.forwarded("verdicts").stream()
                .map(f -> (MonitorStatus) f.record().value()).toList();
        assertThat(verdicts).singleElement().satisfies(v -> {
            assertThat(v.status()).isEqualTo(Status.UP);
            assertThat(v.complete()).isTrue();
        });
    }

    @Test
    void verdictProcessorRebuildsTheLatestStatusFromTheVerdictHistory() {
        MonitorDefinition shop = monitor("shop", regions(1));
        var context = verdictContext(shop);
        WindowStore<String, MonitorStatus> history = context.getStateStore(VerdictProcessor.HISTORY_STORE);
        KeyValueStore<String, MonitorStatus> latest = context.getStateStore(VerdictProcessor.STATUS_STORE);
        MonitorStatus up = new MonitorStatus(1, "shop", W0, Status.UP, true, Map.of(), List.of(), NOW);
        MonitorStatus down = new MonitorStatus(1, "shop", W0 + 60_000, Status.DOWN, true, Map.of(), List.of(), NOW);
        history.put("shop", down, W0 + 60_000);
        history.put("shop", up, W0);
        // a deleted monitor keeps its history but has no definition, so no latest status
        history.put("gone", new MonitorStatus(1, "gone", W0, Status.UP, true, Map.of(), List.of(), NOW), W0);
        latest.put("gone", up); // what a wiped store could still hold must not survive the rebuild

        var processor = new VerdictProcessor(config, "verdicts", "dead-letters", new VerdictMetrics(registry));
        processor.init(context);

        assertThat(latest.get("shop")).isEqualTo(down);
        assertThat(latest.get("gone")).isNull();
        processor.process(new Record<>("shop", success("shop", "eu-west", W0 + 60_000), W0));
        assertThat(registry.get("vigil.verdict.late.results").counter().count())
                .as("a window the history holds counts as decided").isEqualTo(1.0);
        assertThat(context.forwarded("verdicts")).isEmpty();
    }

    @Test
    void monitorAlertProcessorReopensTheAlertOfAReplayedDownVerdict() {
        MonitorDefinition shop = monitor("shop", regions(1));
        MonitorStatus down = new MonitorStatus(1, "shop", W0, Status.DOWN, true, Map.of(), List.of(), NOW);
        var processor = new MonitorAlertProcessor(AlertingConfig.defaults(), config.topics().monitors(),
                VerdictProcessor.DEFINITIONS_STORE, "alerts", new AlertEmitter.Counters(registry));

        var aborted = alertContext(shop);
        processor.init(aborted);
        processor.process(new Record<>("shop", down, W0));
        assertThat(opened(aborted)).as("the first pass opens the incident").hasSize(1);

        var revived = alertContext(shop);
        processor.init(revived);
        processor.process(new Record<>("shop", down, W0));
        assertThat(opened(revived)).as("the replayed verdict pages again: the aborted page was never committed")
                .hasSize(1);
    }

    private static List<AlertEvent> opened(MockProcessorContext<String, Object> context) {
        return context.forwarded("alerts").stream().map(f -> (AlertEvent) f.record().value())
                .filter(e -> e.state() == AlertState.OPENED).toList();
    }

    private MockProcessorContext<String, Object> verdictContext(MonitorDefinition def) {
        var context = context();
        KeyValueStore<String, MonitorDefinition> definitions = add(context,
                kv(VerdictProcessor.DEFINITIONS_STORE, VigilSerdes.monitorDefinition()));
        definitions.put(def.id(), def);
        add(context, kv(VerdictProcessor.PENDING_STORE, new PendingWindowSerde()));
        add(context, kv(VerdictProcessor.CURSOR_STORE, Serdes.Long()));
        add(context, kv(VerdictProcessor.STATUS_STORE, VigilSerdes.monitorStatus()));
        add(context, Stores.windowStoreBuilder(Stores.inMemoryWindowStore(VerdictProcessor.HISTORY_STORE,
                        Duration.ofDays(1), Duration.ofMillis(1), false), Serdes.String(), VigilSerdes.monitorStatus())
                .withLoggingDisabled());
        return context;
    }

    private MockProcessorContext<String, Object> alertContext(MonitorDefinition def) {
        var context = context();
        KeyValueStore<String, MonitorDefinition> definitions = add(context,
                kv(VerdictProcessor.DEFINITIONS_STORE, VigilSerdes.monitorDefinition()));
        definitions.put(def.id(), def);
        add(context, kv(AlertingTopology.MONITOR_RULE_STATE_STORE, new MonitorRuleStateSerde()));
        add(context, kv(AlertingTopology.MONITOR_ALERTS_STORE, new JsonSerde<>(AlertStateRecord.class)));
        add(context, kv(AlertingTopology.SILENCES_STORE, new JsonSerde<>(Silence.class)));
        return context;
    }

    private static MockProcessorContext<String, Object> context() {
        var context = new MockProcessorContext<String, Object>();
        context.setCurrentSystemTimeMs(NOW);
        context.setRecordMetadata("vigil.probe-results", 0, 0);
        return context;
    }

    private static <V> StoreBuilder<KeyValueStore<String, V>> kv(String name, Serde<V> serde) {
        return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(), serde)
                .withLoggingDisabled();
    }

    private static <S extends StateStore> S add(MockProcessorContext<String, Object> context, StoreBuilder<S> builder) {
        S store = builder.build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        return store;
    }

    private static KeyValueStore<String, PendingWindow> pendingStore(MockProcessorContext<String, Object> context) {
        return context.getStateStore(VerdictProcessor.PENDING_STORE);
    }
}
