package dev.vigil.bench.notifier;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a phase's CPU went inside the benchmark's one JVM, by the role of each thread: the notifier itself, the
 * embedded Kafka broker, the driver (its producer, the sink that stands in for the vendor, the admin client), and
 * the JVM's own work (the JIT compilers and the garbage collector: the process's CPU minus its Java threads').
 * Java threads are read through {@link ThreadMXBean} by their full names; a thread that ended within the phase is
 * missed (the phases here start none that end).
 */
final class ThreadCpu {
    static final String NOTIFIER = "notifier";
    static final String BROKER = "broker";
    static final String DRIVER = "driver+sink";
    static final String JVM = "jit+gc";

    private ThreadCpu() {}

    /** Nanoseconds of CPU per role so far. */
    static Map<String, Long> snapshot() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Long> out = new LinkedHashMap<>();
        out.put(NOTIFIER, 0L);
        out.put(BROKER, 0L);
        out.put(DRIVER, 0L);
        long javaThreads = 0;
        for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long ns = threads.getThreadCpuTime(info.getThreadId());
            if (ns <= 0) {
                continue;
            }
            javaThreads += ns;
            out.merge(role(info.getThreadName()), ns, Long::sum);
        }
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        out.put(JVM, Math.max(0, os.getProcessCpuTime() - javaThreads));
        return out;
    }

    static String role(String thread) {
        if (thread.startsWith("vigil-notifier")
                || thread.startsWith("reactor-http")
                || thread.startsWith("parallel-")
                || thread.startsWith("boundedElastic-")
                || thread.contains("vigil-notifier-producer")
                || thread.startsWith("kafka-coordinator-heartbeat-thread | bench-")) {
            return NOTIFIER;
        }
        if (thread.equals("main")
                || thread.startsWith("bench-sink")
                || thread.startsWith("kafka-producer-network-thread | producer-")
                || thread.startsWith("kafka-admin-client-thread")
                || thread.equals("notifier-process-log")) {
            return DRIVER;
        }
        return BROKER;
    }

    /** Each role's CPU between two snapshots in microseconds per event. */
    static Map<String, Double> perEvent(Map<String, Long> before, Map<String, Long> after, int events) {
        Map<String, Double> out = new LinkedHashMap<>();
        after.forEach((role, ns) ->
                out.put(role, Math.round((ns - before.getOrDefault(role, 0L)) / 1e3 / events * 10) / 10.0));
        return out;
    }

    /** Each role's CPU between two snapshots as percent of one core over {@code seconds}. */
    static Map<String, Double> percent(Map<String, Long> before, Map<String, Long> after, double seconds) {
        Map<String, Double> out = new LinkedHashMap<>();
        after.forEach((role, ns) ->
                out.put(role, Math.round((ns - before.getOrDefault(role, 0L)) / 1e9 / seconds * 1000) / 10.0));
        return out;
    }
}
