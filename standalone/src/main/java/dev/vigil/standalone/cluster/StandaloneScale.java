package dev.vigil.standalone.cluster;

import dev.vigil.embedded.net.LocalPorts;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.schemas.window.Windows;
import dev.vigil.standalone.launch.StandaloneLauncher;
import dev.vigil.standalone.launch.StandaloneOptions;
import dev.vigil.standalone.monitors.MonitorCatalog;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The scale benchmark on the embedded default a small team runs: one {@code vigil standalone} (one broker, embedded
 * PostgreSQL, one Streams instance, the notifier, ingest and a probe worker per region, all in one JVM), started in
 * this process beside the same target, fleet and topic readers as {@link ClusterScale}. Per step: probes/s, skipped
 * windows, verdicts (complete or not), the pages a healthy fleet opened (there must be none), verdict lag, a
 * {@code /v1/status} page, heap, RSS and CPU of the process (which also holds the target and the readers: it is the
 * whole machine's share that matters here). With {@code faultRegion}, the same fault step as the cluster's: one
 * region's worker stopped for some windows must page once about Vigil and never about a monitor.
 */
public final class StandaloneScale {
    private final Path dataDir;
    private final ClusterScale.Options options;
    private final PrintWriter out;
    private final long intervalMs;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private ScaleFigures.Step faultStep;

    public StandaloneScale(Path dataDir, ClusterScale.Options options, PrintWriter out) {
        this.dataDir = dataDir;
        this.options = options;
        this.out = out;
        this.intervalMs = options.intervalSeconds() * 1000L;
    }

    /** The fault step's figures, when asked for and it ran. */
    public Optional<ScaleFigures.Step> faultStep() {
        return Optional.ofNullable(faultStep);
    }

    /** Starts the stack, runs every step, prints and returns their figures, and stops the stack. */
    public List<ScaleFigures.Step> run() {
        List<ScaleFigures.Step> results = new ArrayList<>();
        int port = LocalPorts.free();
        StandaloneOptions stack =
                StandaloneOptions.defaults(dataDir).withFreePorts().withAllowList(List.of("127.0.0.0/8"));
        Instant t0 = Instant.now();
        try (ScaleTarget target = new ScaleTarget(port, options.addresses(), 2);
                StandaloneLauncher vigil = StandaloneLauncher.start(stack, System.getenv(), line -> {})) {
            say(
                    "standalone up after %.1f s; probe workers %s; target on 127.0.0.1-%d:%d",
                    LocalCluster.seconds(t0), stack.regions(), options.addresses(), port);
            try (ClusterScale.Recorder recorder = new ClusterScale.Recorder(vigil.bootstrapServers(), intervalMs)) {
                recorder.start();
                int published = 0;
                for (int n : options.steps()) {
                    try {
                        ScaleFigures.Step step = step(vigil, recorder, published, n, port, stack.regions());
                        results.add(step);
                        out.println(ScaleFigures.resultLine("standalone-scale", step));
                        out.flush();
                        published = n;
                    } catch (RuntimeException e) {
                        say("step %d failed, no further steps: %s", n, e);
                        break;
                    }
                }
                if (results.isEmpty()) {
                    throw new IllegalStateException("no step finished");
                }
                if (options.faultRegion().isPresent()) {
                    String region = options.faultRegion().get();
                    faultStep = FaultStep.run(
                            recorder,
                            intervalMs,
                            options.faultWindows(),
                            published,
                            region,
                            () -> vigil.stopProbeWorker(region),
                            () -> vigil.startProbeWorker(region),
                            this::say);
                    out.println(ScaleFigures.resultLine("standalone-scale-fault", faultStep));
                    out.flush();
                }
            }
        }
        out.println("growth (" + results.get(results.size() - 1).monitors() + "/"
                + results.get(0).monitors() + ", each figure at the last step over the first):");
        out.print(ScaleFigures.growthTable(results));
        out.flush();
        return results;
    }

    private ScaleFigures.Step step(
            StandaloneLauncher vigil, ClusterScale.Recorder recorder, int from, int n, int port, List<String> regions) {
        Map<String, Double> f = new LinkedHashMap<>();
        Map<String, String> notes = new LinkedHashMap<>();
        say("step %d: publishing monitors %d..%d", n, from + 1, n);
        Map<String, Double> atPublishing = ClusterScale.probeCounters(probeMetrics(vigil));
        Instant p = Instant.now();
        List<MonitorDefinition> defs =
                ScaleFigures.monitors(from, n, port, options.addresses(), regions, options.intervalSeconds());
        new MonitorCatalog(vigil.bootstrapServers(), Topics.MONITORS, Duration.ofMinutes(2)).publish(defs, List.of());
        f.put("publish_s", Math.round(LocalCluster.seconds(p) * 10) / 10.0);
        long publishedAt = System.currentTimeMillis();
        long w0 = Windows.windowStart(publishedAt, intervalMs) + (1L + options.warmupWindows()) * intervalMs;
        long end = w0 + options.measureWindows() * intervalMs;
        say("step %d: measuring windows %s .. %s", n, Instant.ofEpochMilli(w0), Instant.ofEpochMilli(end));
        sleepUntil(w0);
        long pid = ProcessHandle.current().pid();
        Map<String, Double> before = ClusterScale.probeCounters(probeMetrics(vigil));
        long cpuBefore = ClusterScale.procValue(pid, false);
        long cpuAt = System.currentTimeMillis();
        List<Long> pageMs = new ArrayList<>();
        long heapPeak = 0;
        long rssPeak = 0;
        while (System.currentTimeMillis() < end) {
            long now = System.currentTimeMillis();
            Runtime rt = Runtime.getRuntime();
            heapPeak = Math.max(heapPeak, rt.totalMemory() - rt.freeMemory());
            rssPeak = Math.max(rssPeak, ClusterScale.procValue(pid, true));
            long ms = firstPageMs(vigil);
            if (ms >= 0) {
                pageMs.add(ms);
            }
            LocalCluster.sleep(Math.max(0, 2000 - (System.currentTimeMillis() - now)));
        }
        Map<String, Double> after = ClusterScale.probeCounters(probeMetrics(vigil));
        double cpuSeconds = (System.currentTimeMillis() - cpuAt) / 1000.0;
        long cpuTicks = ClusterScale.procValue(pid, false) - cpuBefore;
        // a window's probes all end inside it, so the measured windows' verdicts are out by the last one's end plus
        // the grace; the rest is room for the readers
        sleepUntil(end + Windows.DEFAULT_GRACE_MS + 10_000);
        ClusterScale.Recorder.Figures v = recorder.figures(w0, end, n, regions.size());
        ClusterScale.Recorder.Pages pages = recorder.pages(w0, end);
        ClusterScale.Recorder.Pages publishing = recorder.pages(Windows.windowStart(publishedAt, intervalMs), w0);
        ClusterScale.windowFigures(f, notes, v, pages, publishing, before, after, n, regions.size(), options);
        // what the probes of the publishing windows met, beside the pages those windows opened
        notes.put("failures_by_kind_publishing", ClusterScale.byLabel(atPublishing, before, "failed"));
        notes.put("skipped_by_reason_publishing", ClusterScale.byLabel(atPublishing, before, "skipped"));
        f.put("status_page_p50_ms", (double) ScaleFigures.percentile(pageMs, 50));
        f.put("status_page_p99_ms", (double) ScaleFigures.percentile(pageMs, 99));
        f.put("heap_mib", Math.round(heapPeak / 1048576.0 * 10) / 10.0);
        f.put("rss_mib", rssPeak <= 0 ? Double.NaN : Math.round(rssPeak / 1048576.0 * 10) / 10.0);
        f.put("cpu_pct", cpuTicks < 0 ? Double.NaN : Math.round(cpuTicks / 100.0 / cpuSeconds * 1000) / 10.0);
        f.put("load1", ClusterScale.loadAverage());
        notes.put("windows", Instant.ofEpochMilli(w0) + "/" + options.measureWindows());
        return new ScaleFigures.Step(n, f, notes);
    }

    private List<String> probeMetrics(StandaloneLauncher vigil) {
        List<String> texts = new ArrayList<>();
        for (int port : vigil.probePorts()) {
            texts.add(get("http://127.0.0.1:" + port + "/metrics", null));
        }
        return texts;
    }

    private long firstPageMs(StandaloneLauncher vigil) {
        long t = System.nanoTime();
        String body = get("http://127.0.0.1:" + vigil.queryPort() + "/v1/status?limit=1000", vigil.adminToken());
        return body.isEmpty() ? -1 : (System.nanoTime() - t) / 1_000_000;
    }

    /** The body of a 200 answer; empty for anything else. */
    private String get(String url, String token) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private void say(String format, Object... args) {
        Object[] all = new Object[args.length + 1];
        all[0] = Instant.now().toString();
        System.arraycopy(args, 0, all, 1, args.length);
        out.printf("scale %s " + format + "%n", all);
        out.flush();
    }

    private static void sleepUntil(long epochMs) {
        LocalCluster.sleep(Math.max(0, epochMs - System.currentTimeMillis()));
    }
}
