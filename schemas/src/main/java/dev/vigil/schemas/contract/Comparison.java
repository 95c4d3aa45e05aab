package dev.vigil.schemas.contract;

import com.fasterxml.jackson.annotation.JsonCreator;

/** How a metric rule compares its aggregate with the threshold. */
public enum Comparison implements WireEnum {
    GT,
    GTE,
    LT,
    LTE;

    @JsonCreator
    public static Comparison fromWire(String value) {
        return WireEnum.parse(Comparison.class, value);
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
        return wire();
    }
}
