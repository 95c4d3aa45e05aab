package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;

/** A monitor's verdict for one window. */
public enum Status implements WireEnum {
    UP,
    DEGRADED,
    DOWN,
    UNKNOWN;

    @JsonCreator
    public static Status fromWire(String value) {
        return WireEnum.parse(Status.class, value);
    }

    @Override
    public String toString() {
        return wire();
    }
}
