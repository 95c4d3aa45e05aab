package dev.vigil.streams.store;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many changes the {@link CompactedTopicMirror}s of this JVM have applied to each global store, by store name. A
 * stream-thread processor that keeps a decoded copy of a global store reads the count before it reads the store and
 * reads the store again only once the count moved, instead of decoding every entry for every record.
 *
 * <p>The count is JVM-wide, not per Kafka Streams instance, because the topology is assembled by separate builders
 * ({@code VerdictTopology}, {@code AlertingTopology}) that share no objects, and callers compose them in more than
 * one way. Several instances in one JVM (tests, the standalone launcher) only make a copy reload more often; a copy
 * is never kept past a change. A store filled without the mirror (a global store re-initialised from its topic)
 * does not move the count, so a reader should also reload now and then.
 */
public final class GlobalStoreChanges {
    private static final ConcurrentMap<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    private GlobalStoreChanges() {}

    /** The live count of {@code store}'s changes: hold it and call {@code get()} per record (a volatile read). */
    public static AtomicLong counter(String store) {
        return COUNTS.computeIfAbsent(store, name -> new AtomicLong());
    }

    /** Called after a change was written to {@code store}, so a reader that then sees the new count sees the change. */
    public static void changed(String store) {
        counter(store).incrementAndGet();
    }
}
