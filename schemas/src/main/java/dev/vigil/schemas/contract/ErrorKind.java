package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Why a probe failed at the network level (null on success). */
public enum ErrorKind {
    DNS("dns"),
    CONNECT_REFUSED("connect_refused"),
    CONNECT_TIMEOUT("connect_timeout"),
    TLS("tls"),
    TIMEOUT("timeout"),
    REDIRECT_LIMIT("redirect_limit"),
    BLOCKED_TARGET("blocked_target"),
    RESET("reset"),
    OTHER("other");

    private final String wire;

    ErrorKind(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    @JsonCreator
    public static ErrorKind fromWire(String value) {
        for (ErrorKind v : values()) {
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
