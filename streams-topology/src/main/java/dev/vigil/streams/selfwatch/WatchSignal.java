package dev.vigil.streams.selfwatch;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.vigil.schemas.contract.WorkerHeartbeat;

/**
 * What the region watch hears, re-keyed onto the internal signals topic: per heartbeat, one signal for each region it
 * concerns (keyed by region), and per dead letter one signal under {@link #DEAD_LETTERS_KEY}, so that one task owns
 * each region's picture and the one dead-letter incident.
 *
 * @param kind           {@code heartbeat} or {@code dead-letter}
 * @param workerId       the heartbeat's worker (heartbeat only)
 * @param workerRegion   the region the worker serves (heartbeat only)
 * @param sentAt         when the worker sent the heartbeat, or when the dead letter was written (epoch ms)
 * @param monitorsNaming how many enabled probed monitors name the signal's region, as the worker sees the fleet
 * @param probesStarted  the worker's cumulative probes started, on the signal of its own region only
 * @param probesSkipped  the worker's cumulative probes skipped, on the signal of its own region only
 */
public record WatchSignal(
        String kind,
        String workerId,
        String workerRegion,
        long sentAt,
        Integer monitorsNaming,
        Long probesStarted,
        Long probesSkipped) {
    public static final String HEARTBEAT = "heartbeat";
    public static final String DEAD_LETTER = "dead-letter";
    /** Not a region (regions are slugs, without '*'): the key of every dead-letter signal. */
    public static final String DEAD_LETTERS_KEY = "*dead-letters";

    /** The signal of {@code hb} for {@code region}: the worker's own region carries its probe counters. */
    public static WatchSignal of(WorkerHeartbeat hb, String region) {
        boolean own = region.equals(hb.region());
        return new WatchSignal(
                HEARTBEAT,
                hb.workerId(),
                hb.region(),
                hb.sentAt(),
                hb.regionsNamed().getOrDefault(region, 0),
                own ? hb.probesStarted() : null,
                own ? hb.probesSkipped() : null);
    }

    public static WatchSignal deadLetter(long at) {
        return new WatchSignal(DEAD_LETTER, null, null, at, null, null, null);
    }

    /** Not a wire field: without {@link JsonIgnore} Jackson would write it as {@code "heartbeat"}. */
    @JsonIgnore
    public boolean isHeartbeat() {
        return HEARTBEAT.equals(kind);
    }

    /** True on the signal of the worker's own region. */
    public boolean fromOwnRegion(String region) {
        return region.equals(workerRegion);
    }
}
