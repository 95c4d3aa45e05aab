package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;

/** What kind of check a monitor is (docs/monitors.md#check-types). All but {@code heartbeat} are probed from regions. */
public enum CheckType implements WireEnum {
    HTTP,
    TCP,
    DNS,
    TLS,
    HEARTBEAT;

    @JsonCreator
    public static CheckType fromWire(String value) {
        return WireEnum.parse(CheckType.class, value);
    }

    @Override
    public String toString() {
        return wire();
    }
}
