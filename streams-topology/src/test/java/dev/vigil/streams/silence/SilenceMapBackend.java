package dev.vigil.streams.silence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.topology.StoreNames;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/** A backend whose only store is the silences map (every instance holds the whole global store). */
final class SilenceMapBackend implements QueryBackend {
    private final TreeMap<String, Silence> map;

    SilenceMapBackend(TreeMap<String, Silence> map) {
        this.map = map;
    }

    @Override
    public boolean ready() {
        return true;
    }

    @Override
    public String state() {
        return "RUNNING";
    }

    @Override
    public Placement placement(String store, String key) {
        return Placement.LOCAL;
    }

    @Override
    public List<String> peers() {
        return List.of();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> ReadOnlyKeyValueStore<String, V> keyValueStore(String name) {
        assertThat(name).isEqualTo(StoreNames.SILENCES_STORE);
        synchronized (map) { // writers in tests add to it from the API writer's thread
            return (ReadOnlyKeyValueStore<String, V>) new MapStore(new TreeMap<>(map));
        }
    }

    @Override
    public <V> ReadOnlyWindowStore<String, V> windowStore(String name) {
        throw new UnsupportedOperationException(name);
    }

    private record MapStore(TreeMap<String, Silence> map) implements ReadOnlyKeyValueStore<String, Silence> {
        @Override
        public Silence get(String key) {
            return map.get(key);
        }

        @Override
        public KeyValueIterator<String, Silence> range(String from, String to) {
            return iterator(map.subMap(from, true, to, true));
        }

        @Override
        public KeyValueIterator<String, Silence> all() {
            return iterator(map);
        }

        @Override
        public long approximateNumEntries() {
            return map.size();
        }

        private static KeyValueIterator<String, Silence> iterator(java.util.SortedMap<String, Silence> m) {
            Iterator<Map.Entry<String, Silence>> it = m.entrySet().iterator();
            return new KeyValueIterator<>() {
                private Map.Entry<String, Silence> peeked;

                @Override
                public boolean hasNext() {
                    return peeked != null || it.hasNext();
                }

                @Override
                public KeyValue<String, Silence> next() {
                    Map.Entry<String, Silence> e = peeked != null ? peeked : it.next();
                    peeked = null;
                    return KeyValue.pair(e.getKey(), e.getValue());
                }

                @Override
                public String peekNextKey() {
                    if (peeked == null) {
                        peeked = it.next();
                    }
                    return peeked.getKey();
                }

                @Override
                public void close() {}
            };
        }
    }
}
