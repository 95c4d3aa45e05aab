package dev.vigil.streams.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BiFunction;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A processor's key-value store with every entry also held decoded in memory, for a store that is read on every
 * record (or scanned on every punctuation) and small enough to hold: reads come from memory, writes go through to the
 * store at once, so the store (and its changelog, in the same transaction as the output) stays the only state.
 *
 * <p>Made in the processor's {@code init}, after Kafka Streams restored the store: {@link #load} reads the store
 * whole. Kafka Streams calls {@code init} again on the same processor instance when it revives a task (under
 * exactly-once the stores are wiped and restored to the last commit), so a processor that makes its mirrors there
 * never keeps what an aborted transaction wrote.
 *
 * <p>A mirror may also keep a <em>view</em> of each value, derived once when the value is written or loaded (a
 * definition's window schedule, say), so that hot paths do not rebuild it per record. Keys iterate in
 * {@code String} order, which for the ASCII keys of {@link StoreKeys} is the store's byte order.
 *
 * <p>Stream-thread only (not thread-safe): interactive queries read the store itself.
 *
 * @param <V> the store's values
 * @param <D> the derived view of a value ({@code V} itself when there is none)
 */
public final class MirroredStore<V, D> {
    private final KeyValueStore<String, V> store;
    private final BiFunction<String, V, D> view;
    private final NavigableMap<String, Entry<V, D>> entries = new TreeMap<>();

    private record Entry<V, D>(V value, D view) {}

    private MirroredStore(KeyValueStore<String, V> store, BiFunction<String, V, D> view) {
        this.store = Objects.requireNonNull(store, "store");
        this.view = view;
        try (var it = store.all()) {
            it.forEachRemaining(kv -> {
                if (kv.value != null) {
                    entries.put(kv.key, new Entry<>(kv.value, view.apply(kv.key, kv.value)));
                }
            });
        }
    }

    /** A mirror of {@code store}, read whole now: call it in the processor's {@code init}. */
    public static <V> MirroredStore<V, V> load(KeyValueStore<String, V> store) {
        return new MirroredStore<>(store, (key, value) -> value);
    }

    /** A mirror that also keeps {@code view(key, value)} of each value, made once per write. */
    public static <V, D> MirroredStore<V, D> load(KeyValueStore<String, V> store, BiFunction<String, V, D> view) {
        return new MirroredStore<>(store, Objects.requireNonNull(view, "view"));
    }

    /** The value of {@code key}, or null. */
    public V get(String key) {
        Entry<V, D> e = entries.get(key);
        return e == null ? null : e.value();
    }

    /** The view of {@code key}'s value, or null when the key has no value. */
    public D view(String key) {
        Entry<V, D> e = entries.get(key);
        return e == null ? null : e.view();
    }

    public boolean containsKey(String key) {
        return entries.containsKey(key);
    }

    /** Writes {@code value} to the store and the mirror; null removes the key. */
    public void put(String key, V value) {
        if (value == null) {
            delete(key);
            return;
        }
        store.put(key, value);
        entries.put(key, new Entry<>(value, view.apply(key, value)));
    }

    /**
     * Removes {@code key} from the store and the mirror, if the mirror holds it: a key the store does not hold costs
     * no store write (nor a changelog tombstone). {@code put(key, null)} on the store deletes without reading the
     * old value back from it.
     */
    public void delete(String key) {
        if (entries.remove(key) != null) {
            store.put(key, null);
        }
    }

    /** The keys, in order; a snapshot, so the caller may write while iterating. */
    public List<String> keys() {
        return new ArrayList<>(entries.keySet());
    }

    /** The values, in key order; a live read-only view: do not write while iterating it. */
    public Collection<V> values() {
        return Collections.unmodifiableCollection(new ValuesView<>(entries.values()));
    }

    /** The keys that start with {@code prefix}, in order; a snapshot. */
    public List<String> keysWithPrefix(String prefix) {
        return new ArrayList<>(withPrefix(prefix).keySet());
    }

    /** The values whose keys start with {@code prefix}, in key order; a snapshot. */
    public List<V> valuesWithPrefix(String prefix) {
        List<V> out = new ArrayList<>();
        withPrefix(prefix).values().forEach(e -> out.add(e.value()));
        return out;
    }

    private Map<String, Entry<V, D>> withPrefix(String prefix) {
        return prefix.isEmpty() ? entries : entries.subMap(prefix, true, prefix + Character.MAX_VALUE, true);
    }

    public int size() {
        return entries.size();
    }

    /** The values of the entries, for {@link #values()} without copying. */
    private static final class ValuesView<V, D> extends java.util.AbstractCollection<V> {
        private final Collection<Entry<V, D>> entries;

        ValuesView(Collection<Entry<V, D>> entries) {
            this.entries = entries;
        }

        @Override
        public java.util.Iterator<V> iterator() {
            var it = entries.iterator();
            return new java.util.Iterator<>() {
                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public V next() {
                    return it.next().value();
                }
            };
        }

        @Override
        public int size() {
            return entries.size();
        }
    }
}
