package dev.vigil.notifier.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A route's {@code group:} as written in YAML: {@code by} (entries {@code service} or attribute names; default
 * {@code [service]}) and {@code wait} (a duration such as {@code 5s}; default 5s, at most 5m). Checked by
 * {@link RoutingValidator}.
 */
public record GroupSpec(List<String> by, @JsonProperty("wait") String waitFor) {
    public GroupSpec {
        // null entries kept for the validator to name
        by = by == null ? List.of() : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(by));
    }
}
