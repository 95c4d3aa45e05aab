package dev.vigil.notifier.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Channels and routes as written in YAML (inline under {@code routing:} or in the file named by
 * {@code routingFile}). Cross-references and secrets are checked by {@link RoutingValidator}, which reports
 * every problem at once.
 *
 * @param defaults severity name → channels, used when no route matches
 * @param apps     app id → what that app's events may override (absent: app events get no override)
 * @param escalation severity name → the tiers paged while an incident its default route paged stays
 *                   unacknowledged (absent: none)
 * @param digest   the daily digest, beside the channels it goes to (also accepted in the notifier's own
 *                 configuration; one of the two)
 */
public record RoutingSpec(
        Map<String, ChannelSpec> channels,
        List<RouteSpec> routes,
        Map<String, List<String>> defaults,
        Map<String, AppSpec> apps,
        Map<String, List<TierSpec>> escalation,
        NotifierConfig.Digest digest) {

    public static final String BETTERSTACK_TOKEN_ENV = "BETTERSTACK_API_TOKEN";
    public static final String SLACK_URL_ENV = "SLACK_WEBHOOK_URL";
    public static final String DISCORD_URL_ENV = "DISCORD_WEBHOOK_URL";

    public RoutingSpec {
        channels = channels == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(channels));
        routes = routes == null ? List.of() : List.copyOf(routes);
        defaults = defaults == null ? standardDefaults() : Map.copyOf(defaults);
        // insertion order kept (problems are reported in file order); null values kept for the validator to name
        apps = apps == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(apps));
        escalation =
                escalation == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(escalation));
    }

    public RoutingSpec(
            Map<String, ChannelSpec> channels,
            List<RouteSpec> routes,
            Map<String, List<String>> defaults,
            Map<String, AppSpec> apps) {
        this(channels, routes, defaults, apps, null, null);
    }

    /** Routing without an {@code apps} section: no app event may override its channels. */
    public RoutingSpec(Map<String, ChannelSpec> channels, List<RouteSpec> routes, Map<String, List<String>> defaults) {
        this(channels, routes, defaults, null);
    }

    /** docs/design.md#notifier: critical → betterstack + slack + discord; warning → slack + discord; info → log. */
    public static Map<String, List<String>> standardDefaults() {
        return Map.of(
                "critical", List.of("betterstack", "slack", "discord"),
                "warning", List.of("slack", "discord"),
                "info", List.of("log"));
    }

    /** The routing used when the service configuration names none: the standard channels, secrets by env name. */
    public static RoutingSpec standard() {
        Map<String, ChannelSpec> ch = new LinkedHashMap<>();
        ch.put("betterstack", new ChannelSpec(ChannelType.BETTERSTACK, null, null, BETTERSTACK_TOKEN_ENV, null, null));
        ch.put("slack", new ChannelSpec(ChannelType.SLACK, null, SLACK_URL_ENV, null, null, null));
        ch.put("discord", new ChannelSpec(ChannelType.DISCORD, null, DISCORD_URL_ENV, null, null, null));
        ch.put("log", ChannelSpec.of(ChannelType.LOG));
        return new RoutingSpec(ch, List.of(), standardDefaults());
    }
}
