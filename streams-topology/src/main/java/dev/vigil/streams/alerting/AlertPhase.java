package dev.vigil.streams.alerting;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Where one fingerprint's alert stands (docs/design.md#alert-state-machine, the state machine's "from"/"to" column). */
public enum AlertPhase {
    HEALTHY("healthy"),
    FIRING("firing"),
    RESOLVING("resolving");

    private final String wire;

    AlertPhase(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    /** True while an incident is open (firing or on its way to resolution). */
    public boolean isOpen() {
        return this != HEALTHY;
    }

    @JsonCreator
    public static AlertPhase fromWire(String value) {
        for (AlertPhase p : values()) {
            if (p.wire.equals(value)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown value; expected one of healthy, firing, resolving");
    }

    @Override
    public String toString() {
        return wire;
    }
}
