package dev.vigil.docker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.docker.Repo.Service;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The compose stack's files as read by the checks, loaded once per test class. */
final class Stack {
    final Path docker = Repo.docker();
    final String composeText = Repo.text(docker.resolve("docker-compose.yml"));
    final JsonNode compose;
    final JsonNode prometheus = Repo.yaml(docker.resolve("prometheus/prometheus.yml"));
    final String readme = Repo.text(docker.resolve("README.md"));
    private final Map<Service, RecordSchemas> schemas = new EnumMap<>(Service.class);

    Stack() {
        this(null);
    }

    /** @param composeOverride a compose tree to check instead of the file's (for tests that break a copy) */
    Stack(JsonNode composeOverride) {
        this.compose = composeOverride != null ? composeOverride : Repo.yaml(composeText);
    }

    ComposeChecks composeChecks() {
        return new ComposeChecks(compose, composeText, docker);
    }

    RecordSchemas schemas(Service s) {
        return schemas.computeIfAbsent(
                s,
                x -> new RecordSchemas(
                        JavaText.read(List.of(Repo.mainSources(x.module), Repo.mainSources("schemas")))));
    }

    ConfigChecks configChecks() {
        return new ConfigChecks(composeChecks(), this::schemas);
    }

    /** Every notifier routing file in docker/config (routing-*.yaml). */
    Map<Path, JsonNode> routingFiles() {
        Map<Path, JsonNode> out = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(docker.resolve("config"))) {
            for (Path p : files.filter(f -> f.getFileName().toString().matches("routing-.*\\.ya?ml"))
                    .sorted()
                    .toList()) {
                out.put(p.normalize(), Repo.yaml(p));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Subnets of the compose networks (ipam config). */
    Set<String> subnets() {
        Set<String> out = new LinkedHashSet<>();
        compose.path("networks").forEach(n -> n.path("ipam").path("config").forEach(c -> {
            if (c.has("subnet")) {
                out.add(c.path("subnet").asText());
            }
        }));
        return out;
    }

    /** pom.xml kafka.version. */
    String kafkaVersion() {
        Matcher m = Pattern.compile("<kafka\\.version>([^<]+)</kafka\\.version>")
                .matcher(Repo.text(Repo.root().resolve("pom.xml")));
        if (!m.find()) {
            throw new IllegalStateException("pom.xml has no kafka.version property");
        }
        return m.group(1).strip();
    }

    /** The parent pom's modules. */
    static List<String> modules() {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<module>([^<]+)</module>")
                .matcher(Repo.text(Repo.root().resolve("pom.xml")));
        while (m.find()) {
            out.add(m.group(1).strip());
        }
        return out;
    }
}
