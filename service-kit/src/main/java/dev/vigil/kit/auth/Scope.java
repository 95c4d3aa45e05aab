package dev.vigil.kit.auth;

import java.util.Locale;

/** What a query API token may do. {@code admin} may do everything. */
public enum Scope {
    /** status, monitors, history, alerts, metrics, workers, the silences list */
    READ,
    /** create and expire silences */
    SILENCE,
    /** acknowledge and unacknowledge incidents */
    ACK,
    /** create, change and delete monitors (and validate them) */
    MONITORS,
    /** create, change and delete metric alert rules (and validate them) */
    RULES,
    /** everything, including the audit log */
    ADMIN;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The scope named {@code text} (case-insensitive), or an {@link IllegalArgumentException} listing the valid names. */
    public static Scope parse(String text) {
        for (Scope s : values()) {
            if (s.wire().equalsIgnoreCase(text == null ? "" : text.trim())) {
                return s;
            }
        }
        throw new IllegalArgumentException(
                "unknown scope '" + text + "'; expected read, silence, ack, monitors, rules or admin");
    }
}
