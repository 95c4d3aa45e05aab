package dev.vigil.streams.silence;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps the global silences store equal to the compacted silences topic: a value puts, a tombstone deletes.
 * A value whose id differs from its key is ignored (the key decides what a tombstone deletes).
 */
public final class SilenceStoreUpdater implements Processor<String, Silence, Void, Void> {
    private final String storeName;
    private KeyValueStore<String, Silence> store;

    public SilenceStoreUpdater(String storeName) {
        this.storeName = storeName;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, Silence> record) {
        if (record.key() == null) {
            return;
        }
        if (record.value() == null) {
            store.delete(record.key());
        } else if (record.key().equals(record.value().id())) {
            store.put(record.key(), record.value());
        }
    }
}
