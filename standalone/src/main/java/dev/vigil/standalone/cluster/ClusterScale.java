package dev.vigil.standalone.cluster;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.schemas.window.Windows;
import dev.vigil.standalone.monitors.MonitorCatalog;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The scale benchmark (docs/cluster.md#sizing): on a {@link LocalCluster}, grows the fleet in
 * place through the given steps (e.g. 10,000 → 30,000 → 100,000 monitors, each probed every interval from every
 * region against a local target that answers 200 with an empty body), and at each step measures whole windows:
 * probes/s, skipped windows, verdict lag (a result produced → its window's status readable on
 * {@code vigil.monitor-status}), {@code /v1/status} latency (one page, and whole walks), heap, RSS and CPU of every
 * process, and the restore of a Streams instance after kill -9. Prints a {@code RESULT cluster-scale} line per step and
 * a growth table.
 */
public final class ClusterScale {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory JSON_FACTORY = new JsonFactory();
    private static final String PREFIX = "scale-";

    /**
     * @param steps          fleet sizes, increasing
     * @param warmupWindows  whole windows after a step's monitors are published before measuring
     * @param measureWindows whole windows measured per step
     * @param addresses      loopback addresses the target answers on
     * @param restore        kill -9 and restart streams-1 at the end of each step
     * @param faultRegion    after the last step, kill that region's probe worker for {@code faultWindows} windows and
     *                       count what it pages; empty: no fault step
     */
    public record Options(
            List<Integer> steps,
            int intervalSeconds,
            int warmupWindows,
            int measureWindows,
            int addresses,
            boolean restore,
            Optional<String> faultRegion,
            int faultWindows) {
        public Options {
            steps = List.copyOf(steps);
            if (intervalSeconds < 10 || warmupWindows < 0 || measureWindows < 1 || addresses < 1 || addresses > 250) {
                throw new IllegalArgumentException(
                        "interval >= 10 s, warm-up >= 0, measured windows >= 1, 1..250 addresses");
            }
            if (faultWindows < 1) {
                throw new IllegalArgumentException("fault windows >= 1");
            }
        }

        public Options(
                List<Integer> steps,
                int intervalSeconds,
                int warmupWindows,
                int measureWindows,
                int addresses,
                boolean restore) {
            this(steps, intervalSeconds, warmupWindows, measureWindows, addresses, restore, Optional.empty(), 3);
        }
    }

    private final LocalCluster cluster;
    private final ClusterLayout layout;
    private final Options options;
    private final PrintWriter out;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final long intervalMs;
    private final Recorder recorder;
    private ScaleFigures.Step faultStep;

    public ClusterScale(LocalCluster cluster, Options options, PrintWriter out) {
        this.cluster = cluster;
        this.layout = cluster.layout();
        this.options = options;
        this.out = out;
        this.intervalMs = options.intervalSeconds() * 1000L;
        this.recorder = new Recorder(layout.bootstrapServers(), intervalMs);
    }

    /** Starts the cluster, runs every step, prints and returns the steps' figures. The caller stops the cluster. */
    public List<ScaleFigures.Step> run() {
        List<ScaleFigures.Step> results = new ArrayList<>();
        try (ScaleTarget target = new ScaleTarget(layout.targetsPort(), options.addresses(), 2)) {
            Instant t0 = Instant.now();
            cluster.up(null);
            say("up after %.1f s; layout: %s", LocalCluster.seconds(t0), describeLayout());
            recorder.start();
            int published = 0;
            for (int n : options.steps()) {
                ScaleFigures.Step step;
                try {
                    step = step(published, n, target);
                } catch (RuntimeException e) {
                    // the steps measured so far still count: report them, not only the failure
                    say("step %d failed, no further steps: %s", n, e);
                    break;
                }
                published = n;
                results.add(step);
                out.println(ScaleFigures.resultLine(step));
                out.flush();
            }
            if (results.isEmpty()) {
                throw new IllegalStateException("no step finished");
            }
            if (options.faultRegion().isPresent()) {
                faultStep = fault(published, options.faultRegion().get());
                out.println(ScaleFigures.resultLine("cluster-scale-fault", faultStep));
                out.flush();
            }
            out.println("growth (" + results.get(results.size() - 1).monitors() + "/"
                    + results.get(0).monitors() + ", each figure at the last step over the first):");
            out.print(ScaleFigures.growthTable(results));
            out.flush();
            return results;
        } finally {
            recorder.close();
        }
    }

    /** The fault step's figures, when {@link Options#faultRegion} asked for one and it ran. */
    public Optional<ScaleFigures.Step> faultStep() {
        return Optional.ofNullable(faultStep);
    }

    private String describeLayout() {
        return "3 brokers, PostgreSQL, " + layout.streams() + " Streams, " + layout.notifiers() + " notifier(s), "
                + layout.ingests() + " ingest, probe workers " + layout.regions() + "; target on 127.0.0.1-"
                + options.addresses() + ":" + layout.targetsPort();
    }

    // ---------------------------------------------------------------- one step

    private ScaleFigures.Step step(int from, int n, ScaleTarget target) {
        Map<String, Double> f = new LinkedHashMap<>();
        Map<String, String> notes = new LinkedHashMap<>();
        say("step %d: publishing monitors %d..%d", n, from + 1, n);
        Map<String, Double> atPublishing = probeCounters();
        Instant p = Instant.now();
        List<MonitorDefinition> defs = ScaleFigures.monitors(
                from, n, layout.targetsPort(), options.addresses(), layout.regions(), options.intervalSeconds());
        new MonitorCatalog(layout.bootstrapServers(), Topics.MONITORS, Duration.ofMinutes(2)).publish(defs, List.of());
        f.put("publish_s", round1(LocalCluster.seconds(p)));
        long publishedAt = System.currentTimeMillis();
        long w0 = Windows.windowStart(publishedAt, intervalMs) + (1L + options.warmupWindows()) * intervalMs;
        long end = w0 + options.measureWindows() * intervalMs;
        say(
                "step %d: published in %.1f s; measuring windows %s .. %s",
                n, f.get("publish_s"), Instant.ofEpochMilli(w0), Instant.ofEpochMilli(end));
        sleepUntil(w0);
        Map<String, Double> skipsBefore = probeCounters();
        Map<String, Long> cpuBefore = cpuTicks();
        long targetBefore = target.requests();
        long cpuAt = System.currentTimeMillis();
        List<Long> pageMs = new ArrayList<>();
        Map<String, long[]> peaks = new LinkedHashMap<>();
        long nextSample = w0 + 12_000;
        while (System.currentTimeMillis() < end) {
            long now = System.currentTimeMillis();
            if (now >= nextSample) {
                sampleMemory(peaks);
                nextSample += intervalMs;
            }
            long ms = firstPageMs(1);
            if (ms >= 0) {
                pageMs.add(ms);
            }
            LocalCluster.sleep(Math.max(0, 2000 - (System.currentTimeMillis() - now)));
        }
        Map<String, Double> skipsAfter = probeCounters();
        Map<String, Long> cpuAfter = cpuTicks();
        double cpuSeconds = (System.currentTimeMillis() - cpuAt) / 1000.0;
        long targetRequests = target.requests() - targetBefore;
        // every verdict of the measured windows is out by the last one's deadline
        sleepUntil(Windows.latestCollectionDeadline(
                        end - intervalMs, intervalMs, MonitorDefinition.DEFAULT_TIMEOUT_MS, Windows.DEFAULT_GRACE_MS)
                + 15_000);
        Recorder.Figures v = recorder.figures(w0, end, n, layout.regions().size());
        Recorder.Pages pages = recorder.pages(w0, end);
        Recorder.Pages publishing = recorder.pages(Windows.windowStart(publishedAt, intervalMs), w0);

        f.put("target_requests_per_s", round1(targetRequests / cpuSeconds));
        windowFigures(
                f,
                notes,
                v,
                pages,
                publishing,
                skipsBefore,
                skipsAfter,
                n,
                layout.regions().size(),
                options);
        // what the probes of the publishing windows met, beside the pages those windows opened
        notes.put("failures_by_kind_publishing", byLabel(atPublishing, skipsBefore, "failed"));
        notes.put("skipped_by_reason_publishing", byLabel(atPublishing, skipsBefore, "skipped"));
        f.put("status_page_p50_ms", (double) ScaleFigures.percentile(pageMs, 50));
        f.put("status_page_p99_ms", (double) ScaleFigures.percentile(pageMs, 99));
        notes.put("status_page_samples", "" + pageMs.size());

        Walk w1 = walk(1, 1000);
        Walk w2 = walk(1, 1000);
        Walk w3 = walk(1, StatusLimit.MAX);
        List<Long> walkPages = new ArrayList<>(w1.pageMs());
        walkPages.addAll(w2.pageMs());
        f.put(
                "walk1000_s",
                seconds(
                        w1.totalMs() < 0
                                ? w2.totalMs()
                                : w2.totalMs() < 0 ? w1.totalMs() : Math.min(w1.totalMs(), w2.totalMs())));
        f.put("walk1000_page_p50_ms", (double) ScaleFigures.percentile(walkPages, 50));
        f.put("walk1000_page_p99_ms", (double) ScaleFigures.percentile(walkPages, 99));
        f.put("walk10000_s", seconds(w3.totalMs()));
        notes.put("walk_listed", w1.monitors() + "/" + w2.monitors() + "/" + w3.monitors());
        if (layout.streams() > 1) {
            Walk other = walk(2, 1000);
            f.put("walk1000_from_streams2_s", seconds(other.totalMs()));
        }
        for (var e : peaks.entrySet()) {
            f.put("heap_mib_" + e.getKey(), e.getValue()[0] < 0 ? Double.NaN : round1(e.getValue()[0] / 1048576.0));
        }
        for (var e : peaks.entrySet()) {
            f.put("rss_mib_" + e.getKey(), e.getValue()[1] < 0 ? Double.NaN : round1(e.getValue()[1] / 1048576.0));
        }
        double totalCpu = 0;
        for (var e : cpuAfter.entrySet()) {
            Long before = cpuBefore.get(e.getKey());
            if (before != null && e.getValue() >= before) {
                double pct = (e.getValue() - before) / 100.0 / cpuSeconds * 100;
                totalCpu += pct;
                f.put("cpu_pct_" + e.getKey(), round1(pct));
            }
        }
        f.put("cpu_pct_all", round1(totalCpu));
        f.put("load1", loadAverage());
        if (options.restore()) {
            restore(n, f);
        }
        notes.put("windows", Instant.ofEpochMilli(w0) + "/" + options.measureWindows());
        return new ScaleFigures.Step(n, f, notes);
    }

    // ---------------------------------------------------------------- a region's worker gone

    /**
     * Kills one region's probe worker (kill -9) for {@code faultWindows} whole windows, starts it again and waits up to
     * four windows for its self-alert to resolve, counting every page opened meanwhile: Vigil's own gap must be one
     * self-alert and no page about a monitor.
     */
    private ScaleFigures.Step fault(int n, String region) {
        String victim = LocalCluster.probe(region);
        return FaultStep.run(
                recorder,
                intervalMs,
                options.faultWindows(),
                n,
                region,
                () -> cluster.kill9(victim),
                () -> {
                    cluster.start(victim);
                    cluster.awaitReady(victim, Duration.ofMinutes(2));
                },
                this::say);
    }

    /**
     * The figures both scale benchmarks take from the topics and the probe workers' counters over the measured windows,
     * under the same names: probes, skips, verdicts, the pages a healthy fleet opened and the verdict lag.
     */
    static void windowFigures(
            Map<String, Double> f,
            Map<String, String> notes,
            Recorder.Figures v,
            Recorder.Pages pages,
            Recorder.Pages publishing,
            Map<String, Double> before,
            Map<String, Double> after,
            int n,
            int regions,
            Options options) {
        double seconds = options.measureWindows() * options.intervalSeconds();
        f.put("probes_per_s", round1(v.results() / seconds));
        f.put("probes_expected_per_s", round1((double) n * regions / options.intervalSeconds()));
        f.put("results_missing", (double) Math.max(0, (long) n * regions * options.measureWindows() - v.results()));
        f.put("skipped_windows", after.get("skipped") - before.get("skipped"));
        f.put("probe_failures", after.get("failed") - before.get("failed"));
        notes.put("skipped_by_reason", byLabel(before, after, "skipped"));
        notes.put("failures_by_kind", byLabel(before, after, "failed"));
        f.put("verdicts", (double) v.verdicts());
        f.put("verdicts_missing", (double) Math.max(0, (long) n * options.measureWindows() - v.verdicts()));
        f.put("verdicts_incomplete", (double) v.incomplete());
        f.put("verdicts_not_up", (double) v.notUp());
        f.put("alerts_opened", (double) pages.availabilityOpened());
        f.put("nodata_opened", (double) pages.noDataOpened());
        f.put("self_alerts_opened", (double) pages.selfOpened());
        notes.put("self_alerts", pages.selfFingerprints().isEmpty() ? "none" : pages.selfFingerprints());
        // the windows from the step's publishing to the measured ones: a fleet's first probes (cold code, a burst
        // of new definitions) are where a healthy target is most likely to be paged
        f.put("alerts_opened_publishing", (double) publishing.availabilityOpened());
        f.put("self_alerts_opened_publishing", (double) publishing.selfOpened());
        notes.put("alerts_opened_publishing_why", publishing.availabilityWhy());
        notes.put("alerts_opened_why", pages.availabilityWhy());
        notes.put(
                "self_alerts_publishing",
                publishing.selfFingerprints().isEmpty() ? "none" : publishing.selfFingerprints());
        f.put("verdict_lag_p50_ms", (double) ScaleFigures.percentile(v.lags(), 50));
        f.put("verdict_lag_p99_ms", (double) ScaleFigures.percentile(v.lags(), 99));
        f.put("verdict_lag_max_ms", (double) ScaleFigures.percentile(v.lags(), 100));
        f.put("decide_lag_p50_ms", (double) ScaleFigures.percentile(v.decideLags(), 50));
        f.put("decide_lag_p99_ms", (double) ScaleFigures.percentile(v.decideLags(), 99));
        notes.put("lag_samples", "" + v.lags().size());
    }

    /** The largest page {@code /v1/status} gives. */
    private static final class StatusLimit {
        static final int MAX = 10_000;
    }

    // ---------------------------------------------------------------- restore after kill -9

    private void restore(int n, Map<String, Double> f) {
        String victim = LocalCluster.streams(1);
        say("step %d: kill -9 %s and start it again", n, victim);
        cluster.kill9(victim);
        Instant killed = Instant.now();
        try {
            cluster.start(victim);
            cluster.awaitReady(victim, Duration.ofMinutes(5));
            f.put("restore_ready_s", round1(LocalCluster.seconds(killed)));
        } catch (RuntimeException e) {
            say("step %d: %s", n, e.getMessage());
            f.put("restore_ready_s", Double.NaN);
            return;
        }
        Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
        while (Instant.now().isBefore(deadline)) {
            Walk w = walk(1, StatusLimit.MAX);
            // every monitor listed: its partitions answer again (a monitor whose every region skipped its newest
            // window is listed as unknown, so "decided" is not the test)
            if (w.monitors() >= n) {
                f.put("restore_answers_s", round1(LocalCluster.seconds(killed)));
                say(
                        "step %d: %s ready after %.1f s, answered for all %d monitors after %.1f s",
                        n, victim, f.get("restore_ready_s"), n, f.get("restore_answers_s"));
                return;
            }
            LocalCluster.sleep(500);
        }
        f.put("restore_answers_s", Double.NaN);
        say("step %d: %s did not answer for all %d monitors within 5 minutes", n, victim, n);
    }

    // ---------------------------------------------------------------- the query API

    /** One walk of {@code /v1/status} in pages of {@code limit}: every page's latency, the whole, what it listed. */
    record Walk(List<Long> pageMs, long totalMs, int monitors, int decided) {}

    Walk walk(int instance, int limit) {
        List<Long> pages = new ArrayList<>();
        int listed = 0;
        int decided = 0;
        long start = System.nanoTime();
        String cursor = null;
        for (int guard = 0; guard < 10_000; guard++) {
            String uri = layout.streamsUrl(instance) + "/v1/status?limit=" + limit
                    + (cursor == null ? "" : "&cursor=" + java.net.URLEncoder.encode(cursor, StandardCharsets.UTF_8));
            long t = System.nanoTime();
            JsonNode body;
            try {
                HttpResponse<byte[]> r = http.send(
                        HttpRequest.newBuilder(URI.create(uri))
                                .header("Authorization", "Bearer " + cluster.adminToken())
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() != 200) {
                    return new Walk(pages, -1, listed, decided);
                }
                body = JSON.readTree(r.body());
            } catch (IOException e) {
                return new Walk(pages, -1, listed, decided);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Walk(pages, -1, listed, decided);
            }
            pages.add((System.nanoTime() - t) / 1_000_000);
            for (JsonNode m : body.path("monitors")) {
                if (m.path("monitorId").asText().startsWith(PREFIX)) {
                    listed++;
                    String s = m.path("status").asText();
                    if (!s.isEmpty() && !"unknown".equals(s)) {
                        decided++;
                    }
                }
            }
            JsonNode next = body.path("next");
            if (!next.isTextual()) {
                break;
            }
            cursor = next.asText();
        }
        return new Walk(pages, (System.nanoTime() - start) / 1_000_000, listed, decided);
    }

    /** Milliseconds for the first page of 1,000 from a Streams instance; -1 when it fails. */
    private long firstPageMs(int instance) {
        long t = System.nanoTime();
        try {
            HttpResponse<byte[]> r = http.send(
                    HttpRequest.newBuilder(URI.create(layout.streamsUrl(instance) + "/v1/status?limit=1000"))
                            .header("Authorization", "Bearer " + cluster.adminToken())
                            .timeout(Duration.ofSeconds(30))
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            return r.statusCode() == 200 ? (System.nanoTime() - t) / 1_000_000 : -1;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    // ---------------------------------------------------------------- processes

    private List<String> processNames() {
        List<String> names = new ArrayList<>(cluster.brokerNames());
        names.add(LocalCluster.POSTGRES);
        names.addAll(cluster.serviceNames());
        return names;
    }

    /**
     * The probe workers' counters summed over the regions: {@code skipped} and {@code failed} (results that are not a
     * success), and each by its label ({@code skipped:overloaded}, {@code failed:timeout}, ...).
     */
    private Map<String, Double> probeCounters() {
        return probeCounters(layout.regions().stream()
                .map(r -> metrics(LocalCluster.probe(r)))
                .toList());
    }

    /** {@link #probeCounters()} over the given {@code /metrics} texts of the probe workers. */
    static Map<String, Double> probeCounters(List<String> metricsTexts) {
        Map<String, Double> c = new java.util.TreeMap<>();
        c.put("skipped", 0.0);
        c.put("failed", 0.0);
        for (String text : metricsTexts) {
            for (String line : text.split("\n")) {
                String key = null;
                if (line.startsWith("vigil_probe_skipped_windows_total{")) {
                    key = "skipped:" + label(line, "reason");
                } else if (line.startsWith("vigil_probe_results_total{")
                        && !line.contains("outcome=\"success\"")
                        && !line.contains("outcome=\"skipped\"")) {
                    key = "failed:" + label(line, "error_kind");
                }
                if (key != null) {
                    double v = Double.parseDouble(
                            line.substring(line.lastIndexOf(' ') + 1).strip());
                    c.merge(key, v, Double::sum);
                    c.merge(key.substring(0, key.indexOf(':')), v, Double::sum);
                }
            }
        }
        return c;
    }

    private static String label(String line, String name) {
        int i = line.indexOf(name + "=\"");
        if (i < 0) {
            return "";
        }
        int from = i + name.length() + 2;
        return line.substring(from, line.indexOf('"', from));
    }

    /** {@code key:n,...} of the labelled counters that grew between two readings. */
    static String byLabel(Map<String, Double> before, Map<String, Double> after, String kind) {
        StringBuilder sb = new StringBuilder();
        for (var e : after.entrySet()) {
            if (e.getKey().startsWith(kind + ":")) {
                double d = e.getValue() - before.getOrDefault(e.getKey(), 0.0);
                if (d > 0) {
                    sb.append(sb.length() == 0 ? "" : ",")
                            .append(e.getKey().substring(kind.length() + 1))
                            .append(':')
                            .append(ScaleFigures.number(d));
                }
            }
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }

    private String metrics(String name) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + cluster.port(name) + "/metrics"))
                            .timeout(Duration.ofSeconds(20))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** Heap used and RSS of every process now; keeps each one's largest of the samples in {@code peaks}. */
    private void sampleMemory(Map<String, long[]> peaks) {
        for (String name : processNames()) {
            Optional<ProcessTable.Running> r = cluster.processes().running(name);
            if (r.isEmpty()) {
                continue;
            }
            long pid = r.get().pid();
            long heap;
            if (name.equals(LocalCluster.POSTGRES)) {
                heap = -1;
            } else if (cluster.port(name) > 0) {
                heap = ScaleFigures.heapUsed(metrics(name));
            } else {
                heap = jstatHeap(pid);
            }
            long rss = rssWithChildren(pid);
            long[] peak = peaks.computeIfAbsent(name, k -> new long[] {-1, -1});
            peak[0] = Math.max(peak[0], heap);
            peak[1] = Math.max(peak[1], rss);
        }
        long[] self = peaks.computeIfAbsent("bench", k -> new long[] {-1, -1});
        Runtime rt = Runtime.getRuntime();
        self[0] = Math.max(self[0], rt.totalMemory() - rt.freeMemory());
        // its own only: the cluster's processes are its descendants
        self[1] = Math.max(self[1], procValue(ProcessHandle.current().pid(), true));
    }

    private static long jstatHeap(long pid) {
        try {
            Process p = new ProcessBuilder("jstat", "-gc", Long.toString(pid))
                    .redirectErrorStream(true)
                    .start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(20, TimeUnit.SECONDS);
            return ScaleFigures.jstatHeapUsed(text);
        } catch (IOException | RuntimeException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** RSS of a process and its descendants (PostgreSQL's backends); -1 when unreadable. */
    private static long rssWithChildren(long pid) {
        long sum = procValue(pid, true);
        if (sum < 0) {
            return -1;
        }
        for (ProcessHandle h :
                ProcessHandle.of(pid).map(ph -> ph.descendants().toList()).orElse(List.of())) {
            sum += Math.max(0, procValue(h.pid(), true));
        }
        return sum;
    }

    private static long cpuWithChildren(long pid) {
        long sum = procValue(pid, false);
        if (sum < 0) {
            return -1;
        }
        for (ProcessHandle h :
                ProcessHandle.of(pid).map(ph -> ph.descendants().toList()).orElse(List.of())) {
            sum += Math.max(0, procValue(h.pid(), false));
        }
        return sum;
    }

    static long procValue(long pid, boolean rss) {
        try {
            if (rss) {
                return ScaleFigures.rss(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
            }
            return ScaleFigures.cpuTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * CPU ticks (1/100 s) used so far by every process (PostgreSQL with its backends), and by this one alone (the
     * target and the topic readers) as {@code bench}.
     */
    private Map<String, Long> cpuTicks() {
        Map<String, Long> ticks = new LinkedHashMap<>();
        for (String name : processNames()) {
            cluster.processes().running(name).ifPresent(r -> ticks.put(name, cpuWithChildren(r.pid())));
        }
        ticks.put("bench", procValue(ProcessHandle.current().pid(), false));
        return ticks;
    }

    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    // ---------------------------------------------------------------- helpers

    void say(String format, Object... args) {
        out.printf("scale %s " + format + "%n", prepend(Instant.now().toString(), args));
        out.flush();
    }

    private static Object[] prepend(Object first, Object[] rest) {
        Object[] all = new Object[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    private static void sleepUntil(long epochMs) {
        long wait = epochMs - System.currentTimeMillis();
        if (wait > 0) {
            LocalCluster.sleep(wait);
        }
    }

    static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }

    /** A walk's milliseconds as seconds; a walk that failed (-1) is not a number. */
    private static double seconds(long ms) {
        return ms < 0 ? Double.NaN : round3(ms / 1000.0);
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    // ---------------------------------------------------------------- the topics

    /**
     * Reads {@code vigil.probe-results} and {@code vigil.monitor-status} (read_committed) from their ends, each on its
     * own thread. For every (monitor, window) it keeps the newest result's record timestamp (the probe worker's
     * producer stamps it when it sends: "produced") and how many results came, and when this process first read the
     * window's status (wall clock, the same machine's clock) with the status's {@code decidedAt}.
     */
    static final class Recorder implements AutoCloseable {
        private final String bootstrap;
        private final long intervalMs;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> threads = new ArrayList<>();
        /** window start → monitor id → {newest result timestamp, results}. */
        private final Map<Long, Map<String, long[]>> results = new ConcurrentHashMap<>();
        /** window start → monitor id → {read at, decidedAt, complete 0/1, up 0/1, unknown 0/1}. */
        private final Map<Long, Map<String, long[]>> statuses = new ConcurrentHashMap<>();

        private final AtomicLong poison = new AtomicLong();
        /** Every event read on {@code vigil.alerts}, in the order read. */
        private final List<AlertSeen> alerts = new java.util.concurrent.CopyOnWriteArrayList<>();

        /**
         * One event on {@code vigil.alerts}: when this process read it, its fingerprint and state, and when its
         * incident began ({@code firstSeen}: a monitor's window start, a self-alert's evaluation time).
         */
        record AlertSeen(long readAt, String fingerprint, String state, long firstSeen, String summary) {}

        Recorder(String bootstrap, long intervalMs) {
            this.bootstrap = bootstrap;
            this.intervalMs = intervalMs;
        }

        void start() {
            threads.add(thread("scale-results", Topics.PROBE_RESULTS, "read_uncommitted", this::onResult));
            threads.add(thread("scale-status", Topics.MONITOR_STATUS, "read_committed", this::onStatus));
            threads.add(thread("scale-alerts", Topics.ALERTS, "read_committed", this::onAlert));
            threads.forEach(Thread::start);
        }

        private interface Handler {
            void handle(ConsumerRecord<String, byte[]> r, long readAt) throws IOException;
        }

        private Thread thread(String name, String topic, String isolation, Handler handler) {
            Thread t = new Thread(
                    () -> {
                        Map<String, Object> props = new HashMap<>();
                        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
                        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
                        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
                        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
                        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
                        props.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
                        try (KafkaConsumer<String, byte[]> c =
                                new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
                            List<TopicPartition> parts = c.partitionsFor(topic).stream()
                                    .map(pi -> new TopicPartition(topic, pi.partition()))
                                    .toList();
                            c.assign(parts);
                            c.seekToEnd(parts);
                            parts.forEach(c::position);
                            long lastPrune = System.currentTimeMillis();
                            while (running.get()) {
                                var records = c.poll(Duration.ofMillis(200));
                                long readAt = System.currentTimeMillis();
                                for (ConsumerRecord<String, byte[]> r : records) {
                                    if (r.key() == null
                                            || r.value() == null
                                            || !(r.key().startsWith(PREFIX) || topic.equals(Topics.ALERTS))) {
                                        continue;
                                    }
                                    try {
                                        handler.handle(r, readAt);
                                    } catch (IOException | RuntimeException e) {
                                        poison.incrementAndGet();
                                    }
                                }
                                if (readAt - lastPrune > intervalMs) {
                                    prune(readAt);
                                    lastPrune = readAt;
                                }
                            }
                        } catch (org.apache.kafka.common.errors.InterruptException e) {
                            // closing
                        }
                    },
                    name);
            t.setDaemon(true);
            return t;
        }

        private void prune(long now) {
            long oldest = now - 12 * intervalMs;
            results.keySet().removeIf(w -> w < oldest);
            statuses.keySet().removeIf(w -> w < oldest);
        }

        private void onResult(ConsumerRecord<String, byte[]> r, long readAt) throws IOException {
            long ws = longField(r.value(), "windowStart");
            // a skipped result says a window was not probed: it is counted by the worker's skip counter, not here
            if (ws < 0 || "skipped".equals(textField(r.value(), "outcome"))) {
                return;
            }
            long[] v = results.computeIfAbsent(ws, k -> new ConcurrentHashMap<>())
                    .computeIfAbsent(r.key(), k -> new long[2]);
            synchronized (v) {
                v[0] = Math.max(v[0], r.timestamp());
                v[1]++;
            }
        }

        private void onStatus(ConsumerRecord<String, byte[]> r, long readAt) throws IOException {
            JsonNode s = JSON.readTree(r.value());
            long ws = s.path("windowStart").asLong(-1);
            if (ws < 0) {
                return;
            }
            String status = s.path("status").asText();
            statuses.computeIfAbsent(ws, k -> new ConcurrentHashMap<>()).putIfAbsent(r.key(), new long[] {
                readAt,
                s.path("decidedAt").asLong(-1),
                s.path("complete").asBoolean() ? 1 : 0,
                "up".equals(status) ? 1 : 0,
                "unknown".equals(status) ? 1 : 0
            });
        }

        private void onAlert(ConsumerRecord<String, byte[]> r, long readAt) throws IOException {
            JsonNode e = JSON.readTree(r.value());
            alerts.add(new AlertSeen(
                    readAt,
                    e.path("fingerprint").asText(r.key()),
                    e.path("state").asText(),
                    e.path("firstSeen").asLong(readAt),
                    e.path("summary").asText("")));
        }

        /**
         * What {@code vigil.alerts} carried of the incidents that began from {@code from} to {@code to}: availability
         * and no-data incidents of the benchmark's monitors opened, and Vigil's own alerts (its {@code vigil/}
         * self-alerts and {@code worker/} alerts) opened and resolved.
         */
        record Pages(
                long availabilityOpened,
                long noDataOpened,
                long selfOpened,
                long selfResolved,
                String selfFingerprints,
                long firstSelfOpenedAt,
                long lastSelfResolvedAt,
                String availabilityWhy) {}

        Pages pages(long from, long to) {
            long availability = 0;
            long noData = 0;
            long selfOpened = 0;
            long selfResolved = 0;
            long firstSelf = -1;
            long lastResolved = -1;
            java.util.TreeSet<String> self = new java.util.TreeSet<>();
            Map<String, Long> why = new java.util.TreeMap<>();
            for (AlertSeen a : alerts) {
                if (a.firstSeen() < from || a.firstSeen() >= to) {
                    continue;
                }
                boolean opened = "opened".equals(a.state());
                String fp = a.fingerprint();
                if (fp.startsWith("monitor/" + PREFIX)) {
                    if (opened) {
                        if (fp.endsWith("/no-data")) {
                            noData++;
                        } else if (fp.indexOf('/', "monitor/".length()) < 0) {
                            availability++;
                            why.merge(a.summary().replaceAll("\\d+", "#"), 1L, Long::sum);
                        }
                    }
                } else if ((fp.startsWith("vigil/") && !fp.startsWith("vigil/canary")) || fp.startsWith("worker/")) {
                    if (opened) {
                        selfOpened++;
                        self.add(fp);
                        firstSelf = firstSelf < 0 ? a.readAt() : firstSelf;
                    } else if ("resolved".equals(a.state())) {
                        selfResolved++;
                        lastResolved = a.readAt();
                    }
                }
            }
            return new Pages(
                    availability,
                    noData,
                    selfOpened,
                    selfResolved,
                    String.join(",", self),
                    firstSelf,
                    lastResolved,
                    topReasons(why));
        }

        /** The three commonest summaries (digits as {@code #}) with their counts: why healthy targets were paged. */
        static String topReasons(Map<String, Long> why) {
            if (why.isEmpty()) {
                return "none";
            }
            return why.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .limit(3)
                    .map(e -> e.getValue() + "x " + e.getKey().replace(' ', '_'))
                    .collect(java.util.stream.Collectors.joining("|"));
        }

        /** The first value of a top-level numeric field of a JSON object; -1 when absent. */
        static long longField(byte[] json, String field) throws IOException {
            try (JsonParser p = JSON_FACTORY.createParser(json)) {
                if (p.nextToken() != JsonToken.START_OBJECT) {
                    return -1;
                }
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    JsonToken t = p.nextToken();
                    if (name.equals(field) && t == JsonToken.VALUE_NUMBER_INT) {
                        return p.getLongValue();
                    }
                    p.skipChildren();
                }
                return -1;
            }
        }

        static String textField(byte[] json, String field) throws IOException {
            try (JsonParser p = JSON_FACTORY.createParser(json)) {
                if (p.nextToken() != JsonToken.START_OBJECT) {
                    return null;
                }
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    JsonToken t = p.nextToken();
                    if (name.equals(field) && t == JsonToken.VALUE_STRING) {
                        return p.getText();
                    }
                    p.skipChildren();
                }
                return null;
            }
        }

        /** What the windows {@code [from, to)} showed for monitors 1..n. */
        record Figures(
                long results, long verdicts, long incomplete, long notUp, List<Long> lags, List<Long> decideLags) {}

        Figures figures(long from, long to, int n, int regions) {
            long resultCount = 0;
            long verdicts = 0;
            long incomplete = 0;
            long notUp = 0;
            List<Long> lags = new ArrayList<>();
            List<Long> decideLags = new ArrayList<>();
            for (long ws = from; ws < to; ws += intervalMs) {
                Map<String, long[]> rs = results.getOrDefault(ws, Map.of());
                Map<String, long[]> ss = statuses.getOrDefault(ws, Map.of());
                for (long[] v : rs.values()) {
                    resultCount += v[1];
                }
                for (var e : ss.entrySet()) {
                    long[] s = e.getValue();
                    verdicts++;
                    if (s[2] == 0) {
                        incomplete++;
                    }
                    if (s[3] == 0) {
                        notUp++;
                    }
                    long[] r = rs.get(e.getKey());
                    // the lag of a verdict decided by its last region's result: produced → readable
                    if (r != null && s[2] == 1 && r[1] >= regions) {
                        lags.add(s[0] - r[0]);
                        if (s[1] >= 0) {
                            decideLags.add(s[1] - r[0]);
                        }
                    }
                }
            }
            return new Figures(resultCount, verdicts, incomplete, notUp, lags, decideLags);
        }

        @Override
        public void close() {
            running.set(false);
            for (Thread t : threads) {
                try {
                    t.join(5000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
