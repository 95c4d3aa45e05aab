package dev.vigil.notifier.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import dev.vigil.schemas.contract.WireEnum;

/** The vendor behind a configured channel. */
public enum ChannelType implements WireEnum {
    BETTERSTACK,
    SLACK,
    DISCORD,
    WEBHOOK,
    LOG,
    PAGERDUTY,
    TEAMS,
    EMAIL,
    /** Records the events routed to it for the daily digest instead of sending them. */
    DIGEST;

    @JsonCreator
    public static ChannelType fromWire(String value) {
        return WireEnum.parse(ChannelType.class, value);
    }
}
