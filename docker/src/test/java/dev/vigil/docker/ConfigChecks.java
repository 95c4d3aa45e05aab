package dev.vigil.docker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.docker.Repo.Service;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The Vigil containers' configuration: the file each one is started with exists (through its read-only
 * mount), parses, and has only keys the service's config record binds; every {@code VIGIL_*} variable set on
 * the container overrides a key of that file (or is a secret the file names by {@code *Env}); every other
 * variable is a secret the config names; the port each container listens on, for the port, health-check and
 * Prometheus checks.
 */
final class ConfigChecks {
    private static final Set<String> RUNTIME_ENV = Set.of("JAVA_TOOL_OPTIONS", "JAVA_OPTS", "TZ");

    private final ComposeChecks compose;
    private final Function<Service, RecordSchemas> schemas;

    ConfigChecks(ComposeChecks compose, Function<Service, RecordSchemas> schemas) {
        this.compose = compose;
        this.schemas = schemas;
    }

    /** A Vigil container's resolved configuration. */
    record Loaded(String container, Service service, Path file, JsonNode tree, Map<String, String> env) {
        /** The effective value of a key path: the container's VIGIL_* override (with its local default) or the file's. */
        Optional<String> value(String... path) {
            String envName = "VIGIL_"
                    + String.join(
                            "_",
                            java.util.Arrays.stream(path)
                                    .map(ConfigChecks::envForm)
                                    .toList());
            if (env.containsKey(envName)) {
                return Optional.of(ComposeChecks.withDefaults(env.get(envName)));
            }
            JsonNode n = tree;
            for (String p : path) {
                n = n.path(p);
            }
            return n.isValueNode() ? Optional.of(n.asText()) : Optional.empty();
        }
    }

    /** Loads every Vigil container's config, adding a problem for each that cannot be found or read. */
    Map<String, Loaded> load(List<String> problems) {
        Map<String, Loaded> out = new LinkedHashMap<>();
        compose.vigilServices().forEach((name, service) -> {
            JsonNode cmd = compose.services().path(name).path("command");
            List<String> args = new ArrayList<>();
            cmd.forEach(a -> args.add(a.asText()));
            int i = args.indexOf("--config");
            if (i < 0 || i + 1 >= args.size()) {
                problems.add(name + ".command: must pass --config FILE");
                return;
            }
            String containerPath = args.get(i + 1);
            Optional<Path> host = compose.hostPath(name, containerPath);
            if (host.isEmpty()) {
                problems.add(name + ": config " + containerPath + " is not under a bind mount from the repository");
                return;
            }
            if (!Files.isRegularFile(host.get())) {
                problems.add(name + ": config " + containerPath + " -> " + host.get() + " does not exist");
                return;
            }
            if (!host.get().getFileName().toString().equals(service.configFile)) {
                problems.add(name + ": runs " + service.command + " with "
                        + host.get().getFileName() + ", expected " + service.configFile);
            }
            try {
                JsonNode tree = Repo.yaml(host.get());
                out.put(
                        name,
                        new Loaded(
                                name,
                                service,
                                host.get(),
                                tree,
                                ComposeChecks.environment(compose.services().path(name))));
            } catch (RuntimeException e) {
                problems.add(name + ": " + host.get() + " is not valid YAML: " + e.getMessage());
            }
        });
        return out;
    }

    /** Every key of every config file is a component of the service's config record (nested records followed). */
    List<String> keys(Map<String, Loaded> loaded) {
        List<String> problems = new ArrayList<>();
        Set<Path> seen = new HashSet<>();
        for (Loaded l : loaded.values()) {
            if (!seen.add(l.file())) {
                continue;
            }
            RecordSchemas rs = schemas.apply(l.service());
            RecordSchemas.Decl root = rs.record(l.service().configRecord, l.service().configRecord);
            for (String p : rs.check(l.tree(), root, "")) {
                problems.add(l.file().getFileName() + ": " + p);
            }
        }
        return problems;
    }

    /**
     * VIGIL_* variables override keys present in the file (ConfigLoader only overrides keys that exist in the
     * defaults or the file) or are secrets named by an {@code *Env} key; other variables are secrets named by
     * the config or its routing, or JVM options.
     */
    List<String> environment(Map<String, Loaded> loaded, Map<Path, JsonNode> routingFiles) {
        List<String> problems = new ArrayList<>();
        for (Loaded l : loaded.values()) {
            Set<String> leaves = new HashSet<>();
            envLeaves(l.tree(), "", leaves);
            Set<String> named = new HashSet<>();
            envNames(l.tree(), named);
            if (l.service() == Service.NOTIFIER) {
                routingFiles.values().forEach(r -> envNames(r, named));
            }
            l.env().forEach((k, v) -> {
                String where = l.container() + ".environment." + k;
                if (k.startsWith("VIGIL_")) {
                    if (!leaves.contains(k.substring("VIGIL_".length())) && !named.contains(k)) {
                        problems.add(where + ": overrides no key of " + l.file().getFileName()
                                + " (ConfigLoader ignores it) and no *Env key names it");
                    }
                } else if (!RUNTIME_ENV.contains(k) && !named.contains(k)) {
                    problems.add(
                            where + ": not a Vigil override and not a secret named by the service's configuration");
                }
            });
            for (String secret : named) {
                if (!l.env().containsKey(secret)) {
                    problems.add(l.container() + ": configuration names secret variable " + secret
                            + " but the container does not set it");
                }
            }
        }
        return problems;
    }

    /** Notifier routing: the files parse as RoutingSpec, channels referenced exist, and the chosen file exists. */
    List<String> routing(Map<String, Loaded> loaded, Map<Path, JsonNode> routingFiles) {
        List<String> problems = new ArrayList<>();
        RecordSchemas rs = schemas.apply(Service.NOTIFIER);
        RecordSchemas.Decl spec = rs.record("RoutingSpec", "RoutingSpec");
        routingFiles.forEach((file, tree) -> {
            String f = file.getFileName().toString();
            rs.check(tree, spec, "").forEach(p -> problems.add(f + ": " + p));
            Set<String> channels = new HashSet<>();
            tree.path("channels").fieldNames().forEachRemaining(channels::add);
            if (channels.isEmpty()) {
                problems.add(f + ": no channels");
            }
            for (String sev : List.of("critical", "warning", "info")) {
                if (tree.path("defaults").path(sev).isEmpty()) {
                    problems.add(f + ": defaults." + sev + " is empty (an event must never route nowhere)");
                }
            }
            tree.path("defaults").fields().forEachRemaining(d -> d.getValue().forEach(c -> {
                if (!channels.contains(c.asText())) {
                    problems.add(f + ": defaults." + d.getKey() + ": unknown channel " + c.asText());
                }
            }));
            for (JsonNode r : tree.path("routes")) {
                r.path("channels").forEach(c -> {
                    if (!channels.contains(c.asText())) {
                        problems.add(f + ": routes: unknown channel " + c.asText());
                    }
                });
            }
        });
        for (Loaded l : loaded.values()) {
            if (l.service() != Service.NOTIFIER) {
                continue;
            }
            Optional<String> chosen = l.value("routingFile");
            if (chosen.isEmpty()) {
                continue;
            }
            Path p = l.file().getParent().resolve(chosen.get());
            if (!routingFiles.containsKey(p.normalize())) {
                problems.add(l.container() + ": routingFile " + chosen.get() + " is not one of "
                        + routingFiles.keySet().stream()
                                .map(x -> x.getFileName().toString())
                                .sorted()
                                .toList());
            }
        }
        return problems;
    }

    /** The port each Vigil container listens on (after env overrides); a problem when the file does not set it. */
    Map<String, Integer> listenPorts(Map<String, Loaded> loaded, List<String> problems) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Loaded l : loaded.values()) {
            String[] path = {"http", "port"};
            Optional<String> v = l.value(path);
            if (v.isEmpty()) {
                problems.add(l.file().getFileName() + ": set " + String.join(".", path)
                        + " explicitly (compose ports, health checks and Prometheus depend on it)");
                continue;
            }
            out.put(l.container(), Integer.parseInt(v.get()));
        }
        return out;
    }

    /** Every Kafka bootstrap address the Vigil containers use. */
    static Set<String> bootstrapServers(Map<String, Loaded> loaded) {
        Set<String> out = new LinkedHashSet<>();
        loaded.values().forEach(l -> l.value("kafka", "bootstrapServers").ifPresent(out::add));
        return out;
    }

    /** Probe workers: one per region of the config's regions, distinct ids, the compose subnet allow-listed. */
    List<String> probeWorkers(Map<String, Loaded> loaded, Set<String> subnets) {
        List<String> problems = new ArrayList<>();
        Set<String> regions = new LinkedHashSet<>();
        Set<String> ids = new HashSet<>();
        Set<String> configured = new LinkedHashSet<>();
        for (Loaded l : loaded.values()) {
            if (l.service() != Service.PROBE_WORKER) {
                continue;
            }
            String region = l.value("region").orElse("");
            String id = l.value("workerId").orElse("");
            l.tree().path("regions").forEach(r -> configured.add(r.asText()));
            if (!regions.add(region)) {
                problems.add(l.container() + ": region " + region + " already has a worker");
            }
            if (!ids.add(region + "/" + id)) {
                problems.add(l.container() + ": workerId " + id + " is not unique in " + region);
            }
            if (!l.container().endsWith(region)) {
                problems.add(l.container() + ": container name does not say its region " + region);
            }
            Set<String> allow = new HashSet<>();
            l.tree().path("allowList").forEach(a -> allow.add(a.asText()));
            for (String s : subnets) {
                if (!allow.contains(s)) {
                    problems.add(l.container() + ": allowList lacks the compose subnet " + s
                            + " (in-network monitors would be refused)");
                }
            }
        }
        if (!regions.containsAll(configured) || !configured.containsAll(regions)) {
            problems.add("probe workers run regions " + regions + " but the config's regions are " + configured);
        }
        return problems;
    }

    /** {@code bootstrapServers} → {@code BOOTSTRAP_SERVERS}, as ConfigLoader.envForm. */
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

    private static void envLeaves(JsonNode node, String prefix, Set<String> out) {
        node.fields().forEachRemaining(e -> {
            String form = prefix.isEmpty() ? envForm(e.getKey()) : prefix + "_" + envForm(e.getKey());
            if (e.getValue().isObject()) {
                envLeaves(e.getValue(), form, out);
            } else {
                out.add(form);
            }
        });
    }

    /** Values of keys named {@code *Env} (secretEnv, urlEnv, passwordEnv): environment variable names. */
    private static void envNames(JsonNode node, Set<String> out) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                if (e.getKey().endsWith("Env")
                        && e.getValue().isTextual()
                        && !e.getValue().asText().isBlank()) {
                    out.add(e.getValue().asText());
                } else {
                    envNames(e.getValue(), out);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> envNames(n, out));
        }
    }
}
