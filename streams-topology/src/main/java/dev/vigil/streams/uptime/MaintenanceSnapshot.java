package dev.vigil.streams.uptime;

import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.store.GlobalStoreChanges;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * One processor's decoded copy of the maintenance windows in the global silences store. Every verdict asks whether
 * it is under maintenance, and reading the store means decoding every silence (JSON), so the copy is read again only
 * when the store changed ({@link GlobalStoreChanges}) and, as a backstop for a store refilled without its mirror, at
 * least every {@link #RELOAD_EVERY_MS} of wall clock. Which silences it holds never depends on when it was read, only
 * on what the store held, so counts stay a function of the verdicts and the silences.
 */
final class MaintenanceSnapshot {
    static final long RELOAD_EVERY_MS = 60_000L;

    /** Null when the topology has no silences store (the status half alone): nothing is ever under maintenance. */
    private final ReadOnlyKeyValueStore<String, Silence> store;

    private final AtomicLong changes;
    private boolean loaded;
    private long loadedChanges;
    private long loadedAt;
    private List<Silence> windows = List.of();

    MaintenanceSnapshot(ReadOnlyKeyValueStore<String, Silence> store, String storeName) {
        this.store = store;
        this.changes = GlobalStoreChanges.counter(storeName);
    }

    /** The maintenance windows (silences with a schedule) now in the store, by id. */
    List<Silence> windows(long wallClockMs) {
        if (store == null) {
            return List.of();
        }
        long seen = changes.get(); // before the read: a change after it moves the count again
        if (!loaded || seen != loadedChanges || wallClockMs - loadedAt >= RELOAD_EVERY_MS || wallClockMs < loadedAt) {
            List<Silence> read = new ArrayList<>();
            try (var it = store.all()) {
                it.forEachRemaining(kv -> {
                    if (MaintenanceWindows.isMaintenance(kv.value)) {
                        read.add(kv.value);
                    }
                });
            }
            read.sort(Comparator.comparing(Silence::id));
            windows = List.copyOf(read);
            loaded = true;
            loadedChanges = seen;
            loadedAt = wallClockMs;
        }
        return windows;
    }
}
