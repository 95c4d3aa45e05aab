package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** How a probe ended. */
public enum Outcome {
    SUCCESS("success"),
    HTTP_FAILURE("http_failure"),
    NETWORK_FAILURE("network_failure"),
    ASSERTION_FAILURE("assertion_failure");

    private final String wire;

    Outcome(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    @JsonCreator
    public static Outcome fromWire(String value) {
        for (Outcome v : values()) {
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
