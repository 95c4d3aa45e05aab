package dev.vigil.notifier.config;

import java.util.List;

/**
 * An escalation tier as written in YAML: {@code after} (a duration such as {@code 10m}, counted from the page that
 * opened the incident) and the {@code channels} paged then if nobody has acknowledged it. Checked by
 * {@link RoutingValidator}.
 */
public record TierSpec(String after, List<String> channels) {
    public TierSpec {
        channels = channels == null ? List.of() : List.copyOf(channels);
    }
}
