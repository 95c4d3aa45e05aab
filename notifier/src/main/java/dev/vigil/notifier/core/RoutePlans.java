package dev.vigil.notifier.core;

import dev.vigil.kit.config.DurationText;
import dev.vigil.schemas.contract.Severity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each route's path through the notifier as one line, for the start-up log: what the dispatcher does with a page
 * before it fans out (fold an application's page into a monitor's open incident, the silence and acknowledgement
 * gate), the channels it fans out to, the group wait where the route groups, each channel's stages, and the
 * escalation tiers that page further channels while its incidents stay unacknowledged. Printed
 * from the very objects that deliver, so the line cannot drift from what runs.
 */
public final class RoutePlans {
    /** The dispatcher's steps before the fan-out, in the order {@link Dispatcher} takes them. */
    static final List<String> BEFORE_FANOUT = List.of("fold", "gate");

    private RoutePlans() {}

    /**
     * One line per configured route, then one per severity default, each {@code route <name> = <stages>}; a
     * severity default is named as a route decision names it ({@code default:<severity>}).
     */
    public static List<String> describe(Routes routes, Map<String, ChannelPipeline> pipelines) {
        List<String> lines = new ArrayList<>();
        for (Route r : routes.all()) {
            lines.add("route " + r.name() + " = " + describe(r.channels(), r.group() != null, pipelines)
                    + escalation(r.tiers()));
        }
        for (Severity s : Severity.values()) {
            lines.add("route default:" + s.wire() + " = " + describe(routes.defaultChannels(s), false, pipelines));
        }
        return List.copyOf(lines);
    }

    /**
     * The climb that follows while an incident stays unacknowledged, after the first page's path: each tier with
     * its delay from that page and the channels it pages (through the same stages); nothing for a route without one.
     */
    static String escalation(List<Tier> tiers) {
        if (tiers.isEmpty()) {
            return "";
        }
        List<String> each = new ArrayList<>();
        for (Tier t : tiers) {
            each.add("tier " + t.number() + " after " + DurationText.format(t.after()) + " " + t.channels());
        }
        return " ⇢ unacknowledged: " + String.join(", ", each);
    }

    /** The path of a page routed to {@code channels}; {@code grouped}: the route groups its chat pages. */
    static String describe(List<String> channels, boolean grouped, Map<String, ChannelPipeline> pipelines) {
        List<String> steps = new ArrayList<>(BEFORE_FANOUT);
        List<String> distinct = channels.stream().distinct().toList();
        steps.add("fanout" + distinct);
        List<String> waiting = grouped
                ? distinct.stream()
                        .filter(ch -> pipelines.get(ch).rendersGroups())
                        .toList()
                : List.of();
        if (!waiting.isEmpty()) {
            steps.add("group-wait" + waiting);
        }
        // every channel runs the same stages today; should one ever differ, each is shown by name
        Map<String, List<String>> byStages = new LinkedHashMap<>();
        for (String ch : distinct) {
            byStages.computeIfAbsent(pipelines.get(ch).describe(), k -> new ArrayList<>())
                    .add(ch);
        }
        if (byStages.size() == 1) {
            steps.add(byStages.keySet().iterator().next());
        } else {
            List<String> each = new ArrayList<>();
            byStages.forEach((stages, chs) -> each.add(String.join(", ", chs) + ": " + stages));
            steps.add("{" + String.join("; ", each) + "}");
        }
        return String.join(" \u2192 ", steps);
    }
}
