package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * Why a probe failed (null on success). {@code missed_heartbeat}: no ping by the end of a heartbeat window plus its
 * grace; {@code reported_failure}: the job itself reported a failure ({@code /fail}).
 */
public enum ErrorKind implements WireEnum {
    DNS,
    CONNECT_REFUSED,
    CONNECT_TIMEOUT,
    TLS,
    TIMEOUT,
    REDIRECT_LIMIT,
    BLOCKED_TARGET,
    RESET,
    OTHER,
    MISSED_HEARTBEAT,
    REPORTED_FAILURE;

    @JsonCreator
    public static ErrorKind fromWire(String value) {
        return WireEnum.parse(ErrorKind.class, value);
    }

    @Override
    public String toString() {
        return wire();
    }
}
