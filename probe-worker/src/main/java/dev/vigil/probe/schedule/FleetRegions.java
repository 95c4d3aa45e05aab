package dev.vigil.probe.schedule;

import dev.vigil.schemas.contract.MonitorDefinition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How many enabled, probed monitors name each region, over every definition the worker's feed has seen (not only
 * those selecting its own region): what its heartbeat reports, so a region that monitors name and no live worker
 * serves can be noticed. Changes may arrive from any thread.
 */
public final class FleetRegions implements MonitorSink {
    /** The most regions a heartbeat carries; beyond it, the regions named least are left out. */
    public static final int MAX_REGIONS = 64;

    private final Map<String, List<String>> regionsById = new HashMap<>();
    private final Map<String, Integer> counts = new HashMap<>();

    @Override
    public synchronized void upsert(MonitorDefinition def) {
        if (!def.isProbed() || !Boolean.TRUE.equals(def.enabled())) {
            remove(def.id());
            return;
        }
        List<String> previous = regionsById.put(def.id(), def.regions());
        if (previous != null) {
            previous.forEach(r -> counts.computeIfPresent(r, (k, n) -> n == 1 ? null : n - 1));
        }
        def.regions().forEach(r -> counts.merge(r, 1, Integer::sum));
    }

    @Override
    public synchronized void remove(String monitorId) {
        List<String> previous = regionsById.remove(monitorId);
        if (previous != null) {
            previous.forEach(r -> counts.computeIfPresent(r, (k, n) -> n == 1 ? null : n - 1));
        }
    }

    /** Region to the number of monitors naming it, sorted by region; at most {@link #MAX_REGIONS}. */
    public synchronized Map<String, Integer> regionsNamed() {
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(counts.entrySet());
        if (entries.size() > MAX_REGIONS) {
            entries.sort(
                    Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
            entries = entries.subList(0, MAX_REGIONS);
        }
        Map<String, Integer> out = new TreeMap<>();
        entries.forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    public synchronized int monitors() {
        return regionsById.size();
    }
}
