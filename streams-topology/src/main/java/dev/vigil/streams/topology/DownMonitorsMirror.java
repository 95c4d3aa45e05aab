package dev.vigil.streams.topology;

import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.Status;
import dev.vigil.streams.store.GlobalStoreChanges;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps the global store of down monitors from the status topic (monitor id → latest verdict): a down verdict puts, any
 * other verdict or a tombstone (the monitor deleted or disabled) deletes. Only down monitors are kept, a few entries
 * in a healthy fleet rather than one per monitor; a restore copies the topic as it is (every monitor's latest verdict),
 * so readers check the status they read, and the next verdict of each monitor puts the store right again.
 */
public final class DownMonitorsMirror implements Processor<String, MonitorStatus, Void, Void> {
    private final String storeName;
    private KeyValueStore<String, MonitorStatus> store;

    public DownMonitorsMirror(String storeName) {
        this.storeName = storeName;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, MonitorStatus> record) {
        if (record.key() == null) {
            return;
        }
        MonitorStatus status = record.value();
        if (status != null && status.status() == Status.DOWN && record.key().equals(status.monitorId())) {
            store.put(record.key(), status);
        } else if (store.get(record.key()) != null) {
            store.delete(record.key());
        } else {
            return;
        }
        GlobalStoreChanges.changed(storeName);
    }
}
