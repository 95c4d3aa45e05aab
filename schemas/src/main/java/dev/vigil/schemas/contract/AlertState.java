package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The notification an alert event carries. */
public enum AlertState {
    OPENED("opened"),
    REMINDER("reminder"),
    ESCALATED("escalated"),
    RESOLVED("resolved");

    private final String wire;

    AlertState(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    @JsonCreator
    public static AlertState fromWire(String value) {
        for (AlertState v : values()) {
            if (v.wire.equals(value)) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown value; expected one of " + java.util.Arrays.toString(values()).toLowerCase(java.util.Locale.ROOT));
    }

    @Override
    public String toString() {
        return wire;
    }
}
