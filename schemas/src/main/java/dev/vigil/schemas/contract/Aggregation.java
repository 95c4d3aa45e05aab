package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;

/** How a metric rule aggregates its window. */
public enum Aggregation implements WireEnum {
    COUNT,
    SUM,
    RATIO,
    P95,
    P99,
    SPIKE;

    @JsonCreator
    public static Aggregation fromWire(String value) {
        return WireEnum.parse(Aggregation.class, value);
    }

    @Override
    public String toString() {
        return wire();
    }
}
