package dev.vigil.standalone.cli;

import dev.vigil.ingest.IngestServer;
import dev.vigil.ingest.config.IngestConfig;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.main.ExitCode;
import dev.vigil.notifier.NotifierService;
import dev.vigil.notifier.config.NotifierSettings;
import dev.vigil.probe.ProbeWorker;
import dev.vigil.probe.config.ProbeWorkerConfig;
import dev.vigil.streams.app.StreamsApp;
import dev.vigil.streams.config.StreamsServiceConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * One service per process, as the containers run them: {@code vigil ingest|streams|notifier|probe-worker
 * --config FILE}. Each runs until the JVM is asked to stop (SIGTERM, Ctrl-C), then shuts down cleanly.
 */
final class ServiceCommands {
    private ServiceCommands() {}

    /** Shared options and the run-until-stopped loop. */
    abstract static class ServiceCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(
                names = {"-c", "--config"},
                paramLabel = "FILE",
                defaultValue = "${env:VIGIL_CONFIG}",
                description = "The service's YAML file (default: env VIGIL_CONFIG; built-in defaults if neither). "
                        + "Every key can be overridden with a VIGIL_* environment variable.")
        Path config;

        abstract AutoCloseable start(Path config, Map<String, String> env);

        @Override
        public Integer call() throws InterruptedException {
            AutoCloseable running;
            try {
                running = start(config, System.getenv());
            } catch (ConfigLoader.ConfigException e) {
                spec.commandLine().getErr().println("vigil " + spec.name() + ": " + e.getMessage());
                return ExitCode.CONFIG.code();
            } catch (RuntimeException e) {
                spec.commandLine().getErr().println("vigil " + spec.name() + " failed to start: " + e.getMessage());
                return ExitCode.STARTUP.code();
            }
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                try {
                                    running.close();
                                } catch (Exception e) {
                                    System.err.println(
                                            "vigil " + spec.name() + ": error during shutdown: " + e.getMessage());
                                } finally {
                                    stopped.countDown();
                                }
                            },
                            "vigil-" + spec.name() + "-shutdown"));
            stopped.await();
            return ExitCode.OK.code();
        }
    }

    @Command(
            name = "ingest",
            mixinStandardHelpOptions = true,
            description = "Run the ingest HTTP service (metrics, remote probe results, alert events).")
    static final class Ingest extends ServiceCommand {
        @Override
        AutoCloseable start(Path config, Map<String, String> env) {
            return IngestServer.start(IngestConfig.load(config, env), env, java.time.Clock.systemUTC());
        }
    }

    @Command(
            name = "streams",
            mixinStandardHelpOptions = true,
            description = "Run the Kafka Streams topology and its query API.")
    static final class Streams extends ServiceCommand {
        @Override
        AutoCloseable start(Path config, Map<String, String> env) {
            return StreamsApp.start(StreamsServiceConfig.load(config, env));
        }
    }

    @Command(
            name = "notifier",
            mixinStandardHelpOptions = true,
            description = "Run the notifier: alert events to BetterStack, Slack, Discord, webhooks and logs.")
    static final class Notifier extends ServiceCommand {
        @Override
        AutoCloseable start(Path config, Map<String, String> env) {
            return NotifierService.start(NotifierSettings.load(config, env), env);
        }
    }

    @Command(
            name = "probe-worker",
            mixinStandardHelpOptions = true,
            description = "Run a probe worker for one region (VIGIL_REGION, VIGIL_WORKER_ID).")
    static final class Probe extends ServiceCommand {
        @Override
        AutoCloseable start(Path config, Map<String, String> env) {
            return ProbeWorker.start(ProbeWorkerConfig.load(config, env), env);
        }
    }
}
