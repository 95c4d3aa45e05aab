package dev.vigil.kit.config;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Loads one service's configuration: built-in defaults, overlaid by the service's YAML file, overlaid by
 * {@code VIGIL_*} environment variables, then bound to a record whose constructor validates it.
 *
 * <p>An environment variable names a key path with its segments upper-cased and joined by {@code _}:
 * {@code kafka.bootstrapServers} is {@code VIGIL_KAFKA_BOOTSTRAP_SERVERS} (camelCase words split the
 * same way), {@code region} is {@code VIGIL_REGION}. Only keys that exist in the defaults or the file
 * can be overridden; lists are given comma-separated. Every problem is reported with its key path.
 */
public final class ConfigLoader {
    public static final String ENV_PREFIX = "VIGIL_";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ConfigLoader() {
    }

    /**
     * @param type     the config record; its constructor validates and throws {@link ContractViolation}
     * @param defaults the built-in defaults (a valid instance)
     * @param file     the YAML file, or null to use defaults and environment only
     * @param env      the environment (pass {@code System.getenv()})
     */
    public static <T> T load(Class<T> type, T defaults, Path file, Map<String, String> env) {
        ObjectNode tree = (ObjectNode) Json.toTree(defaults);
        if (file != null) {
            merge(tree, readYaml(file));
        }
        applyEnv(tree, env);
        try {
            return Json.convertConfig(tree, type);
        } catch (ContractViolation e) {
            throw new ConfigException(List.of(source(file) + ": " + e.field() + ": " + e.problem()));
        }
    }

    /** Reads a YAML file as a tree; a syntax error names the file and the line. */
    public static JsonNode readYaml(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigException(List.of(file + ": configuration file not found"));
        }
        try {
            JsonNode node = YAML.readTree(file.toFile());
            if (node == null || node.isMissingNode() || node.isNull()) {
                return YAML.createObjectNode();
            }
            if (!node.isObject()) {
                throw new ConfigException(List.of(file + ": must be a YAML mapping at the top level"));
            }
            return node;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            var loc = e.getLocation();
            String where = loc == null ? "" : " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")";
            throw new ConfigException(List.of(file + where + ": not valid YAML: " + e.getOriginalMessage()));
        } catch (IOException e) {
            throw new ConfigException(List.of(file + ": cannot be read: " + e.getMessage()));
        }
    }

    /** Binds a YAML tree (no defaults, no environment) to a type, e.g. a list of monitors or routes. */
    public static <T> T bind(JsonNode tree, Class<T> type, String source) {
        try {
            return Json.convertConfig(tree, type);
        } catch (ContractViolation e) {
            throw new ConfigException(List.of(source + ": " + e.field() + ": " + e.problem()));
        }
    }

    private static void merge(ObjectNode target, JsonNode overlay) {
        Iterator<Map.Entry<String, JsonNode>> fields = overlay.fields();
        while (fields.hasNext()) {
            var e = fields.next();
            JsonNode existing = target.get(e.getKey());
            if (existing != null && existing.isObject() && e.getValue().isObject()) {
                merge((ObjectNode) existing, e.getValue());
            } else {
                target.set(e.getKey(), e.getValue());
            }
        }
    }

    /** Unknown {@code VIGIL_*} names are skipped: the prefix is shared by every service. */
    private static void applyEnv(ObjectNode tree, Map<String, String> env) {
        env.entrySet().stream()
                .filter(e -> e.getKey().startsWith(ENV_PREFIX))
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> override(tree, e.getKey().substring(ENV_PREFIX.length()), e.getValue()));
    }

    /** Finds the key path whose env-form equals {@code name} and sets it; false if none matches. */
    private static boolean override(ObjectNode node, String name, String value) {
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            var e = fields.next();
            String form = envForm(e.getKey());
            JsonNode child = e.getValue();
            if (name.equals(form) && !child.isObject()) {
                node.set(e.getKey(), child.isArray() ? list(value) : TextNode.valueOf(value));
                return true;
            }
            if (child.isObject() && name.startsWith(form + "_")
                    && override((ObjectNode) child, name.substring(form.length() + 1), value)) {
                return true;
            }
        }
        return false;
    }

    private static JsonNode list(String value) {
        var array = YAML.createArrayNode();
        for (String item : value.split(",")) {
            if (!item.isBlank()) {
                array.add(item.strip());
            }
        }
        return array;
    }

    /** {@code bootstrapServers} → {@code BOOTSTRAP_SERVERS}; {@code dead-letter} → {@code DEAD_LETTER}. */
    static String envForm(String key) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isUpperCase(c) && i > 0 && Character.isLetterOrDigit(key.charAt(i - 1))
                    && !Character.isUpperCase(key.charAt(i - 1))) {
                sb.append('_');
            }
            sb.append(Character.isLetterOrDigit(c) ? Character.toUpperCase(c) : '_');
        }
        return sb.toString().toUpperCase(Locale.ROOT);
    }

    private static String source(Path file) {
        return file == null ? "configuration" : file.toString();
    }

    /** Start-up configuration problems, one line each, each naming its key path. */
    public static final class ConfigException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final List<String> problems;

        public ConfigException(List<String> problems) {
            super("invalid configuration:\n  - " + String.join("\n  - ", problems));
            this.problems = List.copyOf(problems);
        }

        public List<String> problems() {
            return problems;
        }
    }
}
