package dev.vigil.streams.selfwatch;

/**
 * The dead letters of the current burst: from the first after a quiet period to the latest (wall clock).
 *
 * @param count dead letters since {@code firstAt}
 */
public record DeadLetterWatch(long firstAt, long lastAt, long count) {

    /** With one more dead letter at {@code at}; after {@code quietMs} without one a new burst begins. */
    public static DeadLetterWatch heard(DeadLetterWatch before, long at, long quietMs) {
        if (before == null || at - before.lastAt() >= quietMs) {
            return new DeadLetterWatch(at, at, 1);
        }
        return new DeadLetterWatch(before.firstAt(), Math.max(at, before.lastAt()), before.count() + 1);
    }

    public boolean quiet(long now, long quietMs) {
        return now - lastAt >= quietMs;
    }
}
