package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** A monitor's verdict for one window. */
public enum Status {
    UP("up"),
    DEGRADED("degraded"),
    DOWN("down"),
    UNKNOWN("unknown");

    private final String wire;

    Status(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    @JsonCreator
    public static Status fromWire(String value) {
        for (Status v : values()) {
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
