package dev.vigil.streams.query;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.streams.topology.StoreNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.InvalidStateStorePartitionException;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * {@link QueryBackend} over a running {@link KafkaStreams}: interactive queries and application.server metadata.
 * While a peer does not answer, its partitions are read from this instance's standby copies when it holds them
 * (stale stores, KIP-535): which partitions those are comes from the peer's active input partitions and, for each
 * store, the sub-topology that owns it and that sub-topology's source topics (from the topology's description).
 */
public final class KafkaStreamsBackend implements QueryBackend {
    private final KafkaStreams streams;
    private final HostInfo self;
    private final Map<String, StoreHome> homes;
    /** Global stores: whole on every instance, read as they are by a standby view too. */
    private final Set<String> globalStores;

    /** Where a store lives in the topology: its sub-topology and the topics that sub-topology reads. */
    record StoreHome(int subtopology, Set<String> sourceTopics) {
        /**
         * Whether {@code topic} (a name as the consumer sees it) is one of the sources; an internal topic's name
         * in a topology description lacks the application-id prefix it gets on the broker.
         */
        boolean reads(String topic) {
            for (String source : sourceTopics) {
                if (topic.equals(source) || topic.endsWith("-" + source)) {
                    return true;
                }
            }
            return false;
        }
    }

    public KafkaStreamsBackend(KafkaStreams streams, HostInfo self, TopologyDescription topology) {
        this.streams = streams;
        this.self = self;
        this.homes = storeHomes(topology);
        Set<String> global = new HashSet<>();
        topology.globalStores().forEach(g -> global.addAll(g.processor().stores()));
        this.globalStores = Set.copyOf(global);
    }

    /** Every store of {@code topology}, with the sub-topology that owns it and that sub-topology's source topics. */
    static Map<String, StoreHome> storeHomes(TopologyDescription topology) {
        Map<String, StoreHome> homes = new HashMap<>();
        for (TopologyDescription.Subtopology sub : topology.subtopologies()) {
            Set<String> stores = new HashSet<>();
            Set<String> topics = new HashSet<>();
            for (TopologyDescription.Node node : sub.nodes()) {
                if (node instanceof TopologyDescription.Processor processor) {
                    stores.addAll(processor.stores());
                } else if (node instanceof TopologyDescription.Source source && source.topicSet() != null) {
                    topics.addAll(source.topicSet());
                }
            }
            StoreHome home = new StoreHome(sub.id(), Set.copyOf(topics));
            stores.forEach(store -> homes.put(store, home));
        }
        return Map.copyOf(homes);
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
        if (md == null
                || md == KeyQueryMetadata.NOT_AVAILABLE
                || md.activeHost() == null
                || md.activeHost().port() <= 0) {
            return Placement.UNAVAILABLE;
        }
        HostInfo owner = md.activeHost();
        return owner.equals(self)
                ? Placement.LOCAL
                : Placement.remote(
                        owner.host() + ":" + owner.port(),
                        md.partition(),
                        md.standbyHosts().contains(self));
    }

    @Override
    public QueryBackend standbyFor(String peer) {
        Set<TopicPartition> peerActive;
        Set<TaskId> standbys = new HashSet<>();
        try {
            peerActive = streams.metadataForAllStreamsClients().stream()
                    .filter(m -> (m.hostInfo().host() + ":" + m.hostInfo().port()).equals(peer))
                    .map(StreamsMetadata::topicPartitions)
                    .findFirst()
                    .orElseThrow(() -> new NoStandby("instance " + peer + " is not in this application's metadata"));
            streams.metadataForLocalThreads()
                    .forEach(thread -> thread.standbyTasks().forEach(task -> standbys.add(task.taskId())));
        } catch (IllegalStateException e) {
            throw new Unavailable("instance metadata is not available: " + e.getMessage(), e);
        }
        return new StandbyView("standby copies of " + peer + "'s partitions", name -> {
            StoreHome home = homes.get(name);
            if (home == null) {
                throw new Unavailable("store " + name + " is not in this topology");
            }
            SortedSet<Integer> partitions = new TreeSet<>();
            peerActive.stream().filter(tp -> home.reads(tp.topic())).forEach(tp -> partitions.add(tp.partition()));
            for (int partition : partitions) {
                if (!standbys.contains(new TaskId(home.subtopology(), partition))) {
                    throw new NoStandby("no standby copy of partition " + partition + " of " + name + " here");
                }
            }
            return partitions;
        });
    }

    @Override
    public QueryBackend standbyPartition(int partition) {
        return new StandbyView("this instance's copy of partition " + partition, name -> {
            if (!homes.containsKey(name)) {
                throw new Unavailable("store " + name + " is not in this topology");
            }
            return new TreeSet<>(Set.of(partition));
        });
    }

    /**
     * Stale reads of the given partitions of each store (their standby copies here, or an active one of another
     * sub-topology's task): a partition that is not here at all is {@link NoStandby}.
     */
    private final class StandbyView implements QueryBackend {
        private final String what;
        private final java.util.function.Function<String, SortedSet<Integer>> partitionsOf;

        StandbyView(String what, java.util.function.Function<String, SortedSet<Integer>> partitionsOf) {
            this.what = what;
            this.partitionsOf = partitionsOf;
        }

        @Override
        public boolean ready() {
            return true;
        }

        @Override
        public String state() {
            return what;
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
        public <V> ReadOnlyKeyValueStore<String, V> keyValueStore(String name) {
            if (globalStores.contains(name)) {
                return KafkaStreamsBackend.this.keyValueStore(name);
            }
            return new PartitionedStore<>(keyValueStorePartitions(name));
        }

        @Override
        public <V> List<ReadOnlyKeyValueStore<String, V>> keyValueStorePartitions(String name) {
            if (globalStores.contains(name)) {
                return List.of(KafkaStreamsBackend.this.keyValueStore(name));
            }
            List<ReadOnlyKeyValueStore<String, V>> stores = new ArrayList<>();
            for (int partition : partitionsOf.apply(name)) {
                stores.add(
                        StoreNames.STATUS_STORE.equals(name)
                                ? latestStatus(partition)
                                : stale(
                                        name,
                                        partition,
                                        QueryableStoreTypes.<String, V>keyValueStore(),
                                        s -> s.approximateNumEntries()));
            }
            return stores;
        }

        @Override
        public <V> ReadOnlyWindowStore<String, V> windowStore(String name) {
            SortedSet<Integer> partitions = partitionsOf.apply(name);
            if (partitions.size() != 1) {
                // a key's history lives in one partition: the keyed answers ask for exactly that one
                throw new NoStandby("a window store is read from a standby copy for one key's partition only");
            }
            return stale(name, partitions.first(), QueryableStoreTypes.<String, V>windowStore(), s -> s.fetch("", 0L));
        }

        /**
         * The latest-status store is the one without a changelog (it is rebuilt from the history when its task
         * initialises), so a standby copy of it is empty: it is read as the rebuild would make it.
         */
        @SuppressWarnings("unchecked")
        private <V> ReadOnlyKeyValueStore<String, V> latestStatus(int partition) {
            ReadOnlyKeyValueStore<String, MonitorDefinition> definitions = stale(
                    StoreNames.DEFINITIONS_STORE,
                    partition,
                    QueryableStoreTypes.<String, MonitorDefinition>keyValueStore(),
                    s -> s.approximateNumEntries());
            ReadOnlyWindowStore<String, MonitorStatus> history = stale(
                    StoreNames.HISTORY_STORE,
                    partition,
                    QueryableStoreTypes.<String, MonitorStatus>windowStore(),
                    s -> s.fetch("", 0L));
            return (ReadOnlyKeyValueStore<String, V>) new LatestStatusStore(definitions, history);
        }

        private <T> T stale(
                String name,
                int partition,
                org.apache.kafka.streams.state.QueryableStoreType<T> type,
                java.util.function.Consumer<T> touch) {
            try {
                T store = streams.store(StoreQueryParameters.fromNameAndType(name, type)
                        .withPartition(partition)
                        .enableStaleStores());
                touch.accept(store); // streams.store() finds a partition's store only when it is used
                return store;
            } catch (InvalidStateStorePartitionException e) {
                throw new NoStandby("no copy of partition " + partition + " of " + name + " here", e);
            } catch (InvalidStateStoreException e) {
                throw new Unavailable("store " + name + " is not queryable now (" + streams.state() + ")", e);
            }
        }
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
            return streams.store(
                    StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>keyValueStore()));
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
                ReadOnlyKeyValueStore<String, V> store = streams.store(
                        StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>keyValueStore())
                                .withPartition(partition));
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
            return streams.store(
                    StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>windowStore()));
        } catch (InvalidStateStoreException e) {
            throw new Unavailable("store " + name + " is not queryable now (" + streams.state() + ")", e);
        }
    }
}
