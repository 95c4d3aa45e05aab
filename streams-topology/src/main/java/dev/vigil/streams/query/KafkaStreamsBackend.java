package dev.vigil.streams.query;

import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
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

    @Override
    public <V> ReadOnlyWindowStore<String, V> windowStore(String name) {
        try {
            return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>windowStore()));
        } catch (InvalidStateStoreException e) {
            throw new Unavailable("store " + name + " is not queryable now (" + streams.state() + ")", e);
        }
    }
}
