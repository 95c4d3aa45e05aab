package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * Why a probe worker did not probe a monitor's window: always a reason of Vigil's own, never the target's. A skipped
 * result ({@link Outcome#SKIPPED}) carries one, so a verdict can tell "the target was not watched" from "the target
 * failed", and alerting never turns the first into a page about the target.
 */
public enum SkipReason implements WireEnum {
    /** The worker was at its in-flight limit. */
    OVERLOADED,
    /** The previous window's probe of the same monitor was still running. */
    OVERRUN,
    /** The worker's timer fired so late that the window had passed. */
    LATE,
    /** The worker was draining for shutdown. */
    SHUTTING_DOWN;

    @JsonCreator
    public static SkipReason fromWire(String value) {
        return WireEnum.parse(SkipReason.class, value);
    }

    @Override
    public String toString() {
        return wire();
    }
}
