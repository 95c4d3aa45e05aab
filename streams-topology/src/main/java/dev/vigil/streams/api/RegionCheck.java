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
 * What a fleet's regions cost and which are real: the regions some probe worker has ever served (as the workers'
 * heartbeats told Streams, which keeps {@code vigil.regions}; {@link MonitorChecks} refuses any other), and the target
 * checks a day each monitor costs.
 */
public final class RegionCheck {
    static final long SECONDS_PER_DAY = 86_400;

    private RegionCheck() {}

    /** The regions some worker has ever served. */
    public static Set<String> served(Map<String, RegionStatus> known) {
        Set<String> out = new TreeSet<>();
        known.values().stream().filter(RegionStatus::everServed).forEach(r -> out.add(r.region()));
        return out;
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
