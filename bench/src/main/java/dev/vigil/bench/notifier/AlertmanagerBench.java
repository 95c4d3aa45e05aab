package dev.vigil.bench.notifier;

import static dev.vigil.bench.BenchSupport.percentile;
import static dev.vigil.bench.BenchSupport.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.bench.BenchSupport;
import dev.vigil.bench.ProcStat;
import dev.vigil.embedded.net.LocalPorts;
import dev.vigil.schemas.json.Json;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.ConnectionProvider;

/**
 * The reference for {@link NotifierThroughputBench}: Prometheus Alertmanager (Debian's
 * {@code prometheus-alertmanager}) fanning distinct alerts out to a local webhook, one notification per alert.
 *
 * <p>Alertmanager runs as a child process with {@code group_by: ['...']} (every label set is its own group, so
 * every alert is its own notification), {@code group_wait: 0s}, no cluster (no gossip, no peer wait), and one
 * webhook receiver pointing at a Reactor Netty sink in this JVM. The driver POSTs alerts to {@code /api/v2/alerts}.
 *
 * <ul>
 *   <li><b>warm-up</b>: {@code --warmup} alerts (default 1,000) the same way as the burst, so that connections exist
 *   and the Go heap has grown.</li>
 *   <li><b>burst</b>: N distinct critical alerts, {@code --batch} per POST (500), {@code --parallel} POSTs in flight
 *   (4). deliveries/s = N / (first POST → arrival of the last of the N alerts at the sink). Alertmanager's CPU is
 *   utime+stime of its process from {@code /proc/<pid>/stat} over the same interval; the driver JVM (client and
 *   sink) is reported apart and not counted for Alertmanager.</li>
 *   <li><b>paced</b>: {@code --paced-rate} new distinct alerts per second for {@code --paced-seconds}, one alert per
 *   POST at its due time; latency = arrival at the sink − the moment its POST was issued; p50/p99.</li>
 * </ul>
 *
 * <p>The sink parses every webhook payload and counts the alerts in it ({@code alerts_per_notification} in the
 * JSON): with {@code group_by: ['...']} it must be 1 for every notification. Every aggregation group re-runs its
 * pipeline each {@code group_interval} (5m here) and only the dedup stage stops a re-send, so the phases are meant
 * to end within that interval of the warm-up's start; the harness warns on stderr when they do not.
 *
 * <p>Without the binary ({@code /usr/bin/prometheus-alertmanager}, or {@code --alertmanager PATH}) it prints
 * {@code SKIP ...} and exits 0; it installs nothing. Run (from the repository root):
 * <pre>
 * java -Xmx1g -cp bench/target-am/classes:$(cat bench/target-am/classpath.txt) \
 *     dev.vigil.bench.notifier.AlertmanagerBench --events 10000 --paced-rate 1000 --paced-seconds 5
 * </pre>
 * or {@code bench/notifier-vs-alertmanager.sh}, which runs this and the notifier benchmark one after the other.
 * The last line is {@code RESULT alertmanager-throughput key=value ...}; the same goes to
 * {@code bench/target/results/alertmanager-throughput.json} (directory: {@code -Dvigil.results.dir}).
 */
public final class AlertmanagerBench {
    public static final Path DEFAULT_BINARY = Path.of("/usr/bin/prometheus-alertmanager");
    public static final String SKIP_MESSAGE =
            "SKIP alertmanager not installed (apt-get install prometheus-alertmanager)";
    private static final Duration GROUP_INTERVAL = Duration.ofMinutes(5);

    public record Options(
            Path binary,
            int events,
            int batch,
            int parallel,
            int pacedRate,
            int pacedSeconds,
            int warmup,
            int pacedWarmupSeconds) {
        static Options parse(String[] args) {
            Path binary = DEFAULT_BINARY;
            int events = 10_000;
            int batch = 500;
            int parallel = 4;
            int rate = 1000;
            int seconds = 5;
            int warmup = 1000;
            int pacedWarmup = 0;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--alertmanager" -> binary = Path.of(args[++i]);
                    case "--events" -> events = Integer.parseInt(args[++i]);
                    case "--batch" -> batch = Integer.parseInt(args[++i]);
                    case "--parallel" -> parallel = Integer.parseInt(args[++i]);
                    case "--paced-rate" -> rate = Integer.parseInt(args[++i]);
                    case "--paced-seconds" -> seconds = Integer.parseInt(args[++i]);
                    case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                    case "--paced-warmup" -> pacedWarmup = Integer.parseInt(args[++i]);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + "; options: --alertmanager PATH --events N --batch N --parallel N --paced-rate N"
                            + " --paced-seconds S --warmup N --paced-warmup S");
                }
            }
            return new Options(binary, events, batch, parallel, rate, seconds, warmup, pacedWarmup);
        }
    }

    private AlertmanagerBench() {}

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args);
        if (!available(o.binary())) {
            System.out.println(SKIP_MESSAGE);
            System.exit(0);
        }
        Map<String, Object> r = run(o);
        System.exit(r.isEmpty() ? 1 : 0);
    }

    /** Whether the Alertmanager binary exists and is executable. */
    public static boolean available(Path binary) {
        return Files.isRegularFile(binary) && Files.isExecutable(binary);
    }

    /** Runs the benchmark, prints the RESULT line, writes the JSON file and returns the figures. */
    public static Map<String, Object> run(Options o) throws Exception {
        Map<String, Object> result = new LinkedHashMap<>();
        Path dir = Files.createTempDirectory("vigil-am-bench");
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ConnectionProvider pool = ConnectionProvider.builder("am-bench")
                .maxConnections(64)
                .pendingAcquireMaxCount(-1)
                .build();
        try (Sink sink = new Sink();
                Alertmanager am = Alertmanager.start(o.binary(), dir, sink.port())) {
            HttpClient client = HttpClient.create(pool)
                    .baseUrl(am.baseUrl())
                    .headers(h -> h.set(HttpHeaderNames.CONTENT_TYPE, "application/json"));
            long started = System.nanoTime();
            if (o.warmup() > 0) {
                burst(client, sink, o.warmup(), o.batch(), o.parallel(), "warm");
            }
            if (o.pacedWarmupSeconds() > 0) {
                // the same warm-up as the notifier's, so both sides have run the paced shape before it is measured
                paced(client, sink, o.pacedRate(), o.pacedWarmupSeconds(), "warmpaced");
            }
            long amCpu0 = am.cpuTicks();
            long jvmCpu0 = os.getProcessCpuTime();
            double seconds = burst(client, sink, o.events(), o.batch(), o.parallel(), "burst");
            double amCpuSeconds = (am.cpuTicks() - amCpu0) / (double) am.ticksPerSecond();
            double jvmCpuSeconds = (os.getProcessCpuTime() - jvmCpu0) / 1e9;
            result.put("events", o.events());
            result.put("deliveries_per_s", round(o.events() / seconds));
            result.put("burst_seconds", round(seconds));
            result.put("am_cpu_seconds", round(amCpuSeconds));
            result.put("deliveries_per_cpu_s", round(o.events() / amCpuSeconds));
            // the driver (HTTP client) and the sink, not counted for Alertmanager
            result.put("driver_jvm_cpu_seconds", round(jvmCpuSeconds));
            result.put("load_average", round(os.getSystemLoadAverage()));
            result.put("cores", os.getAvailableProcessors());
            long[] lat = paced(client, sink, o.pacedRate(), o.pacedSeconds(), "paced");
            result.put("paced_rate", o.pacedRate());
            result.put("paced_events", lat.length);
            result.put("p50_ms", round(percentile(lat, 0.50) / 1e6));
            result.put("p99_ms", round(percentile(lat, 0.99) / 1e6));
            result.put("max_ms", round(percentile(lat, 1.0) / 1e6));
            long elapsed = System.nanoTime() - started;
            if (elapsed > GROUP_INTERVAL.toNanos()) {
                System.err.printf(
                        "warning: the phases took %.1f s, more than group_interval (%d s): the groups' "
                                + "periodic flushes overlapped the measurement%n",
                        elapsed / 1e9, GROUP_INTERVAL.toSeconds());
            }
            result.put("notifications", sink.notifications.sum());
            result.put("alerts_received", sink.alerts.sum());
            result.put("max_alerts_per_notification", sink.maxAlertsPerNotification.get());
            result.put("duplicates", sink.duplicates.sum());
            result.put("sink_connections", sink.connections.size());
            result.put("am_rss_max_mib", round(am.maxRssKib() / 1024.0));
            result.put("version", am.version());
            result.put("alerts_per_notification", new TreeMap<>(sink.payloadSizes));
        } finally {
            pool.disposeLater().block(Duration.ofSeconds(10));
            BenchSupport.deleteTree(dir);
        }
        report("alertmanager-throughput", result);
        return result;
    }

    /** POSTs n alerts, batch per request, parallel requests in flight; seconds from the first POST to the last arrival. */
    private static double burst(HttpClient client, Sink sink, int n, int batch, int parallel, String prefix) {
        String startsAt = Instant.now().toString();
        List<byte[]> bodies = new ArrayList<>();
        for (int from = 0; from < n; from += batch) {
            List<Map<String, Object>> alerts = new ArrayList<>();
            for (int i = from; i < Math.min(n, from + batch); i++) {
                alerts.add(alert(prefix + "-" + i, startsAt));
            }
            bodies.add(Json.bytes(alerts));
        }
        long start = System.nanoTime();
        Flux.fromIterable(bodies).flatMap(b -> post(client, b), parallel).blockLast(Duration.ofMinutes(5));
        BenchSupport.awaitUntil(
                () -> sink.count(prefix) >= n,
                Duration.ofMinutes(10),
                () -> "only " + sink.count(prefix) + " of " + n + " " + prefix + " alerts reached the sink");
        return (sink.lastArrival(prefix) - start) / 1e9;
    }

    /** One alert per POST at a fixed rate; latency from issuing the POST to the alert's arrival at the sink. */
    private static long[] paced(HttpClient client, Sink sink, int rate, int seconds, String prefix) throws Exception {
        int n = rate * seconds;
        long[] sentAt = new long[n];
        AtomicInteger failed = new AtomicInteger();
        long intervalNanos = 1_000_000_000L / Math.max(1, rate);
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long due = start + i * intervalNanos;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            byte[] body =
                    Json.bytes(List.of(alert(prefix + "-" + i, Instant.now().toString())));
            sentAt[i] = System.nanoTime();
            post(client, body).subscribe(x -> {}, e -> failed.incrementAndGet());
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (sink.count(prefix) < n && System.nanoTime() < deadline && failed.get() == 0) {
            Thread.sleep(5);
        }
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " paced POSTs failed");
        }
        long[] lat = new long[n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            Long at = sink.arrival(prefix + "-" + i);
            if (at != null) {
                lat[k++] = at - sentAt[i];
            }
        }
        if (k < n) {
            System.err.println("paced: only " + k + " of " + n + " alerts reached the sink");
        }
        lat = Arrays.copyOf(lat, k);
        Arrays.sort(lat);
        return lat;
    }

    private static Map<String, Object> alert(String id, String startsAt) {
        return Map.of(
                "labels",
                Map.of("alertname", "bench", "id", id, "severity", "critical"),
                "annotations",
                Map.of("summary", "synthetic alert " + id),
                "startsAt",
                startsAt);
    }

    private static Mono<Integer> post(HttpClient client, byte[] body) {
        return client.post()
                .uri("/api/v2/alerts")
                .send((req, out) -> out.sendByteArray(Mono.just(body)))
                .responseSingle((res, content) -> content.asString(StandardCharsets.UTF_8)
                        .defaultIfEmpty("")
                        .flatMap(text -> res.status().code() == 200
                                ? Mono.just(200)
                                : Mono.error(new IllegalStateException(
                                        "POST /api/v2/alerts: " + res.status() + " " + text))));
    }

    private static double round(double v) {
        return Math.round(v * 100.0) / 100.0;
    }

    /** The Alertmanager child process: config, storage, port, readiness, CPU and memory from /proc. */
    static final class Alertmanager implements AutoCloseable {
        private final Process process;
        private final String baseUrl;
        private final String version;
        private final long ticksPerSecond;
        private final Path log;
        private final Thread hook;

        private Alertmanager(Process process, String baseUrl, String version, long ticksPerSecond, Path log) {
            this.process = process;
            this.baseUrl = baseUrl;
            this.version = version;
            this.ticksPerSecond = ticksPerSecond;
            this.log = log;
            this.hook = new Thread(process::destroyForcibly, "alertmanager-reaper");
            Runtime.getRuntime().addShutdownHook(hook);
        }

        static Alertmanager start(Path binary, Path dir, int sinkPort) throws Exception {
            Path config = dir.resolve("am.yml");
            Files.writeString(
                    config,
                    """
                    route:
                      receiver: sink
                      group_by: ['...']
                      group_wait: 0s
                      group_interval: 5m
                      repeat_interval: 4h
                    receivers:
                      - name: sink
                        webhook_configs:
                          - url: http://127.0.0.1:%d/hook
                            send_resolved: false
                            max_alerts: 0
                    """
                            .formatted(sinkPort));
            int port = LocalPorts.free();
            Path log = dir.resolve("alertmanager.log");
            Process p = new ProcessBuilder(
                            binary.toString(),
                            "--config.file=" + config,
                            "--storage.path=" + dir.resolve("data"),
                            "--web.listen-address=127.0.0.1:" + port,
                            "--cluster.listen-address=",
                            "--log.level=warn")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            Alertmanager am = new Alertmanager(p, "http://127.0.0.1:" + port, versionOf(binary), clockTicks(), log);
            try {
                am.awaitReady(Duration.ofSeconds(30));
            } catch (Exception e) {
                am.close();
                throw e;
            }
            return am;
        }

        private void awaitReady(Duration timeout) throws Exception {
            var http = java.net.http.HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(1))
                    .build();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException(
                            "alertmanager exited with " + process.exitValue() + ":\n" + Files.readString(log));
                }
                try {
                    var res = http.send(
                            HttpRequest.newBuilder(URI.create(baseUrl + "/-/ready"))
                                    .timeout(Duration.ofSeconds(1))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding());
                    if (res.statusCode() == 200) {
                        return;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                }
                Thread.sleep(50);
            }
            throw new IllegalStateException("alertmanager not ready after " + timeout + ":\n" + Files.readString(log));
        }

        String baseUrl() {
            return baseUrl;
        }

        String version() {
            return version;
        }

        long ticksPerSecond() {
            return ticksPerSecond;
        }

        /** utime + stime of the process, in clock ticks ({@code /proc/<pid>/stat} fields 14 and 15). */
        long cpuTicks() throws IOException {
            return ProcStat.processCpuTicks(process.pid());
        }

        /** Peak resident set size (VmHWM) in KiB, or -1. */
        long maxRssKib() {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
                    if (line.startsWith("VmHWM:")) {
                        return Long.parseLong(line.replaceAll("[^0-9]", ""));
                    }
                }
            } catch (IOException | NumberFormatException ignored) {
                // process gone
            }
            return -1;
        }

        private static long clockTicks() {
            try {
                Process p = new ProcessBuilder("getconf", "CLK_TCK")
                        .redirectErrorStream(true)
                        .start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                p.waitFor(10, TimeUnit.SECONDS);
                return Long.parseLong(out);
            } catch (Exception e) {
                return 100;
            }
        }

        private static String versionOf(Path binary) {
            try {
                Process p = new ProcessBuilder(binary.toString(), "--version")
                        .redirectErrorStream(true)
                        .start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                p.waitFor(10, TimeUnit.SECONDS);
                var m = java.util.regex.Pattern.compile("version (\\S+)").matcher(out);
                return m.find() ? m.group(1) : "unknown";
            } catch (Exception e) {
                return "unknown";
            }
        }

        @Override
        public void close() {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // already running the hooks
            }
        }
    }

    /**
     * The webhook sink: answers 200, parses each payload, keeps the first arrival time of each alert's {@code id}
     * label (arrival = request headers received), counts the alerts per notification and per id prefix.
     */
    static final class Sink implements AutoCloseable {
        final Map<String, Long> received = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> perPrefix = new ConcurrentHashMap<>();
        final Map<String, AtomicLong> lastPerPrefix = new ConcurrentHashMap<>();
        final Map<Integer, Long> payloadSizes = new ConcurrentHashMap<>();
        final LongAdder notifications = new LongAdder();
        final LongAdder alerts = new LongAdder();
        final LongAdder duplicates = new LongAdder();
        /** Remote address:port of every request: the number of TCP connections the webhook client opened. */
        final Set<String> connections = ConcurrentHashMap.newKeySet();

        final AtomicInteger maxAlertsPerNotification = new AtomicInteger();
        private final DisposableServer server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .handle((req, res) -> {
                    long at = System.nanoTime();
                    connections.add(String.valueOf(req.remoteAddress()));
                    return req.receive()
                            .aggregate()
                            .asByteArray()
                            .doOnNext(body -> record(body, at))
                            .then(res.status(200).send());
                })
                .bindNow();

        private void record(byte[] body, long at) {
            JsonNode payload = Json.tree(body);
            JsonNode list = payload.path("alerts");
            notifications.increment();
            alerts.add(list.size());
            payloadSizes.merge(list.size(), 1L, Long::sum);
            maxAlertsPerNotification.accumulateAndGet(list.size(), Math::max);
            for (JsonNode a : list) {
                String id = a.path("labels").path("id").asText();
                if (received.putIfAbsent(id, at) != null) {
                    duplicates.increment();
                    continue;
                }
                int dash = id.indexOf('-');
                String prefix = dash < 0 ? id : id.substring(0, dash);
                lastPerPrefix
                        .computeIfAbsent(prefix, k -> new AtomicLong(Long.MIN_VALUE))
                        .accumulateAndGet(at, Math::max);
                perPrefix.computeIfAbsent(prefix, k -> new AtomicInteger()).incrementAndGet();
            }
        }

        int count(String prefix) {
            AtomicInteger c = perPrefix.get(prefix);
            return c == null ? 0 : c.get();
        }

        long lastArrival(String prefix) {
            return lastPerPrefix.get(prefix).get();
        }

        Long arrival(String id) {
            return received.get(id);
        }

        int port() {
            return server.port();
        }

        @Override
        public void close() {
            server.disposeNow();
        }
    }
}
