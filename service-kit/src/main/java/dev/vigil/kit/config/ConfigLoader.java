package dev.vigil.kit.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way a Vigil service reads its configuration: built-in defaults, overlaid by the service's YAML file,
 * overlaid by {@code VIGIL_*} environment variables, then bound to the service's record, whose constructor checks
 * every setting. Every problem of the whole file is reported at once, each with its key path.
 *
 * <p>An environment variable names a key path with its segments upper-cased and joined by {@code _}:
 * {@code kafka.bootstrapServers} is {@code VIGIL_KAFKA_BOOTSTRAP_SERVERS} (camelCase words split the
 * same way), {@code http.port} is {@code VIGIL_HTTP_PORT}. Only keys that exist in the defaults or the file
 * can be overridden; lists are given comma-separated.
 *
 * <p>Keys of the previous shape ({@link ConfigSpec#deprecated()}) are still read, from the file and from the
 * environment: each moves to its new key with one warning naming both. The warnings never carry a value.
 */
public final class ConfigLoader {
    public static final String ENV_PREFIX = "VIGIL_";
    private static final Logger LOG = LoggerFactory.getLogger(ConfigLoader.class);
    private static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory()).disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ConfigLoader() {}

    /** A loaded configuration and the warnings about deprecated keys it was read with. */
    public record Result<T>(T config, List<String> warnings) {
        public Result {
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * Loads a service's configuration, logging one warning per deprecated key it used.
     *
     * @param file the YAML file, or null to use defaults and environment only
     * @param env  the environment (pass {@code System.getenv()})
     * @throws ConfigException listing every problem, each as {@code <file>: <key path>: <problem>}
     */
    public static <T> T load(ConfigSpec<T> spec, Path file, Map<String, String> env) {
        List<String> warnings = new ArrayList<>();
        try {
            return resolve(spec, file, env, warnings);
        } finally {
            // also when the configuration is refused: the warnings say which keys to rename
            warnings.forEach(LOG::warn);
        }
    }

    /** As {@link #load}, returning the deprecation warnings instead of logging them. */
    public static <T> Result<T> read(ConfigSpec<T> spec, Path file, Map<String, String> env) {
        List<String> warnings = new ArrayList<>();
        T config = resolve(spec, file, env, warnings);
        return new Result<>(config, warnings);
    }

    private static <T> T resolve(ConfigSpec<T> spec, Path file, Map<String, String> env, List<String> warnings) {
        String source = file == null ? "configuration" : file.toString();
        // new key path -> the deprecated key or variable that set it, to name it beside a problem of its value
        Map<String, String> setBy = new HashMap<>();
        ObjectNode tree = ConfigBinder.toTree(spec.defaults().get());
        if (file != null) {
            JsonNode overlay = readYaml(file);
            moveDeprecated((ObjectNode) overlay, spec.deprecated(), source, warnings, setBy);
            merge(tree, overlay);
        }
        applyEnv(tree, deprecatedEnv(env, spec.deprecated(), warnings, setBy));
        Problems problems = new Problems();
        T config = ConfigBinder.bind(tree, spec.type(), problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems.list().stream()
                    .map(p -> source + ": " + describe(p, setBy))
                    .toList());
        }
        return config;
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
        } catch (JsonProcessingException e) {
            var loc = e.getLocation();
            String where = loc == null ? "" : " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")";
            throw new ConfigException(List.of(file + where + ": not valid YAML: " + e.getOriginalMessage()));
        } catch (IOException e) {
            throw new ConfigException(List.of(file + ": cannot be read: " + e.getMessage()));
        }
    }

    /**
     * Binds a YAML tree (no defaults, no environment) to a type, e.g. a list of monitors or routes; every problem
     * is reported, each as {@code <source>: <key path>: <problem>}.
     */
    public static <T> T bind(JsonNode tree, Class<T> type, String source) {
        Problems problems = new Problems();
        T value = ConfigBinder.bind(tree, type, problems);
        if (!problems.isEmpty()) {
            throw new ConfigException(
                    problems.list().stream().map(p -> source + ": " + p).toList());
        }
        return value;
    }

    private static String describe(Problems.Problem p, Map<String, String> setBy) {
        for (var e : setBy.entrySet()) {
            String key = e.getKey();
            if (p.key().equals(key) || p.key().startsWith(key + ".") || p.key().startsWith(key + "[")) {
                return p.key() + " (set by deprecated " + e.getValue() + "): " + p.message();
            }
        }
        return p.toString();
    }

    /** Moves each deprecated key of the file to its new key; the new key wins when both are written. */
    private static void moveDeprecated(
            ObjectNode file,
            List<DeprecatedKey> deprecated,
            String source,
            List<String> warnings,
            Map<String, String> setBy) {
        for (DeprecatedKey d : deprecated) {
            String[] oldPath = d.oldKey().split("\\.");
            ObjectNode oldParent = parent(file, oldPath, false);
            JsonNode value = oldParent == null ? null : oldParent.get(last(oldPath));
            if (value == null) {
                continue;
            }
            oldParent.remove(last(oldPath));
            removeEmptySections(file, oldPath);
            String[] newPath = d.newKey().split("\\.");
            ObjectNode newParent = parent(file, newPath, true);
            if (newParent != null && newParent.has(last(newPath))) {
                warnings.add(source + ": " + d.oldKey() + " is deprecated and ignored: " + d.newKey() + " is set too");
                continue;
            }
            if (newParent != null) {
                newParent.set(
                        last(newPath),
                        value.isValueNode() && d.unit() != null ? TextNode.valueOf(d.convert(value.asText())) : value);
                setBy.put(d.newKey(), d.oldKey());
            }
            // no parent: a section on the new key's path is not a mapping, which the binding reports
            warnings.add(source + ": " + d.oldKey() + " is deprecated, use " + d.newKey() + hint(d));
        }
    }

    /** Deprecated variables as their new names; a variable of the new name wins when both are set. */
    private static Map<String, String> deprecatedEnv(
            Map<String, String> env, List<DeprecatedKey> deprecated, List<String> warnings, Map<String, String> setBy) {
        Map<String, String> out = new LinkedHashMap<>(env);
        for (DeprecatedKey d : deprecated) {
            String oldName = envName(d.oldKey());
            String value = out.remove(oldName);
            if (value == null) {
                continue;
            }
            String newName = envName(d.newKey());
            if (out.containsKey(newName)) {
                warnings.add(oldName + " is deprecated and ignored: " + newName + " is set too");
            } else {
                out.put(newName, d.convert(value));
                setBy.putIfAbsent(d.newKey(), oldName);
                warnings.add(oldName + " is deprecated, use " + newName + " (" + d.newKey() + ")" + hint(d));
            }
        }
        return out;
    }

    private static String hint(DeprecatedKey d) {
        return d.unit() == null ? "" : " with the unit in the value, e.g. 30s, 5m or 1500ms";
    }

    /** The object holding the last segment of {@code path}; created when {@code create}, null when absent or not an object. */
    private static ObjectNode parent(ObjectNode root, String[] path, boolean create) {
        ObjectNode node = root;
        for (int i = 0; i < path.length - 1; i++) {
            JsonNode child = node.get(path[i]);
            if (child == null && create) {
                child = node.putObject(path[i]);
            }
            if (child == null || !child.isObject()) {
                return null;
            }
            node = (ObjectNode) child;
        }
        return node;
    }

    private static String last(String[] path) {
        return path[path.length - 1];
    }

    /** Drops the sections on {@code path} that the move of its last key left empty (sections written empty stay). */
    private static void removeEmptySections(ObjectNode root, String[] path) {
        for (int depth = path.length - 1; depth > 0; depth--) {
            ObjectNode parent = parent(root, Arrays.copyOf(path, depth), false);
            JsonNode section = parent == null ? null : parent.get(path[depth - 1]);
            if (section == null || !section.isObject() || !section.isEmpty()) {
                return;
            }
            parent.remove(path[depth - 1]);
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
            if (child.isObject()
                    && name.startsWith(form + "_")
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

    /** {@code kafka.sendTimeout} → {@code VIGIL_KAFKA_SEND_TIMEOUT}. */
    static String envName(String keyPath) {
        return ENV_PREFIX
                + Arrays.stream(keyPath.split("\\.")).map(ConfigLoader::envForm).collect(Collectors.joining("_"));
    }

    /** {@code bootstrapServers} → {@code BOOTSTRAP_SERVERS}; {@code dead-letter} → {@code DEAD_LETTER}. */
    static String envForm(String key) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isUpperCase(c)
                    && i > 0
                    && Character.isLetterOrDigit(key.charAt(i - 1))
                    && !Character.isUpperCase(key.charAt(i - 1))) {
                sb.append('_');
            }
            sb.append(Character.isLetterOrDigit(c) ? Character.toUpperCase(c) : '_');
        }
        return sb.toString().toUpperCase(Locale.ROOT);
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
