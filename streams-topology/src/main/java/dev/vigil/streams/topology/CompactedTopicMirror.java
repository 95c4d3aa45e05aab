package dev.vigil.streams.topology;

import dev.vigil.streams.store.GlobalStoreChanges;
import java.util.function.Function;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps a global store equal to a compacted topic (rules, silences): a value puts, a tombstone deletes.
 * A value whose id differs from its key is ignored, because the key decides what a later tombstone deletes.
 * Every change is counted in {@link GlobalStoreChanges}, for readers that keep a decoded copy of the store.
 */
public final class CompactedTopicMirror<V> implements Processor<String, V, Void, Void> {
    private final String storeName;
    private final Function<V, String> idOf;
    private KeyValueStore<String, V> store;

    public CompactedTopicMirror(String storeName, Function<V, String> idOf) {
        this.storeName = storeName;
        this.idOf = idOf;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, V> record) {
        if (record.key() == null) {
            return;
        }
        if (record.value() == null) {
            store.delete(record.key());
        } else if (record.key().equals(idOf.apply(record.value()))) {
            store.put(record.key(), record.value());
        } else {
            return;
        }
        GlobalStoreChanges.changed(storeName);
    }
}
