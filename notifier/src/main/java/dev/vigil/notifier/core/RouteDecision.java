package dev.vigil.notifier.core;

import java.util.List;

/**
 * Where one event goes and why ({@code reason} names the override, route or default that decided it, for logs
 * and tests).
 *
 * @param refused channel names of an app event's override that the routing's {@code apps} section does not allow
 *                for that app (in the order the event named them; empty for every other event)
 * @param refusedRoutes names of routes that matched an app event's service or attributes but were not taken, as
 *                      the routing's {@code apps} section does not let that app speak for the event's service (in
 *                      route order; empty for every other event)
 * @param tiers the escalation climb of the route or severity default that decided (empty for overrides and routes
 *              without one)
 * @param group how the route that decided groups its chat pages (null: one message per event)
 */
public record RouteDecision(
        List<String> channels,
        String reason,
        List<String> refused,
        List<String> refusedRoutes,
        List<Tier> tiers,
        Grouping group) {
    public RouteDecision {
        channels = List.copyOf(channels);
        refused = List.copyOf(refused);
        refusedRoutes = List.copyOf(refusedRoutes);
        tiers = tiers == null ? List.of() : List.copyOf(tiers);
    }

    public RouteDecision(
            List<String> channels, String reason, List<String> refused, List<String> refusedRoutes, List<Tier> tiers) {
        this(channels, reason, refused, refusedRoutes, tiers, null);
    }

    public RouteDecision(List<String> channels, String reason, List<String> refused, List<String> refusedRoutes) {
        this(channels, reason, refused, refusedRoutes, List.of());
    }

    /** The same decision sent to {@code to} instead (the climb and the grouping kept). */
    public RouteDecision to(List<String> to, String why) {
        return new RouteDecision(to, why, refused, refusedRoutes, tiers, group);
    }

    public RouteDecision(List<String> channels, String reason, List<String> refused) {
        this(channels, reason, refused, List.of());
    }

    public RouteDecision(List<String> channels, String reason) {
        this(channels, reason, List.of());
    }
}
