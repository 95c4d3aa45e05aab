package dev.vigil.streams.query;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Several partitions of one key-value store read as one, as Kafka Streams' own composite store reads the partitions
 * it finds: a key is in at most one of them; a scan goes through them one after the other (in key order within each
 * partition, not across them).
 */
final class PartitionedStore<V> implements ReadOnlyKeyValueStore<String, V> {
    private final List<ReadOnlyKeyValueStore<String, V>> partitions;

    PartitionedStore(List<ReadOnlyKeyValueStore<String, V>> partitions) {
        this.partitions = List.copyOf(partitions);
    }

    @Override
    public V get(String key) {
        for (ReadOnlyKeyValueStore<String, V> partition : partitions) {
            V value = partition.get(key);
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    @Override
    public KeyValueIterator<String, V> range(String from, String to) {
        return new Concatenated<>(partitions.iterator(), p -> p.range(from, to));
    }

    @Override
    public KeyValueIterator<String, V> all() {
        return new Concatenated<>(partitions.iterator(), ReadOnlyKeyValueStore::all);
    }

    @Override
    public long approximateNumEntries() {
        long n = 0;
        for (ReadOnlyKeyValueStore<String, V> partition : partitions) {
            n += partition.approximateNumEntries();
        }
        return n;
    }

    /** One partition's iterator after the other, each opened when the one before it is used up and closed. */
    private static final class Concatenated<V> implements KeyValueIterator<String, V> {
        private final Iterator<ReadOnlyKeyValueStore<String, V>> stores;
        private final Function<ReadOnlyKeyValueStore<String, V>, KeyValueIterator<String, V>> open;
        private KeyValueIterator<String, V> current;

        Concatenated(
                Iterator<ReadOnlyKeyValueStore<String, V>> stores,
                Function<ReadOnlyKeyValueStore<String, V>, KeyValueIterator<String, V>> open) {
            this.stores = stores;
            this.open = open;
        }

        private boolean advance() {
            while (current == null || !current.hasNext()) {
                if (current != null) {
                    current.close();
                    current = null;
                }
                if (!stores.hasNext()) {
                    return false;
                }
                current = open.apply(stores.next());
            }
            return true;
        }

        @Override
        public boolean hasNext() {
            return advance();
        }

        @Override
        public KeyValue<String, V> next() {
            if (!advance()) {
                throw new NoSuchElementException();
            }
            return current.next();
        }

        @Override
        public String peekNextKey() {
            if (!advance()) {
                throw new NoSuchElementException();
            }
            return current.peekNextKey();
        }

        @Override
        public void close() {
            if (current != null) {
                current.close();
                current = null;
            }
        }
    }
}
