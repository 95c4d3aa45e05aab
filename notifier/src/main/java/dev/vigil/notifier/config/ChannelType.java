package dev.vigil.notifier.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;

/** The vendor behind a configured channel. */
public enum ChannelType {
    BETTERSTACK, SLACK, DISCORD, WEBHOOK, LOG;

    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static ChannelType fromWire(String value) {
        for (ChannelType t : values()) {
            if (t.wire().equals(value)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown channel type; expected one of "
                + Arrays.toString(values()).toLowerCase(Locale.ROOT));
    }
}
