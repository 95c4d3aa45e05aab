package dev.vigil.bench.alerting;

import com.datadoghq.sketch.ddsketch.DDSketch;
import com.datadoghq.sketch.ddsketch.DDSketches;
import dev.vigil.bench.BenchSupport;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import dev.vigil.streams.alerting.AlertStateMachine;
import dev.vigil.streams.alerting.AlertStateRecord;
import dev.vigil.streams.metrics.DurationHistogram;
import dev.vigil.streams.metrics.MetricAggregate;
import dev.vigil.streams.metrics.MetricAggregateSerde;
import dev.vigil.streams.rules.AlertLinks;
import dev.vigil.streams.rules.DefaultRules;
import dev.vigil.streams.rules.Evaluation;
import dev.vigil.streams.rules.MetricRules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * JMH micro-benchmarks of the alerting hot paths: one state-machine transition, one histogram add, merging
 * five one-minute histograms, one metric-window serde round trip (what the window store pays per metric), and
 * one evaluation of the 5xx-ratio rule over five minutes of windows. The histogram (DataDog's sketches-java mapping and
 * store, with Vigil's exact count, min, max and nearest-rank quantiles around them) runs its add and merge beside the
 * same operations of the library's own {@code DDSketch} (logarithmic mapping, same relative accuracy): what the
 * wrapper costs over the bare library.
 *
 * <p>Run (from the repository root, after building the bench classpath as for {@link MetricAlertPipelineBench}):
 * <pre>
 * java -cp bench/target-alerting/classes:$(cat bench/target-alerting/classpath.txt) \
 *     dev.vigil.bench.alerting.AlertingMicroBench [--forks 1] [--iterations 5] [--millis 1000]
 * </pre>
 * Prints a last line {@code RESULT alerting-micro <benchmark>_ns=... ...} (average ns per operation) and writes
 * {@code target/results/alerting-micro.json}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AlertingMicroBench {
    public static final String NAME = "alerting-micro";
    private static final long T0 = 1_767_225_600_000L;

    private final AlertStateMachine machine = new AlertStateMachine();
    private final MetricAggregateSerde serde = new MetricAggregateSerde();
    private final MetricRules rules = new MetricRules(new AlertLinks("http://localhost:8084"));
    private AlertStateRecord firing;
    private Evaluation breach;
    private DurationHistogram histogram;
    private DurationHistogram[] minutes;
    private DDSketch sketch;
    private DDSketch[] sketchMinutes;
    private MetricAggregate window;
    private byte[] windowBytes;
    private List<MetricAggregate> fiveMinutes;
    private double[] durations;
    private int next;

    @Setup
    public void setup() {
        breach = Evaluation.breach(
                "monitor/checkout-api",
                T0,
                Severity.CRITICAL,
                "checkout",
                "monitor",
                "checkout-api is down",
                Map.of("history", "http://localhost:8084/v1/monitors/checkout-api/history"),
                Map.of("monitorId", "checkout-api"),
                AlertSource.PROBE);
        firing = machine.apply(null, breach, false).state();
        breach = Evaluation.breach(
                "monitor/checkout-api",
                T0 + 60_000,
                Severity.CRITICAL,
                "checkout",
                "monitor",
                "checkout-api is down",
                breach.links(),
                breach.attributes(),
                AlertSource.PROBE);
        Random rnd = new Random(7);
        durations = new double[4096];
        for (int i = 0; i < durations.length; i++) {
            durations[i] = Math.exp(4.5 + 0.8 * rnd.nextGaussian());
        }
        histogram = new DurationHistogram();
        sketch = DDSketches.logarithmicUnboundedDense(DurationHistogram.RELATIVE_ERROR);
        sketchMinutes = new DDSketch[5];
        minutes = new DurationHistogram[5];
        fiveMinutes = new ArrayList<>();
        for (int m = 0; m < 5; m++) {
            minutes[m] = new DurationHistogram();
            sketchMinutes[m] = DDSketches.logarithmicUnboundedDense(DurationHistogram.RELATIVE_ERROR);
            for (String status : List.of("200", "503")) {
                DomainMetric first = metric(status, 1.0, T0 + m * 60_000L);
                MetricAggregate w = MetricAggregate.windowFor(first);
                for (int i = 0; i < (status.equals("200") ? 2000 : 50); i++) {
                    double d = durations[(m * 2000 + i) % durations.length];
                    minutes[m].add(d);
                    sketchMinutes[m].accept(d);
                    w.add(metric(status, d, T0 + m * 60_000L + i));
                }
                fiveMinutes.add(w);
            }
        }
        window = fiveMinutes.get(0);
        windowBytes = serde.serialize("t", window);
    }

    private static DomainMetric metric(String status, double durationMs, long ts) {
        return new DomainMetric(1, "shop", "http_request", status, "/cart", null, durationMs, null, ts);
    }

    @Benchmark
    public AlertStateMachine.Transition stateMachineDebouncedBreach() {
        return machine.apply(firing, breach, false);
    }

    @Benchmark
    public DurationHistogram histogramAdd() {
        histogram.add(durations[next++ & (durations.length - 1)]);
        return histogram;
    }

    @Benchmark
    public double histogramMergeFiveMinutesP99() {
        DurationHistogram h = new DurationHistogram();
        for (DurationHistogram m : minutes) {
            h.merge(m);
        }
        return h.p99();
    }

    /** The bare library: sketches-java's DDSketch with the same mapping (logarithmic, the same relative accuracy). */
    @Benchmark
    public DDSketch ddsketchAdd() {
        sketch.accept(durations[next++ & (durations.length - 1)]);
        return sketch;
    }

    @Benchmark
    public double ddsketchMergeFiveMinutesP99() {
        DDSketch h = DDSketches.logarithmicUnboundedDense(DurationHistogram.RELATIVE_ERROR);
        for (DDSketch m : sketchMinutes) {
            h.mergeWith(m);
        }
        return h.getValueAtQuantile(0.99);
    }

    @Benchmark
    public byte[] windowSerdeRoundTrip() {
        return serde.serialize("t", serde.deserialize("t", windowBytes));
    }

    @Benchmark
    public MetricRules.Outcome ratioRuleOverFiveMinutes() {
        return rules.evaluate(DefaultRules.HTTP_5XX_RATIO, "shop", T0 + 5 * 60_000L, fiveMinutes);
    }

    public static void main(String[] args) throws Exception {
        var a = BenchSupport.JmhArgs.parse(args, new BenchSupport.JmhArgs(1, 5, 1000));
        Map<String, Double> r = run(a.forks(), a.iterations(), a.millis(), Path.of("target", "results"));
        System.out.println(line(r));
    }

    /** Runs every benchmark; returns average ns/op by benchmark method name and writes the JSON result. */
    public static Map<String, Double> run(int forks, int iterations, int millis, Path resultsDir)
            throws RunnerException, IOException {
        Options opt = new OptionsBuilder()
                .include(AlertingMicroBench.class.getName() + "\\.")
                .forks(forks)
                .warmupIterations(Math.max(1, iterations / 2))
                .measurementIterations(iterations)
                .warmupTime(TimeValue.milliseconds(millis))
                .measurementTime(TimeValue.milliseconds(millis))
                .shouldFailOnError(true)
                .build();
        Collection<RunResult> results = new Runner(opt).run();
        Map<String, Double> out = new LinkedHashMap<>();
        for (RunResult rr : results) {
            String label = rr.getParams().getBenchmark();
            out.put(
                    label.substring(label.lastIndexOf('.') + 1),
                    rr.getPrimaryResult().getScore());
        }
        Files.createDirectories(resultsDir);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", NAME);
        json.put("unit", "ns/op");
        json.putAll(out);
        Files.write(resultsDir.resolve(NAME + ".json"), Json.bytes(json));
        return out;
    }

    static String line(Map<String, Double> r) {
        StringBuilder sb = new StringBuilder("RESULT ").append(NAME);
        r.forEach((k, v) -> sb.append(' ').append(k).append("_ns=").append(String.format(Locale.ROOT, "%.1f", v)));
        return sb.toString();
    }
}
