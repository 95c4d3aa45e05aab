package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;

/** How a probe ended. */
public enum Outcome implements WireEnum {
    SUCCESS, HTTP_FAILURE, NETWORK_FAILURE, ASSERTION_FAILURE;

    @JsonCreator
    public static Outcome fromWire(String value) {
        return WireEnum.parse(Outcome.class, value);
    }

    @Override
    public String toString() {
        return wire();
    }
}
