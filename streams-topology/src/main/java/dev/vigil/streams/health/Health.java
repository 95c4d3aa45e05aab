package dev.vigil.streams.health;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.vigil.streams.config.TopologyConfig.WorkerSettings;
import java.util.Locale;

/** A probe worker's health by the age of its latest heartbeat. */
public enum Health {
    HEALTHY,
    WARN,
    STALE,
    DEAD;

    /** healthy below {@code workers.healthy}, warn below {@code workers.warn}, stale below {@code workers.stale}, dead beyond. */
    public static Health of(long ageMs, WorkerSettings settings) {
        if (ageMs < settings.healthy().toMillis()) {
            return HEALTHY;
        }
        if (ageMs < settings.warn().toMillis()) {
            return WARN;
        }
        if (ageMs < settings.stale().toMillis()) {
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
