package dev.vigil.docker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.docker.Repo.Service;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks of docker-compose.yml against itself and the repository. Each check returns its problems (empty when
 * fine), one line each naming the service and key, so a test can assert both that the real file is clean and
 * that a broken copy is caught.
 */
final class ComposeChecks {
    static final Set<String> CONDITIONS =
            Set.of("service_started", "service_healthy", "service_completed_successfully");
    private static final Pattern INTERPOLATION = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)([^}]*)}");
    private static final Pattern SECRET_NAME = Pattern.compile(".*(PASSWORD|SECRET|TOKEN|WEBHOOK|API_KEY).*");
    private static final Pattern IMAGE = Pattern.compile("[a-z0-9][a-z0-9._/-]*:[A-Za-z0-9_][A-Za-z0-9._-]{0,127}");

    private final JsonNode compose;
    private final String composeText;
    private final Path dockerDir;

    /**
     * @param compose     the parsed compose file (anchors and merge keys expanded)
     * @param composeText its text (for ${VAR} references)
     * @param dockerDir   the directory the compose file is in (relative paths resolve against it)
     */
    ComposeChecks(JsonNode compose, String composeText, Path dockerDir) {
        this.compose = compose;
        this.composeText = composeText;
        this.dockerDir = dockerDir;
    }

    JsonNode services() {
        return compose.path("services");
    }

    /** Service name → the Vigil service it runs (by its command), for the containers of the Vigil image. */
    Map<String, Service> vigilServices() {
        Map<String, Service> out = new LinkedHashMap<>();
        services().fields().forEachRemaining(e -> {
            JsonNode cmd = e.getValue().path("command");
            if (cmd.isArray() && cmd.size() > 0) {
                Service s = Service.byCommand(cmd.get(0).asText());
                if (s != null) {
                    out.put(e.getKey(), s);
                }
            }
        });
        return out;
    }

    /** Every service names an image with an explicit tag (never latest) or a build whose Dockerfile exists. */
    List<String> images() {
        List<String> problems = new ArrayList<>();
        if (!services().isObject() || services().isEmpty()) {
            return List.of("services: none defined");
        }
        services().fields().forEachRemaining(e -> {
            String name = e.getKey();
            JsonNode svc = e.getValue();
            JsonNode image = svc.get("image");
            JsonNode build = svc.get("build");
            if (image == null && build == null) {
                problems.add(name + ": neither image nor build");
            }
            if (image != null) {
                String ref = image.asText();
                if (!IMAGE.matcher(ref).matches()) {
                    problems.add(name + ".image: '" + ref + "' must be name:tag with an explicit tag");
                } else if (ref.endsWith(":latest")) {
                    problems.add(name + ".image: '" + ref + "' must pin a version, not latest");
                }
            }
            if (build != null) {
                String context = build.isTextual()
                        ? build.asText()
                        : build.path("context").asText(".");
                String dockerfile = build.isTextual()
                        ? "Dockerfile"
                        : build.path("dockerfile").asText("Dockerfile");
                Path ctx = dockerDir.resolve(context).normalize();
                if (!Files.isDirectory(ctx)) {
                    problems.add(name + ".build.context: " + context + " does not exist (resolved " + ctx + ")");
                } else if (!Files.isRegularFile(ctx.resolve(dockerfile))) {
                    problems.add(name + ".build.dockerfile: " + dockerfile + " not found in " + ctx);
                }
            }
        });
        return problems;
    }

    /** Compose service attributes this stack may use (a subset of the Compose Specification); anything else is a typo. */
    static final Set<String> SERVICE_KEYS = Set.of(
            "image",
            "build",
            "command",
            "entrypoint",
            "environment",
            "env_file",
            "ports",
            "expose",
            "volumes",
            "tmpfs",
            "depends_on",
            "healthcheck",
            "restart",
            "networks",
            "hostname",
            "container_name",
            "user",
            "working_dir",
            "read_only",
            "labels",
            "logging",
            "stop_grace_period",
            "ulimits",
            "deploy",
            "profiles",
            "init",
            "pull_policy",
            "secrets",
            "configs",
            "extra_hosts",
            "cap_drop",
            "security_opt");

    static final Set<String> TOP_LEVEL_KEYS =
            Set.of("name", "services", "networks", "volumes", "secrets", "configs", "include");
    static final Set<String> HEALTHCHECK_KEYS =
            Set.of("test", "interval", "timeout", "retries", "start_period", "start_interval", "disable");
    private static final Pattern DURATION = Pattern.compile("(\\d+(us|ms|s|m|h))+");

    /** Only known keys (top level, services — extension fields {@code x-*} aside —, health checks) with valid durations. */
    List<String> knownKeys() {
        List<String> problems = new ArrayList<>();
        compose.fieldNames().forEachRemaining(k -> {
            if (!k.startsWith("x-") && !TOP_LEVEL_KEYS.contains(k)) {
                problems.add(k + ": not a top-level compose key " + new TreeSet<>(TOP_LEVEL_KEYS));
            }
        });
        services().fields().forEachRemaining(e -> {
            e.getValue().fieldNames().forEachRemaining(k -> {
                if (!k.startsWith("x-") && !SERVICE_KEYS.contains(k)) {
                    problems.add(e.getKey() + "." + k + ": not a compose service attribute");
                }
            });
            JsonNode hc = e.getValue().path("healthcheck");
            hc.fields().forEachRemaining(h -> {
                if (!HEALTHCHECK_KEYS.contains(h.getKey())) {
                    problems.add(e.getKey() + ".healthcheck." + h.getKey() + ": not a healthcheck attribute "
                            + new TreeSet<>(HEALTHCHECK_KEYS));
                } else if (Set.of("interval", "timeout", "start_period", "start_interval")
                                .contains(h.getKey())
                        && !DURATION.matcher(h.getValue().asText()).matches()) {
                    problems.add(e.getKey() + ".healthcheck." + h.getKey() + ": '"
                            + h.getValue().asText() + "' is not a duration such as 10s or 1m30s");
                }
            });
            JsonNode test = hc.path("test");
            if (test.isArray()
                    && test.size() > 0
                    && !Set.of("CMD", "CMD-SHELL", "NONE").contains(test.get(0).asText())) {
                problems.add(e.getKey() + ".healthcheck.test: a list must start with CMD, CMD-SHELL or NONE");
            }
            String restart = e.getValue().path("restart").asText("no");
            if (!restart.matches("no|always|unless-stopped|on-failure(:\\d+)?")) {
                problems.add(e.getKey() + ".restart: '" + restart + "' is not a restart policy");
            }
        });
        return problems;
    }

    /** depends_on: targets exist, conditions valid, healthy ⇒ target has a health check, one-shots end, no cycle. */
    List<String> dependsOn() {
        List<String> problems = new ArrayList<>();
        Map<String, Set<String>> edges = new HashMap<>();
        services().fields().forEachRemaining(e -> {
            String name = e.getKey();
            JsonNode deps = e.getValue().get("depends_on");
            Set<String> targets = new LinkedHashSet<>();
            edges.put(name, targets);
            if (deps == null) {
                return;
            }
            Map<String, String> conditions = new LinkedHashMap<>();
            if (deps.isArray()) {
                deps.forEach(d -> conditions.put(d.asText(), "service_started"));
            } else {
                deps.fields()
                        .forEachRemaining(d -> conditions.put(
                                d.getKey(), d.getValue().path("condition").asText("service_started")));
            }
            conditions.forEach((target, condition) -> {
                String where = name + ".depends_on." + target;
                targets.add(target);
                JsonNode t = services().get(target);
                if (t == null) {
                    problems.add(where + ": no such service");
                    return;
                }
                if (!CONDITIONS.contains(condition)) {
                    problems.add(where + ".condition: '" + condition + "' is not one of " + new TreeSet<>(CONDITIONS));
                } else if (condition.equals("service_healthy") && !hasHealthcheck(t)) {
                    problems.add(where + ": condition service_healthy but " + target + " has no healthcheck");
                } else if (condition.equals("service_completed_successfully")) {
                    String restart = t.path("restart").asText("no");
                    if (!restart.equals("no")) {
                        problems.add(where + ": waits for " + target + " to complete, but its restart policy is '"
                                + restart + "'");
                    }
                }
            });
        });
        for (String start : edges.keySet()) {
            cycle(start, edges, new ArrayList<>(), new HashSet<>())
                    .ifPresent(c -> problems.add("depends_on cycle: " + c));
        }
        return problems.stream().distinct().toList();
    }

    private static Optional<String> cycle(
            String at, Map<String, Set<String>> edges, List<String> path, Set<String> done) {
        if (path.contains(at)) {
            List<String> loop = new ArrayList<>(path.subList(path.indexOf(at), path.size()));
            loop.add(at);
            return Optional.of(String.join(" -> ", loop));
        }
        if (!done.add(at)) {
            return Optional.empty();
        }
        path.add(at);
        for (String next : edges.getOrDefault(at, Set.of())) {
            Optional<String> c = cycle(next, edges, path, done);
            if (c.isPresent()) {
                return c;
            }
        }
        path.remove(path.size() - 1);
        return Optional.empty();
    }

    static boolean hasHealthcheck(JsonNode svc) {
        JsonNode hc = svc.get("healthcheck");
        return hc != null
                && !hc.path("disable").asBoolean(false)
                && hc.has("test")
                && !hc.get("test").isNull()
                && !(hc.get("test").isArray()
                        && hc.get("test").size() > 0
                        && hc.get("test").get(0).asText().equals("NONE"));
    }

    /**
     * Start order of the Vigil services: each waits for a healthy Kafka and the completed topic creation, the
     * notifier for a healthy PostgreSQL; each has a health check on GET /ready at the port its config listens on.
     */
    List<String> vigilStartOrderAndHealth(Map<String, Integer> listenPorts) {
        List<String> problems = new ArrayList<>();
        Map<String, Service> vigil = vigilServices();
        for (Service s : Service.values()) {
            if (!vigil.containsValue(s)) {
                problems.add("no container runs `" + s.command + "`");
            }
        }
        vigil.forEach((name, s) -> {
            JsonNode deps = services().path(name).path("depends_on");
            requireCondition(problems, name, deps, "kafka", "service_healthy");
            requireCondition(problems, name, deps, "topics", "service_completed_successfully");
            if (s == Service.NOTIFIER) {
                requireCondition(problems, name, deps, "postgres", "service_healthy");
            }
            JsonNode test = services().path(name).path("healthcheck").path("test");
            String cmd = test.isArray() ? join(test) : test.asText();
            Integer port = listenPorts.get(name);
            String expected = "http://localhost:" + port + "/ready";
            if (!cmd.contains(expected)) {
                problems.add(
                        name + ".healthcheck.test: must request " + expected + " (its configured port), was: " + cmd);
            }
        });
        return problems;
    }

    private void requireCondition(List<String> problems, String name, JsonNode deps, String target, String condition) {
        String actual = deps.path(target).path("condition").asText("");
        if (!actual.equals(condition)) {
            problems.add(name + ".depends_on." + target + ": must be condition " + condition
                    + (actual.isEmpty() ? " (missing)" : ", was " + actual));
        }
    }

    /** Bind mounts point at files in the repository, named volumes and networks are declared, configs are read-only. */
    List<String> mounts() {
        List<String> problems = new ArrayList<>();
        Set<String> declaredVolumes = names(compose.path("volumes"));
        Set<String> declaredNetworks = names(compose.path("networks"));
        services().fields().forEachRemaining(e -> {
            String name = e.getKey();
            for (Mount m : mounts(e.getValue())) {
                String where = name + ".volumes: " + m.source() + ":" + m.target();
                if (m.bind()) {
                    Path host = dockerDir.resolve(m.source()).normalize();
                    if (!Files.exists(host)) {
                        problems.add(where + ": host path " + host + " does not exist");
                    }
                    if (!m.readOnly()) {
                        problems.add(where + ": files from the repository must be mounted read-only (:ro)");
                    }
                } else if (!declaredVolumes.contains(m.source())) {
                    problems.add(where + ": named volume " + m.source() + " is not declared under top-level volumes");
                }
            }
            JsonNode nets = e.getValue().path("networks");
            List<String> used = new ArrayList<>();
            if (nets.isArray()) {
                nets.forEach(n -> used.add(n.asText()));
            } else {
                nets.fieldNames().forEachRemaining(used::add);
            }
            for (String n : used) {
                if (!declaredNetworks.contains(n)) {
                    problems.add(name + ".networks: " + n + " is not declared under top-level networks");
                }
            }
        });
        return problems;
    }

    /** A volume entry in short syntax. */
    record Mount(String source, String target, boolean readOnly) {
        boolean bind() {
            return source.startsWith(".") || source.startsWith("/") || source.startsWith("~");
        }
    }

    static List<Mount> mounts(JsonNode svc) {
        List<Mount> out = new ArrayList<>();
        for (JsonNode v : svc.path("volumes")) {
            if (v.isTextual()) {
                String[] parts = v.asText().split(":");
                if (parts.length >= 2) {
                    out.add(new Mount(parts[0], parts[1], parts.length > 2 && parts[2].contains("ro")));
                }
            } else {
                out.add(new Mount(
                        v.path("source").asText(),
                        v.path("target").asText(),
                        v.path("read_only").asBoolean(false)));
            }
        }
        return out;
    }

    /** The host file behind a container path, through the service's bind mounts (file or directory mounts). */
    Optional<Path> hostPath(String service, String containerPath) {
        for (Mount m : mounts(services().path(service))) {
            if (!m.bind()) {
                continue;
            }
            if (containerPath.equals(m.target())) {
                return Optional.of(dockerDir.resolve(m.source()).normalize());
            }
            if (containerPath.startsWith(m.target() + "/")) {
                return Optional.of(dockerDir
                        .resolve(m.source())
                        .resolve(containerPath.substring(m.target().length() + 1))
                        .normalize());
            }
        }
        return Optional.empty();
    }

    /** Every ${VAR} the compose file interpolates is documented in the README. */
    List<String> interpolatedVariablesDocumented(String readme) {
        List<String> problems = new ArrayList<>();
        for (String v : interpolatedVariables()) {
            if (!Pattern.compile("`" + Pattern.quote(v) + "`").matcher(readme).find()) {
                problems.add("${" + v + "} is used in docker-compose.yml but not documented (as `" + v
                        + "`) in docker/README.md");
            }
        }
        return problems;
    }

    Set<String> interpolatedVariables() {
        Set<String> vars = new TreeSet<>();
        Matcher m = INTERPOLATION.matcher(composeText);
        while (m.find()) {
            vars.add(m.group(1));
        }
        return vars;
    }

    /** Secrets (passwords, tokens, webhook URLs, API keys) only ever come from the host environment. */
    List<String> secretsFromEnvironment() {
        List<String> problems = new ArrayList<>();
        services().fields().forEachRemaining(e -> environment(e.getValue()).forEach((k, v) -> {
            if (SECRET_NAME.matcher(k).matches() && !v.matches("\\$\\{[A-Za-z_][A-Za-z0-9_]*(:?[-?][^}]*)?}")) {
                problems.add(e.getKey() + ".environment." + k
                        + ": a secret must be interpolated from the host environment (${VAR}), never written inline");
            }
        }));
        return problems;
    }

    static Map<String, String> environment(JsonNode svc) {
        Map<String, String> env = new LinkedHashMap<>();
        JsonNode node = svc.path("environment");
        if (node.isArray()) {
            node.forEach(x -> {
                String s = x.asText();
                int eq = s.indexOf('=');
                env.put(eq < 0 ? s : s.substring(0, eq), eq < 0 ? "" : s.substring(eq + 1));
            });
        } else {
            node.fields()
                    .forEachRemaining(x -> env.put(
                            x.getKey(),
                            x.getValue().isNull() ? "" : x.getValue().asText()));
        }
        return env;
    }

    /** The value a ${VAR:-default} expression takes when VAR is unset (the local default). */
    static String withDefaults(String value) {
        Matcher m = INTERPOLATION.matcher(value);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String rest = m.group(2);
            String def = rest.startsWith(":-") ? rest.substring(2) : rest.startsWith("-") ? rest.substring(1) : "";
            m.appendReplacement(sb, Matcher.quoteReplacement(def));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** A published port: host side and container side. */
    record Published(String service, String hostIp, int host, int container) {}

    List<Published> published(List<String> problems) {
        List<Published> out = new ArrayList<>();
        services().fields().forEachRemaining(e -> {
            for (JsonNode p : e.getValue().path("ports")) {
                if (!p.isTextual()) {
                    problems.add(e.getKey() + ".ports: " + p
                            + " must be a quoted \"host:container\" string (YAML 1.1 reads 80:80 as a number)");
                    continue;
                }
                String[] parts = p.asText().replace("/tcp", "").split(":");
                try {
                    if (parts.length == 2) {
                        out.add(new Published(e.getKey(), "", Integer.parseInt(parts[0]), Integer.parseInt(parts[1])));
                    } else if (parts.length == 3) {
                        out.add(new Published(
                                e.getKey(), parts[0], Integer.parseInt(parts[1]), Integer.parseInt(parts[2])));
                    } else {
                        problems.add(
                                e.getKey() + ".ports: '" + p.asText() + "' must publish host:container explicitly");
                    }
                } catch (NumberFormatException ex) {
                    problems.add(e.getKey() + ".ports: '" + p.asText() + "' is not host:container numbers");
                }
            }
        });
        return out;
    }

    /** Host ports are unique; a Vigil container publishes the port its config listens on. */
    List<String> ports(Map<String, Integer> listenPorts) {
        List<String> problems = new ArrayList<>();
        Map<Integer, String> byHost = new HashMap<>();
        for (Published p : published(problems)) {
            String other = byHost.putIfAbsent(p.host(), p.service());
            if (other != null) {
                problems.add("host port " + p.host() + " is published by both " + other + " and " + p.service());
            }
            Integer listen = listenPorts.get(p.service());
            if (listen != null && listen != p.container()) {
                problems.add(p.service() + ".ports: publishes container port " + p.container()
                        + " but the service listens on " + listen);
            }
        }
        return problems;
    }

    /**
     * Prometheus scrapes every Vigil container exactly once, each target is a compose service at the port it
     * listens on, and Vigil targets use /metrics.
     */
    List<String> prometheusTargets(JsonNode prometheus, Map<String, Integer> listenPorts) {
        List<String> problems = new ArrayList<>();
        Map<String, Integer> scraped = new HashMap<>();
        List<Published> published = published(new ArrayList<>());
        JsonNode jobs = prometheus.path("scrape_configs");
        if (!jobs.isArray() || jobs.isEmpty()) {
            return List.of("prometheus.yml: no scrape_configs");
        }
        Set<String> jobNames = new HashSet<>();
        for (JsonNode job : jobs) {
            String jobName = job.path("job_name").asText("?");
            if (!jobNames.add(jobName)) {
                problems.add("prometheus job " + jobName + ": job_name is not unique");
            }
            for (JsonNode sc : job.path("static_configs")) {
                for (JsonNode t : sc.path("targets")) {
                    String target = t.asText();
                    int colon = target.lastIndexOf(':');
                    if (colon < 0) {
                        problems.add("prometheus job " + jobName + ": target " + target + " has no port");
                        continue;
                    }
                    String host = target.substring(0, colon);
                    int port = Integer.parseInt(target.substring(colon + 1));
                    if (!services().has(host)) {
                        problems.add("prometheus job " + jobName + ": target " + target + ": " + host
                                + " is not a compose service");
                        continue;
                    }
                    scraped.merge(host, 1, Integer::sum);
                    Integer listen = listenPorts.get(host);
                    if (listen != null) {
                        if (listen != port) {
                            problems.add("prometheus job " + jobName + ": target " + target + ": " + host
                                    + " listens on " + listen);
                        }
                        String path = job.path("metrics_path").asText("/metrics");
                        if (!path.equals("/metrics")) {
                            problems.add("prometheus job " + jobName + ": metrics_path " + path
                                    + " (Vigil serves /metrics)");
                        }
                    } else if (published.stream().noneMatch(p -> p.service().equals(host) && p.container() == port)) {
                        problems.add("prometheus job " + jobName + ": target " + target + ": " + host
                                + " exposes no port " + port);
                    }
                }
            }
        }
        for (String s : listenPorts.keySet()) {
            int n = scraped.getOrDefault(s, 0);
            if (n != 1) {
                problems.add("prometheus scrapes " + s + " " + n + " times (expected exactly once)");
            }
        }
        return problems;
    }

    /** Labels Prometheus attaches to targets (static_configs labels), which dashboards may group by. */
    static Set<String> targetLabels(JsonNode prometheus) {
        Set<String> labels = new TreeSet<>(Set.of("job", "instance"));
        for (JsonNode job : prometheus.path("scrape_configs")) {
            for (JsonNode sc : job.path("static_configs")) {
                sc.path("labels").fieldNames().forEachRemaining(labels::add);
            }
        }
        return labels;
    }

    /** A topic as the init script creates it. */
    record TopicLine(String name, int partitions, boolean compacted) {}

    /** {@code create NAME PARTITIONS compact|delete [RETENTION_MS]}, as kafka/create-topics.sh calls it. */
    private static final Pattern CREATE_LINE =
            Pattern.compile("(?m)^\\s*create\\s+(\\S+)\\s+(\\d+)\\s+(compact|delete)(?:\\s+(\\d+))?\\s*$");

    static List<TopicLine> scriptTopics(String script) {
        List<TopicLine> out = new ArrayList<>();
        Matcher m = CREATE_LINE.matcher(script);
        while (m.find()) {
            out.add(new TopicLine(
                    m.group(1), Integer.parseInt(m.group(2)), m.group(3).equals("compact")));
        }
        return out;
    }

    /** Topic name → the retention.ms the script gives it, for the topics that set one. */
    static Map<String, Long> scriptRetentions(String script) {
        Map<String, Long> out = new LinkedHashMap<>();
        Matcher m = CREATE_LINE.matcher(script);
        while (m.find()) {
            if (m.group(4) != null) {
                out.put(m.group(1), Long.parseLong(m.group(4)));
            }
        }
        return out;
    }

    /** Topics.all() as declared in Topics.java: names, partitions (constants resolved) and compaction. */
    static List<TopicLine> declaredTopics(String topicsJava) {
        String code = JavaText.stripComments(topicsJava);
        Map<String, String> constants = new HashMap<>();
        Matcher c = Pattern.compile("\\b(?:String|int|short)\\s+([A-Z_][A-Z0-9_]*)\\s*=\\s*(\"[^\"]*\"|\\d+)\\s*;")
                .matcher(code);
        while (c.find()) {
            constants.put(c.group(1), c.group(2).replace("\"", ""));
        }
        int all = code.indexOf("all()");
        if (all < 0) {
            throw new IllegalStateException("Topics.java has no all() method");
        }
        int body = code.indexOf('{', all);
        String allBody = code.substring(body, JavaText.closing(code, body) + 1);
        List<TopicLine> out = new ArrayList<>();
        Matcher spec = Pattern.compile("new\\s+TopicSpec\\s*\\(").matcher(allBody);
        while (spec.find()) {
            int open = spec.end() - 1;
            List<String> args =
                    JavaText.splitTopLevel(allBody.substring(open + 1, JavaText.closing(allBody, open)), false);
            String name = JavaText.stringLiteral(args.get(0)).orElseGet(() -> constants.get(args.get(0)));
            String partitions = args.get(1).matches("\\d+") ? args.get(1) : constants.get(args.get(1));
            if (name == null || partitions == null) {
                throw new IllegalStateException("cannot resolve Topics.all() entry " + args);
            }
            out.add(new TopicLine(
                    name, Integer.parseInt(partitions), args.get(2).equals("true")));
        }
        return out;
    }

    /** The topics service runs the mounted script after Kafka is healthy. */
    List<String> topicsService(String scriptContainerPath) {
        List<String> problems = new ArrayList<>();
        JsonNode t = services().path("topics");
        if (t.isMissingNode()) {
            return List.of("no `topics` service");
        }
        String entry = join(t.path("entrypoint")) + " " + join(t.path("command"));
        if (!entry.contains(scriptContainerPath)) {
            problems.add("topics: entrypoint/command does not run " + scriptContainerPath);
        }
        if (hostPath("topics", scriptContainerPath).filter(Files::isRegularFile).isEmpty()) {
            problems.add("topics: " + scriptContainerPath + " is not bind-mounted from a file in the repository");
        }
        if (!t.path("depends_on").path("kafka").path("condition").asText().equals("service_healthy")) {
            problems.add("topics.depends_on.kafka: must be condition service_healthy");
        }
        return problems;
    }

    /** The broker: KRaft combined mode, a valid cluster id, reachable at the address the Vigil configs use. */
    List<String> kafka(String kafkaVersion, Set<String> bootstrapServers) {
        List<String> problems = new ArrayList<>();
        JsonNode k = services().path("kafka");
        Map<String, String> env = environment(k);
        String image = k.path("image").asText();
        if (!image.equals("apache/kafka:" + kafkaVersion)) {
            problems.add("kafka.image: " + image + " should be the official apache/kafka:" + kafkaVersion
                    + " (pom.xml kafka.version)");
        }
        if (!"broker,controller".equals(env.get("KAFKA_PROCESS_ROLES"))) {
            problems.add("kafka: KAFKA_PROCESS_ROLES must be broker,controller (KRaft, single node)");
        }
        String id = env.getOrDefault("CLUSTER_ID", "");
        try {
            if (Base64.getUrlDecoder().decode(id).length != 16) {
                problems.add("kafka: CLUSTER_ID must be a base64url UUID (16 bytes)");
            }
        } catch (IllegalArgumentException e) {
            problems.add("kafka: CLUSTER_ID '" + id + "' is not base64url");
        }
        Set<String> advertised = new HashSet<>();
        for (String l : env.getOrDefault("KAFKA_ADVERTISED_LISTENERS", "").split(",")) {
            int slash = l.indexOf("://");
            if (slash > 0) {
                advertised.add(l.substring(slash + 3));
            }
        }
        for (String b : bootstrapServers) {
            for (String addr : b.split(",")) {
                if (!advertised.contains(addr.strip())) {
                    problems.add("kafka: clients bootstrap from " + addr + " but the broker advertises " + advertised);
                }
            }
        }
        if (!"false".equals(env.get("KAFKA_AUTO_CREATE_TOPICS_ENABLE"))) {
            problems.add(
                    "kafka: KAFKA_AUTO_CREATE_TOPICS_ENABLE must be \"false\" (topics are created with their settings by `topics`)");
        }
        for (String rf : List.of(
                "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR",
                "KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR",
                "KAFKA_TRANSACTION_STATE_LOG_MIN_ISR")) {
            if (!"1".equals(env.get(rf))) {
                problems.add("kafka: " + rf
                        + " must be 1 on a single broker (exactly-once Streams needs the transaction log)");
            }
        }
        return problems;
    }

    static String join(JsonNode node) {
        if (node.isArray()) {
            List<String> parts = new ArrayList<>();
            node.forEach(n -> parts.add(n.asText()));
            return String.join(" ", parts);
        }
        return node.isMissingNode() || node.isNull() ? "" : node.asText();
    }

    private static Set<String> names(JsonNode node) {
        Set<String> out = new HashSet<>();
        Iterator<String> it = node.fieldNames();
        it.forEachRemaining(out::add);
        return out;
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
