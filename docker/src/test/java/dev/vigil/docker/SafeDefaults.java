package dev.vigil.docker;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks that the compose stack is safe as shipped (docs/security.md): ports on loopback only, Kafka unpublished,
 * no default secret anywhere. Like {@link ComposeChecks}, each returns one problem per line, empty when fine.
 */
final class SafeDefaults {
    static final String LOOPBACK = "127.0.0.1";
    /** Variables and environment keys that hold a secret (or a key's hash, which lets its owner in). */
    static final Pattern SECRET_NAME =
            Pattern.compile("(?i).*(PASSWORD|PASSWD|SECRET|TOKEN|WEBHOOK|API_?KEY|KEY_SHA256|CREDENTIAL).*");

    private static final Pattern INTERPOLATION = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)((:?[-?])([^}]*))?}");
    /** A SHA-256 in hex: an API key's stored form, shipped it would accept the key of whoever wrote it. */
    private static final Pattern SHA256_HEX = Pattern.compile("(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])");

    private SafeDefaults() {}

    /** Every published port, short ({@code "127.0.0.1:8080:8080"}) or long syntax ({@code host_ip}), binds loopback. */
    static List<String> loopbackPorts(JsonNode compose, String file) {
        List<String> problems = new ArrayList<>();
        compose.path("services").fields().forEachRemaining(e -> {
            for (JsonNode p : e.getValue().path("ports")) {
                boolean loopback = p.isTextual()
                        ? p.asText().startsWith(LOOPBACK + ":")
                        : p.isObject() && LOOPBACK.equals(p.path("host_ip").asText());
                if (!loopback) {
                    problems.add(file + ": " + e.getKey() + ".ports: " + p + " must bind " + LOOPBACK + " (\""
                            + LOOPBACK + ":HOST:CONTAINER\"), not every interface");
                }
            }
        });
        return problems;
    }

    /** The broker has no authentication: the stack never publishes it. */
    static List<String> kafkaUnpublished(JsonNode compose) {
        JsonNode ports = compose.path("services").path("kafka").path("ports");
        return ports.isMissingNode() || ports.isEmpty()
                ? List.of()
                : List.of("kafka.ports: " + ports + ": Kafka (PLAINTEXT, no authentication) must not be published by"
                        + " default; docker-compose.kafka-host.yml does it on " + LOOPBACK + " for those who need it");
    }

    /**
     * No secret has a default: {@code ${VAR:-value}} with a value, for a secret variable or into a secret key, is a
     * password everybody knows. Required ({@code ${VAR:?message}}) or empty ({@code ${VAR:-}}) is fine.
     */
    static List<String> noDefaultSecrets(JsonNode compose, String composeText) {
        List<String> problems = new ArrayList<>();
        Matcher m = INTERPOLATION.matcher(composeText);
        while (m.find()) {
            if (SECRET_NAME.matcher(m.group(1)).matches() && hasDefault(m)) {
                problems.add("docker-compose.yml: ${" + m.group(1) + "} has a default value; a secret must be"
                        + " required (${" + m.group(1) + ":?message}) or empty");
            }
        }
        compose.path("services").fields().forEachRemaining(e -> ComposeChecks.environment(e.getValue())
                .forEach((k, v) -> {
                    if (!SECRET_NAME.matcher(k).matches()) {
                        return;
                    }
                    Matcher x = INTERPOLATION.matcher(v);
                    boolean defaulted = false;
                    while (x.find()) {
                        defaulted |= hasDefault(x);
                    }
                    String literal = INTERPOLATION.matcher(v).replaceAll("");
                    if (defaulted || !literal.isEmpty()) {
                        problems.add(e.getKey() + ".environment." + k + ": a secret must come from the host environment"
                                + " with no default value");
                    }
                }));
        Matcher hash = SHA256_HEX.matcher(composeText);
        if (hash.find()) {
            problems.add("docker-compose.yml: holds a 64-hex value (an API key's SHA-256?): no key may be shipped");
        }
        return problems;
    }

    /** The secrets the stack cannot do without are required, with a message saying what to set. */
    static List<String> required(String composeText, List<String> variables) {
        List<String> problems = new ArrayList<>();
        for (String v : variables) {
            Matcher m = INTERPOLATION.matcher(composeText);
            boolean any = false;
            while (m.find()) {
                if (m.group(1).equals(v)) {
                    any = true;
                    if (!":?".equals(m.group(3)) || m.group(4).isBlank()) {
                        problems.add(m.group(0) + ": " + v + " must be required as ${" + v
                                + ":?what to set}, so compose stops with that message");
                    }
                }
            }
            if (!any) {
                problems.add(v + ": not used in docker-compose.yml");
            }
        }
        return problems;
    }

    /**
     * No config file ships a secret: keys named like one hold nothing (their {@code *Env} siblings name a variable
     * instead), and no value is a key hash.
     */
    static List<String> configFilesHoldNoSecrets(List<Path> files) {
        List<String> problems = new ArrayList<>();
        for (Path f : files) {
            String name = Repo.docker().relativize(f).toString();
            if (SHA256_HEX.matcher(Repo.text(f)).find()) {
                problems.add(name + ": holds a 64-hex value (an API key's SHA-256?): no key may be shipped");
            }
            secretKeys(Repo.yaml(f), "", name, problems);
        }
        return problems;
    }

    /** The YAML files of the stack other than the compose file: service configs, Prometheus, Grafana provisioning. */
    static List<Path> configFiles(Path docker) {
        List<Path> out = new ArrayList<>();
        for (String dir : List.of("config", "prometheus", "grafana/provisioning")) {
            try (Stream<Path> files = Files.walk(docker.resolve(dir))) {
                files.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                        .sorted()
                        .forEach(out::add);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return out;
    }

    private static void secretKeys(JsonNode node, String path, String file, List<String> problems) {
        node.fields().forEachRemaining(e -> {
            String at = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
            boolean secretKey =
                    SECRET_NAME.matcher(e.getKey()).matches() && !e.getKey().endsWith("Env");
            if (secretKey && hasValue(e.getValue())) {
                problems.add(file + ": " + at
                        + " holds a value; secrets come from the environment (a *Env key names the variable)");
            } else if (e.getValue().isObject()) {
                secretKeys(e.getValue(), at, file, problems);
            } else if (e.getValue().isArray()) {
                e.getValue().forEach(x -> secretKeys(x, at, file, problems));
            }
        });
    }

    private static boolean hasValue(JsonNode n) {
        if (n.isValueNode()) {
            return !n.isNull() && !n.asText().isBlank();
        }
        for (JsonNode child : n) {
            if (hasValue(child)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasDefault(Matcher m) {
        return m.group(3) != null && m.group(3).endsWith("-") && !m.group(4).isEmpty();
    }
}
