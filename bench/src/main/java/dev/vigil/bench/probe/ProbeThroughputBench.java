package dev.vigil.bench.probe;

import static dev.vigil.bench.BenchSupport.report;

import dev.vigil.probe.probe.HttpProbe;
import dev.vigil.probe.probe.ProbeSettings;
import dev.vigil.probe.safety.Cidr;
import dev.vigil.probe.safety.HostResolver;
import dev.vigil.probe.safety.TargetGuard;
import dev.vigil.probe.schedule.ProbeScheduler;
import dev.vigil.probe.schedule.ScheduleListener;
import dev.vigil.schemas.contract.MonitorDefinition;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.http.client.HttpClient;

/**
 * End-to-end probe throughput: N monitors at a fixed interval against a local target, through the real
 * {@link ProbeScheduler} (window-aligned, bounded) and {@link HttpProbe} (fresh connection per probe,
 * TargetGuard, body cap), results counted in memory (no Kafka: this measures probing).
 *
 * <p>Reports probes/s, probes per CPU-second of this JVM (the target runs in its own JVM), heap used,
 * skipped windows and schedule lag, and a physical reference measured in the same run: a bare Reactor
 * Netty client doing fresh-connection GETs against the same target, closed loop, for its requests per
 * CPU-second.
 *
 * <p>Run (from the repository root):
 * <pre>
 * mvn -B -o -q -Dvigil.target=target-probe -pl bench -am package -DskipTests dependency:build-classpath \
 *     -Dmdep.outputFile=target-probe/classpath.txt -Dmdep.includeScope=runtime
 * java -Xmx512m -cp bench/target-probe/classes:$(cat bench/target-probe/classpath.txt) \
 *     dev.vigil.bench.probe.ProbeThroughputBench --monitors 10000 --interval 10 --duration 60
 * </pre>
 * The last line is {@code RESULT probe-throughput-<monitors> key=value ...}; the same goes to
 * {@code bench/target/results/probe-throughput-<monitors>.json} (directory: {@code -Dvigil.results.dir}).
 */
public final class ProbeThroughputBench {

    /** Harness options. */
    public record Options(int monitors, int intervalSeconds, int durationSeconds, int concurrency, int loopbackAddresses,
                          boolean targetInProcess, int referenceSeconds, int warmupWindows) {
        static Options parse(String[] args) {
            int monitors = 1000;
            int interval = 10;
            int duration = 60;
            int concurrency = 256;
            int addresses = 16;
            boolean inProcess = false;
            int reference = 5;
            int warmup = 1;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--monitors" -> monitors = Integer.parseInt(args[++i]);
                    case "--interval" -> interval = Integer.parseInt(args[++i]);
                    case "--duration" -> duration = Integer.parseInt(args[++i]);
                    case "--concurrency" -> concurrency = Integer.parseInt(args[++i]);
                    case "--addresses" -> addresses = Integer.parseInt(args[++i]);
                    case "--target-in-process" -> inProcess = true;
                    case "--reference" -> reference = Integer.parseInt(args[++i]);
                    case "--warmup-windows" -> warmup = Integer.parseInt(args[++i]);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + "; options: --monitors N --interval S --duration S --concurrency N --addresses N"
                            + " --target-in-process --reference S --warmup-windows N");
                }
            }
            return new Options(monitors, interval, duration, concurrency, addresses, inProcess, reference, warmup);
        }
    }

    public static void main(String[] args) throws Exception {
        ProbeTarget.quietLogging();
        Map<String, Object> result = run(Options.parse(args));
        System.exit(result.isEmpty() ? 1 : 0);
    }

    /** Runs the benchmark, prints the RESULT line, writes the JSON file and returns the figures. */
    public static Map<String, Object> run(Options o) throws Exception {
        String name = "probe-throughput-" + o.monitors();
        try (Target target = o.targetInProcess() ? Target.inProcess() : Target.subprocess()) {
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

            Map<String, Double> reference = o.referenceSeconds() > 0
                    ? reference(target.port(), o.referenceSeconds(), os) : Map.of();

            TargetGuard guard = new TargetGuard(List.of(Cidr.parse("127.0.0.0/8")), HostResolver.system());
            HttpProbe probe = new HttpProbe(guard, ProbeSettings.of("bench", "bench-1", "bench"));
            LongAdder completed = new LongAdder();
            LongAdder succeeded = new LongAdder();
            Map<String, LongAdder> failures = new ConcurrentHashMap<>();
            AtomicLong maxLag = new AtomicLong();
            Map<String, LongAdder> skips = new ConcurrentHashMap<>();
            Scheduler timer = Schedulers.newSingle("bench-scheduler");
            ProbeScheduler scheduler = new ProbeScheduler("bench", timer, probe::probe, r -> {
                completed.increment();
                if (r.succeeded()) {
                    succeeded.increment();
                } else {
                    failures.computeIfAbsent(r.outcome() + "/" + r.errorKind(), k -> new LongAdder()).increment();
                }
            }, o.concurrency(), new ScheduleListener() {
                @Override
                public void skipped(SkipReason reason, long windows) {
                    skips.computeIfAbsent(reason.tag(), k -> new LongAdder()).add(windows);
                }

                @Override
                public void lag(long millis) {
                    maxLag.accumulateAndGet(millis, Math::max);
                }
            }, Schedulers.parallel());
            int timeoutMs = Math.min(5000, o.intervalSeconds() * 1000 - 1);
            for (int i = 0; i < o.monitors(); i++) {
                String host = "127.0.0." + (1 + i % Math.max(1, Math.min(250, o.loopbackAddresses())));
                scheduler.upsert(new MonitorDefinition(1, String.format(Locale.ROOT, "bench-%05d", i), null,
                        "http://" + host + ":" + target.port() + "/health", null, o.intervalSeconds(), timeoutMs,
                        List.of("bench"), null, null, null, null, null, null, null));
            }

            // Warm up whole windows (every monitor has started), then measure whole windows.
            long intervalMs = o.intervalSeconds() * 1000L;
            long now = System.currentTimeMillis();
            long measureFrom = (now / intervalMs + 1 + o.warmupWindows()) * intervalMs;
            long windows = Math.max(1, o.durationSeconds() / o.intervalSeconds());
            long measureTo = measureFrom + windows * intervalMs;
            HeapSampler heap = new HeapSampler(memory);
            heap.start();
            sleepUntil(measureFrom);
            long c0 = completed.sum();
            long s0 = skippedTotal(skips);
            Map<String, Long> skips0 = snapshot(skips);
            long ok0 = succeeded.sum();
            Map<String, Long> failures0 = snapshot(failures);
            long cpu0 = os.getProcessCpuTime();
            long targetCpu0 = target.cpuNanos();
            long gc0 = gcMillis();
            heap.reset();
            maxLag.set(0);
            long t0 = System.nanoTime();
            sleepUntil(measureTo);
            long elapsedNs = System.nanoTime() - t0;
            long cpu1 = os.getProcessCpuTime();
            long targetCpu1 = target.cpuNanos();
            long c1 = completed.sum();
            long ok1 = succeeded.sum();
            Map<String, Long> failures1 = snapshot(failures);
            long s1 = skippedTotal(skips);
            long gc1 = gcMillis();
            long maxHeap = heap.stop();
            scheduler.drain(Duration.ofSeconds(30)).block();
            timer.dispose();
            System.gc();
            long heapAfterGc = memory.getHeapMemoryUsage().getUsed();

            double seconds = elapsedNs / 1e9;
            double cpuSeconds = (cpu1 - cpu0) / 1e9;
            long probes = c1 - c0;
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("monitors", o.monitors());
            r.put("intervalS", o.intervalSeconds());
            r.put("windows", windows);
            r.put("measuredS", round(seconds));
            r.put("probes", probes);
            r.put("expectedProbes", windows * o.monitors());
            r.put("probesPerSec", round(probes / seconds));
            r.put("probesPerCpuSec", round(cpuSeconds == 0 ? 0 : probes / cpuSeconds));
            r.put("cpuCoresUsed", round(cpuSeconds / seconds));
            if (targetCpu0 >= 0 && targetCpu1 >= 0) {
                r.put("targetCpuCoresUsed", round((targetCpu1 - targetCpu0) / 1e9 / seconds));
            }
            r.put("machineLoadAverage", round(os.getSystemLoadAverage()));
            r.put("skippedWindows", s1 - s0);
            Map<String, Long> skipsInWindow = new LinkedHashMap<>();
            snapshot(skips).forEach((k, v) -> skipsInWindow.put(k, v - skips0.getOrDefault(k, 0L)));
            r.put("skippedByReason", skipsInWindow);
            r.put("successes", ok1 - ok0);
            Map<String, Long> failuresInWindow = new LinkedHashMap<>();
            failures1.forEach((k, v) -> failuresInWindow.put(k, v - failures0.getOrDefault(k, 0L)));
            r.put("failures", failuresInWindow);
            r.put("maxScheduleLagMs", maxLag.get());
            r.put("maxHeapUsedMiB", round(maxHeap / 1048576.0));
            r.put("heapAfterGcMiB", round(heapAfterGc / 1048576.0));
            r.put("heapMaxMiB", round(memory.getHeapMemoryUsage().getMax() / 1048576.0));
            r.put("gcMs", gc1 - gc0);
            r.putAll(reference);
            if (reference.containsKey("referenceRequestsPerCpuSec") && cpuSeconds > 0) {
                r.put("probeCpuCostVsReference", round(reference.get("referenceRequestsPerCpuSec") / (probes / cpuSeconds)));
            }
            report(name, r);
            return r;
        }
    }

    /** Bare Reactor Netty client, fresh connection per GET, closed loop with 64 in flight: the physical reference. */
    static Map<String, Double> reference(int port, int seconds, com.sun.management.OperatingSystemMXBean os) {
        HttpClient client = HttpClient.newConnection().keepAlive(false);
        // Warm-up.
        Flux.range(0, 2000).flatMap(i -> client.get().uri("http://127.0.0." + (1 + i % 16) + ":" + port + "/health")
                .responseContent().aggregate().asString(), 64).blockLast();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        Long n = Flux.range(0, Integer.MAX_VALUE)
                .takeWhile(i -> System.nanoTime() < deadline)
                .flatMap(i -> client.get().uri("http://127.0.0." + (1 + i % 16) + ":" + port + "/health")
                        .responseContent().aggregate().asString(), 64)
                .count().block();
        double s = (System.nanoTime() - t0) / 1e9;
        double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
        Map<String, Double> r = new LinkedHashMap<>();
        r.put("referenceRequestsPerSec", round(n / s));
        r.put("referenceRequestsPerCpuSec", round(n / cpu));
        return r;
    }

    private static Map<String, Long> snapshot(Map<String, LongAdder> counters) {
        Map<String, Long> out = new LinkedHashMap<>();
        counters.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    private static long skippedTotal(Map<String, LongAdder> skips) {
        return skips.values().stream().mapToLong(LongAdder::sum).sum();
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(g -> Math.max(0, g.getCollectionTime())).sum();
    }

    private static void sleepUntil(long epochMs) throws InterruptedException {
        long d;
        while ((d = epochMs - System.currentTimeMillis()) > 0) {
            Thread.sleep(Math.min(d, 500));
        }
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
    /** Samples heap used every 100 ms; reports the maximum since the last reset. */
    private static final class HeapSampler {
        private final MemoryMXBean memory;
        private final AtomicLong max = new AtomicLong();
        private volatile boolean running = true;
        private Thread thread;

        HeapSampler(MemoryMXBean memory) {
            this.memory = memory;
        }

        void start() {
            thread = new Thread(() -> {
                while (running) {
                    max.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "bench-heap-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        void reset() {
            max.set(0);
        }

        long stop() throws InterruptedException {
            running = false;
            thread.join();
            return max.get();
        }
    }

    /** The local target, in this JVM or (default) its own. */
    private interface Target extends AutoCloseable {
        int port();

        /** CPU time of the target process so far, or -1 when it runs in this JVM. */
        default long cpuNanos() {
            return -1;
        }

        @Override
        void close();

        static Target inProcess() {
            ProbeTarget t = new ProbeTarget(0);
            return new Target() {
                public int port() {
                    return t.port();
                }

                public void close() {
                    t.close();
                }
            };
        }

        static Target subprocess() throws java.io.IOException {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-Xmx256m");
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add(ProbeTarget.class.getName());
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line;
            int port = -1;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("PORT ")) {
                    port = Integer.parseInt(line.substring(5).trim());
                    break;
                }
            }
            if (port < 0) {
                p.destroyForcibly();
                throw new IllegalStateException("target process did not report its port");
            }
            // Keep draining its output so a chatty target never blocks on a full pipe.
            Thread drain = new Thread(() -> {
                try {
                    while (out.readLine() != null) {
                        // discard
                    }
                } catch (java.io.IOException ignored) {
                    // process ended
                }
            }, "bench-target-output");
            drain.setDaemon(true);
            drain.start();
            int bound = port;
            return new Target() {
                public int port() {
                    return bound;
                }

                public long cpuNanos() {
                    return p.toHandle().info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(-1L);
                }

                public void close() {
                    try {
                        p.getOutputStream().close();
                        if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                            p.destroyForcibly();
                        }
                    } catch (Exception e) {
                        p.destroyForcibly();
                    }
                }
            };
        }
    }
}
