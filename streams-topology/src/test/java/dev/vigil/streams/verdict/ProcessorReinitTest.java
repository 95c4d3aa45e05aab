package dev.vigil.streams.verdict;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.monitor;
import static dev.vigil.streams.Fixtures.regions;
import static dev.vigil.streams.Fixtures.success;
import static dev.vigil.streams.ProcessorContexts.addKeyValueStore;
import static dev.vigil.streams.ProcessorContexts.addVerdictStores;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.Status;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.streams.ProcessorContexts;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.topology.StoreNames;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.Test;

/**
 * What the verdict processor holds in memory must describe its stores after every init. Kafka Streams revives a
 * corrupted exactly-once task by restoring its stores to the last commit and calling {@code init} again on the
 * <em>same</em> processor instance, then processes the aborted transaction's records again; and the latest-status
 * store has no changelog, so init rebuilds it from the verdict history.
 */
class ProcessorReinitTest {
    private static final long NOW = W0 + 1_000;
    private final TopologyConfig config = TopologyConfig.defaults();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void verdictProcessorReplaysAnAbortedResultIntoTheRestoredPendingStore() {
        MonitorDefinition shop = monitor("shop", regions(3));
        ProbeResult eu = success("shop", "eu-west", W0);
        var processor = new VerdictProcessor(
                config, StoreNames.verdict(), "verdicts", "dead-letters", new VerdictMetrics(registry));

        // the aborted transaction: the first result of W0 opened a pending window
        var aborted = verdictContext(shop);
        processor.init(aborted);
        processor.process(new Record<>("shop", new VerdictInput.Result(eu), W0));
        assertThat(pendingStore(aborted).get(PendingWindow.key("shop", W0)).results())
                .containsOnlyKeys("eu-west");

        // revive: stores restored to the last commit (the definition only), same instance initialised again
        var revived = verdictContext(shop);
        processor.init(revived);
        processor.process(new Record<>("shop", new VerdictInput.Result(eu), W0));

        assertThat(registry.get("vigil.verdict.duplicate.results").counter().count())
                .as("the replayed result is not a duplicate of a window the restored stores never held")
                .isZero();
        assertThat(pendingStore(revived).get(PendingWindow.key("shop", W0)).results())
                .containsOnlyKeys("eu-west");
        processor.process(new Record<>("shop", new VerdictInput.Result(success("shop", "us-east", W0)), W0));
        processor.process(new Record<>("shop", new VerdictInput.Result(success("shop", "ap-south", W0)), W0));
        List<MonitorStatus> verdicts = revived.forwarded("verdicts").stream()
                .map(f -> ((MonitorEvent.Decided) f.record().value()).verdict())
                .toList();
        assertThat(verdicts).singleElement().satisfies(v -> {
            assertThat(v.status()).isEqualTo(Status.UP);
            assertThat(v.complete()).isTrue();
        });
    }

    @Test
    void verdictProcessorRebuildsTheLatestStatusFromTheVerdictHistory() {
        MonitorDefinition shop = monitor("shop", regions(1));
        var context = verdictContext(shop);
        WindowStore<String, MonitorStatus> history = context.getStateStore(StoreNames.HISTORY_STORE);
        KeyValueStore<String, MonitorStatus> latest = context.getStateStore(StoreNames.STATUS_STORE);
        MonitorStatus up = new MonitorStatus(1, "shop", W0, Status.UP, true, Map.of(), List.of(), NOW);
        MonitorStatus down = new MonitorStatus(1, "shop", W0 + 60_000, Status.DOWN, true, Map.of(), List.of(), NOW);
        history.put("shop", down, W0 + 60_000);
        history.put("shop", up, W0);
        // a deleted monitor keeps its history but has no definition, so no latest status
        history.put("gone", new MonitorStatus(1, "gone", W0, Status.UP, true, Map.of(), List.of(), NOW), W0);
        latest.put("gone", up); // what a wiped store could still hold must not survive the rebuild

        var processor = new VerdictProcessor(
                config, StoreNames.verdict(), "verdicts", "dead-letters", new VerdictMetrics(registry));
        processor.init(context);

        assertThat(latest.get("shop")).isEqualTo(down);
        assertThat(latest.get("gone")).isNull();
        processor.process(new Record<>("shop", new VerdictInput.Result(success("shop", "eu-west", W0 + 60_000)), W0));
        assertThat(registry.get("vigil.verdict.late.results").counter().count())
                .as("a window the history holds counts as decided")
                .isEqualTo(1.0);
        assertThat(context.forwarded("verdicts")).isEmpty();
    }

    private static MockProcessorContext<String, Object> verdictContext(MonitorDefinition def) {
        var context = ProcessorContexts.context(NOW);
        addVerdictStores(context, def);
        addKeyValueStore(context, StoreNames.PENDING_STORE, new PendingWindowSerde());
        addKeyValueStore(context, StoreNames.CURSOR_STORE, Serdes.Long());
        addKeyValueStore(context, StoreNames.STATUS_STORE, VigilSerdes.monitorStatus());
        return context;
    }

    private static KeyValueStore<String, PendingWindow> pendingStore(MockProcessorContext<String, Object> context) {
        return context.getStateStore(StoreNames.PENDING_STORE);
    }
}
