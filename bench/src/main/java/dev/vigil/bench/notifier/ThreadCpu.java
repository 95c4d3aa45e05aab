package dev.vigil.bench.notifier;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time of this JVM's threads grouped by name (digits folded, so a pool's threads share one group), from
 * {@code /proc/self/task/<tid>/stat}: where a phase's CPU went, without a profiler's sampling error. Empty where
 * {@code /proc} is missing.
 */
final class ThreadCpu {
    private ThreadCpu() {}

    /** Clock ticks (1/100 s) per thread group, for threads alive now. */
    static Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return out;
        }
        try (Stream<Path> ids = Files.list(tasks)) {
            for (Path t : (Iterable<Path>) ids::iterator) {
                String line;
                try {
                    line = Files.readString(t.resolve("stat"));
                } catch (IOException | RuntimeException e) {
                    continue;
                }
                int open = line.indexOf('(');
                int close = line.lastIndexOf(')');
                if (open < 0 || close < open) {
                    continue;
                }
                String name = line.substring(open + 1, close).replaceAll("[0-9]+", "N");
                String[] f = line.substring(close + 2).split(" ");
                out.merge(name, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum);
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    /** The groups' CPU between two snapshots, as percent of one core over {@code seconds}, largest first. */
    static String delta(Map<String, Long> before, Map<String, Long> after, double seconds) {
        StringBuilder sb = new StringBuilder();
        after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sb.append(String.format("  %6.1f %%  %s%n", e.getValue() / seconds, e.getKey())));
        return sb.toString();
    }
}
