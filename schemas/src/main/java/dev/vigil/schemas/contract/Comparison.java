package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** How a metric rule compares its aggregate with the threshold. */
public enum Comparison {
    GT("gt"),
    GTE("gte"),
    LT("lt"),
    LTE("lte");

    private final String wire;

    Comparison(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    @JsonCreator
    public static Comparison fromWire(String value) {
        for (Comparison v : values()) {
            if (v.wire.equals(value)) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown value; expected one of " + java.util.Arrays.toString(values()).toLowerCase(java.util.Locale.ROOT));
    }

    /** True when {@code value} breaches {@code threshold} under this comparison. */
    public boolean breaches(double value, double threshold) {
        return switch (this) {
            case GT -> value > threshold;
            case GTE -> value >= threshold;
            case LT -> value < threshold;
            case LTE -> value <= threshold;
        };
    }

    @Override
    public String toString() {
        return wire;
    }
}
