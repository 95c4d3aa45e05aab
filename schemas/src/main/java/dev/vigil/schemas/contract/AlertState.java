package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * The notification an alert event carries. {@code acknowledged} says someone took the incident on: channels show a
 * short notice and reminders stop until the acknowledgement ends (an escalation still pages).
 */
public enum AlertState implements WireEnum {
    OPENED,
    REMINDER,
    ESCALATED,
    RESOLVED,
    ACKNOWLEDGED;

    @JsonCreator
    public static AlertState fromWire(String value) {
        return WireEnum.parse(AlertState.class, value);
    }

    @Override
    public String toString() {
        return wire();
    }
}
