package dev.vigil.probe.schedule;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.schemas.contract.MonitorDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.scheduler.Schedulers;

/**
 * Monitors from a YAML file ({@code monitors: [ {id: ..., url: ...}, ... ]}), for local use. Loaded at
 * start (a bad file stops start-up with the key path of each problem) and re-read when it changes:
 * monitors that disappear from the file are removed. A bad edit while running is logged and ignored.
 */
public final class FileMonitorFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FileMonitorFeed.class);

    private final Path file;
    private final MonitorSink sink;
    private final Set<String> known = new HashSet<>();
    private long lastModified;
    private Disposable watcher;

    public FileMonitorFeed(Path file, MonitorSink sink) {
        this.file = file;
        this.sink = sink;
    }

    /** Reads a monitors file; throws {@link ConfigLoader.ConfigException} naming {@code monitors[i].field}. */
    public static List<MonitorDefinition> read(Path file) {
        JsonNode tree = ConfigLoader.readYaml(file);
        JsonNode list = tree.get("monitors");
        if (list == null || !list.isArray()) {
            throw new ConfigLoader.ConfigException(List.of(file + ": monitors: must be a list of monitor definitions"));
        }
        List<MonitorDefinition> out = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode node = list.get(i);
            if (node.isObject() && !node.has("schemaVersion")) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) node).put("schemaVersion", 1);
            }
            try {
                MonitorDefinition def =
                        ConfigLoader.bind(node, MonitorDefinition.class, file + ": monitors[" + i + "]");
                if (!ids.add(def.id())) {
                    problems.add(file + ": monitors[" + i + "].id: repeats an earlier monitor id");
                }
                out.add(def);
            } catch (ConfigLoader.ConfigException e) {
                problems.addAll(e.problems());
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigLoader.ConfigException(problems);
        }
        return out;
    }

    public FileMonitorFeed start(Duration pollInterval) {
        load();
        watcher = Schedulers.single()
                .schedulePeriodically(
                        () -> {
                            try {
                                if (Files.getLastModifiedTime(file).toMillis() != lastModified) {
                                    load();
                                }
                            } catch (Exception e) {
                                LOG.warn("monitors file {} not reloaded: {}", file, e.getMessage());
                            }
                        },
                        pollInterval.toMillis(),
                        pollInterval.toMillis(),
                        TimeUnit.MILLISECONDS);
        return this;
    }

    private synchronized void load() {
        try {
            lastModified = Files.getLastModifiedTime(file).toMillis();
        } catch (java.io.IOException e) {
            throw new ConfigLoader.ConfigException(List.of(file + ": cannot be read: " + e.getMessage()));
        }
        List<MonitorDefinition> defs = read(file);
        Set<String> now = new HashSet<>();
        for (MonitorDefinition d : defs) {
            now.add(d.id());
            sink.upsert(d);
        }
        for (String id : known) {
            if (!now.contains(id)) {
                sink.remove(id);
            }
        }
        known.clear();
        known.addAll(now);
        LOG.info("{} monitors loaded from {}", defs.size(), file);
    }

    @Override
    public void close() {
        if (watcher != null) {
            watcher.dispose();
        }
    }
}
