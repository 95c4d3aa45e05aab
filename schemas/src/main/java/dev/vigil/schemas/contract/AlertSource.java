package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;

/** Where an alert event came from. */
public enum AlertSource implements WireEnum {
    PROBE,
    METRIC,
    HEARTBEAT,
    APP;

    @JsonCreator
    public static AlertSource fromWire(String value) {
        return WireEnum.parse(AlertSource.class, value);
    }

    @Override
    public String toString() {
        return wire();
    }
}
