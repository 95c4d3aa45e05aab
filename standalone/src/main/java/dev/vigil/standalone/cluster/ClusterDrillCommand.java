package dev.vigil.standalone.cluster;

import dev.vigil.kit.main.ExitCode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil cluster drill}: start a fresh cluster, run the failover drills, count the pages, stop the cluster. The
 * count assumes a fresh cluster (an earlier run's open incidents resolve during this one, and its app events fold this
 * one's pages), so a data dir that already holds a cluster is refused. A run that passes removes its data dir unless
 * {@code --keep}; a failed one keeps it for its logs.
 */
@Command(
        name = "drill",
        mixinStandardHelpOptions = true,
        description = {
            "Failover drills on the local cluster while monitors fail and recover and an app posts alerts:",
            "kill -9 the leader of a vigil.alerts partition, a Streams instance, a notifier between the vendor's",
            "receipt and its own record; stop PostgreSQL 30 s; restart every service one by one. Then every",
            "event on vigil.alerts must have reached the vendor sink exactly once (the pages the killed notifier",
            "had claimed and not yet recorded may come twice: the documented resend after the claim's lease)."
        })
final class ClusterDrillCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    ClusterCommand.Where where;

    @Option(
            names = "--short",
            description =
                    "The short variant CI runs (2 flapping monitors; the rolling step restarts one instance of each service).")
    boolean shortVariant;

    @Option(names = "--keep", description = "Leave the cluster running afterwards.")
    boolean keep;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Path dir = where.dataDir().toAbsolutePath().normalize();
        if (!isEmpty(dir)) {
            spec.commandLine()
                    .getErr()
                    .println("vigil cluster drill: " + dir + " already holds a cluster (from `vigil"
                            + " cluster up` or an earlier drill, whose logs are under logs/), and the drill counts pages on a"
                            + " fresh one: stop it (`vigil cluster down --data-dir " + dir
                            + "`) and remove the directory, or"
                            + " pass --data-dir with a new one");
            return ExitCode.CONFIG.code();
        }
        LocalCluster cluster = where.cluster(out);
        boolean passed = false;
        try {
            ClusterDrill.Report report = new ClusterDrill(
                            cluster, shortVariant ? ClusterDrill.Plan.ci() : ClusterDrill.Plan.full(), out)
                    .run();
            out.print(report.text());
            out.flush();
            passed = report.passed();
            return passed ? ExitCode.OK.code() : ExitCode.ERROR.code();
        } catch (RuntimeException e) {
            out.flush();
            spec.commandLine()
                    .getErr()
                    .println("vigil cluster drill: " + e.getMessage() + " (logs: " + dir.resolve("logs") + ")");
            return ExitCode.ERROR.code();
        } finally {
            if (!keep) {
                cluster.down();
                if (passed) {
                    delete(dir);
                    out.println("cluster: removed " + dir);
                    out.flush();
                }
            }
        }
    }

    /** Absent, or a directory with nothing in it. */
    static boolean isEmpty(Path dir) {
        if (!Files.exists(dir)) {
            return true;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Removes {@code dir} and everything under it (PostgreSQL's files too: the drill runs as root or their owner). */
    static void delete(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + dir + ": " + e.getMessage(), e);
        }
    }
}
