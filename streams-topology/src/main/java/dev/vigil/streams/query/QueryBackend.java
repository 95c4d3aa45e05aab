package dev.vigil.streams.query;

import java.util.List;
import java.util.concurrent.Callable;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import reactor.core.publisher.Mono;

/**
 * What the query handlers need from the Streams runtime: readiness, where a key lives, the other instances,
 * and this instance's local (active) stores. {@link KafkaStreamsBackend} is the real one.
 */
public interface QueryBackend {

    /** True while stores can be queried for a whole and correct answer (Streams RUNNING, not rebalancing). */
    boolean ready();

    /** A human-readable state for 503 details, e.g. {@code REBALANCING}. */
    String state();

    /** Where the active copy of {@code key} in {@code store} lives. */
    Placement placement(String store, String key);

    /** {@code host:port} of every other instance (for gathering answers); throws {@link Unavailable} if unknown. */
    List<String> peers();

    <V> ReadOnlyKeyValueStore<String, V> keyValueStore(String name);

    /**
     * This instance's active copies of key-value store {@code name}, one store per partition, each iterating in key
     * order. The store {@link #keyValueStore} gives iterates its partitions one after the other, so a read of the
     * first keys in order (a page of {@code /v1/status}) scans these instead and merges them. The default suits a
     * backend whose {@link #keyValueStore} already iterates in key order (one partition, as in TopologyTestDriver).
     */
    default <V> List<ReadOnlyKeyValueStore<String, V>> keyValueStorePartitions(String name) {
        return List.of(keyValueStore(name));
    }

    <V> ReadOnlyWindowStore<String, V> windowStore(String name);

    /**
     * A read of this instance's stores, run when subscribed; a store that moves away mid-read (rebalance) fails
     * with {@link Unavailable}. No scheduler hop here: the query server already calls every handler on
     * {@code boundedElastic}, never on the event loop, so reads subscribed by a handler run there.
     */
    static <T> Mono<T> read(Callable<T> work) {
        return Mono.fromCallable(() -> {
            try {
                return work.call();
            } catch (InvalidStateStoreException e) {
                throw new Unavailable("store is not queryable now: " + e.getMessage(), e);
            }
        });
    }

    /** LOCAL: answer here; REMOTE: forward to {@code hostPort}; UNAVAILABLE: no owner known right now. */
    record Placement(Kind kind, String hostPort) {
        public enum Kind { LOCAL, REMOTE, UNAVAILABLE }

        public static final Placement LOCAL = new Placement(Kind.LOCAL, null);
        public static final Placement UNAVAILABLE = new Placement(Kind.UNAVAILABLE, null);

        public static Placement remote(String hostPort) {
            return new Placement(Kind.REMOTE, hostPort);
        }
    }

    /** The runtime cannot answer right now (rebalancing, store migrating); maps to 503 with Retry-After. */
    final class Unavailable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Unavailable(String message) {
            super(message);
        }

        public Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
