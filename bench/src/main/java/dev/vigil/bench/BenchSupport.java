package dev.vigil.bench;

import dev.vigil.schemas.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What every benchmark harness shares: percentiles, the RESULT line and its JSON file, temp cleanup, and waiting
 * on the background readers that observe a pipeline's output.
 */
public final class BenchSupport {
    /** Where results go: {@code -Dvigil.results.dir}, read at each report (tests set it per run). */
    /** The command-line options of the JMH harnesses: {@code --forks --iterations --millis}, each optional. */
    public record JmhArgs(int forks, int iterations, int millis) {
        public static JmhArgs parse(String[] args, JmhArgs defaults) {
            int forks = defaults.forks();
            int iterations = defaults.iterations();
            int millis = defaults.millis();
            for (int i = 0; i + 1 < args.length; i += 2) {
                int v = Integer.parseInt(args[i + 1]);
                switch (args[i]) {
                    case "--forks" -> forks = v;
                    case "--iterations" -> iterations = v;
                    case "--millis" -> millis = v;
                    default -> throw new IllegalArgumentException(
                            "unknown option " + args[i] + " (known: --forks --iterations --millis)");
                }
            }
            return new JmhArgs(forks, iterations, millis);
        }
    }

    public static Path resultsDir() {
        return Path.of(System.getProperty("vigil.results.dir", "bench/target/results"));
    }

    private BenchSupport() {}

    /** Nearest-rank percentile of sorted samples; NaN when there are none. */
    public static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int idx = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
    }

    /** Writes {@code <dir>/<name>.json} with the name first, then the figures. */
    public static void writeJson(Path dir, String name, Map<String, Object> figures) throws IOException {
        Files.createDirectories(dir);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", name);
        json.putAll(figures);
        Files.writeString(dir.resolve(name + ".json"), Json.string(json));
    }

    /**
     * Writes the figures to {@link #resultsDir()} and prints the last line
     * {@code RESULT <name> key=value ...} (nested maps go to the JSON only).
     */
    public static void report(String name, Map<String, Object> figures) throws IOException {
        writeJson(resultsDir(), name, figures);
        StringBuilder line = new StringBuilder("RESULT ").append(name);
        figures.forEach((k, v) -> {
            if (!(v instanceof Map)) {
                line.append(' ').append(k).append('=').append(v);
            }
        });
        System.out.println(line);
    }

    /** Best-effort removal of a temporary folder. */
    public static void deleteTree(Path root) {
        try (var files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp dir left behind is harmless
        }
    }

    /** Parks (1 ms steps) until {@code done} holds; fails with {@code shortfall}'s message when {@code timeout} passes first. */
    public static void awaitUntil(BooleanSupplier done, Duration timeout, Supplier<String> shortfall) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(shortfall.get());
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    /** Ends a background reader: raises its stop flag and waits up to 10 s for its thread. */
    public static void stopAndJoin(AtomicBoolean stop, Thread thread) {
        stop.set(true);
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
