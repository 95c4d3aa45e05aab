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
    /**
     * Set on an answer that holds rows read from this instance's standby copies because the instance that owns them
     * did not answer: its value is that instance ({@code host:port}, comma-separated when several). Such rows are
     * behind the owner's by the standby's lag (usually under a second).
     */
    String STANDBY_HEADER = "X-Vigil-Standby-For";

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
     * What this instance can answer for {@code peer} while that instance does not answer (killed, not yet out of the
     * group): a backend over this instance's standby copies of exactly the store partitions {@code peer} holds active,
     * each behind its active copy by the standby's lag. It throws {@link NoStandby} from a store read when a partition
     * has no standby copy here (more instances than standby replicas + 1, or none assigned yet): never a partial answer.
     */
    default QueryBackend standbyFor(String peer) {
        throw new NoStandby("this instance holds no standby copies to answer for " + peer);
    }

    /**
     * The same for one key whose owner does not answer: a backend over this instance's copies (standby or active) of
     * partition {@code partition} of every store, as {@link Placement#partition()} gave it.
     */
    default QueryBackend standbyPartition(int partition) {
        throw new NoStandby("this instance holds no standby copy of partition " + partition);
    }

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

    /**
     * LOCAL: answer here; REMOTE: forward to {@code hostPort}, and when it does not answer, answer from this
     * instance's standby copy of {@code partition} if {@code standbyHere}; UNAVAILABLE: no owner known right now.
     */
    record Placement(Kind kind, String hostPort, int partition, boolean standbyHere) {
        public enum Kind {
            LOCAL,
            REMOTE,
            UNAVAILABLE
        }

        public static final Placement LOCAL = new Placement(Kind.LOCAL, null, -1, false);
        public static final Placement UNAVAILABLE = new Placement(Kind.UNAVAILABLE, null, -1, false);

        public static Placement remote(String hostPort) {
            return new Placement(Kind.REMOTE, hostPort, -1, false);
        }

        public static Placement remote(String hostPort, int partition, boolean standbyHere) {
            return new Placement(Kind.REMOTE, hostPort, partition, standbyHere);
        }
    }

    /** The runtime cannot answer right now (rebalancing, store migrating); maps to 503 with Retry-After. */
    class Unavailable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Unavailable(String message) {
            super(message);
        }

        public Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * A standby view lacks a partition the answer needs: unlike a store this topology does not have, never read as
     * "no such data" (a 503, not an answer without it).
     */
    final class NoStandby extends Unavailable {
        private static final long serialVersionUID = 1L;

        public NoStandby(String message) {
            super(message);
        }

        public NoStandby(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
