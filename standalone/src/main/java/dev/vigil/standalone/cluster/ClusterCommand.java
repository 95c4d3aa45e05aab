package dev.vigil.standalone.cluster;

import dev.vigil.kit.main.ExitCode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vigil cluster}: Vigil as separate processes on a 3-broker Kafka cluster on this machine (SPEC 15). */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = {"Run Vigil on this machine as a real cluster: 3 KRaft brokers (replication factor 3,",
                "min.insync.replicas 2), PostgreSQL, 2 Streams instances (standby replicas 1), 2 notifiers, 2 ingest",
                "and a probe worker per region, each its own process with its log under <data-dir>/logs.",
                "`down` stops only what `up` started (pid files under <data-dir>/run)."},
        subcommands = {ClusterCommand.Up.class, ClusterCommand.Down.class, ClusterCommand.Status.class,
                ClusterCommand.Kill.class, ClusterCommand.Start.class, ClusterCommand.Stop.class,
                ClusterDrillCommand.class, ClusterScaleCommand.class, CommandLine.HelpCommand.class})
public final class ClusterCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Where the cluster lives. */
    public static final class Where {
        @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "${env:VIGIL_CLUSTER_DIR:-/var/tmp/vigil-cluster}",
                description = "Data, logs, pid files and generated secrets (default: ${DEFAULT-VALUE}; PostgreSQL"
                        + " runs as the postgres user when started by root, so it must be able to reach it).")
        Path dataDir;

        @Option(names = "--base-port", paramLabel = "PORT", defaultValue = "" + ClusterLayout.DEFAULT_BASE_PORT,
                description = "Ports are base+1.. (brokers), +20 (PostgreSQL), +31.. (Streams), +41.. (notifiers),"
                        + " +51.. (ingest), +61.. (probe workers) (default: ${DEFAULT-VALUE}).")
        int basePort;

        @Option(names = "--repo", paramLabel = "DIR", defaultValue = "${env:VIGIL_REPO:-.}",
                description = "The Vigil checkout whose docker/config YAML and docker/kafka/create-topics.sh are used"
                        + " (default: the checkout ./vigil runs from, else the current directory).")
        Path repo;

        LocalCluster cluster(PrintWriter out) {
            // the launcher's own Kafka clients retry while brokers start; their connection warnings are noise here
            org.slf4j.Logger kafka = org.slf4j.LoggerFactory.getLogger("org.apache.kafka");
            if (kafka instanceof ch.qos.logback.classic.Logger logback) {
                logback.setLevel(ch.qos.logback.classic.Level.ERROR);
            }
            return new LocalCluster(ClusterLayout.standard(dataDir, basePort), repo, out);
        }
    }

    abstract static class Sub implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Mixin
        Where where;

        abstract void run(LocalCluster cluster, PrintWriter out);

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try {
                run(where.cluster(out), out);
                out.flush();
                return ExitCode.OK.code();
            } catch (RuntimeException e) {
                out.flush();
                spec.commandLine().getErr().println("vigil cluster " + spec.name() + ": " + e.getMessage());
                return ExitCode.STARTUP.code();
            }
        }
    }

    @Command(name = "up", mixinStandardHelpOptions = true, description = "Start every process not running and wait until all are ready.")
    static final class Up extends Sub {
        @Option(names = "--routing", paramLabel = "FILE",
                description = "The notifiers' routing file (default: docker/config/routing-console.yaml, pages to the log).")
        Path routing;

        @Override
        void run(LocalCluster cluster, PrintWriter out) {
            cluster.up(routing);
            print(cluster.status(), out);
            out.println("query API: " + cluster.layout().streamsUrl(1) + " and " + cluster.layout().streamsUrl(2)
                    + " (admin token in " + cluster.layout().config().resolve(LocalCluster.ADMIN_TOKEN_FILE) + ")");
            out.println("apply monitors: vigil monitors apply -f FILE --bootstrap-servers "
                    + cluster.layout().bootstrapServers());
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true, description = "Stop every process `up` started.")
    static final class Down extends Sub {
        @Override
        void run(LocalCluster cluster, PrintWriter out) {
            cluster.down();
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Each process: running or down, and /ready.")
    static final class Status extends Sub {
        @Override
        void run(LocalCluster cluster, PrintWriter out) {
            print(cluster.status(), out);
        }
    }

    @Command(name = "kill", mixinStandardHelpOptions = true, description = "SIGKILL one process (a crash), e.g. kafka-2 or streams-1.")
    static final class Kill extends Sub {
        @Parameters(paramLabel = "NAME")
        String name;

        @Override
        void run(LocalCluster cluster, PrintWriter out) {
            cluster.kill9(name);
        }
    }

    @Command(name = "start", mixinStandardHelpOptions = true, description = "Start one process again.")
    static final class Start extends Sub {
        @Parameters(paramLabel = "NAME")
        String name;

        @Override
        void run(LocalCluster cluster, PrintWriter out) {
            cluster.start(name);
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, description = "Stop one process cleanly.")
    static final class Stop extends Sub {
        @Parameters(paramLabel = "NAME")
        String name;

        @Override
        void run(LocalCluster cluster, PrintWriter out) {
            cluster.stop(name);
        }
    }

    static void print(Map<String, String> status, PrintWriter out) {
        status.forEach((name, state) -> out.printf("%-18s %s%n", name, state));
    }
}
