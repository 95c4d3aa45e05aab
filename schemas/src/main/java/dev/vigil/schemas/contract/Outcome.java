package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * How a probe ended. {@link #SKIPPED} is not a probe of the target at all: the worker could not run it for a reason of
 * its own ({@link SkipReason}), and verdicts count it as a missing region, never as a failure.
 */
public enum Outcome implements WireEnum {
    SUCCESS,
    HTTP_FAILURE,
    NETWORK_FAILURE,
    ASSERTION_FAILURE,
    SKIPPED;

    /** True for an outcome that says something about the target: anything but {@link #SKIPPED}. */
    public boolean isTargetEvidence() {
        return this != SKIPPED;
    }

    @JsonCreator
    public static Outcome fromWire(String value) {
        return WireEnum.parse(Outcome.class, value);
    }

    @Override
    public String toString() {
        return wire();
    }
}
