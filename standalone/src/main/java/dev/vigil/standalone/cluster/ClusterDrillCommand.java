package dev.vigil.standalone.cluster;

import dev.vigil.kit.main.ExitCode;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code vigil cluster drill}: start the cluster, run the failover drills, count the pages, stop the cluster. */
@Command(name = "drill", mixinStandardHelpOptions = true,
        description = {"Failover drills on the local cluster while monitors fail and recover and an app posts alerts:",
                "kill -9 the leader of a vigil.alerts partition, a Streams instance, a notifier between the vendor's",
                "receipt and its own record; stop PostgreSQL 30 s; restart every service one by one. Then every",
                "event on vigil.alerts must have reached the vendor sink exactly once (the page in flight when the",
                "notifier died may come twice: the documented resend after the claim's lease)."})
final class ClusterDrillCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    @Mixin
    ClusterCommand.Where where;

    @Option(names = "--short", description = "The short variant CI runs (2 flapping monitors; the rolling step restarts one instance of each service).")
    boolean shortVariant;

    @Option(names = "--keep", description = "Leave the cluster running afterwards.")
    boolean keep;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        LocalCluster cluster = where.cluster(out);
        try {
            ClusterDrill.Report report = new ClusterDrill(cluster, shortVariant ? ClusterDrill.Plan.ci()
                    : ClusterDrill.Plan.full(), out).run();
            out.print(report.text());
            out.flush();
            return report.passed() ? ExitCode.OK.code() : ExitCode.ERROR.code();
        } catch (RuntimeException e) {
            out.flush();
            spec.commandLine().getErr().println("vigil cluster drill: " + e.getMessage());
            return ExitCode.ERROR.code();
        } finally {
            if (!keep) {
                cluster.down();
            }
        }
    }
}
