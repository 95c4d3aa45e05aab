package dev.vigil.notifier.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A route's {@code group:} as written in YAML: {@code by} (entries {@code service} or attribute names; default
 * {@code [service]}) and {@code wait} (a duration; defaults and bounds in {@link dev.vigil.notifier.core.Grouping}). Checked by
 * {@link RoutingValidator}.
 */
public record GroupSpec(List<String> by, @JsonProperty("wait") String waitFor) {
    public GroupSpec {
        // null entries kept for the validator to name
        by = by == null ? List.of() : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(by));
    }
}
