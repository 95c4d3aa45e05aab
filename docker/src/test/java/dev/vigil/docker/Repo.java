package dev.vigil.docker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/** The repository this module sits in, and readers for its YAML and JSON files. */
final class Repo {
    static final ObjectMapper JSON = JsonMapper.builder().build();

    /** The Vigil service modules whose sources define configs and meters, with their config file and record. */
    enum Service {
        INGEST("ingest", "ingest", "vigil-ingest.yaml", "IngestConfig"),
        STREAMS("streams", "streams-topology", "vigil-streams.yaml", "StreamsServiceConfig"),
        NOTIFIER("notifier", "notifier", "vigil-notifier.yaml", "NotifierConfig"),
        PROBE_WORKER("probe-worker", "probe-worker", "vigil-probe-worker.yaml", "ProbeWorkerConfig");

        final String command;
        final String module;
        final String configFile;
        final String configRecord;

        Service(String command, String module, String configFile, String configRecord) {
            this.command = command;
            this.module = module;
            this.configFile = configFile;
            this.configRecord = configRecord;
        }

        static Service byCommand(String command) {
            for (Service s : values()) {
                if (s.command.equals(command)) {
                    return s;
                }
            }
            return null;
        }
    }

    private Repo() {}

    /** The repository root: the parent of this module's directory (Surefire runs in the module directory). */
    static Path root() {
        Path module =
                Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(module.resolve("docker-compose.yml"))) {
            module = module.resolve("docker");
        }
        return module.getParent();
    }

    static Path docker() {
        return root().resolve("docker");
    }

    static Path mainSources(String module) {
        return root().resolve(module).resolve("src/main/java");
    }

    /** YAML with anchors, aliases and merge keys expanded (as docker compose reads it), as a Jackson tree. */
    static JsonNode yaml(Path file) {
        try {
            return yaml(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode yaml(String text) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        Object doc = new Yaml(options).load(text);
        return JSON.valueToTree(doc == null ? Map.of() : doc);
    }

    static JsonNode json(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The sources meters and configs are read from: every service module plus schemas, the service kit and standalone. */
    static List<Path> allMainSources() {
        return List.of(
                mainSources("schemas"),
                mainSources("service-kit"),
                mainSources("ingest"),
                mainSources("streams-topology"),
                mainSources("notifier"),
                mainSources("probe-worker"),
                mainSources("standalone"));
    }
}
