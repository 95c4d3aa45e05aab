package dev.vigil.bench.notifier;

import dev.vigil.bench.ProcStat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * CPU time of every PostgreSQL process on this machine (backends, WAL writer, checkpointer, ...), from
 * {@code /proc/<pid>/stat}: the benchmark's embedded server is the only one running while it measures, and the
 * claims' and settlements' work is done there, so a delivery's cost includes it. 0 where {@code /proc} is missing.
 */
final class PostgresCpu {
    private PostgresCpu() {}

    static double seconds() {
        Path proc = Path.of("/proc");
        if (!Files.isDirectory(proc)) {
            return 0;
        }
        long ticks = 0;
        try (Stream<Path> pids = Files.list(proc)) {
            for (Path p : (Iterable<Path>) pids::iterator) {
                String name = p.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                ticks += postgresTicks(p.resolve("stat"));
            }
        } catch (IOException e) {
            return 0;
        }
        return ticks / (double) ProcStat.TICKS_PER_SECOND;
    }

    /** utime + stime of one process when it is a PostgreSQL one; 0 otherwise or when it has gone. */
    private static long postgresTicks(Path stat) {
        String line;
        try {
            line = Files.readString(stat);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        try {
            return ProcStat.command(line).startsWith("postgres") ? ProcStat.cpuTicks(line) : 0;
        } catch (RuntimeException e) {
            return 0;
        }
    }
}
