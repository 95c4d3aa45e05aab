package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** How a metric rule aggregates its window. */
public enum Aggregation {
    COUNT("count"),
    SUM("sum"),
    RATIO("ratio"),
    P95("p95"),
    P99("p99"),
    SPIKE("spike");

    private final String wire;

    Aggregation(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    @JsonCreator
    public static Aggregation fromWire(String value) {
        for (Aggregation v : values()) {
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
