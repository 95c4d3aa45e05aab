package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One routing rule: empty matchers match anything; all given matchers must hold.
 *
 * @param tiers the escalation climb of the incidents this route pages (tier 2 onwards; empty: none)
 * @param group how its chat pages are grouped (null: one message per event)
 */
public record Route(
        String name,
        Set<Severity> severities,
        Set<String> services,
        Map<String, String> attributes,
        List<String> channels,
        List<Tier> tiers,
        Grouping group) {
    public Route {
        severities = Set.copyOf(severities);
        services = Set.copyOf(services);
        attributes = Map.copyOf(attributes);
        channels = List.copyOf(channels);
        tiers = tiers == null ? List.of() : List.copyOf(tiers);
    }

    /** A route that does not group. */
    public Route(
            String name,
            Set<Severity> severities,
            Set<String> services,
            Map<String, String> attributes,
            List<String> channels,
            List<Tier> tiers) {
        this(name, severities, services, attributes, channels, tiers, null);
    }

    /** A route without escalation tiers. */
    public Route(
            String name,
            Set<Severity> severities,
            Set<String> services,
            Map<String, String> attributes,
            List<String> channels) {
        this(name, severities, services, attributes, channels, List.of());
    }

    /**
     * Whether this route picks events by what they say about themselves ({@code services} or {@code attributes}):
     * such a route matches an application's event only for a service that app may speak for.
     */
    public boolean matchesOnEventData() {
        return !services.isEmpty() || !attributes.isEmpty();
    }

    public boolean matches(AlertEvent e) {
        if (!severities.isEmpty() && !severities.contains(e.severity())) {
            return false;
        }
        if (!services.isEmpty() && !services.contains(e.service())) {
            return false;
        }
        for (var a : attributes.entrySet()) {
            if (!a.getValue().equals(e.attributes().get(a.getKey()))) {
                return false;
            }
        }
        return true;
    }
}
