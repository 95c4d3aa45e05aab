package dev.vigil.streams.health;

/**
 * The time worker liveness is judged at (worker health, the region watch): the newest heartbeat time read so far, run on by the wall-clock time
 * since it was read, and never ahead of wall clock. While heartbeats are read as they are sent this is wall clock (less
 * their transit); while they are read behind, it is the point reached in them, so a worker whose heartbeats are merely
 * still to be read is not called silent; when no heartbeat arrives at all it advances with wall clock, so silence is
 * still noticed. Before the first heartbeat it is wall clock. One per processor instance: after a restart it starts
 * again from the first heartbeat read, which is what a restart catching up needs.
 */
public final class HeartbeatClock {
    private long newestSentAt = Long.MIN_VALUE;
    private long readAt;

    /** A heartbeat sent at {@code sentAt} was read at wall-clock time {@code wall}. */
    public void read(long sentAt, long wall) {
        if (sentAt > newestSentAt) {
            newestSentAt = sentAt;
            readAt = wall;
        }
    }

    /** The judging time at wall-clock time {@code wall}. */
    public long at(long wall) {
        if (newestSentAt == Long.MIN_VALUE) {
            return wall;
        }
        return Math.min(wall, newestSentAt + Math.max(0, wall - readAt));
    }
}
