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
 * @param escalation the tiers paged while an incident this route paged stays unacknowledged (empty: none)
 * @param group      how its chat and e-mail pages are grouped (null: one message per event)
 */
public record RouteSpec(
        String name,
        List<String> severities,
        List<String> services,
        Map<String, String> attributes,
        List<String> channels,
        List<TierSpec> escalation,
        GroupSpec group) {
    public RouteSpec {
        severities = severities == null ? List.of() : List.copyOf(severities);
        services = services == null ? List.of() : List.copyOf(services);
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        channels = channels == null ? List.of() : List.copyOf(channels);
        // null entries kept for the validator to name
        escalation = escalation == null
                ? List.of()
                : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(escalation));
    }

    /** A route that does not group. */
    public RouteSpec(
            String name,
            List<String> severities,
            List<String> services,
            Map<String, String> attributes,
            List<String> channels,
            List<TierSpec> escalation) {
        this(name, severities, services, attributes, channels, escalation, null);
    }

    /** A route without escalation tiers. */
    public RouteSpec(
            String name,
            List<String> severities,
            List<String> services,
            Map<String, String> attributes,
            List<String> channels) {
        this(name, severities, services, attributes, channels, null);
    }
}
