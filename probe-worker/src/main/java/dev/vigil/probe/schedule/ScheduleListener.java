package dev.vigil.probe.schedule;

/** What the scheduler reports for metrics. Called on scheduler threads; implementations must be cheap. */
public interface ScheduleListener {
    /** Why a window was not probed. */
    enum SkipReason {
        /** The previous window's probe of the same monitor was still running. */
        OVERRUN("overrun"),
        /** The worker was at its in-flight limit. */
        OVERLOADED("overloaded"),
        /** The timer fired so late that whole windows had passed. */
        LATE("late");

        private final String tag;

        SkipReason(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    ScheduleListener NONE = new ScheduleListener() {
    };

    default void skipped(SkipReason reason, long windows) {
    }

    /** How late a probe started relative to its planned start, in milliseconds. */
    default void lag(long millis) {
    }
}
