package dev.vigil.streams.health;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.vigil.streams.config.TopologyConfig.WorkerSettings;
import java.util.Locale;

/** A probe worker's health by the age of its latest heartbeat. */
public enum Health {
    HEALTHY, WARN, STALE, DEAD;

    /** healthy below {@code healthySeconds}, warn below {@code warnSeconds}, stale below {@code staleSeconds}, dead beyond. */
    public static Health of(long ageMs, WorkerSettings settings) {
        if (ageMs < settings.healthySeconds() * 1000L) {
            return HEALTHY;
        }
        if (ageMs < settings.warnSeconds() * 1000L) {
            return WARN;
        }
        if (ageMs < settings.staleSeconds() * 1000L) {
            return STALE;
        }
        return DEAD;
    }

    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Health fromWire(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
