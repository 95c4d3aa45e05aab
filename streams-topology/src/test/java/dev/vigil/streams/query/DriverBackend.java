package dev.vigil.streams.query;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/** A {@link QueryBackend} over a TopologyTestDriver's stores, with scripted ownership and peers. */
public final class DriverBackend implements QueryBackend {
    private final TopologyTestDriver driver;
    volatile boolean ready = true;
    /** The Kafka Streams state to report instead of RUNNING/REBALANCING (e.g. ERROR after a fatal failure). */
    volatile String state;

    volatile Predicate<String> ownedElsewhere = id -> false;
    volatile String otherInstance;
    volatile List<String> peers = List.of();
    /** This instance's copy of the other instance's stores, as its standby replicas would hold them; null: none. */
    volatile QueryBackend standby;

    public DriverBackend(TopologyTestDriver driver) {
        this.driver = driver;
    }

    /** {@code hostPort} is this instance's one peer (its keys are all local here; see {@link #ownedBy}). */
    public DriverBackend peer(String hostPort) {
        otherInstance = hostPort;
        peers = List.of(hostPort);
        return this;
    }

    /** This instance's standby copies of the peer's stores; null: none. */
    public void standby(QueryBackend copies) {
        standby = copies;
    }

    public void setReady(boolean ready) {
        this.ready = ready;
    }

    void ownedBy(String hostPort, Set<String> ids) {
        otherInstance = hostPort;
        ownedElsewhere = ids::contains;
    }

    @Override
    public boolean ready() {
        return ready;
    }

    @Override
    public String state() {
        return state != null ? state : ready ? "RUNNING" : "REBALANCING";
    }

    @Override
    public Placement placement(String store, String key) {
        return ownedElsewhere.test(key) ? Placement.remote(otherInstance, 0, standby != null) : Placement.LOCAL;
    }

    @Override
    public List<String> peers() {
        return peers;
    }

    @Override
    public <V> ReadOnlyKeyValueStore<String, V> keyValueStore(String name) {
        return driver.getKeyValueStore(name);
    }

    @Override
    public <V> ReadOnlyWindowStore<String, V> windowStore(String name) {
        return driver.getWindowStore(name);
    }

    @Override
    public QueryBackend standbyFor(String peer) {
        if (standby == null || !peer.equals(otherInstance)) {
            return QueryBackend.super.standbyFor(peer);
        }
        return standby;
    }

    @Override
    public QueryBackend standbyPartition(int partition) {
        return standby == null ? QueryBackend.super.standbyPartition(partition) : standby;
    }
}
