package dev.vigil.standalone.cluster;

import dev.vigil.kit.main.ExitCode;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code vigil cluster scale}: the scale benchmark on a local cluster grown in place (docs/cluster.md#sizing). */
@Command(
        name = "scale",
        mixinStandardHelpOptions = true,
        description = {
            "Scale benchmark: start a local cluster, then grow it in place through --steps monitors, each",
            "probed every --interval from every region against a local target answering 200; per step measure",
            "whole windows (probes/s, skipped windows, verdict lag, /v1/status latency, heap/RSS/CPU of every",
            "process, restore of a Streams instance after kill -9). Prints a RESULT line per step and a growth",
            "table, and copies them to <data-dir>/scale-results.txt."
        })
final class ClusterScaleCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    ClusterCommand.Where where;

    @Option(
            names = "--steps",
            defaultValue = "10000,30000,100000",
            description = "Fleet sizes, increasing (default: ${DEFAULT-VALUE}).")
    String steps;

    @Option(
            names = "--interval",
            defaultValue = "60",
            description = "Probe interval in seconds (default: ${DEFAULT-VALUE}).")
    int interval;

    @Option(
            names = "--warmup-windows",
            defaultValue = "1",
            description =
                    "Whole windows after a step's monitors are published before measuring (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(
            names = "--measure-windows",
            defaultValue = "3",
            description = "Whole windows measured per step (default: ${DEFAULT-VALUE}).")
    int measure;

    @Option(names = "--streams", defaultValue = "2", description = "Streams instances (default: ${DEFAULT-VALUE}).")
    int streams;

    @Option(names = "--notifiers", defaultValue = "1", description = "Notifiers (default: ${DEFAULT-VALUE}).")
    int notifiers;

    @Option(names = "--ingests", defaultValue = "1", description = "Ingest instances (default: ${DEFAULT-VALUE}).")
    int ingests;

    @Option(
            names = "--addresses",
            defaultValue = "16",
            description = "Loopback addresses the target answers on (default: ${DEFAULT-VALUE}).")
    int addresses;

    @Option(
            names = "--streams-heap",
            defaultValue = "1536m",
            description = "Streams heap cap (default: ${DEFAULT-VALUE}).")
    String streamsHeap;

    @Option(
            names = "--probe-heap",
            defaultValue = "1g",
            description = "Probe worker heap cap (default: ${DEFAULT-VALUE}).")
    String probeHeap;

    @Option(
            names = "--c1",
            split = ",",
            paramLabel = "SERVICE",
            description = "Run these services' JVMs with the client compiler only (-XX:TieredStopAtLevel=1): less JIT"
                    + " work in their first minutes for slower peak code, e.g. --c1 ingest,notifier,probe-worker.")
    List<String> c1 = List.of();

    @Option(names = "--no-restore", description = "Skip the kill -9 and restart of streams-1 at each step.")
    boolean noRestore;

    @Option(
            names = "--fault-region",
            paramLabel = "REGION",
            description = "After the last step, kill this region's probe worker for --fault-windows windows and count "
                    + "the pages: Vigil's own gap must be one self-alert and no monitor page.")
    String faultRegion;

    @Option(
            names = "--fault-windows",
            defaultValue = "3",
            description = "Windows the fault step keeps the worker dead (default: ${DEFAULT-VALUE}).")
    int faultWindows;

    @Option(
            names = "--standalone",
            description =
                    "Measure the embedded default instead: one `vigil standalone` "
                            + "(one broker, one Streams instance, a probe worker per region) in this process, its data in --data-dir.")
    boolean standalone;

    @Option(names = "--keep", description = "Leave the cluster running afterwards.")
    boolean keep;

    private Integer standalone(ClusterScale.Options options, PrintWriter out) {
        try {
            StandaloneScale scale = new StandaloneScale(where.dataDir(), options, out);
            List<ScaleFigures.Step> results = scale.run();
            StringBuilder text = new StringBuilder();
            results.forEach(s ->
                    text.append(ScaleFigures.resultLine("standalone-scale", s)).append('\n'));
            scale.faultStep().ifPresent(s -> text.append(ScaleFigures.resultLine("standalone-scale-fault", s))
                    .append('\n'));
            text.append(ScaleFigures.growthTable(results));
            Files.writeString(where.dataDir().resolve("scale-results.txt"), text.toString());
            return ExitCode.OK.code();
        } catch (RuntimeException | java.io.IOException e) {
            out.flush();
            spec.commandLine().getErr().println("vigil cluster scale --standalone: " + e);
            return ExitCode.ERROR.code();
        }
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        LocalCluster cluster;
        ClusterScale.Options options;
        try {
            org.slf4j.Logger kafka = org.slf4j.LoggerFactory.getLogger("org.apache.kafka");
            if (kafka instanceof ch.qos.logback.classic.Logger logback) {
                logback.setLevel(ch.qos.logback.classic.Level.ERROR);
            }
            options = new ClusterScale.Options(
                    ScaleFigures.steps(steps),
                    interval,
                    warmup,
                    measure,
                    addresses,
                    !noRestore,
                    java.util.Optional.ofNullable(faultRegion),
                    faultWindows);
            if (faultRegion != null && !ClusterLayout.DEFAULT_REGIONS.contains(faultRegion)) {
                throw new IllegalArgumentException("--fault-region must be one of " + ClusterLayout.DEFAULT_REGIONS);
            }
            cluster = new LocalCluster(
                            new ClusterLayout(
                                    where.dataDir(),
                                    where.basePort,
                                    3,
                                    streams,
                                    notifiers,
                                    ingests,
                                    ClusterLayout.DEFAULT_REGIONS),
                            where.repo,
                            out)
                    .heapCap("streams", streamsHeap)
                    .heapCap("probe-worker", probeHeap);
            c1.forEach(service -> cluster.jvmFlags(service, List.of("-XX:TieredStopAtLevel=1")));
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("vigil cluster scale: " + e.getMessage());
            return ExitCode.CONFIG.code();
        }
        if (standalone) {
            return standalone(options, out);
        }
        try {
            ClusterScale scale = new ClusterScale(cluster, options, out);
            List<ScaleFigures.Step> results = scale.run();
            StringBuilder text = new StringBuilder();
            results.forEach(s -> text.append(ScaleFigures.resultLine(s)).append('\n'));
            scale.faultStep().ifPresent(s -> text.append(ScaleFigures.resultLine("cluster-scale-fault", s))
                    .append('\n'));
            text.append(ScaleFigures.growthTable(results));
            Files.writeString(cluster.layout().dataDir().resolve("scale-results.txt"), text.toString());
            out.flush();
            return ExitCode.OK.code();
        } catch (RuntimeException | java.io.IOException e) {
            out.flush();
            spec.commandLine().getErr().println("vigil cluster scale: " + e);
            return ExitCode.ERROR.code();
        } finally {
            if (!keep) {
                cluster.down();
            }
        }
    }
}
