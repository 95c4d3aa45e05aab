package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pure routing: who gets an event. Order of decision: the event's channel override (its known channels), then
 * the first matching route, then the default route of the event's severity. Unknown severities were already read
 * as info by the contract, so they route as info: never dropped, never paging.
 */
public final class Routes {
    private final List<Route> routes;
    private final Map<Severity, List<String>> defaults;
    private final Set<String> channels;

    public Routes(List<Route> routes, Map<Severity, List<String>> defaults, Set<String> channels) {
        this.routes = List.copyOf(routes);
        this.defaults = new EnumMap<>(Severity.class);
        this.defaults.putAll(defaults);
        this.channels = Set.copyOf(channels);
        for (Severity s : Severity.values()) {
            if (this.defaults.getOrDefault(s, List.of()).isEmpty()) {
                throw new IllegalArgumentException("no default route for severity " + s);
            }
        }
    }

    public RouteDecision route(AlertEvent e) {
        if (!e.channels().isEmpty()) {
            List<String> known = e.channels().stream().filter(channels::contains).distinct().toList();
            if (!known.isEmpty()) {
                return new RouteDecision(known, "override");
            }
        }
        for (Route r : routes) {
            if (r.matches(e)) {
                return new RouteDecision(dedupe(r.channels()), "route:" + r.name());
            }
        }
        String note = e.channels().isEmpty() ? "" : " (override named no configured channel)";
        return new RouteDecision(dedupe(defaults.get(e.severity())), "default:" + e.severity().wire() + note);
    }

    /**
     * The channels that should hear that {@code failed} cannot deliver: the event's other channels, or, when it
     * had none, every other configured channel (the page must reach someone).
     */
    public List<String> othersThan(String failed, List<String> routed) {
        List<String> others = routed.stream().filter(c -> !c.equals(failed)).toList();
        if (!others.isEmpty()) {
            return others;
        }
        List<String> all = new ArrayList<>(new java.util.TreeSet<>(channels));
        all.remove(failed);
        return all;
    }

    public Set<String> channels() {
        return channels;
    }

    private static List<String> dedupe(List<String> list) {
        return List.copyOf(new LinkedHashSet<>(list));
    }
}
