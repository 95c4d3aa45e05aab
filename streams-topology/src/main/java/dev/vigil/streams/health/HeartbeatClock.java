package dev.vigil.streams.health;

/**
 * The time worker liveness is judged at (worker health, the region watch): the newest heartbeat time read so far, run on by the wall-clock time
 * since it was read, and never ahead of wall clock. While heartbeats are read as they are sent this is wall clock (less
 * their transit); while they are read behind, it is the point reached in them, so a worker whose heartbeats are merely
 * still to be read is not called silent; when no heartbeat arrives at all it advances with wall clock, so silence is
 * still noticed. Before the first heartbeat it is wall clock. One per processor instance: after a restart it starts
 * again from the first heartbeat read, which is what a restart catching up needs.
 *
 * <p>When the newest heartbeat was read late (more than {@link #TRANSIT_MS} after it was sent: this task reads behind,
 * starved of CPU or catching up), the next one is expected as late: the clock runs on only once that lateness has
 * passed too, at most {@link #MAX_LATENESS_MS}. Otherwise a reader behind by more than a worker's healthy span, and
 * fetching the heartbeats in bursts, would call live workers silent between two bursts.
 */
public final class HeartbeatClock {
    /** How late a heartbeat may be read and still count as read on time (its transit, a commit interval). */
    static final long TRANSIT_MS = 5_000;
    /** The most the run-on waits for a reader behind: past it, silence is silence however far behind it reads. */
    static final long MAX_LATENESS_MS = 5 * 60_000L;

    private long newestSentAt = Long.MIN_VALUE;
    private long readAt;
    private long lateness;

    /** A heartbeat sent at {@code sentAt} was read at wall-clock time {@code wall}. */
    public void read(long sentAt, long wall) {
        if (sentAt > newestSentAt) {
            newestSentAt = sentAt;
            readAt = wall;
            lateness = Math.min(MAX_LATENESS_MS, Math.max(0, wall - sentAt - TRANSIT_MS));
        }
    }

    /** The judging time at wall-clock time {@code wall}. */
    public long at(long wall) {
        if (newestSentAt == Long.MIN_VALUE) {
            return wall;
        }
        return Math.min(wall, newestSentAt + Math.max(0, wall - readAt - lateness));
    }
}
