package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pure routing: who gets an event. Order of decision: the event's channel override (its known channels), then
 * the first matching route, then the default route of the event's severity. Unknown severities were already read
 * as info by the contract, so they route as info: never dropped, never paging.
 *
 * <p>An application's event ({@code source: app}) speaks only for its app: ingest namespaces its fingerprint
 * {@code app/<appId>/<rest>}, and its override keeps only the channels the routing's {@code apps} section allows
 * for that app id. The other names are refused (reported in {@link RouteDecision#refused()}); with none left, or
 * without the namespace, the event routes as if it named no override. Nor can it borrow another team's route: a
 * route with {@code services} or {@code attributes} matchers (data the app chooses) matches an app's event only when
 * the {@code apps} section lets that app speak for the event's service; otherwise the route is skipped (reported in
 * {@link RouteDecision#refusedRoutes()}) and the next route, or the severity default, applies, so the page is never
 * dropped. Events Vigil produced itself (probe, metric, heartbeat, and the notifier's own delivery-failing alert)
 * keep their override and match every route as before.
 */
public final class Routes {
    static final String APP_PREFIX = "app/";
    private final List<Route> routes;
    private final Map<Severity, List<String>> defaults;
    private final Set<String> channels;
    private final Map<String, Set<String>> appChannels;
    private final Map<String, Set<String>> appServices;
    private final Map<Severity, List<Tier>> defaultTiers;
    private final Map<String, Set<String>> appMonitors;

    public Routes(List<Route> routes, Map<Severity, List<String>> defaults, Set<String> channels) {
        this(routes, defaults, channels, Map.of());
    }

    public Routes(
            List<Route> routes,
            Map<Severity, List<String>> defaults,
            Set<String> channels,
            Map<String, Set<String>> appChannels) {
        this(routes, defaults, channels, appChannels, Map.of());
    }

    /**
     * @param appChannels app id → the channels its events may name in an override
     * @param appServices app id → the services its events may speak for in routes with service or attribute
     *                    matchers (an app not listed speaks for none)
     */
    public Routes(
            List<Route> routes,
            Map<Severity, List<String>> defaults,
            Set<String> channels,
            Map<String, Set<String>> appChannels,
            Map<String, Set<String>> appServices) {
        this(routes, defaults, channels, appChannels, appServices, Map.of());
    }

    /**
     * @param defaultTiers severity → the escalation climb of events its default route pages (absent: none)
     */
    public Routes(
            List<Route> routes,
            Map<Severity, List<String>> defaults,
            Set<String> channels,
            Map<String, Set<String>> appChannels,
            Map<String, Set<String>> appServices,
            Map<Severity, List<Tier>> defaultTiers) {
        this(routes, defaults, channels, appChannels, appServices, defaultTiers, Map.of());
    }

    /**
     * @param appMonitors app id → the monitors its events may link to ({@link #linkedMonitor}); an app also speaks
     *                    for the monitors of the services it is granted in {@code appServices}
     */
    public Routes(
            List<Route> routes,
            Map<Severity, List<String>> defaults,
            Set<String> channels,
            Map<String, Set<String>> appChannels,
            Map<String, Set<String>> appServices,
            Map<Severity, List<Tier>> defaultTiers,
            Map<String, Set<String>> appMonitors) {
        Map<String, Set<String>> monitors = new HashMap<>();
        appMonitors.forEach((app, linked) -> monitors.put(app, Set.copyOf(linked)));
        this.appMonitors = Map.copyOf(monitors);
        this.routes = List.copyOf(routes);
        this.defaultTiers = new EnumMap<>(Severity.class);
        defaultTiers.forEach((s, t) -> this.defaultTiers.put(s, List.copyOf(t)));
        this.defaults = new EnumMap<>(Severity.class);
        this.defaults.putAll(defaults);
        this.channels = Set.copyOf(channels);
        Map<String, Set<String>> apps = new HashMap<>();
        appChannels.forEach((app, allowed) -> apps.put(app, Set.copyOf(allowed)));
        this.appChannels = Map.copyOf(apps);
        Map<String, Set<String>> services = new HashMap<>();
        appServices.forEach((app, allowed) -> services.put(app, Set.copyOf(allowed)));
        this.appServices = Map.copyOf(services);
        for (Severity s : Severity.values()) {
            if (this.defaults.getOrDefault(s, List.of()).isEmpty()) {
                throw new IllegalArgumentException("no default route for severity " + s);
            }
        }
        for (var a : this.appChannels.entrySet()) {
            if (!this.channels.containsAll(a.getValue())) {
                throw new IllegalArgumentException(
                        "app " + a.getKey() + " is allowed channels that are not configured");
            }
        }
    }

    public RouteDecision route(AlertEvent e) {
        List<String> named = e.channels().stream().distinct().toList();
        List<String> refused = List.of();
        String note = "";
        String routeNote = "";
        boolean appEvent = isAppEvent(e);
        String app = appEvent ? appId(e.fingerprint()) : null;
        if (!named.isEmpty()) {
            List<String> kept;
            String by;
            if (appEvent) {
                Set<String> allowed = app == null ? Set.of() : appChannels.getOrDefault(app, Set.of());
                kept = named.stream().filter(allowed::contains).toList();
                refused = named.stream().filter(c -> !allowed.contains(c)).toList();
                by = "override:app/" + app;
                note = app == null
                        ? " (override refused: app event without an app/<appId>/ fingerprint)"
                        : " (override refused for app " + app + ": " + refused + ")";
                routeNote = note;
            } else {
                kept = named.stream().filter(channels::contains).toList();
                by = "override";
                note = " (override named no configured channel)";
            }
            if (!kept.isEmpty()) {
                return new RouteDecision(kept, by, refused);
            }
        }
        // an app may not pick another team's route by the service or attributes it writes into its event
        boolean speaksForService = appEvent
                && app != null
                && appServices.getOrDefault(app, Set.of()).contains(e.service());
        List<String> refusedRoutes = new ArrayList<>();
        for (Route r : routes) {
            if (!r.matches(e)) {
                continue;
            }
            if (appEvent && r.matchesOnEventData() && !speaksForService) {
                refusedRoutes.add(r.name());
                continue;
            }
            return new RouteDecision(
                    dedupe(r.channels()),
                    "route:" + r.name() + routeNote + routesRefused(app, refusedRoutes),
                    refused,
                    refusedRoutes,
                    r.tiers(),
                    r.group());
        }
        return new RouteDecision(
                dedupe(defaults.get(e.severity())),
                "default:" + e.severity().wire() + note + routesRefused(app, refusedRoutes),
                refused,
                refusedRoutes,
                defaultTiers.getOrDefault(e.severity(), List.of()));
    }

    /** The attribute an application's event names a monitor in, to fold into that monitor's open incident. */
    public static final String MONITOR_ATTRIBUTE = "monitor";

    /**
     * The monitor an application's page links to: the monitor id in its {@value #MONITOR_ATTRIBUTE} attribute, when
     * the event is a page ({@code opened}, {@code reminder}, {@code escalated}: a resolution or an acknowledgement is
     * never folded, so whatever paged hears its end) and its app may speak for some monitor. Whether it may speak for
     * this one is {@link #speaksFor}, once the monitor's incident (and so its service) is known.
     */
    public java.util.Optional<String> linkedMonitor(AlertEvent e) {
        if (!(e.state() == AlertState.OPENED
                || e.state() == AlertState.REMINDER
                || e.state() == AlertState.ESCALATED)) {
            return java.util.Optional.empty();
        }
        return linkTarget(e);
    }

    /**
     * The monitor an application's event of any state names in {@value #MONITOR_ATTRIBUTE}, when its app may link to
     * monitors at all: such an incident's resolution goes only where its pages went (its pages may all have been
     * folded).
     */
    public java.util.Optional<String> linkTarget(AlertEvent e) {
        if (!isAppEvent(e)) {
            return java.util.Optional.empty();
        }
        String monitor = e.attributes().get(MONITOR_ATTRIBUTE);
        String app = appId(e.fingerprint());
        if (monitor == null
                || app == null
                || !dev.vigil.schemas.contract.Require.SLUG.matcher(monitor).matches()
                || (appMonitors.getOrDefault(app, Set.of()).isEmpty()
                        && appServices.getOrDefault(app, Set.of()).isEmpty())) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(monitor);
    }

    /**
     * Whether the app of {@code e} speaks for the monitor whose incident is {@code monitorIncident}: the monitor is
     * granted to it by id, or the incident's service is one of its services.
     */
    public boolean speaksFor(AlertEvent e, IncidentRecord monitorIncident) {
        String app = appId(e.fingerprint());
        String monitor = e.attributes().get(MONITOR_ATTRIBUTE);
        return app != null
                && monitor != null
                && monitorIncident.fingerprint().equals(MONITOR_PREFIX + monitor)
                && (appMonitors.getOrDefault(app, Set.of()).contains(monitor)
                        || appServices.getOrDefault(app, Set.of()).contains(monitorIncident.service()));
    }

    /** The fingerprint of a monitor's availability incident (as the topology names it). */
    public static String monitorFingerprint(String monitorId) {
        return MONITOR_PREFIX + monitorId;
    }

    private static final String MONITOR_PREFIX = "monitor/";

    /** Names only the routes and the app id (never the event's service or attributes: they are the app's text). */
    private static String routesRefused(String app, List<String> refusedRoutes) {
        if (refusedRoutes.isEmpty()) {
            return "";
        }
        return app == null
                ? " (routes refused: app event without an app/<appId>/ fingerprint: " + refusedRoutes + ")"
                : " (routes refused for app " + app + ", not allowed its service: " + refusedRoutes + ")";
    }

    /**
     * An application's event. The notifier's own {@code notifier/delivery-failing/<channel>} alert carries source
     * app only because the contract has no source of its own; its override (the channels that still work) must
     * hold. An application cannot pass for it: ingest namespaces every app fingerprint under {@code app/<appId>/}.
     */
    static boolean isAppEvent(AlertEvent e) {
        return e.source() == AlertSource.APP && !DeliveryFailing.isOwn(e);
    }

    /**
     * The app id of a namespaced fingerprint {@code app/<appId>/<rest>}, or null when it is not one (no prefix, an
     * empty id, or nothing after the id).
     */
    static String appId(String fingerprint) {
        if (fingerprint == null || !fingerprint.startsWith(APP_PREFIX)) {
            return null;
        }
        int end = fingerprint.indexOf('/', APP_PREFIX.length());
        if (end <= APP_PREFIX.length() || end == fingerprint.length() - 1) {
            return null;
        }
        return fingerprint.substring(APP_PREFIX.length(), end);
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

    /** Whether any route or severity default escalates: only then does the notifier keep tier timers. */
    public boolean escalates() {
        return routes.stream().anyMatch(r -> !r.tiers().isEmpty())
                || defaultTiers.values().stream().anyMatch(t -> !t.isEmpty());
    }

    /** Every configured route, in the order they are tried. */
    public List<Route> all() {
        return routes;
    }

    /** The channels an event of {@code severity} goes to when no route matches it. */
    public List<String> defaultChannels(Severity severity) {
        return dedupe(defaults.get(severity));
    }

    /** The routes that group their chat pages, in order. */
    public List<Route> grouped() {
        return routes.stream().filter(r -> r.group() != null).toList();
    }

    private static List<String> dedupe(List<String> list) {
        return List.copyOf(new LinkedHashSet<>(list));
    }
}
