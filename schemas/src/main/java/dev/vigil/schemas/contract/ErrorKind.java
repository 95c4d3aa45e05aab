package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;

/** Why a probe failed at the network level (null on success). */
public enum ErrorKind implements WireEnum {
    DNS, CONNECT_REFUSED, CONNECT_TIMEOUT, TLS, TIMEOUT, REDIRECT_LIMIT, BLOCKED_TARGET, RESET, OTHER;

    @JsonCreator
    public static ErrorKind fromWire(String value) {
        return WireEnum.parse(ErrorKind.class, value);
    }

    @Override
    public String toString() {
        return wire();
    }
}
