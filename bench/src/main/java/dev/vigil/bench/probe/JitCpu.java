package dev.vigil.bench.probe;

import dev.vigil.bench.ProcStat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * CPU time of this JVM's JIT compiler threads ({@code C1 CompilerThre…}, {@code C2 CompilerThre…}), read from
 * {@code /proc/self/task} (Linux). They count in the process's CPU time, so a phase measured while the JIT is busy
 * looks dearer than it is; {@code CompilationMXBean} reports elapsed compile time instead, which on a shared machine
 * can be several times the CPU actually spent.
 */
final class JitCpu {
    private static final Path TASKS = Path.of("/proc/self/task");

    private JitCpu() {}

    /**
     * Total CPU of the compiler threads alive now, in nanoseconds; -1 without {@code /proc}. On two cores the JVM runs
     * one C1 and one C2 thread for its whole life, so differences of this are the JIT's CPU in between; on larger
     * machines extra compiler threads may come and go, and a difference is then a lower bound.
     */
    static long nanos() {
        if (!Files.isDirectory(TASKS)) {
            return -1;
        }
        long ticks = 0;
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String comm = Files.readString(t.resolve("comm")).strip();
                    if (!ProcStat.isCompilerThread(comm)) {
                        continue;
                    }
                    ticks += ProcStat.cpuTicks(Files.readString(t.resolve("stat")));
                } catch (IOException | RuntimeException gone) {
                    // the thread ended between list and read
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return ticks * (1_000_000_000L / ProcStat.TICKS_PER_SECOND);
    }

    /** Milliseconds of JIT CPU between two {@link #nanos()} readings, or -1 when either was unavailable. */
    static long millisBetween(long from, long to) {
        return from < 0 || to < 0 ? -1 : Math.max(0, to - from) / 1_000_000;
    }
}
