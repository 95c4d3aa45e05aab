package dev.vigil.standalone.monitors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A {@code monitors.yaml}: a top-level {@code monitors:} list of monitor definitions. Every problem in
 * the file is collected (not just the first) and named by position, id and field.
 */
public final class MonitorsFile {
    private MonitorsFile() {}

    /**
     * @param allowedRegions the regions this deployment runs; empty to accept any region
     * @throws ConfigLoader.ConfigException listing every problem
     */
    public static List<MonitorDefinition> read(Path file, Set<String> allowedRegions) {
        JsonNode root = ConfigLoader.readYaml(file);
        JsonNode list = root.get("monitors");
        if (list == null || !list.isArray()) {
            throw new ConfigLoader.ConfigException(List.of(file + ": must have a top-level 'monitors:' list"));
        }
        List<MonitorDefinition> monitors = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode node = list.get(i);
            String where = file + ": monitors[" + i + "]" + idOf(node);
            if (!node.isObject()) {
                problems.add(where + ": must be a mapping");
                continue;
            }
            JsonNode rawId = node.get("id");
            if (rawId != null && rawId.isTextual() && !ids.add(rawId.asText())) {
                problems.add(where + ": id: is used by an earlier monitor");
                continue;
            }
            ObjectNode copy = ((ObjectNode) node).deepCopy();
            if (!copy.has("schemaVersion")) {
                copy.put("schemaVersion", 1);
            }
            try {
                MonitorDefinition m = Json.convert(copy, MonitorDefinition.class);
                // a heartbeat monitor's one region, push, is no probe region: nothing to check
                for (String region : m.isProbed() ? m.regions() : List.<String>of()) {
                    if (!allowedRegions.isEmpty() && !allowedRegions.contains(region)) {
                        problems.add(where + ": regions: '" + region + "' is not one of the configured regions "
                                + allowedRegions.stream().sorted().toList());
                    }
                }
                monitors.add(m);
            } catch (ContractViolation e) {
                problems.add(where + ": " + e.field() + ": " + e.problem());
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigLoader.ConfigException(problems);
        }
        return List.copyOf(monitors);
    }

    private static String idOf(JsonNode node) {
        JsonNode id = node.get("id");
        return id != null && id.isTextual() && id.asText().length() <= 63 ? " (id " + id.asText() + ")" : "";
    }
}
