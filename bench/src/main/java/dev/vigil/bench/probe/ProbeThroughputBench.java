package dev.vigil.bench.probe;

import static dev.vigil.bench.BenchSupport.report;

import dev.vigil.bench.BenchSupport;
import dev.vigil.kit.net.Cidr;
import dev.vigil.kit.net.HostResolver;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.probe.probe.ProbeSettings;
import dev.vigil.probe.probe.Probes;
import dev.vigil.probe.probe.TrustStores;
import dev.vigil.probe.schedule.ProbeScheduler;
import dev.vigil.probe.schedule.ScheduleListener;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.SkipReason;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
import java.util.function.BiFunction;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * End-to-end probe throughput: N monitors of one check type ({@code --type http|tcp|tls|dns}, default http) at a
 * fixed interval against a local target ({@link ProbeTargets}), through the real {@link ProbeScheduler}
 * (window-aligned, bounded) and the worker's {@link Probes} router (fresh connection per probe, TargetGuard with the
 * loopback range allow-listed, the type's own probe), results counted in memory (no Kafka: this measures probing).
 *
 * <ul>
 *   <li>http: {@code GET http://127.0.0.x:port/health} ({@link ProbeTarget}); reference: a bare Reactor Netty client
 *       doing fresh-connection GETs.</li>
 *   <li>tcp: connect to 127.0.0.x and wait for the banner {@value ProbeTargets#BANNER_EXPECT}; reference: a bare
 *       Reactor Netty TCP connect and read of the banner.</li>
 *   <li>tls: handshake with 127.0.0.x, the certificate signed by a CA made with keytool at start
 *       ({@link BenchCertificates}) and trusted through the worker's trusted CA file; reference: a bare Reactor
 *       Netty TLS handshake trusting the same CA.</li>
 *   <li>dns: an A query for {@code m<i>.bench.vigil.test} through the resolver {@code 127.0.0.1:port} (a dnsjava
 *       UDP responder), answer expected {@value ProbeTargets#DNS_ANSWER}; reference: a bare dnsjava
 *       {@code SimpleResolver} query. One address: see {@link ProbeTargets}.</li>
 * </ul>
 *
 * <p>Reports probes/s, probes per CPU-second of this JVM (the target runs in its own JVM), heap used,
 * skipped windows and schedule lag, and a physical reference measured in the same run ({@link ProbeReferences}):
 * the bare client, closed loop, for its operations per CPU-second; {@code probeVsReference} is the probe's per
 * CPU-second over the reference's, {@code probeCpuCostVsReference} its inverse (how many bare operations' CPU one
 * probe costs). The reference warms up until the JIT has settled (at most {@code --reference-warmup} seconds, default
 * 30; 0 for the 2000 operations alone, as before); {@code jitCpuMs} and {@code referenceJitCpuMs} are the CPU of the
 * JIT compiler threads during each measurement ({@link JitCpu}), which counts in the CPU time; the {@code ...ExJit}
 * figures (per CPU-second and {@code probeVsReferenceExJit}) leave it out, for the steady-state cost on a machine
 * where the JIT is still busy. {@code harnessErrors} counts what went wrong on the
 * harness's own side: probes that completed empty (not run), probes that errored instead of producing a result,
 * failed reference operations.
 *
 * <p>Run (from the repository root):
 * <pre>
 * mvn -B -o -q -Dvigil.target=target-probe -pl bench -am package -DskipTests dependency:build-classpath \
 *     -Dmdep.outputFile=target-probe/classpath.txt -Dmdep.includeScope=runtime
 * java -Xmx512m -cp bench/target-probe/classes:$(cat bench/target-probe/classpath.txt) \
 *     dev.vigil.bench.probe.ProbeThroughputBench --type tcp --monitors 10000 --interval 10 --duration 60
 * </pre>
 * The last line is {@code RESULT probe-throughput-<monitors> key=value ...} for http and
 * {@code RESULT probe-throughput-<type>-<monitors> ...} for the other types; the same goes to
 * {@code bench/target/results/<name>.json} (directory: {@code -Dvigil.results.dir}).
 */
public final class ProbeThroughputBench {

    /** Harness options. */
    public record Options(
            int monitors,
            int intervalSeconds,
            int durationSeconds,
            int concurrency,
            int loopbackAddresses,
            boolean targetInProcess,
            int referenceSeconds,
            int warmupWindows,
            CheckType type,
            int referenceWarmupSeconds) {
        /**
         * The command line's limit on the reference's warm-up after its first 2000 operations, in seconds: it ends
         * sooner once the JIT has settled ({@link ProbeReferences}).
         */
        public static final int DEFAULT_REFERENCE_WARMUP_SECONDS = 30;

        public Options {
            type = type == null ? CheckType.HTTP : type;
            if (type == CheckType.HEARTBEAT) {
                throw new IllegalArgumentException(
                        "heartbeat monitors are pushed to, not probed: --type http|tcp|tls|dns");
            }
        }

        /** A run of {@code type} whose reference warms up with 2000 operations only (the smoke tests'). */
        public Options(
                int monitors,
                int intervalSeconds,
                int durationSeconds,
                int concurrency,
                int loopbackAddresses,
                boolean targetInProcess,
                int referenceSeconds,
                int warmupWindows,
                CheckType type) {
            this(
                    monitors,
                    intervalSeconds,
                    durationSeconds,
                    concurrency,
                    loopbackAddresses,
                    targetInProcess,
                    referenceSeconds,
                    warmupWindows,
                    type,
                    0);
        }

        /** An http run, as before check types existed. */
        public Options(
                int monitors,
                int intervalSeconds,
                int durationSeconds,
                int concurrency,
                int loopbackAddresses,
                boolean targetInProcess,
                int referenceSeconds,
                int warmupWindows) {
            this(
                    monitors,
                    intervalSeconds,
                    durationSeconds,
                    concurrency,
                    loopbackAddresses,
                    targetInProcess,
                    referenceSeconds,
                    warmupWindows,
                    CheckType.HTTP);
        }

        static Options parse(String[] args) {
            int monitors = 1000;
            int interval = 10;
            int duration = 60;
            int concurrency = 256;
            int addresses = 16;
            boolean inProcess = false;
            int reference = 5;
            int warmup = 1;
            CheckType type = CheckType.HTTP;
            int referenceWarmup = DEFAULT_REFERENCE_WARMUP_SECONDS;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--type" -> type = CheckType.fromWire(args[++i].toLowerCase(Locale.ROOT));
                    case "--monitors" -> monitors = Integer.parseInt(args[++i]);
                    case "--interval" -> interval = Integer.parseInt(args[++i]);
                    case "--duration" -> duration = Integer.parseInt(args[++i]);
                    case "--concurrency" -> concurrency = Integer.parseInt(args[++i]);
                    case "--addresses" -> addresses = Integer.parseInt(args[++i]);
                    case "--target-in-process" -> inProcess = true;
                    case "--reference" -> reference = Integer.parseInt(args[++i]);
                    case "--reference-warmup" -> referenceWarmup = Integer.parseInt(args[++i]);
                    case "--warmup-windows" -> warmup = Integer.parseInt(args[++i]);
                    default -> throw new IllegalArgumentException(
                            "unknown option " + args[i]
                                    + "; options: --type http|tcp|tls|dns --monitors N --interval S --duration S --concurrency N"
                                    + " --addresses N --target-in-process --reference S --reference-warmup S --warmup-windows N");
                }
            }
            return new Options(
                    monitors,
                    interval,
                    duration,
                    concurrency,
                    addresses,
                    inProcess,
                    reference,
                    warmup,
                    type,
                    referenceWarmup);
        }
    }

    public static void main(String[] args) throws Exception {
        ProbeTarget.quietLogging();
        Map<String, Object> result = run(Options.parse(args));
        System.exit(result.isEmpty() ? 1 : 0);
    }

    /** The result's name: {@code probe-throughput-<monitors>} for http, {@code probe-throughput-<type>-<monitors>} else. */
    public static String resultName(Options o) {
        return o.type() == CheckType.HTTP
                ? "probe-throughput-" + o.monitors()
                : "probe-throughput-" + o.type().wire() + "-" + o.monitors();
    }

    /** Runs the benchmark, prints the RESULT line, writes the JSON file and returns the figures. */
    public static Map<String, Object> run(Options o) throws Exception {
        String name = resultName(o);
        CheckType type = o.type();
        int addresses = Math.max(1, Math.min(250, o.loopbackAddresses()));
        Path certDir = null;
        try {
            BenchCertificates certs = null;
            if (type == CheckType.TLS) {
                certDir = Files.createTempDirectory("vigil-bench-tls");
                certs = BenchCertificates.generate(certDir, addresses);
            }
            Path serverKeys = certs == null ? null : certs.serverKeyStore();
            try (Target target =
                    o.targetInProcess() ? Target.inProcess(type, serverKeys) : Target.subprocess(type, serverKeys)) {
                return measure(o, name, addresses, target, certs);
            }
        } finally {
            if (certDir != null) {
                BenchSupport.deleteTree(certDir);
            }
        }
    }

    private static Map<String, Object> measure(
            Options o, String name, int addresses, Target target, BenchCertificates certs) throws Exception {
        CheckType type = o.type();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        InetSocketAddress resolver = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), target.port());

        ProbeReferences.Figures reference = null;
        if (o.referenceSeconds() > 0) {
            int warm = o.referenceWarmupSeconds();
            int secs = o.referenceSeconds();
            reference = switch (type) {
                case HTTP -> ProbeReferences.http(target.port(), warm, secs, os);
                case TCP -> ProbeReferences.tcp(addresses, target.port(), warm, secs, os);
                case TLS -> ProbeReferences.tls(addresses, target.port(), certs.caOnly(), warm, secs, os);
                case DNS -> ProbeReferences.dns(resolver, o.monitors(), warm, secs, os);
                default -> throw new IllegalStateException(type.wire());
            };
        }

        TargetGuard guard = new TargetGuard(List.of(Cidr.parse("127.0.0.0/8")), HostResolver.system());
        ProbeSettings settings = ProbeSettings.of("bench", "bench-1", "bench");
        if (certs != null) {
            // As the worker's trustedCaFile: the JDK's CAs plus the bench CA.
            settings = settings.withTrust(TrustStores.jdkPlus(certs.caPem()));
        }
        Probes probes = Probes.standard(guard, settings);
        LongAdder notRun = new LongAdder();
        LongAdder probeErrors = new LongAdder();
        BiFunction<MonitorDefinition, Long, Mono<ProbeResult>> prober = (m, ws) -> probes.probe(m, ws)
                .switchIfEmpty(Mono.fromRunnable(notRun::increment))
                .onErrorResume(e -> {
                    probeErrors.increment();
                    return Mono.empty();
                });
        LongAdder completed = new LongAdder();
        LongAdder succeeded = new LongAdder();
        Map<String, LongAdder> failures = new ConcurrentHashMap<>();
        AtomicLong maxLag = new AtomicLong();
        Map<String, LongAdder> skips = new ConcurrentHashMap<>();
        Scheduler timer = Schedulers.newSingle("bench-scheduler");
        ProbeScheduler scheduler = new ProbeScheduler(
                "bench",
                "bench-1",
                timer,
                prober,
                r -> {
                    if (r.skipped()) {
                        return; // counted by the listener below
                    }
                    completed.increment();
                    if (r.succeeded()) {
                        succeeded.increment();
                    } else {
                        failures.computeIfAbsent(r.outcome() + "/" + r.errorKind(), k -> new LongAdder())
                                .increment();
                    }
                },
                o.concurrency(),
                new ScheduleListener() {
                    @Override
                    public void skipped(SkipReason reason, long windows) {
                        skips.computeIfAbsent(reason.wire(), k -> new LongAdder())
                                .add(windows);
                    }

                    @Override
                    public void lag(long millis) {
                        maxLag.accumulateAndGet(millis, Math::max);
                    }
                },
                Schedulers.parallel());
        int timeoutMs = Math.min(5000, o.intervalSeconds() * 1000 - 1);
        for (int i = 0; i < o.monitors(); i++) {
            String host = "127.0.0." + (1 + i % addresses);
            scheduler.upsert(monitor(type, i, host, target.port(), o.intervalSeconds(), timeoutMs));
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
        // Results are counted next to each other so a burst between the readings skews them as little as possible.
        long c0 = completed.sum();
        long ok0 = succeeded.sum();
        Map<String, Long> failures0 = snapshot(failures);
        long s0 = skippedTotal(skips);
        Map<String, Long> skips0 = snapshot(skips);
        long cpu0 = os.getProcessCpuTime();
        long targetCpu0 = target.cpuNanos();
        long gc0 = gcMillis();
        long jit0 = JitCpu.nanos();
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
        long jit1 = JitCpu.nanos();
        long maxHeap = heap.stop();
        scheduler.drain(Duration.ofSeconds(30)).block();
        timer.dispose();
        System.gc();
        long heapAfterGc = memory.getHeapMemoryUsage().getUsed();

        double seconds = elapsedNs / 1e9;
        double cpuSeconds = (cpu1 - cpu0) / 1e9;
        long probes0 = c1 - c0;
        double probesPerCpuSec = cpuSeconds == 0 ? 0 : probes0 / cpuSeconds;
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("monitors", o.monitors());
        r.put("intervalS", o.intervalSeconds());
        r.put("windows", windows);
        r.put("measuredS", round(seconds));
        r.put("probes", probes0);
        r.put("expectedProbes", windows * o.monitors());
        r.put("probesPerSec", round(probes0 / seconds));
        r.put("probesPerCpuSec", round(probesPerCpuSec));
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
        long jitMs = JitCpu.millisBetween(jit0, jit1);
        double cpuExJit = jitMs < 0 ? 0 : cpuSeconds - jitMs / 1e3;
        double probesPerCpuSecExJit = cpuExJit <= 0 ? 0 : probes0 / cpuExJit;
        r.put("jitCpuMs", jitMs);
        if (probesPerCpuSecExJit > 0) {
            r.put("probesPerCpuSecExJit", round(probesPerCpuSecExJit));
        }
        long referenceErrors = 0;
        if (reference != null) {
            r.putAll(reference.asMap());
            referenceErrors = reference.errors();
            if (cpuSeconds > 0 && probes0 > 0) {
                r.put("probeCpuCostVsReference", round(reference.perCpuSec() / probesPerCpuSec));
            }
            if (reference.perCpuSec() > 0) {
                r.put("probeVsReference", round3(probesPerCpuSec / reference.perCpuSec()));
            }
            if (reference.perCpuSecExJit() > 0 && probesPerCpuSecExJit > 0) {
                r.put("probeVsReferenceExJit", round3(probesPerCpuSecExJit / reference.perCpuSecExJit()));
            }
        }
        // Over the whole run, warm-up included: none of these is the target's doing.
        Map<String, Long> harness = new LinkedHashMap<>();
        harness.put("notRun", notRun.sum());
        harness.put("probeErrors", probeErrors.sum());
        harness.put("referenceErrors", referenceErrors);
        r.put(
                "harnessErrors",
                harness.values().stream().mapToLong(Long::longValue).sum());
        r.put("harnessErrorsByKind", harness);
        report(name, r);
        return r;
    }

    /** Monitor {@code i} of the run: the same target for every window, on loopback address {@code host}. */
    static MonitorDefinition monitor(CheckType type, int i, String host, int port, int intervalSeconds, int timeoutMs) {
        String id = String.format(Locale.ROOT, "bench-%05d", i);
        List<String> regions = List.of("bench");
        return switch (type) {
            case HTTP -> new MonitorDefinition(
                    1,
                    id,
                    null,
                    "http://" + host + ":" + port + "/health",
                    null,
                    intervalSeconds,
                    timeoutMs,
                    regions,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null);
            case TCP -> new MonitorDefinition(
                    1,
                    id,
                    null,
                    null,
                    null,
                    intervalSeconds,
                    timeoutMs,
                    regions,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    CheckType.TCP,
                    null,
                    null,
                    new MonitorDefinition.Tcp(host, port, null, ProbeTargets.BANNER_EXPECT),
                    null,
                    null,
                    null);
            case TLS -> new MonitorDefinition(
                    1,
                    id,
                    null,
                    null,
                    null,
                    intervalSeconds,
                    timeoutMs,
                    regions,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    CheckType.TLS,
                    null,
                    null,
                    null,
                    null,
                    new MonitorDefinition.Tls(host, port),
                    null);
            case DNS -> new MonitorDefinition(
                    1,
                    id,
                    null,
                    null,
                    null,
                    intervalSeconds,
                    timeoutMs,
                    regions,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    CheckType.DNS,
                    null,
                    null,
                    null,
                    new MonitorDefinition.Dns(
                            ProbeReferences.queryName(i), "A", "127.0.0.1:" + port, List.of(ProbeTargets.DNS_ANSWER)),
                    null,
                    null);
            default -> throw new IllegalArgumentException("not probed: " + type.wire());
        };
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
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(g -> Math.max(0, g.getCollectionTime()))
                .sum();
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

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
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
            thread = new Thread(
                    () -> {
                        while (running) {
                            max.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                            try {
                                Thread.sleep(100);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    },
                    "bench-heap-sampler");
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

        static Target inProcess(CheckType type, Path serverKeys) {
            ProbeTargets.Server t = ProbeTargets.start(type, serverKeys);
            return new Target() {
                public int port() {
                    return t.port();
                }

                public void close() {
                    t.close();
                }
            };
        }

        /** http runs {@link ProbeTarget} as it always did; the other types {@link ProbeTargets}{@code <type> [keys]}. */
        static Target subprocess(CheckType type, Path serverKeys) throws java.io.IOException {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-Xmx256m");
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            if (type == CheckType.HTTP) {
                cmd.add(ProbeTarget.class.getName());
            } else {
                cmd.add(ProbeTargets.class.getName());
                cmd.add(type.wire());
                if (serverKeys != null) {
                    cmd.add(serverKeys.toString());
                }
            }
            Process p = new ProcessBuilder(cmd)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
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
            Thread drain = new Thread(
                    () -> {
                        try {
                            while (out.readLine() != null) {
                                // discard
                            }
                        } catch (java.io.IOException ignored) {
                            // process ended
                        }
                    },
                    "bench-target-output");
            drain.setDaemon(true);
            drain.start();
            int bound = port;
            return new Target() {
                public int port() {
                    return bound;
                }

                public long cpuNanos() {
                    return p.toHandle()
                            .info()
                            .totalCpuDuration()
                            .map(java.time.Duration::toNanos)
                            .orElse(-1L);
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
