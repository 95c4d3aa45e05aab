package dev.vigil.standalone.cluster;

import dev.vigil.kit.main.ExitCode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code vigil cluster}: Vigil as separate processes on a 3-broker Kafka cluster on this machine (docs/cluster.md). */
@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        description = {
            "Run Vigil on this machine as a real cluster: 3 KRaft brokers (replication factor 3,",
            "min.insync.replicas 2), PostgreSQL, 2 Streams instances (standby replicas 1), 2 notifiers, 2 ingest",
            "and a probe worker per region, each its own process with its log under <data-dir>/logs, and Debian's",
            "prometheus (when installed) scraping every service, against which `up` checks the Grafana dashboard.",
            "`down` stops only what `up` started (pid files under <data-dir>/run)."
        },
        subcommands = {
            ClusterCommand.Up.class,
            ClusterCommand.Down.class,
            ClusterCommand.Status.class,
            ClusterCommand.Kill.class,
            ClusterCommand.Start.class,
            ClusterCommand.Stop.class,
            ClusterCommand.CheckDashboard.class,
            ClusterDrillCommand.class,
            ClusterScaleCommand.class,
            CommandLine.HelpCommand.class
        })
public final class ClusterCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Where the cluster lives. */
    public static final class Where {
        @Option(
                names = "--data-dir",
                paramLabel = "DIR",
                defaultValue = "${env:VIGIL_CLUSTER_DIR}",
                description =
                        "Data, logs, pid files and generated secrets (default: $VIGIL_CLUSTER_DIR, else"
                                + " /var/tmp/vigil-cluster-<uid>). Created with mode 0700 (0711 under root, as PostgreSQL then"
                                + " runs as the postgres user and must reach it); one another user owns or can write is refused.")
        Path dataDir;

        /** The data directory: --data-dir, else $VIGIL_CLUSTER_DIR, else one per user under /var/tmp. */
        Path dataDir() {
            return dataDir != null ? dataDir : defaultDataDir();
        }

        @Option(
                names = "--base-port",
                paramLabel = "PORT",
                defaultValue = "" + ClusterLayout.DEFAULT_BASE_PORT,
                description = "Ports are base+1.. (brokers), +20 (PostgreSQL), +31.. (Streams), +41.. (notifiers),"
                        + " +51.. (ingest), +61.. (probe workers), +70 (Prometheus) (default: ${DEFAULT-VALUE}).")
        int basePort;

        @Option(
                names = "--repo",
                paramLabel = "DIR",
                defaultValue = "${env:VIGIL_REPO:-.}",
                description = "The Vigil checkout whose docker/config YAML and docker/kafka/create-topics.sh are used"
                        + " (default: the checkout ./vigil runs from, else the current directory).")
        Path repo;

        Path dashboard() {
            return repo.toAbsolutePath().normalize().resolve("docker/grafana/dashboards/vigil.json");
        }

        LocalCluster cluster(PrintWriter out) {
            // the launcher's own Kafka clients retry while brokers start; their connection warnings are noise here
            org.slf4j.Logger kafka = org.slf4j.LoggerFactory.getLogger("org.apache.kafka");
            if (kafka instanceof ch.qos.logback.classic.Logger logback) {
                logback.setLevel(ch.qos.logback.classic.Level.ERROR);
            }
            return new LocalCluster(ClusterLayout.standard(dataDir(), basePort), repo, out);
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
            } catch (TrustedPaths.UntrustedPathException e) {
                out.flush();
                spec.commandLine().getErr().println("vigil cluster " + spec.name() + ": " + e.getMessage());
                return ExitCode.CONFIG.code();
            } catch (RuntimeException e) {
                out.flush();
                spec.commandLine().getErr().println("vigil cluster " + spec.name() + ": " + e.getMessage());
                return ExitCode.STARTUP.code();
            }
        }
    }

    @Command(
            name = "up",
            mixinStandardHelpOptions = true,
            description = "Start every process not running and wait until all are ready.")
    static final class Up extends Sub {
        @Option(
                names = "--routing",
                paramLabel = "FILE",
                description =
                        "The notifiers' routing file (default: docker/config/routing-console.yaml, pages to the log).")
        Path routing;

        @Option(
                names = "--no-prometheus",
                description = "Do not start Prometheus (by default started when `prometheus` is on the PATH or at "
                        + "/usr/bin/prometheus, and the dashboard checked against it).")
        boolean noPrometheus;

        @Override
        void run(LocalCluster cluster, PrintWriter out) {
            cluster.up(routing);
            ClusterPrometheus prometheus = noPrometheus ? null : cluster.prometheus(ClusterPrometheus.locate());
            boolean scraping = prometheus != null && prometheus.start();
            print(cluster.status(), out);
            out.println("query API: " + cluster.layout().streamsUrl(1) + " and "
                    + cluster.layout().streamsUrl(2) + " (admin token in "
                    + cluster.layout().config().resolve(LocalCluster.ADMIN_TOKEN_FILE) + ")");
            out.println("apply monitors: vigil monitors apply -f FILE --url "
                    + cluster.layout().streamsUrl(1) + " --token-file "
                    + cluster.layout().config().resolve(LocalCluster.ADMIN_TOKEN_FILE));
            if (scraping) {
                out.println("prometheus UI and API: " + prometheus.url() + " (loopback only)");
                checkDashboard(
                        prometheus,
                        where.dashboard(),
                        Map.of(ClusterPrometheus.CONSUMER_LAG, ClusterPrometheus.CONSUMER_LAG_REASON),
                        Duration.ofSeconds(90),
                        out,
                        spec.commandLine().getErr());
            }
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true, description = "Stop every process `up` started.")
    static final class Down extends Sub {
        @Override
        void run(LocalCluster cluster, PrintWriter out) {
            cluster.down();
        }
    }

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = "Each process: running or down, and /ready.")
    static final class Status extends Sub {
        @Override
        void run(LocalCluster cluster, PrintWriter out) {
            print(cluster.status(), out);
        }
    }

    @Command(
            name = "kill",
            mixinStandardHelpOptions = true,
            description = "SIGKILL one process (a crash), e.g. kafka-2 or streams-1.")
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

    /**
     * Waits until Prometheus has scraped every target, then runs {@code vigil check-dashboard --prometheus} against
     * it and prints its report.
     *
     * @return the check's exit code; 3 when a target did not come up (nothing checked)
     */
    static int checkDashboard(
            ClusterPrometheus prometheus,
            Path dashboard,
            Map<String, String> allowMissing,
            Duration wait,
            PrintWriter out,
            PrintWriter err) {
        try {
            prometheus.awaitTargetsUp(wait);
        } catch (IllegalStateException e) {
            out.flush();
            err.println(e.getMessage());
            err.println("dashboard check: not run (exit 3); see " + prometheus.url() + "/targets");
            err.flush();
            return ExitCode.STARTUP.code();
        }
        out.println("dashboard check: vigil check-dashboard --dashboard " + dashboard + " --prometheus "
                + prometheus.url()
                + allowMissing.keySet().stream()
                        .map(m -> " --allow-missing " + m + "=...")
                        .collect(java.util.stream.Collectors.joining()));
        out.flush();
        int exit = prometheus.checkDashboard(dashboard, allowMissing, out, err);
        out.println("dashboard check: exit " + exit
                + (exit == 0
                        ? " (every metric the dashboard queries is in Prometheus)"
                        : exit == 1 ? " (see the MISSING lines above)" : ""));
        out.flush();
        return exit;
    }

    @Command(
            name = "check-dashboard",
            mixinStandardHelpOptions = true,
            description = {
                "Wait until the cluster's Prometheus has scraped every service, then check that every metric"
                        + " the Grafana dashboard queries is in it (vigil check-dashboard --prometheus, same report).",
                "Exit codes: 0 every metric exists; 1 a metric is missing; 2 bad dashboard or allow-list;"
                        + " 3 Prometheus not running or a target not up (nothing checked)."
            })
    static final class CheckDashboard implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        Where where;

        @Option(
                names = "--dashboard",
                paramLabel = "FILE",
                description = "The dashboard JSON (default: docker/grafana/dashboards/vigil.json in --repo).")
        Path dashboard;

        @Option(
                names = "--allow-missing",
                paramLabel = "METRIC=REASON",
                description = "A metric that may be missing, and why (repeatable), as for vigil check-dashboard.")
        Map<String, String> allowMissing = new LinkedHashMap<>();

        @Option(
                names = "--wait",
                paramLabel = "SECONDS",
                defaultValue = "90",
                description = "How long to wait for every target to be up (default: ${DEFAULT-VALUE}).")
        int waitSeconds;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            ClusterLayout layout;
            try {
                layout = ClusterLayout.standard(where.dataDir(), where.basePort);
                TrustedPaths.prepareDataDir(layout.dataDir());
            } catch (IllegalArgumentException | TrustedPaths.UntrustedPathException e) {
                err.println("vigil cluster check-dashboard: " + e.getMessage());
                return ExitCode.CONFIG.code();
            }
            ClusterPrometheus prometheus = ClusterPrometheus.forCluster(
                    layout, new ProcessTable(layout.run(), layout.logs()), ClusterPrometheus.locate(), out);
            if (!prometheus.running()) {
                err.println(
                        "vigil cluster check-dashboard: Prometheus is not running (`vigil cluster up` starts it when"
                                + " installed"
                                + (prometheus.installed()
                                        ? ", or `vigil cluster start prometheus`)"
                                        : "; " + ClusterPrometheus.notInstalled() + ")"));
                return ExitCode.STARTUP.code();
            }
            return checkDashboard(
                    prometheus,
                    dashboard != null ? dashboard : where.dashboard(),
                    allowMissing,
                    Duration.ofSeconds(waitSeconds),
                    out,
                    err);
        }
    }

    /**
     * One directory per user under /var/tmp, as tmux and ssh-agent do under /tmp: two users of a host never share
     * one, and one another user created first is refused rather than used. Not under the home directory: under root
     * PostgreSQL runs as the postgres user, which cannot enter /root.
     */
    static Path defaultDataDir() {
        return Path.of("/var/tmp", "vigil-cluster-" + uid());
    }

    private static String uid() {
        try {
            return Long.toString(new com.sun.security.auth.module.UnixSystem().getUid());
        } catch (RuntimeException | LinkageError e) {
            return System.getProperty("user.name");
        }
    }

    static void print(Map<String, String> status, PrintWriter out) {
        status.forEach((name, state) -> out.printf("%-18s %s%n", name, state));
    }
}
