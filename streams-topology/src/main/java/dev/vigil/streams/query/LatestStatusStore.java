package dev.vigil.streams.query;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.streams.verdict.LatestStatus;
import java.util.NoSuchElementException;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * The latest-status store of one partition as its verdict processor would rebuild it ({@link LatestStatus}): for each
 * monitor of the partition's definitions, in key order, the newest verdict of its history; monitors without one are
 * left out. For the copies that have no latest-status entries of their own (a standby's). Lazy: a scan reads as many
 * histories as it is iterated over.
 */
final class LatestStatusStore implements ReadOnlyKeyValueStore<String, MonitorStatus> {
    private final ReadOnlyKeyValueStore<String, MonitorDefinition> definitions;
    private final ReadOnlyWindowStore<String, MonitorStatus> history;

    LatestStatusStore(
            ReadOnlyKeyValueStore<String, MonitorDefinition> definitions,
            ReadOnlyWindowStore<String, MonitorStatus> history) {
        this.definitions = definitions;
        this.history = history;
    }

    @Override
    public MonitorStatus get(String monitorId) {
        return definitions.get(monitorId) == null ? null : LatestStatus.newest(history, monitorId);
    }

    @Override
    public KeyValueIterator<String, MonitorStatus> range(String from, String to) {
        return new Newest(definitions.range(from, to));
    }

    @Override
    public KeyValueIterator<String, MonitorStatus> all() {
        return new Newest(definitions.all());
    }

    @Override
    public long approximateNumEntries() {
        return definitions.approximateNumEntries();
    }

    /** The definitions' ids in their order, each with its newest verdict; ids without one skipped. */
    private final class Newest implements KeyValueIterator<String, MonitorStatus> {
        private final KeyValueIterator<String, MonitorDefinition> ids;
        private KeyValue<String, MonitorStatus> next;

        Newest(KeyValueIterator<String, MonitorDefinition> ids) {
            this.ids = ids;
        }

        @Override
        public boolean hasNext() {
            while (next == null && ids.hasNext()) {
                String id = ids.next().key;
                MonitorStatus status = LatestStatus.newest(history, id);
                if (status != null) {
                    next = KeyValue.pair(id, status);
                }
            }
            return next != null;
        }

        @Override
        public KeyValue<String, MonitorStatus> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            KeyValue<String, MonitorStatus> kv = next;
            next = null;
            return kv;
        }

        @Override
        public String peekNextKey() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return next.key;
        }

        @Override
        public void close() {
            ids.close();
        }
    }
}
