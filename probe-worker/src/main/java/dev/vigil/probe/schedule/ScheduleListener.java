package dev.vigil.probe.schedule;

import dev.vigil.schemas.contract.SkipReason;

/** What the scheduler reports for metrics. Called on scheduler threads; implementations must be cheap. */
public interface ScheduleListener {
    ScheduleListener NONE = new ScheduleListener() {};

    /** {@code windows} windows were not probed, for {@code reason}. */
    default void skipped(SkipReason reason, long windows) {}

    /** How late a probe started relative to its planned start, in milliseconds. */
    default void lag(long millis) {}
}
