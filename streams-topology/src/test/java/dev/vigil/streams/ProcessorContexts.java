package dev.vigil.streams;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.streams.topology.StoreNames;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

/**
 * A processor alone with its stores ({@link MockProcessorContext}, in-memory stores without changelogs): for what
 * a whole topology cannot show, such as the same processor instance initialised twice over restored stores.
 */
public final class ProcessorContexts {
    private ProcessorContexts() {}

    public static MockProcessorContext<String, Object> context(long wallClockMs) {
        var context = new MockProcessorContext<String, Object>();
        context.setCurrentSystemTimeMs(wallClockMs);
        context.setRecordMetadata("vigil.probe-results", 0, 0);
        return context;
    }

    public static <V> KeyValueStore<String, V> addKeyValueStore(
            MockProcessorContext<String, Object> context, String name, Serde<V> serde) {
        return add(
                context,
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(), serde)
                        .withLoggingDisabled());
    }

    /** The verdict processor's definitions (holding {@code defs}) and history stores, which others read too. */
    public static WindowStore<String, MonitorStatus> addVerdictStores(
            MockProcessorContext<String, Object> context, MonitorDefinition... defs) {
        KeyValueStore<String, MonitorDefinition> definitions =
                addKeyValueStore(context, StoreNames.DEFINITIONS_STORE, VigilSerdes.monitorDefinition());
        for (MonitorDefinition def : defs) {
            definitions.put(def.id(), def);
        }
        return add(
                context,
                Stores.windowStoreBuilder(
                                Stores.inMemoryWindowStore(
                                        StoreNames.HISTORY_STORE, Duration.ofDays(1), Duration.ofMillis(1), false),
                                Serdes.String(),
                                VigilSerdes.monitorStatus())
                        .withLoggingDisabled());
    }

    private static <S extends StateStore> S add(MockProcessorContext<String, Object> context, StoreBuilder<S> builder) {
        S store = builder.build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        return store;
    }
}
