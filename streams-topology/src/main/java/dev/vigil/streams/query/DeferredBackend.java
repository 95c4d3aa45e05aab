package dev.vigil.streams.query;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * A backend that is set once the Streams runtime exists. The HTTP server binds first (its port becomes
 * Streams' {@code application.server}); until then every query answers 503.
 */
public final class DeferredBackend implements QueryBackend {
    private final AtomicReference<QueryBackend> delegate = new AtomicReference<>();

    public void set(QueryBackend backend) {
        delegate.set(backend);
    }

    private QueryBackend get() {
        QueryBackend b = delegate.get();
        if (b == null) {
            throw new Unavailable("the Streams runtime is starting");
        }
        return b;
    }

    @Override
    public boolean ready() {
        QueryBackend b = delegate.get();
        return b != null && b.ready();
    }

    @Override
    public String state() {
        QueryBackend b = delegate.get();
        return b == null ? "STARTING" : b.state();
    }

    @Override
    public Placement placement(String store, String key) {
        QueryBackend b = delegate.get();
        return b == null ? Placement.UNAVAILABLE : b.placement(store, key);
    }

    @Override
    public List<String> peers() {
        return get().peers();
    }

    @Override
    public <V> ReadOnlyKeyValueStore<String, V> keyValueStore(String name) {
        return get().keyValueStore(name);
    }

    @Override
    public <V> List<ReadOnlyKeyValueStore<String, V>> keyValueStorePartitions(String name) {
        return get().keyValueStorePartitions(name);
    }

    @Override
    public <V> ReadOnlyWindowStore<String, V> windowStore(String name) {
        return get().windowStore(name);
    }

    @Override
    public QueryBackend standbyFor(String peer) {
        return get().standbyFor(peer);
    }

    @Override
    public QueryBackend standbyPartition(int partition) {
        return get().standbyPartition(partition);
    }
}
