package dev.vigil.streams.query;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.InvalidStateStorePartitionException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/** {@link QueryBackend} over a running {@link KafkaStreams}: interactive queries and application.server metadata. */
public final class KafkaStreamsBackend implements QueryBackend {
    private final KafkaStreams streams;
    private final HostInfo self;

    public KafkaStreamsBackend(KafkaStreams streams, HostInfo self) {
        this.streams = streams;
        this.self = self;
    }

    @Override
    public boolean ready() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    @Override
    public String state() {
        return streams.state().name();
    }

    @Override
    public Placement placement(String store, String key) {
        KeyQueryMetadata md;
        try {
            md = streams.queryMetadataForKey(store, key, Serdes.String().serializer());
        } catch (IllegalStateException e) {
            return Placement.UNAVAILABLE;
        }
        if (md == null || md == KeyQueryMetadata.NOT_AVAILABLE || md.activeHost() == null
                || md.activeHost().port() <= 0) {
            return Placement.UNAVAILABLE;
        }
        HostInfo owner = md.activeHost();
        return owner.equals(self) ? Placement.LOCAL : Placement.remote(owner.host() + ":" + owner.port());
    }

    @Override
    public List<String> peers() {
        try {
            return streams.metadataForAllStreamsClients().stream()
                    .map(m -> m.hostInfo())
                    .filter(h -> !h.equals(self))
                    .map(h -> h.host() + ":" + h.port())
                    .distinct()
                    .sorted()
                    .toList();
        } catch (IllegalStateException e) {
            throw new Unavailable("instance metadata is not available: " + e.getMessage(), e);
        }
    }

    @Override
    public <V> ReadOnlyKeyValueStore<String, V> keyValueStore(String name) {
        try {
            return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>keyValueStore()));
        } catch (InvalidStateStoreException e) {
            throw new Unavailable("store " + name + " is not queryable now (" + streams.state() + ")", e);
        }
    }

    /**
     * One store per partition of {@code name} active here. The candidates are the partitions of this instance's
     * active tasks; a partition whose task here belongs to another sub-topology has no such store here
     * ({@link InvalidStateStorePartitionException}) and is left out, as the whole-store read leaves it out. Any other
     * failure (a rebalance started, a store closed) is {@link Unavailable}: never a page with a partition missing.
     */
    @Override
    public <V> List<ReadOnlyKeyValueStore<String, V>> keyValueStorePartitions(String name) {
        SortedSet<Integer> partitions = new TreeSet<>();
        try {
            streams.metadataForLocalThreads().forEach(thread -> thread.activeTasks()
                    .forEach(task -> partitions.add(task.taskId().partition())));
        } catch (IllegalStateException e) {
            throw new Unavailable("instance metadata is not available: " + e.getMessage(), e);
        }
        List<ReadOnlyKeyValueStore<String, V>> stores = new ArrayList<>();
        for (int partition : partitions) {
            try {
                ReadOnlyKeyValueStore<String, V> store = streams.store(StoreQueryParameters.fromNameAndType(name,
                        QueryableStoreTypes.<String, V>keyValueStore()).withPartition(partition));
                // streams.store() finds the partition's store only when the store is used: a cheap use tells now
                store.approximateNumEntries();
                stores.add(store);
            } catch (InvalidStateStorePartitionException e) {
                // this partition's task here is of another sub-topology: the store's own task for it is elsewhere
            } catch (InvalidStateStoreException e) {
                throw new Unavailable("store " + name + " is not queryable now (" + streams.state() + ")", e);
            }
        }
        return stores;
    }

    @Override
    public <V> ReadOnlyWindowStore<String, V> windowStore(String name) {
        try {
            return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>windowStore()));
        } catch (InvalidStateStoreException e) {
            throw new Unavailable("store " + name + " is not queryable now (" + streams.state() + ")", e);
        }
    }
}
