package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Where an alert event came from. */
public enum AlertSource {
    PROBE("probe"),
    METRIC("metric"),
    HEARTBEAT("heartbeat"),
    APP("app");

    private final String wire;

    AlertSource(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    @JsonCreator
    public static AlertSource fromWire(String value) {
        for (AlertSource v : values()) {
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
