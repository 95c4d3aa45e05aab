package dev.vigil.bench.notifier;

import dev.vigil.bench.ProcStat;
import dev.vigil.notifier.NotifierJvm;
import dev.vigil.notifier.NotifierService;
import dev.vigil.notifier.config.NotifierConfig;
import dev.vigil.schemas.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A notifier in a process of its own, as deployed: {@link NotifierKillBench} kills one with SIGKILL, and
 * {@link NotifierThroughputBench} ({@code --notifier-process}) costs one apart from the broker and the driver.
 * Argument: a JSON {@link NotifierConfig} file; secrets come from the environment as in production.
 */
public final class NotifierProcess {
    static final String STARTED = "NOTIFIER-STARTED";

    private NotifierProcess() {}

    public static void main(String[] args) throws Exception {
        NotifierConfig cfg = Json.read(Files.readAllBytes(Path.of(args[0])), NotifierConfig.class);
        NotifierService.Running running = NotifierService.start(cfg, System.getenv());
        System.out.println(STARTED + " " + running.instance());
        System.out.flush();
        Thread.currentThread().join();
    }

    /**
     * Starts a notifier process with the notifier's own JVM flags and this JVM's class path, waits for its start
     * line and sends its output to {@code log}.
     */
    static Process launch(Path config, Map<String, String> env, Path log) throws IOException {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g"));
        command.addAll(NotifierJvm.FLAGS);
        command.addAll(List.of(
                "-Dlogback.configurationFile=dev/vigil/bench/notifier/logback-bench.xml",
                "-cp",
                System.getProperty("java.class.path"),
                NotifierProcess.class.getName(),
                config.toString()));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        // its output goes to a log file; the start line is awaited first
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        StringBuilder seen = new StringBuilder();
        String line;
        while ((line = out.readLine()) != null) {
            seen.append(line).append('\n');
            if (line.startsWith(STARTED)) {
                break;
            }
            if (System.nanoTime() > deadline) {
                break;
            }
        }
        Files.writeString(log, seen);
        if (line == null || !line.startsWith(STARTED)) {
            p.destroyForcibly();
            throw new IllegalStateException("the notifier process did not start; its output:\n" + seen);
        }
        Thread drain = new Thread(
                () -> {
                    try (var w = Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.APPEND)) {
                        String l;
                        while ((l = out.readLine()) != null) {
                            w.write(l);
                            w.newLine();
                        }
                    } catch (IOException e) {
                        // the process is gone
                    }
                },
                "notifier-process-log");
        drain.setDaemon(true);
        drain.start();
        return p;
    }

    /**
     * A process's CPU seconds so far by kind of thread, from {@code /proc/<pid>/task}: {@code jit} (the compiler
     * threads), {@code gc} (the collector's threads and the VM thread that runs its safepoints), {@code threads}
     * (every other: the notifier's own work). Threads that ended are missed; the notifier's live for its life.
     */
    static Map<String, Double> cpuSecondsByKind(Process p) {
        Map<String, Double> out = new java.util.LinkedHashMap<>();
        out.put("threads", 0.0);
        out.put("jit", 0.0);
        out.put("gc", 0.0);
        try (var tasks = Files.list(Path.of("/proc/" + p.pid() + "/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String comm = ProcStat.command(stat);
                    String kind = ProcStat.isCompilerThread(comm)
                            ? "jit"
                            : comm.startsWith("GC Thread") || comm.equals("VM Thread") ? "gc" : "threads";
                    out.merge(kind, ProcStat.cpuTicks(stat) / (double) ProcStat.TICKS_PER_SECOND, Double::sum);
                } catch (IOException | RuntimeException gone) {
                    // the thread ended between list and read
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the notifier process's threads from /proc", e);
        }
        return out;
    }

    /** The CPU seconds a process has used so far (all its threads, the JIT and the collector included). */
    static double cpuSeconds(Process p) {
        try {
            return ProcStat.processCpuTicks(p.pid()) / (double) ProcStat.TICKS_PER_SECOND;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the notifier process's CPU time from /proc", e);
        }
    }
}
