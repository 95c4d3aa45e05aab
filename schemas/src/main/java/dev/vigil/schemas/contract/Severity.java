package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Alert severity. P1/P2/P3 are accepted as aliases. For alert events anything else is read as
 * {@link #INFO}: an event with a strange severity is never dropped and never pages. Configuration
 * (monitor definitions, rules) uses {@link #parseStrict} so a typo is an error, not a silent info.
 */
public enum Severity {
    CRITICAL("critical", 3),
    WARNING("warning", 2),
    INFO("info", 1);

    private final String wire;
    private final int rank;

    Severity(String wire, int rank) {
        this.wire = wire;
        this.rank = rank;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    /** True when this severity is more urgent than {@code other}. */
    public boolean isHigherThan(Severity other) {
        return rank > other.rank;
    }

    @JsonCreator
    public static Severity parseLenient(String value) {
        Severity s = alias(value);
        return s == null ? INFO : s;
    }

    public static Severity parseStrict(String value) {
        Severity s = alias(value);
        if (s == null) {
            throw new IllegalArgumentException("unknown severity; expected critical, warning, info (or P1, P2, P3)");
        }
        return s;
    }

    private static Severity alias(String value) {
        if (value == null) {
            return null;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "critical", "p1" -> CRITICAL;
            case "warning", "p2" -> WARNING;
            case "info", "p3" -> INFO;
            default -> null;
        };
    }

    @Override
    public String toString() {
        return wire;
    }

    /** Jackson deserializer for configuration fields, where an unknown severity is an error. */
    public static final class Strict extends com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer<Severity> {
        private static final long serialVersionUID = 1L;

        public Strict() {
            super(Severity.class);
        }

        @Override
        public Severity deserialize(
                com.fasterxml.jackson.core.JsonParser p, com.fasterxml.jackson.databind.DeserializationContext ctxt)
                throws java.io.IOException {
            return parseStrict(p.getValueAsString());
        }
    }
}
