package dev.vigil.streams.verdict;

import dev.vigil.schemas.contract.MonitorStatus;
import java.time.Instant;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * A monitor's latest status is the newest verdict in its history. The latest-status store has no changelog, so this
 * rule rebuilds it when the verdict processor initialises, and answers for it from a standby copy (which holds the
 * history, restored from its changelog, but no latest-status entries).
 */
public final class LatestStatus {
    private static final Instant FIRST = Instant.ofEpochMilli(0);
    private static final Instant LAST = Instant.ofEpochMilli(Long.MAX_VALUE);

    private LatestStatus() {}

    /** The newest verdict of {@code monitorId} in {@code history}, or null when it has none. */
    public static MonitorStatus newest(ReadOnlyWindowStore<String, MonitorStatus> history, String monitorId) {
        try (var it = history.backwardFetch(monitorId, FIRST, LAST)) {
            return it.hasNext() ? it.next().value : null;
        }
    }
}
