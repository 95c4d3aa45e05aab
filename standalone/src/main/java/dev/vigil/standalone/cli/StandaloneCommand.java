package dev.vigil.standalone.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.main.ExitCode;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.standalone.launch.StandaloneLauncher;
import dev.vigil.standalone.launch.StandaloneOptions;
import dev.vigil.streams.config.StreamsServiceConfig;
import dev.vigil.streams.config.StreamsServiceConfig.StatusPage;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code vigil standalone}: every service in one JVM with an embedded broker and database. */
@Command(
        name = "standalone",
        mixinStandardHelpOptions = true,
        description = {
            "Run all of Vigil in one JVM: an embedded Kafka broker and PostgreSQL (or VIGIL_DB_URL),",
            "the streams topology with its query API, the notifier, ingest, and a probe worker per region.",
            "Data is kept in --data-dir between runs. Ctrl-C stops everything cleanly."
        })
public class StandaloneCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--data-dir",
            defaultValue = "${env:VIGIL_DATA_DIR:-.vigil}",
            paramLabel = "DIR",
            description =
                    "Where the broker, database, streams state and generated config live (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(
            names = "--host",
            defaultValue = "127.0.0.1",
            description = "Address every service binds to (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(
            names = "--regions",
            split = ",",
            defaultValue = "us-east,eu-west,asia-east",
            description = "Probe regions, one worker each (default: ${DEFAULT-VALUE}).")
    List<String> regions;

    @Option(
            names = "--allow",
            split = ",",
            paramLabel = "CIDR",
            description = "Internal targets probes may reach (default: none; public addresses only).")
    List<String> allow;

    @Option(
            names = "--routing",
            paramLabel = "FILE",
            description = "Notifier routing YAML (default: every page to this console).")
    Path routing;

    @Option(
            names = "--kafka-port",
            defaultValue = "" + StandaloneOptions.KAFKA_PORT,
            description = "Default: ${DEFAULT-VALUE}.")
    int kafkaPort;

    @Option(
            names = "--postgres-port",
            defaultValue = "" + StandaloneOptions.POSTGRES_PORT,
            description = "Embedded PostgreSQL port (default: ${DEFAULT-VALUE}).")
    int postgresPort;

    @Option(
            names = "--ingest-port",
            defaultValue = "" + StandaloneOptions.INGEST_PORT,
            description = "Default: ${DEFAULT-VALUE}.")
    int ingestPort;

    @Option(
            names = "--query-port",
            defaultValue = "" + StandaloneOptions.QUERY_PORT,
            description = "Default: ${DEFAULT-VALUE}.")
    int queryPort;

    @Option(
            names = "--notifier-port",
            defaultValue = "" + StandaloneOptions.NOTIFIER_PORT,
            description = "Default: ${DEFAULT-VALUE}.")
    int notifierPort;

    @Option(
            names = "--probe-port",
            defaultValue = "" + StandaloneOptions.PROBE_PORT_BASE,
            description = "First probe worker's port; the others follow (default: ${DEFAULT-VALUE}).")
    int probePort;

    @Option(
            names = "--status-pages",
            paramLabel = "FILE",
            description = "YAML with a statusPages list: public pages served at /status/<id> without a token "
                    + "(see streams-topology/README.md).")
    Path statusPagesFile;

    @Option(
            names = "--deadman-url-env",
            paramLabel = "NAME",
            description = {
                "Watch Vigil itself: NAME is the environment variable holding an external heartbeat URL",
                "(Healthchecks, BetterStack heartbeat; https). Registers the end-to-end canary monitor "
                        + dev.vigil.standalone.launch.Canary.ID
                        + " and the notifier pings the URL every minute only while the "
                        + "canary passes, so the heartbeat service pages when any stage stalls (default: off)."
            })
    String deadManUrlEnv;

    StandaloneOptions options() {
        return new StandaloneOptions(
                dataDir,
                host,
                kafkaPort,
                postgresPort,
                ingestPort,
                queryPort,
                notifierPort,
                probePort,
                regions,
                allow,
                routing,
                null,
                statusPages(),
                new StandaloneOptions.DeadMan(deadManUrlEnv, null));
    }

    /** The pages of {@code --status-pages}, validated like the streams YAML's {@code statusPages} key. */
    List<StatusPage> statusPages() {
        if (statusPagesFile == null) {
            return List.of();
        }
        try {
            JsonNode pages = ConfigLoader.readYaml(statusPagesFile).path("statusPages");
            if (!pages.isArray()) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), statusPagesFile + ": needs a statusPages list at the top level");
            }
            StatusPage[] parsed = ConfigLoader.bind(pages, StatusPage[].class, statusPagesFile.toString());
            return new StreamsServiceConfig(null, null, null, null, null, null, null, List.of(parsed)).statusPages();
        } catch (ConfigLoader.ConfigException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), String.join("; ", e.problems()));
        } catch (ContractViolation e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), statusPagesFile + ": " + e.field() + ": " + e.problem());
        }
    }

    /**
     * Hook for {@code vigil demo}: runs before the stack starts (what probes will reach must be up before the probe
     * workers, which on a restart find their monitors at once); closed if the stack fails to start.
     */
    AutoCloseable beforeStart(StandaloneOptions options) {
        return () -> {};
    }

    /** Hook for {@code vigil demo}: runs after the stack is up, before waiting for Ctrl-C. */
    AutoCloseable afterStart(StandaloneLauncher launcher, PrintWriter out) {
        return () -> {};
    }

    StandaloneOptions adjust(StandaloneOptions options) {
        return options;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        StandaloneOptions options = adjust(options());
        out.printf("Vigil %s: data in %s%n", spec.name(), options.dataDir().toAbsolutePath());
        AutoCloseable early = beforeStart(options);
        StandaloneLauncher launcher;
        try {
            launcher = StandaloneLauncher.start(options, System.getenv(), line -> {
                out.println(line);
                out.flush();
            });
        } catch (StandaloneLauncher.LaunchException e) {
            early.close();
            spec.commandLine().getErr().println("error: " + e.getMessage());
            spec.commandLine()
                    .getErr()
                    .println("(ports in use? pass --kafka-port/--ingest-port/...; "
                            + "a stale lock? stop the other Vigil or use another --data-dir; "
                            + "Streams' local state written by another Vigil version? remove "
                            + options.dataDir().resolve("streams")
                            + ", Kafka's changelogs rebuild it)");
            return ExitCode.STARTUP.code();
        }
        AutoCloseable extra = afterStart(launcher, out);
        Path tokenFile = options.dataDir().resolve("config").resolve("admin-token");
        out.printf(
                "%nVigil is running. Try:%n  the console: open http://%s:%d/ and sign in with the token in %s%n"
                        + "  ./vigil status%n  ./vigil alerts%n"
                        + "  curl -s -H \"Authorization: Bearer $(cat %s)\" http://%s:%d/v1/status%n"
                        + "Press Ctrl-C to stop.%n",
                options.host(), launcher.queryPort(), tokenFile, tokenFile, options.host(), launcher.queryPort());
        out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            out.println("stopping Vigil ...");
                            out.flush();
                            try {
                                extra.close();
                            } catch (Exception e) {
                                out.println("demo shutdown: " + e.getMessage());
                            }
                            launcher.close();
                            try {
                                // what ran before the stack (the demo's targets) stops after it, so the last probes
                                // find their targets up
                                early.close();
                            } catch (Exception e) {
                                out.println("demo shutdown: " + e.getMessage());
                            }
                            out.println("stopped cleanly");
                            out.flush();
                            stopped.countDown();
                        },
                        "vigil-standalone-shutdown"));
        stopped.await();
        return ExitCode.OK.code();
    }
}
