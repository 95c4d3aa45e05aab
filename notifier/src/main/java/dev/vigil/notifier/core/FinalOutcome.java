package dev.vigil.notifier.core;

/** The end of one event on one channel: only after every channel reached one is the offset committed. */
public enum FinalOutcome {
    DELIVERED,
    DEDUPLICATED,
    SILENCED,
    DEAD_LETTERED
}
