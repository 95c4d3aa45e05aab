package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;

/** The notification an alert event carries. */
public enum AlertState implements WireEnum {
    OPENED, REMINDER, ESCALATED, RESOLVED;

    @JsonCreator
    public static AlertState fromWire(String value) {
        return WireEnum.parse(AlertState.class, value);
    }

    @Override
    public String toString() {
        return wire();
    }
}
