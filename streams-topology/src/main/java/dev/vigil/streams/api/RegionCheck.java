package dev.vigil.streams.api;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.RegionStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Apply-time truth about regions: a probed monitor may name only regions some probe worker has ever served (as the
 * workers' heartbeats told Streams, which keeps {@code vigil.regions}), unless the operator names the region as one
 * being rolled out. A monitor of a region nobody serves would only ever have missing results.
 */
public final class RegionCheck {
    static final long SECONDS_PER_DAY = 86_400;

    private RegionCheck() {}

    /** One monitor refused, with the regions of it no worker has served. */
    public record Refusal(String monitorId, List<String> regions) {}

    /** The regions some worker has ever served. */
    public static Set<String> served(Map<String, RegionStatus> known) {
        Set<String> out = new TreeSet<>();
        known.values().stream().filter(RegionStatus::everServed).forEach(r -> out.add(r.region()));
        return out;
    }

    /** The probed monitors of {@code monitors} naming a region neither served nor in {@code rollingOut}. */
    public static List<Refusal> refusals(
            Collection<MonitorDefinition> monitors, Map<String, RegionStatus> known, Set<String> rollingOut) {
        Set<String> served = served(known);
        List<Refusal> out = new ArrayList<>();
        for (MonitorDefinition m : monitors) {
            if (!m.isProbed()) {
                continue;
            }
            List<String> unknown = m.regions().stream()
                    .filter(r -> !served.contains(r) && !rollingOut.contains(r))
                    .toList();
            if (!unknown.isEmpty()) {
                out.add(new Refusal(m.id(), unknown));
            }
        }
        return out;
    }

    /** What the CLI says of the refusals: one line per monitor, the regions known, and the way out. */
    public static List<String> explain(List<Refusal> refusals, Map<String, RegionStatus> known, String topic) {
        List<String> lines = new ArrayList<>();
        Set<String> served = served(known);
        if (served.isEmpty()) {
            lines.add("no probe worker has reported yet (" + topic + " holds no region a worker has served), so no"
                    + " region is known; nothing was published:");
        } else {
            lines.add("refused: monitors name regions no probe worker has ever served; nothing was published:");
        }
        Set<String> missing = new TreeSet<>();
        for (Refusal r : refusals) {
            lines.add("  - " + r.monitorId() + ": " + String.join(", ", r.regions()));
            missing.addAll(r.regions());
        }
        if (!served.isEmpty()) {
            List<String> described = new ArrayList<>();
            for (String region : served) {
                int live = known.get(region).liveWorkers();
                described.add(region + " (" + live + " live worker" + (live == 1 ? "" : "s") + ")");
            }
            lines.add("known regions: " + String.join(", ", described));
        }
        lines.add("start a probe worker for " + (missing.size() == 1 ? "that region" : "those regions")
                + ", or pass --allow-region " + String.join(",", missing) + " if "
                + (missing.size() == 1 ? "it is" : "they are") + " being rolled out");
        return lines;
    }

    /**
     * The target checks a day each probed monitor costs (its regions × 86,400 / its interval) and the total; heartbeat
     * monitors are pushed by their jobs and cost none, so they are listed apart and left out of the total.
     */
    public static List<String> checksPerDay(Collection<MonitorDefinition> monitors) {
        List<String> lines = new ArrayList<>();
        long total = 0;
        int probed = 0;
        List<String> pushed = new ArrayList<>();
        for (MonitorDefinition m : monitors) {
            if (!m.isProbed()) {
                pushed.add(m.id());
                continue;
            }
            long perDay = checksPerDay(m);
            total += perDay;
            probed++;
            lines.add(String.format(
                    Locale.ROOT,
                    "  %s: %d region%s x 86,400 / %d s = %,d target checks/day",
                    m.id(),
                    m.regions().size(),
                    m.regions().size() == 1 ? "" : "s",
                    m.intervalSeconds(),
                    perDay));
        }
        lines.add(String.format(
                Locale.ROOT,
                "expected target checks per day: %,d (%d probed monitor%s)%s",
                total,
                probed,
                probed == 1 ? "" : "s",
                pushed.isEmpty()
                        ? ""
                        : "; heartbeat monitors are pinged by their jobs, not counted: " + String.join(", ", pushed)));
        return lines;
    }

    static long checksPerDay(MonitorDefinition m) {
        return m.regions().size() * SECONDS_PER_DAY / m.intervalSeconds();
    }
}
