package dev.vigil.standalone.cli;

import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.main.ExitCode;
import dev.vigil.schemas.contract.AuditRecord;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.standalone.launch.Canary;
import dev.vigil.standalone.launch.StandaloneOptions;
import dev.vigil.standalone.monitors.CompactedTopic;
import dev.vigil.standalone.monitors.MonitorCatalog;
import dev.vigil.standalone.monitors.MonitorsFile;
import dev.vigil.streams.api.HeartbeatTokens;
import dev.vigil.streams.api.MonitorDiff;
import dev.vigil.streams.api.RegionCheck;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code vigil monitors ...}: manage the monitor catalogue on the {@code vigil.monitors} topic. */
@Command(
        name = "monitors",
        mixinStandardHelpOptions = true,
        description = "Manage monitor definitions.",
        subcommands = {MonitorsCommand.Apply.class})
public final class MonitorsCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(
            name = "apply",
            mixinStandardHelpOptions = true,
            description = {
                "Validate a monitors file, show what changes, and publish it.",
                "Monitors absent from the file are kept unless --prune is given.",
                "A heartbeat monitor without a ping token gets one: only its hash is published, and the token "
                        + "and its ping command (a POST) are printed once. Re-applying keeps the token; "
                        + "--rotate-heartbeat-token issues a new one."
            })
    static final class Apply implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(
                names = {"-f", "--file"},
                required = true,
                paramLabel = "FILE",
                description = "YAML file with a top-level 'monitors:' list.")
        Path file;

        @Option(
                names = "--bootstrap-servers",
                paramLabel = "HOST:PORT",
                defaultValue = "${env:VIGIL_KAFKA_BOOTSTRAP_SERVERS:-localhost:9092}",
                description = "Kafka bootstrap servers (default: ${DEFAULT-VALUE}; env VIGIL_KAFKA_BOOTSTRAP_SERVERS).")
        String bootstrapServers;

        @Option(
                names = "--topic",
                defaultValue = Topics.MONITORS,
                description = "Monitors topic (default: ${DEFAULT-VALUE}).")
        String topic;

        @Option(
                names = "--regions",
                split = ",",
                paramLabel = "REGION",
                defaultValue = "${env:VIGIL_REGIONS:-}",
                description = "Regions this deployment runs; monitors naming others are refused (default: any).")
        List<String> regions;

        @Option(
                names = "--allow-region",
                split = ",",
                paramLabel = "REGION",
                description = "Accept monitors naming this region although no probe worker has served it yet (a region "
                        + "being rolled out); repeatable or comma-separated. Without it such monitors are refused.")
        List<String> allowRegions;

        @Option(
                names = "--regions-topic",
                defaultValue = Topics.REGIONS,
                description = "Where the regions the probe workers serve are (default: ${DEFAULT-VALUE}).")
        String regionsTopic;

        @Option(names = "--prune", description = "Delete monitors that are on the topic but not in the file.")
        boolean prune;

        @Option(names = "--dry-run", description = "Validate and show the diff; publish nothing.")
        boolean dryRun;

        @Option(
                names = "--timeout",
                defaultValue = "PT30S",
                description = "How long to wait for Kafka (ISO-8601 duration, default: ${DEFAULT-VALUE}).")
        Duration timeout;

        @Option(
                names = "--ingest-url",
                paramLabel = "URL",
                defaultValue = "${env:VIGIL_INGEST_URL}",
                description =
                        "Ingest's base URL, for the ping URLs of new heartbeat tokens (default: $VIGIL_INGEST_URL, "
                                + "else the standalone's http://127.0.0.1:" + StandaloneOptions.INGEST_PORT + " when "
                                + "--bootstrap-servers is on loopback; otherwise only the path is printed).")
        String ingestUrl;

        @Option(
                names = "--rotate-heartbeat-token",
                paramLabel = "ID",
                split = ",",
                description = "Issue a new ping token for these heartbeat monitors (the old one stops working once "
                        + "ingest has the new hash).")
        List<String> rotate;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            Set<String> allowed = new LinkedHashSet<>();
            if (regions != null) {
                regions.stream().filter(r -> !r.isBlank()).map(String::strip).forEach(allowed::add);
            }
            List<MonitorDefinition> desired;
            try {
                desired = MonitorsFile.read(file, allowed);
            } catch (ConfigLoader.ConfigException e) {
                err.println("error: " + file + " is not valid; nothing was published:");
                e.problems().forEach(p -> err.println("  - " + p));
                return ExitCode.CONFIG.code();
            }
            out.printf("%s: %d monitor(s) valid%n", file, desired.size());
            String ingestBase;
            try {
                ingestBase = ingestBase(ingestUrl, bootstrapServers);
            } catch (IllegalArgumentException e) {
                err.println("error: " + e.getMessage());
                return ExitCode.CONFIG.code();
            }
            MonitorCatalog catalog = new MonitorCatalog(bootstrapServers, topic, timeout);
            out.printf("reading %s from %s ...%n", topic, bootstrapServers);
            Map<String, MonitorDefinition> current = catalog.current(err::println);
            HeartbeatTokens.Prepared prepared;
            try {
                prepared = HeartbeatTokens.prepare(
                        current, desired, rotate == null ? Set.of() : Set.copyOf(rotate), BearerTokens::generate);
            } catch (IllegalArgumentException e) {
                err.println("error: " + e.getMessage() + "; nothing was published");
                return ExitCode.CONFIG.code();
            }
            MonitorDiff full = MonitorDiff.between(current, prepared.monitors());
            // the dead-man's switch's canary is registered by vigil standalone, not by a file: pruning it would stop
            // the heartbeat pings and page everyone
            MonitorDiff diff = full.keeping(Canary.ID);
            if (prune && full.removed().contains(Canary.ID)) {
                out.printf("  = %s (the dead-man's switch's canary; kept)%n", Canary.ID);
            }
            // only what this apply publishes is judged: a monitor already on the topic is not refused again here
            List<MonitorDefinition> publishing = new java.util.ArrayList<>(diff.added());
            diff.changed().forEach(c -> publishing.add(c.next()));
            Map<String, dev.vigil.schemas.contract.RegionStatus> known;
            try {
                known = CompactedTopic.read(
                        bootstrapServers,
                        regionsTopic,
                        timeout,
                        VigilSerdes.regionStatus(),
                        "vigil-cli-regions",
                        err::println);
            } catch (RuntimeException e) {
                err.println("error: cannot read " + regionsTopic + ": " + e.getMessage() + "; nothing was published");
                return ExitCode.CONFIG.code();
            }
            Set<String> rollingOut = new java.util.TreeSet<>();
            if (allowRegions != null) {
                allowRegions.stream()
                        .map(String::strip)
                        .filter(r -> !r.isEmpty())
                        .forEach(rollingOut::add);
            }
            List<RegionCheck.Refusal> refused = RegionCheck.refusals(publishing, known, rollingOut);
            if (!refused.isEmpty()) {
                List<String> why = RegionCheck.explain(refused, known, regionsTopic);
                err.println("error: " + why.get(0));
                why.subList(1, why.size()).forEach(err::println);
                return ExitCode.CONFIG.code();
            }
            diff.added().forEach(m -> out.printf("  + %s (new: %s)%n", m.id(), describe(m)));
            diff.changed()
                    .forEach(c -> out.printf("  ~ %s (changed: %s)%n", c.next().id(), String.join(", ", c.fields())));
            diff.removed()
                    .forEach(id -> out.printf(
                            prune ? "  - %s (deleted)%n" : "  ? %s (not in file; kept, use --prune to delete)%n", id));
            out.printf(
                    "%d to add, %d to change, %d unchanged, %d to delete%n",
                    diff.added().size(),
                    diff.changed().size(),
                    diff.unchanged().size(),
                    prune ? diff.removed().size() : 0);
            if (dryRun) {
                RegionCheck.checksPerDay(prepared.monitors()).forEach(out::println);
                prepared.issued().forEach(t -> out.printf("  (a ping token for %s would be issued)%n", t.monitorId()));
                out.println("dry run: nothing published");
                return ExitCode.OK.code();
            }
            if (diff.isEmpty(prune)) {
                out.println("nothing to publish");
                return ExitCode.OK.code();
            }
            List<MonitorDefinition> upserts = new java.util.ArrayList<>(diff.added());
            diff.changed().forEach(c -> upserts.add(c.next()));
            List<String> deletes = prune ? diff.removed() : List.of();
            catalog.publish(
                    upserts,
                    deletes,
                    Topics.AUDIT,
                    new AuditRecord(
                            1,
                            java.util.UUID.randomUUID().toString(),
                            System.currentTimeMillis(),
                            "cli:" + System.getProperty("user.name", "unknown"),
                            "monitors.applied",
                            "monitors",
                            localHost(),
                            java.util.Map.of(
                                    "added",
                                    String.valueOf(diff.added().size()),
                                    "changed",
                                    String.valueOf(diff.changed().size()),
                                    "deleted",
                                    String.valueOf(deletes.size()),
                                    "heartbeatTokens",
                                    String.valueOf(prepared.issued().size()),
                                    "file",
                                    String.valueOf(file.getFileName()))));
            out.printf(
                    "published %d change(s) to %s%n",
                    upserts.size() + (prune ? diff.removed().size() : 0), topic);
            // only now that the hash is on the topic: a failed publish issued nothing (the next apply makes a new one)
            for (HeartbeatTokens.Issued t : prepared.issued()) {
                out.println(HeartbeatTokens.pingInstructions(t, ingestBase));
            }
            return ExitCode.OK.code();
        }

        /** What a new monitor checks, for the diff: the target, and how often from where (heartbeats are pushed). */
        private static String describe(MonitorDefinition m) {
            if (!m.isProbed()) {
                return m.target() + ", pinged at /v1/heartbeat/" + m.id();
            }
            return m.target() + " every " + m.intervalSeconds() + "s from " + String.join(",", m.regions());
        }
    }

    /**
     * Ingest's base URL without a trailing slash: {@code --ingest-url} (or $VIGIL_INGEST_URL); else, when Kafka is on
     * loopback (the standalone's), the standalone's ingest; else null (unknown).
     */
    static String ingestBase(String option, String bootstrapServers) {
        if (option != null && !option.isBlank()) {
            String url = option.strip();
            if (!(url.startsWith("http://") || url.startsWith("https://")) || url.contains("?") || url.contains("#")) {
                throw new IllegalArgumentException(
                        "--ingest-url must be an http(s) base URL without query, e.g. " + "https://ingest.example.com");
            }
            return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        }
        for (String server : bootstrapServers.split(",")) {
            String s = server.strip();
            int colon = s.lastIndexOf(':');
            String host = colon > 0 && !s.endsWith("]") ? s.substring(0, colon) : s;
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            if (!LoopbackHosts.isLoopback(host)) {
                return null;
            }
        }
        return "http://127.0.0.1:" + StandaloneOptions.INGEST_PORT;
    }

    private static String localHost() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
