package dev.vigil.notifier.consume;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;

/**
 * One partition's read-but-uncommitted offsets. Work finishes out of order (fingerprints run in parallel); the
 * committable position only moves past a contiguous run of finished offsets. Owner-thread only.
 */
final class PartitionProgress {
    private final ArrayDeque<Long> pending = new ArrayDeque<>();
    private final Set<Long> finished = new HashSet<>();
    private long committable = -1;

    void read(long offset) {
        pending.addLast(offset);
    }

    void finish(long offset) {
        finished.add(offset);
        while (!pending.isEmpty() && finished.remove(pending.peekFirst())) {
            committable = pending.pollFirst() + 1;
        }
    }

    /** The next offset to commit, or -1 when nothing new finished since the last call. */
    long takeCommittable() {
        long c = committable;
        committable = -1;
        return c;
    }

    int inFlight() {
        return pending.size();
    }
}
