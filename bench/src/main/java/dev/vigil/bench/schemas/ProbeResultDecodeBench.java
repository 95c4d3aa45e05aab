package dev.vigil.bench.schemas;

import dev.vigil.bench.BenchSupport;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.ProbeResultReader;
import dev.vigil.schemas.json.VigilSerdes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
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
 * JMH micro-benchmark of decoding one typical {@link ProbeResult} (an HTTP success with timings, as the probe worker
 * writes it): the shared mapper ({@code Json.read}, what the serde did before), the streaming
 * {@link ProbeResultReader}, and the serde as the topology now calls it ({@code VigilSerdes.probeResult()}: fast path,
 * mapper fallback), plus both on a shape the fast path defers.
 *
 * <p>Run (from the repository root):
 * <pre>
 * mvn -B -o -q -Dvigil.target=target-decoder -pl bench -am package -DskipTests dependency:build-classpath \
 *     -Dmdep.outputFile=target-decoder/classpath.txt -Dmdep.includeScope=runtime
 * java -cp bench/target-decoder/classes:$(cat bench/target-decoder/classpath.txt) \
 *     dev.vigil.bench.schemas.ProbeResultDecodeBench [--forks 1] [--iterations 3] [--millis 2000]
 * </pre>
 * Prints a last line {@code RESULT probe-result-decode <benchmark>_ops_s=... ... speedup=... deferral_cost=...}
 * (throughput, ops/s; speedup = fastReader / mapper; deferral_cost = mapperDeferred / serdeDeferred, the slowdown
 * of a record the fast path leaves to the mapper) and writes {@code target/results/probe-result-decode.json}.
 * The {@code *Deferred} benchmarks decode a result whose detail holds escaped quotes, outside the fast path.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ProbeResultDecodeBench {
    public static final String NAME = "probe-result-decode";
    private static final long T0 = 1_767_225_600_000L;

    private final JsonSerde<ProbeResult> serde = VigilSerdes.probeResult();
    private byte[] typical;
    private byte[] deferred;

    /** What the probe worker writes for a healthy HTTPS check. */
    static ProbeResult typicalResult() {
        return new ProbeResult(
                1,
                "checkout-api",
                "us-east",
                "worker-us-east-1",
                T0,
                T0 + 1_234,
                Outcome.SUCCESS,
                null,
                200,
                182,
                214,
                4_096L,
                0,
                "https://checkout.example.com/health",
                87,
                4,
                11,
                23,
                null,
                "0f8e2a4c-5b1d-4e7a-9c3f-1a2b3c4d5e6f");
    }

    /** A failure whose detail quotes the response (escaped quotes): outside the fast path's subset. */
    static ProbeResult deferredResult() {
        return new ProbeResult(
                1,
                "checkout-api",
                "us-east",
                "worker-us-east-1",
                T0,
                T0 + 1_234,
                Outcome.ASSERTION_FAILURE,
                null,
                200,
                182,
                214,
                4_096L,
                0,
                "https://checkout.example.com/health",
                87,
                4,
                11,
                23,
                "/status was \"degraded\"",
                "0f8e2a4c-5b1d-4e7a-9c3f-1a2b3c4d5e6f");
    }

    @Setup
    public void setup() {
        typical = Json.bytes(typicalResult());
        if (!typicalResult().equals(ProbeResultReader.readOrNull(typical))) {
            throw new IllegalStateException("the fast path does not answer the typical result");
        }
        deferred = Json.bytes(deferredResult());
        if (ProbeResultReader.readOrNull(deferred) != null) {
            throw new IllegalStateException("the fast path answers the deferred result; pick another shape");
        }
    }

    @Benchmark
    public ProbeResult mapper() {
        return Json.read(typical, ProbeResult.class);
    }

    @Benchmark
    public ProbeResult fastReader() {
        return ProbeResultReader.readOrNull(typical);
    }

    @Benchmark
    public ProbeResult serde() {
        return serde.deserialize("vigil.probe-results", typical);
    }

    /** The price of a deferral: the mapper alone on a shape the fast path leaves to it... */
    @Benchmark
    public ProbeResult mapperDeferred() {
        return Json.read(deferred, ProbeResult.class);
    }

    /** ...and the serde on it (fast path scans, gives up, mapper decodes). */
    @Benchmark
    public ProbeResult serdeDeferred() {
        return serde.deserialize("vigil.probe-results", deferred);
    }

    public static void main(String[] args) throws Exception {
        var a = BenchSupport.JmhArgs.parse(args, new BenchSupport.JmhArgs(1, 3, 2000));
        Map<String, Double> r = run(a.forks(), a.iterations(), a.millis(), Path.of("target", "results"));
        System.out.println(line(r));
    }

    /**
     * Runs every benchmark ({@code iterations} warm-up and {@code iterations} measured, {@code millis} each); returns
     * ops/s by benchmark method name and writes the JSON result.
     */
    public static Map<String, Double> run(int forks, int iterations, int millis, Path resultsDir)
            throws RunnerException, IOException {
        Options opt = new OptionsBuilder()
                .include(ProbeResultDecodeBench.class.getName() + "\\.")
                .forks(forks)
                .warmupIterations(iterations)
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
        json.put("unit", "ops/s");
        json.putAll(out);
        json.put("speedup", speedup(out));
        json.put("deferral_cost", deferralCost(out));
        Files.write(resultsDir.resolve(NAME + ".json"), Json.bytes(json));
        return out;
    }

    static double speedup(Map<String, Double> r) {
        return r.getOrDefault("fastReader", 0.0) / r.getOrDefault("mapper", Double.NaN);
    }

    static double deferralCost(Map<String, Double> r) {
        return r.getOrDefault("mapperDeferred", 0.0) / r.getOrDefault("serdeDeferred", Double.NaN);
    }

    static String line(Map<String, Double> r) {
        StringBuilder sb = new StringBuilder("RESULT ").append(NAME);
        r.forEach((k, v) -> sb.append(' ').append(k).append("_ops_s=").append(String.format(Locale.ROOT, "%.0f", v)));
        return sb.append(" speedup=")
                .append(String.format(Locale.ROOT, "%.2f", speedup(r)))
                .append(" deferral_cost=")
                .append(String.format(Locale.ROOT, "%.2f", deferralCost(r)))
                .toString();
    }
}
