package dev.vigil.bench.notifier;

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
    /** Linux reports process times in clock ticks of 1/100 s on every architecture the JDK runs on. */
    private static final double TICKS_PER_SECOND = 100.0;

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
        return ticks / TICKS_PER_SECOND;
    }

    /** utime + stime of one process when it is a PostgreSQL one; 0 otherwise or when it has gone. */
    private static long postgresTicks(Path stat) {
        String line;
        try {
            line = Files.readString(stat);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        int open = line.indexOf('(');
        int close = line.lastIndexOf(')');
        if (open < 0 || close < open || !line.substring(open + 1, close).startsWith("postgres")) {
            return 0;
        }
        // after the command: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
        String[] f = line.substring(close + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
