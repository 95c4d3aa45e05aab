package dev.vigil.notifier.config;

import java.util.List;
import java.util.Map;

/**
 * A route as written in YAML: events matching every given matcher go to {@code channels}. Empty matchers
 * match anything. Routes are tried in order; the first match wins; no match falls back to the default route
 * of the event's severity.
 *
 * @param severities severities (critical, warning, info, or aliases P1-P3)
 * @param services   exact service names
 * @param attributes attribute values that must all be equal
 */
public record RouteSpec(
        String name,
        List<String> severities,
        List<String> services,
        Map<String, String> attributes,
        List<String> channels) {
    public RouteSpec {
        severities = severities == null ? List.of() : List.copyOf(severities);
        services = services == null ? List.of() : List.copyOf(services);
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        channels = channels == null ? List.of() : List.copyOf(channels);
    }
}
