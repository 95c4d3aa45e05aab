package dev.vigil.streams.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** What applying a monitors file changes, compared with what the topic holds now. */
public record MonitorDiff(
        List<MonitorDefinition> added, List<Change> changed, List<String> unchanged, List<String> removed) {

    /** A monitor whose definition differs, with the top-level fields that differ. */
    public record Change(MonitorDefinition next, List<String> fields) {}

    public static MonitorDiff between(Map<String, MonitorDefinition> current, Collection<MonitorDefinition> desired) {
        List<MonitorDefinition> added = new ArrayList<>();
        List<Change> changed = new ArrayList<>();
        List<String> unchanged = new ArrayList<>();
        Map<String, MonitorDefinition> wanted = new TreeMap<>();
        desired.forEach(m -> wanted.put(m.id(), m));
        for (MonitorDefinition next : wanted.values()) {
            MonitorDefinition before = current.get(next.id());
            if (before == null) {
                added.add(next);
            } else {
                List<String> fields = differingFields(Json.toTree(before), Json.toTree(next));
                if (fields.isEmpty()) {
                    unchanged.add(next.id());
                } else {
                    changed.add(new Change(next, fields));
                }
            }
        }
        List<String> removed = new TreeSet<>(current.keySet())
                .stream().filter(id -> !wanted.containsKey(id)).toList();
        return new MonitorDiff(List.copyOf(added), List.copyOf(changed), List.copyOf(unchanged), removed);
    }

    /** The same diff with {@code id} no longer among the monitors to remove (it is kept, whatever the file says). */
    public MonitorDiff keeping(String id) {
        return new MonitorDiff(
                added,
                changed,
                unchanged,
                removed.stream().filter(r -> !r.equals(id)).toList());
    }

    public boolean isEmpty(boolean prune) {
        return added.isEmpty() && changed.isEmpty() && (!prune || removed.isEmpty());
    }

    private static List<String> differingFields(JsonNode a, JsonNode b) {
        TreeSet<String> names = new TreeSet<>();
        Iterator<String> it = a.fieldNames();
        it.forEachRemaining(names::add);
        b.fieldNames().forEachRemaining(names::add);
        return names.stream()
                .filter(n -> !java.util.Objects.equals(a.get(n), b.get(n)))
                .toList();
    }
}
