package dev.vigil.bench.console;

import static dev.vigil.bench.BenchSupport.deleteTree;
import static dev.vigil.bench.BenchSupport.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.bench.BenchSupport;
import dev.vigil.bench.streams.VerdictPipelineBench;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.kit.auth.TokenSpec;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.schemas.window.Windows;
import dev.vigil.streams.app.StreamsApp;
import dev.vigil.streams.config.StreamsServiceConfig;
import dev.vigil.streams.config.StreamsServiceConfig.HttpSettings;
import dev.vigil.streams.config.StreamsServiceConfig.KafkaSettings;
import dev.vigil.streams.config.TopologyConfig.VerdictSettings;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.GZIPInputStream;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.ScriptTimeoutException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The browser console's first render at fleet scale, in a real headless Chromium.
 *
 * <ol>
 *   <li><b>Stack</b>: the in-process KRaft broker and the Streams service ({@link StreamsApp}) with a query API token;
 *       N monitors (3 regions, 60 s interval, ~20 services) and one past window of probe results: ≈90 % up, 5 %
 *       degraded (one region failing), 5 % down (every region failing). Waits until {@code GET /v1/status} counts
 *       every monitor as decided.</li>
 *   <li><b>Status JSON</b>: {@code GET /v1/status} with {@code Accept-Encoding: identity} and with {@code gzip} (Java
 *       HttpClient, HTTP/1.1): body bytes, and request → last byte on loopback, median of 5 after one warm-up.</li>
 *   <li><b>First render</b>: per round, {@code about:blank} → {@code /#/fleet} with the token already in
 *       sessionStorage; a script installed before any page script runs ({@code Page.addScriptToEvaluateOnNewDocument})
 *       polls each animation frame until {@code #fleet [data-monitor]} rows exist and {@code #fleet-counts} shows N,
 *       and records {@code performance.now()} (ms since navigation start) with the Resource Timing entries so far.
 *       Round 1 runs on an empty HTTP cache ({@code Network.clearBrowserCache}), the others warm.</li>
 *   <li><b>Physical reference</b>, same browser, after each round: on the console's sign-in page (same origin, no
 *       polling) a bare {@code fetch('/v1/status', Authorization)} then {@code r.json()}, timed in the page.</li>
 * </ol>
 *
 * Run from the repository root with the classpath of {@code bench/README.md}:
 * <pre>
 * java -Xmx3g -cp $CP dev.vigil.bench.console.ConsoleRenderBench --monitors 10000 --rounds 5
 * </pre>
 * Prints a last line {@code RESULT console-render monitors=N time_to_grid_ms_p50=... ratio=...} and writes
 * {@code bench/target/results/console-render.json}. Needs {@code /usr/bin/chromium} and {@code /usr/bin/chromedriver}
 * (Debian's {@code chromium} and {@code chromium-driver}; {@code VIGIL_CHROMIUM} / {@code VIGIL_CHROMEDRIVER} override).
 */
public final class ConsoleRenderBench {
    public static final String NAME = "console-render";
    public static final String CHROMIUM = System.getenv().getOrDefault("VIGIL_CHROMIUM", "/usr/bin/chromium");
    public static final String CHROMEDRIVER =
            System.getenv().getOrDefault("VIGIL_CHROMEDRIVER", "/usr/bin/chromedriver");
    static final String TOKEN_KEY = "vigil.token";
    private static final long INTERVAL_MS = 60_000;
    private static final List<String> REGIONS = List.of("eu-west", "us-east", "ap-south");
    private static final List<String> SERVICES = List.of(
            "checkout",
            "payments",
            "search",
            "catalog",
            "cart",
            "accounts",
            "orders",
            "shipping",
            "inventory",
            "pricing",
            "reviews",
            "recommendations",
            "notifications",
            "billing",
            "media",
            "gateway",
            "profile",
            "reports",
            "support",
            "identity");
    private static final List<String> KINDS = List.of("API", "Web", "Health", "Webhook");

    /**
     * Installed in every new document before its own scripts: on {@code /#/fleet}, checks each animation frame for
     * the grid (rows, and the counts showing the total), then leaves what it saw in {@code window.__vigilBench}. The
     * counts' numbers are read with their digit-group separators removed ("10,000" → 10000).
     */
    private static final String PROBE_JS =
            """
            (function () {
              if (location.pathname !== '/' || location.hash !== '#/fleet') return;
              var N = '%d';
              function totalShown() {
                var c = document.getElementById('fleet-counts');
                if (!c) return false;
                var t = (c.textContent || '').replace(/(\\d)[\\s,.'\\u00a0\\u202f\\u2009](?=\\d)/g, '$1');
                return (t.match(/\\d+/g) || []).indexOf(N) >= 0;
              }
              function check() {
                if (document.querySelector('#fleet [data-monitor]') && totalShown()) {
                  var shown = performance.now();
                  var nav = performance.getEntriesByType('navigation')[0];
                  var res = performance.getEntriesByType('resource').map(function (e) {
                    return { path: new URL(e.name).pathname, type: e.initiatorType, transfer: e.transferSize,
                             encoded: e.encodedBodySize, decoded: e.decodedBodySize, start: e.startTime, end: e.responseEnd,
                             status: typeof e.responseStatus === 'number' ? e.responseStatus : -1 };
                  });
                  window.__vigilBench = {
                    gridMs: shown,
                    navTransfer: nav ? nav.transferSize : -1, navEncoded: nav ? nav.encodedBodySize : -1,
                    navDecoded: nav ? nav.decodedBodySize : -1, navStatus: nav && typeof nav.responseStatus === 'number' ? nav.responseStatus : -1,
                    domContentLoadedMs: nav ? nav.domContentLoadedEventEnd : -1,
                    resources: res,
                    rows: document.querySelectorAll('#fleet [data-monitor]').length,
                    elements: document.getElementsByTagName('*').length,
                    counts: document.getElementById('fleet-counts').textContent
                  };
                  return;
                }
                requestAnimationFrame(check);
              }
              requestAnimationFrame(check);
            })();
            """;

    private static final String AWAIT_PROBE_JS =
            """
            var done = arguments[arguments.length - 1];
            (function wait() {
              if (window.__vigilBench) done(window.__vigilBench); else setTimeout(wait, 20);
            })();
            """;

    /** The physical reference: fetch and parse the same JSON, nothing else (no-store like the console's own fetch). */
    private static final String BARE_FETCH_JS =
            """
            var token = arguments[0], done = arguments[arguments.length - 1];
            var t0 = performance.now();
            var encoding = '';
            fetch('/v1/status', { headers: { Authorization: 'Bearer ' + token }, cache: 'no-store' })
              .then(function (r) { encoding = r.headers.get('content-encoding') || 'none'; return r.json(); })
              .then(function (j) { done({ ms: performance.now() - t0, encoding: encoding,
                                          monitors: Array.isArray(j.monitors) ? j.monitors.length : -1 }); })
              .catch(function (e) { done({ error: String(e) }); });
            """;

    /** Scale of one run. */
    public record Options(int monitors, int rounds) {
        public Options {
            if (monitors < 1 || rounds < 1) {
                throw new IllegalArgumentException("--monitors and --rounds must be at least 1");
            }
        }

        static Options parse(String[] args) {
            int monitors = 10_000;
            int rounds = 5;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--monitors" -> monitors = Integer.parseInt(args[++i]);
                    case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                    default -> throw new IllegalArgumentException(
                            "unknown option " + args[i] + "; options: --monitors N --rounds R");
                }
            }
            return new Options(monitors, rounds);
        }
    }

    private ConsoleRenderBench() {}

    public static void main(String[] args) throws Exception {
        run(Options.parse(args));
        System.exit(0);
    }

    /** Whether Debian's chromium and chromedriver are where this harness looks for them. */
    public static boolean browserInstalled() {
        return new File(CHROMIUM).canExecute() && new File(CHROMEDRIVER).canExecute();
    }

    /** Runs everything, prints the RESULT line, writes the JSON file and returns the figures. */
    public static Map<String, Object> run(Options o) throws Exception {
        if (!browserInstalled()) {
            throw new IllegalStateException(
                    CHROMIUM + " or " + CHROMEDRIVER + " is missing (apt-get install chromium chromium-driver)");
        }
        String token = BearerTokens.generate();
        Path work = Files.createTempDirectory("vigil-bench-console");
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            kafka.createTopics(Topics.all());
            // The query API token as VerdictPipelineBench builds it. The verdict grace is raised to its maximum (10
            // min):
            // with no probes after the one published window, the first silent window would otherwise turn every monitor
            // 'unknown' about two minutes after start, mid-measurement.
            var cfg = StreamsServiceConfig.defaults()
                    .withKafka(new KafkaSettings(
                            kafka.bootstrapServers(),
                            "vigil-bench-console",
                            work.resolve("state").toString(),
                            1,
                            1,
                            0,
                            Duration.ofMillis(100),
                            Map.of()))
                    .withHttp(HttpSettings.loopback(0))
                    .withVerdict(new VerdictSettings(Duration.ofMinutes(10), null, null, null))
                    .withAuth(StreamsServiceConfig.AuthSettings.of(
                            List.of(new TokenSpec("bench", BearerTokens.hash(token), List.of("admin")))));
            long t0 = System.nanoTime();
            try (var streams = StreamsApp.start(cfg)) {
                String base = "http://127.0.0.1:" + streams.httpPort();
                HttpClient http = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .build();
                VerdictPipelineBench.sendAll(kafka, definitions(o.monitors()));
                awaitStatus(
                        http,
                        base,
                        token,
                        o.monitors(),
                        s -> s.path("monitors").size() >= o.monitors(),
                        "monitors loaded");
                long ws = Windows.windowStart(System.currentTimeMillis(), INTERVAL_MS) - INTERVAL_MS;
                VerdictPipelineBench.sendAll(kafka, results(o.monitors(), ws));
                JsonNode decided = awaitStatus(
                        http, base, token, o.monitors(), s -> decidedCount(s) == o.monitors(), "monitors decided");
                System.out.printf(
                        Locale.ROOT,
                        "%d monitors decided %.1f s after start: %s%n",
                        o.monitors(),
                        (System.nanoTime() - t0) / 1e9,
                        decided.path("counts"));

                Map<String, Object> r = new LinkedHashMap<>();
                r.put("monitors", o.monitors());
                StatusSize size = statusSize(http, base, token, o.monitors());
                Browser b = browser(base, token, o);

                r.put("time_to_grid_ms_p50", round1(b.warmGridMs()));
                r.put("cold_ms", round1(b.rounds().get(0).gridMs()));
                r.put("bare_fetch_parse_ms_p50", round1(b.bareMsP50()));
                r.put("ratio", round3(b.warmGridMs() / b.bareMsP50()));
                r.put("status_json_bytes", size.rawBytes());
                r.put("status_json_gzip_bytes", size.gzipBytes());
                r.put("transfer_bytes_cold", b.rounds().get(0).totalTransfer());
                r.put("transfer_bytes_warm", Math.round(b.warmMedian(Round::totalTransfer)));
                r.put("dom_rows", b.rounds().get(b.rounds().size() - 1).rows());
                r.put("rounds", o.rounds());
                r.put("cold_ratio", round3(b.rounds().get(0).gridMs() / b.bareMsP50()));
                r.put("status_json_bytes_per_monitor", round1((double) size.rawBytes() / o.monitors()));
                r.put("status_identity_ms_p50", round1(size.identityMsP50()));
                r.put("status_gzip_ms_p50", round1(size.gzipMsP50()));
                r.put("status_gzip_encoding", size.gzipEncoding());
                Round cold = b.rounds().get(0);
                r.put("shell_transfer_bytes_cold", cold.shellTransfer());
                r.put("shell_transfer_bytes_warm", Math.round(b.warmMedian(Round::shellTransfer)));
                r.put("api_transfer_bytes_cold", cold.apiTransfer());
                r.put("browser_status_transfer_bytes", cold.statusTransfer());
                r.put("browser_status_encoded_bytes", cold.statusEncoded());
                r.put("browser_status_decoded_bytes", cold.statusDecoded());
                r.put("browser_status_encoding", b.statusEncoding());
                r.put("status_request_start_ms_p50", round1(b.warmMedian(Round::statusStartMs)));
                r.put("status_response_end_ms_p50", round1(b.warmMedian(Round::statusEndMs)));
                r.put("cold_assets_from_cache", cold.assetsFromCache());
                r.put(
                        "failed_requests",
                        b.rounds().stream().mapToLong(Round::failed).sum());
                r.put("dom_elements", b.rounds().get(b.rounds().size() - 1).elements());
                r.put("browser", b.version());
                r.put("counts", mapOf(decided.path("counts")));
                JsonNode end = getStatus(http, base, token);
                r.put("counts_at_end", mapOf(end.path("counts")));
                r.put("monitors_with_alert", countAlerts(end));
                Map<String, Object> perRound = new LinkedHashMap<>();
                for (int i = 0; i < b.rounds().size(); i++) {
                    perRound.put(String.valueOf(i + 1), b.rounds().get(i).asMap());
                }
                r.put("perRound", perRound);
                Map<String, Object> serverTimes = new LinkedHashMap<>();
                serverTimes.put("identityMs", size.identityMs());
                serverTimes.put("gzipMs", size.gzipMs());
                r.put("statusRequests", serverTimes);
                if (cold.assetsFromCache() > 0) {
                    System.out.println("WARNING: " + cold.assetsFromCache()
                            + " console assets came from the cache in the cold round: " + cold.cachedAssets());
                }
                report(NAME, r);
                return r;
            }
        } finally {
            deleteTree(work);
        }
    }

    // ---- the fleet ------------------------------------------------------------------------------------------

    static String id(int m) {
        return SERVICES.get(m % SERVICES.size()) + "-"
                + KINDS.get((m / SERVICES.size()) % KINDS.size()).toLowerCase(Locale.ROOT) + "-"
                + String.format(Locale.ROOT, "%05d", m);
    }

    static String name(int m) {
        String s = SERVICES.get(m % SERVICES.size());
        return Character.toUpperCase(s.charAt(0)) + s.substring(1) + " "
                + KINDS.get((m / SERVICES.size()) % KINDS.size()) + " " + String.format(Locale.ROOT, "%05d", m);
    }

    /** Failing regions of monitor m: none for ≈90 %, one (degraded) for 5 %, all three (down) for 5 %. */
    static int failingRegions(int m) {
        return switch (m % 20) {
            case 7 -> 1;
            case 13 -> REGIONS.size();
            default -> 0;
        };
    }

    private static List<ProducerRecord<String, byte[]>> definitions(int n) {
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>(n);
        for (int m = 0; m < n; m++) {
            String service = SERVICES.get(m % SERVICES.size());
            MonitorDefinition def = new MonitorDefinition(
                    1,
                    id(m),
                    name(m),
                    "https://" + service + ".example.com/"
                            + KINDS.get((m / SERVICES.size()) % KINDS.size()).toLowerCase(Locale.ROOT) + "/health?m="
                            + m,
                    null,
                    (int) (INTERVAL_MS / 1000),
                    2500,
                    REGIONS,
                    null,
                    null,
                    null,
                    service,
                    null,
                    null,
                    null);
            out.add(new ProducerRecord<>(Topics.MONITORS, def.id(), Json.bytes(def)));
        }
        return out;
    }

    private static List<ProducerRecord<String, byte[]>> results(int n, long ws) {
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>(n * REGIONS.size());
        for (int m = 0; m < n; m++) {
            int failing = failingRegions(m);
            for (int r = 0; r < REGIONS.size(); r++) {
                // the degraded monitor's failing region rotates over the three
                boolean fail = failing == REGIONS.size() || (failing == 1 && r == (m / 20) % REGIONS.size());
                out.add(new ProducerRecord<>(
                        Topics.PROBE_RESULTS,
                        id(m),
                        Json.bytes(VerdictPipelineBench.result(id(m), REGIONS.get(r), ws, fail))));
            }
        }
        return out;
    }

    // ---- the status JSON ------------------------------------------------------------------------------------

    private static long decidedCount(JsonNode status) {
        JsonNode c = status.path("counts");
        return c.path("up").asLong()
                + c.path("degraded").asLong()
                + c.path("down").asLong()
                + c.path("unknown").asLong();
    }

    private static JsonNode getStatus(HttpClient http, String base, String token)
            throws IOException, InterruptedException {
        HttpResponse<byte[]> res =
                http.send(statusRequest(base, token, "identity"), HttpResponse.BodyHandlers.ofByteArray());
        if (res.statusCode() != 200) {
            throw new IOException("GET /v1/status answered " + res.statusCode());
        }
        return Json.tree(res.body());
    }

    private static JsonNode awaitStatus(
            HttpClient http,
            String base,
            String token,
            int monitors,
            java.util.function.Predicate<JsonNode> done,
            String what)
            throws Exception {
        long deadline =
                System.nanoTime() + Duration.ofSeconds(180 + monitors / 100).toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            try {
                last = getStatus(http, base, token);
                if (done.test(last)) {
                    return last;
                }
            } catch (IOException e) {
                // not serving yet
            }
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
        }
        throw new IllegalStateException("timed out waiting for " + monitors + " " + what + "; last counts: "
                + (last == null
                        ? "no answer"
                        : last.path("counts") + ", rows "
                                + last.path("monitors").size()));
    }

    private static HttpRequest statusRequest(String base, String token, String encoding) {
        return HttpRequest.newBuilder(URI.create(base + "/v1/status"))
                .header("Authorization", "Bearer " + token)
                .header("Accept-Encoding", encoding)
                .timeout(Duration.ofSeconds(60))
                .build();
    }

    record StatusSize(
            long rawBytes, long gzipBytes, String gzipEncoding, List<Double> identityMs, List<Double> gzipMs) {
        double identityMsP50() {
            return median(identityMs);
        }

        double gzipMsP50() {
            return median(gzipMs);
        }
    }

    /** One warm-up pair, then 5 pairs (identity, gzip); the gzip body is checked to inflate to the same JSON size. */
    private static StatusSize statusSize(HttpClient http, String base, String token, int monitors) throws Exception {
        List<Double> identity = new ArrayList<>();
        List<Double> gzip = new ArrayList<>();
        long raw = 0;
        long compressed = 0;
        String encoding = "";
        for (int i = 0; i <= 5; i++) {
            long t0 = System.nanoTime();
            HttpResponse<byte[]> plain =
                    http.send(statusRequest(base, token, "identity"), HttpResponse.BodyHandlers.ofByteArray());
            double plainMs = (System.nanoTime() - t0) / 1e6;
            t0 = System.nanoTime();
            HttpResponse<byte[]> gz =
                    http.send(statusRequest(base, token, "gzip"), HttpResponse.BodyHandlers.ofByteArray());
            double gzMs = (System.nanoTime() - t0) / 1e6;
            if (plain.statusCode() != 200 || gz.statusCode() != 200) {
                throw new IOException("GET /v1/status answered " + plain.statusCode() + " / " + gz.statusCode());
            }
            encoding = gz.headers().firstValue("Content-Encoding").orElse("none");
            byte[] inflated = "gzip".equals(encoding)
                    ? new GZIPInputStream(new java.io.ByteArrayInputStream(gz.body())).readAllBytes()
                    : gz.body();
            if (Json.tree(inflated).path("monitors").size() != monitors) {
                throw new IllegalStateException("the gzip answer does not hold " + monitors + " monitors");
            }
            if (i > 0) {
                identity.add(round1(plainMs));
                gzip.add(round1(gzMs));
            }
            raw = plain.body().length;
            compressed = gz.body().length;
        }
        System.out.printf(
                Locale.ROOT,
                "status JSON: %,d bytes raw (%.0f per monitor), %,d bytes %s; request→last byte p50 "
                        + "%.1f ms identity, %.1f ms gzip%n",
                raw,
                (double) raw / monitors,
                compressed,
                encoding,
                median(identity),
                median(gzip));
        return new StatusSize(raw, compressed, encoding, identity, gzip);
    }

    // ---- the browser ----------------------------------------------------------------------------------------

    /** What one round saw at the moment the grid was shown, and its bare fetch. */
    record Round(
            boolean cold,
            double gridMs,
            double domContentLoadedMs,
            long shellTransfer,
            long apiTransfer,
            long statusTransfer,
            long statusEncoded,
            long statusDecoded,
            double statusStartMs,
            double statusEndMs,
            int statusCalls,
            long assetsFromCache,
            String cachedAssets,
            long failed,
            long rows,
            long elements,
            double bareMs) {
        long totalTransfer() {
            return shellTransfer + apiTransfer;
        }

        Map<String, Object> asMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("cold", cold);
            m.put("timeToGridMs", round1(gridMs));
            m.put("domContentLoadedMs", round1(domContentLoadedMs));
            m.put("statusRequestStartMs", round1(statusStartMs));
            m.put("statusResponseEndMs", round1(statusEndMs));
            m.put("statusCalls", statusCalls);
            m.put("shellTransferBytes", shellTransfer);
            m.put("apiTransferBytes", apiTransfer);
            m.put("statusTransferBytes", statusTransfer);
            m.put("statusEncodedBytes", statusEncoded);
            m.put("statusDecodedBytes", statusDecoded);
            m.put("assetsFromCache", assetsFromCache);
            m.put("cachedAssets", cachedAssets);
            m.put("failedRequests", failed);
            m.put("domRows", rows);
            m.put("domElements", elements);
            m.put("bareFetchParseMs", round1(bareMs));
            return m;
        }
    }

    record Browser(String version, String statusEncoding, List<Round> rounds) {
        /** Median over the warm rounds (rounds 2..R); the cold round's value when there is only one. */
        double warmMedian(java.util.function.ToDoubleFunction<Round> f) {
            List<Round> warm = rounds.size() > 1 ? rounds.subList(1, rounds.size()) : rounds;
            return median(warm.stream().map(f::applyAsDouble).toList());
        }

        double warmGridMs() {
            return warmMedian(Round::gridMs);
        }

        double bareMsP50() {
            return median(rounds.stream().map(Round::bareMs).toList());
        }
    }

    static ChromeDriver startChromium(Path profile) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--disable-extensions",
                "--user-data-dir=" + profile.toAbsolutePath(),
                "--window-size=1400,1000");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    private static Browser browser(String base, String token, Options o) throws IOException {
        Path profile = Files.createTempDirectory("vigil-bench-chromium");
        ChromeDriver driver = startChromium(profile);
        try {
            Duration timeout = Duration.ofSeconds(Math.max(60, o.monitors() / 200));
            driver.manage().timeouts().scriptTimeout(timeout);
            driver.manage().timeouts().pageLoadTimeout(timeout);
            String version = driver.getCapabilities().getBrowserVersion();
            // the token goes into this tab's sessionStorage, where the console keeps it after sign-in (never in a URL)
            driver.get(base + "/");
            driver.executeScript("sessionStorage.setItem(arguments[0], arguments[1])", TOKEN_KEY, token);
            driver.executeCdpCommand(
                    "Page.addScriptToEvaluateOnNewDocument", Map.of("source", PROBE_JS.formatted(o.monitors())));
            List<Round> rounds = new ArrayList<>();
            String encoding = "";
            for (int i = 0; i < o.rounds(); i++) {
                boolean cold = i == 0;
                driver.get("about:blank");
                if (cold) {
                    driver.executeCdpCommand("Network.clearBrowserCache", Map.of());
                }
                driver.get(base + "/#/fleet");
                Map<String, Object> seen;
                try {
                    seen = asMap(driver.executeAsyncScript(AWAIT_PROBE_JS));
                } catch (ScriptTimeoutException e) {
                    Object view = driver.executeScript("var v = document.getElementById('view'); "
                            + "return (v ? v.innerText : document.body.innerText).slice(0, 400)");
                    throw new IllegalStateException(
                            "round " + (i + 1) + ": the grid did not show " + o.monitors() + " monitors within "
                                    + timeout.toSeconds() + " s; the page shows: " + view,
                            e);
                }
                if (i == o.rounds() - 1) {
                    screenshot(driver);
                }
                // the reference, on the sign-in page: same origin and CSP, the console's scripts loaded, nothing
                // polling
                driver.executeScript("sessionStorage.removeItem(arguments[0])", TOKEN_KEY);
                driver.get("about:blank");
                driver.get(base + "/");
                Map<String, Object> bare = asMap(driver.executeAsyncScript(BARE_FETCH_JS, token));
                driver.executeScript("sessionStorage.setItem(arguments[0], arguments[1])", TOKEN_KEY, token);
                if (bare.containsKey("error") || num(bare.get("monitors")) != o.monitors()) {
                    throw new IllegalStateException("the bare fetch failed: " + bare);
                }
                encoding = String.valueOf(bare.get("encoding"));
                Round round = round(cold, seen, num(bare.get("ms")));
                rounds.add(round);
                System.out.printf(
                        Locale.ROOT,
                        "round %d (%s): grid shown at %.1f ms (status fetched %.1f→%.1f ms, %d rows), "
                                + "%,d bytes transferred (shell %,d, api %,d); bare fetch+parse %.1f ms%n",
                        i + 1,
                        cold ? "cold" : "warm",
                        round.gridMs(),
                        round.statusStartMs(),
                        round.statusEndMs(),
                        round.rows(),
                        round.totalTransfer(),
                        round.shellTransfer(),
                        round.apiTransfer(),
                        round.bareMs());
            }
            return new Browser(version, encoding, rounds);
        } finally {
            driver.quit();
            deleteTree(profile);
        }
    }

    private static Round round(boolean cold, Map<String, Object> seen, double bareMs) {
        long shell = (long) num(seen.get("navTransfer"));
        long api = 0;
        long statusTransfer = 0;
        long statusEncoded = 0;
        long statusDecoded = 0;
        double statusStart = Double.NaN;
        double statusEnd = Double.NaN;
        int statusCalls = 0;
        long fromCache = 0;
        List<String> cached = new ArrayList<>();
        long failed = num(seen.get("navStatus")) >= 400 ? 1 : 0;
        for (Object o : (List<?>) seen.get("resources")) {
            Map<String, Object> e = asMap(o);
            String path = String.valueOf(e.get("path"));
            long transfer = (long) num(e.get("transfer"));
            if (num(e.get("status")) >= 400) {
                failed++;
            }
            if (path.startsWith("/v1/")) {
                api += transfer;
                if (path.equals("/v1/status")) {
                    statusCalls++;
                    if (statusCalls == 1) {
                        statusTransfer = transfer;
                        statusEncoded = (long) num(e.get("encoded"));
                        statusDecoded = (long) num(e.get("decoded"));
                        statusStart = num(e.get("start"));
                        statusEnd = num(e.get("end"));
                    }
                }
            } else {
                shell += transfer;
                // a script or stylesheet served from the cache (the favicon <img> is left out: the page's own
                // <link rel=icon> fetch, which Resource Timing does not list, puts it in the cache first)
                String type = String.valueOf(e.get("type"));
                boolean code = type.equals("script") || type.equals("link") || type.equals("css");
                if (code && transfer == 0 && num(e.get("decoded")) > 0) {
                    fromCache++;
                    cached.add(path);
                }
            }
        }
        return new Round(
                cold,
                num(seen.get("gridMs")),
                num(seen.get("domContentLoadedMs")),
                shell,
                api,
                statusTransfer,
                statusEncoded,
                statusDecoded,
                statusStart,
                statusEnd,
                statusCalls,
                fromCache,
                String.join(" ", cached),
                failed,
                (long) num(seen.get("rows")),
                (long) num(seen.get("elements")),
                bareMs);
    }

    private static void screenshot(ChromeDriver driver) {
        try {
            Path dir = BenchSupport.resultsDir();
            Files.createDirectories(dir);
            Files.write(dir.resolve(NAME + ".png"), driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException | RuntimeException e) {
            System.out.println("no screenshot: " + e);
        }
    }

    // ---- small helpers --------------------------------------------------------------------------------------

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        if (!(o instanceof Map)) {
            throw new IllegalStateException("the page returned " + o);
        }
        return (Map<String, Object>) o;
    }

    private static double num(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static Map<String, Object> mapOf(JsonNode obj) {
        Map<String, Object> m = new LinkedHashMap<>();
        obj.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asLong()));
        return m;
    }

    private static long countAlerts(JsonNode status) {
        long n = 0;
        for (JsonNode row : status.path("monitors")) {
            if (row.hasNonNull("alert")) {
                n++;
            }
        }
        return n;
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
