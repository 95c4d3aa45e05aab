package dev.vigil.notifier;

import java.util.List;

/**
 * The JVM flags a notifier process runs with wherever it is a process of its own ({@code vigil cluster}, the compose
 * stack, the benchmarks). The throughput collector: the notifier's live set is small (its state is in PostgreSQL
 * and Kafka), so a young collection copies little and pauses for a few milliseconds, and its write barrier costs
 * less per delivery than G1's. Measured beside G1 on the notifier's benchmark (bench/README.md): lower p50 and p99
 * at 1,000 pages/s and fewer CPU-seconds per delivery. The all-in-one {@code vigil standalone} JVM keeps the default
 * collector: its heap holds Kafka Streams and a broker as well.
 */
public final class NotifierJvm {
    public static final List<String> FLAGS = List.of("-XX:+UseParallelGC");

    private NotifierJvm() {}
}
