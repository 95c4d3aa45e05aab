package dev.vigil.streams.api;

import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.MonitorDefinition;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What the management API checks of the monitors' {@code dependsOn} (docs/monitors.md#dependencies), on the whole
 * catalog as it would be after the change: each parent of a monitor being written must be a monitor (a typo would
 * otherwise hold nothing, silently), and the dependencies must form no cycle (monitors that hold each other would
 * all wait for one another, and nobody would be paged). Only a monitor that changes is judged: deleting a parent is not
 * refused, its children are simply not held by it any more, and the next change to a child names the missing parent.
 */
final class Dependencies {
    private Dependencies() {}

    /**
     * The problems of {@code written} in the catalog {@code after} the change (id → monitor, the written ones
     * included), each under its monitor's member prefix ({@code prefixOf}: "" for a single monitor, {@code
     * monitors[3]} in an apply). Unknown parents first, then one problem per cycle, on a written monitor of it.
     */
    static List<ContractViolation> problems(
            Map<String, MonitorDefinition> after,
            Collection<MonitorDefinition> written,
            Function<String, String> prefixOf) {
        List<ContractViolation> out = new ArrayList<>();
        Set<String> writtenIds = new LinkedHashSet<>();
        for (MonitorDefinition m : written) {
            writtenIds.add(m.id());
            for (int i = 0; i < m.dependsOn().size(); i++) {
                String parent = m.dependsOn().get(i);
                if (!after.containsKey(parent)) {
                    out.add(new ContractViolation(
                            MonitorChecks.field(prefixOf.apply(m.id()), "dependsOn[" + i + "]"),
                            "'" + parent + "' is not a monitor; create it first (or in the same apply), or remove it"
                                    + " from dependsOn"));
                }
            }
        }
        for (List<String> cycle : cycles(after, writtenIds)) {
            String at = cycle.stream().filter(writtenIds::contains).findFirst().orElse(cycle.get(0));
            out.add(new ContractViolation(
                    MonitorChecks.field(prefixOf.apply(at), "dependsOn"),
                    "dependsOn cycle: " + String.join(" → ", cycle)
                            + "; monitors that depend on each other would hold each other's pages"));
        }
        return out;
    }

    /**
     * The cycles reachable from {@code from}, each as the path that closes it ({@code a, b, c, a}); one depth-first
     * walk over the graph, without recursion (a chain of dependencies may be long), each monitor visited once.
     */
    static List<List<String>> cycles(Map<String, MonitorDefinition> graph, Collection<String> from) {
        List<List<String>> found = new ArrayList<>();
        Map<String, Boolean> onPath = new HashMap<>(); // true: on the current path; false: done
        for (String root : from) {
            if (onPath.containsKey(root) || !graph.containsKey(root)) {
                continue;
            }
            Deque<String> path = new ArrayDeque<>();
            Deque<Integer> next = new ArrayDeque<>(); // per path entry: the index of its next parent to visit
            path.addLast(root);
            next.addLast(0);
            onPath.put(root, true);
            while (!path.isEmpty()) {
                String node = path.peekLast();
                int i = next.removeLast();
                List<String> parents = graph.get(node).dependsOn();
                if (i >= parents.size()) {
                    path.removeLast();
                    onPath.put(node, false);
                    continue;
                }
                next.addLast(i + 1);
                String parent = parents.get(i);
                if (!graph.containsKey(parent)) {
                    continue; // an unknown parent: a problem of its own, not a cycle
                }
                Boolean state = onPath.get(parent);
                if (state == null) {
                    path.addLast(parent);
                    next.addLast(0);
                    onPath.put(parent, true);
                } else if (state) {
                    List<String> cycle = new ArrayList<>();
                    boolean in = false;
                    for (String p : path) {
                        in = in || p.equals(parent);
                        if (in) {
                            cycle.add(p);
                        }
                    }
                    cycle.add(parent);
                    found.add(cycle);
                }
            }
        }
        return found;
    }
}
