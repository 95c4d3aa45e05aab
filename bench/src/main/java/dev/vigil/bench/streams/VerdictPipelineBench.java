package dev.vigil.bench.streams;

import static dev.vigil.bench.BenchSupport.deleteTree;
import static dev.vigil.bench.BenchSupport.percentile;
import static dev.vigil.bench.BenchSupport.writeJson;

import dev.vigil.bench.BenchSupport;
import dev.vigil.bench.TopicTail;
import dev.vigil.bench.TraceExport;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.kit.auth.TokenSpec;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.schemas.topic.Topics.TopicSpec;
import dev.vigil.streams.app.StreamsApp;
import dev.vigil.streams.config.StreamsServiceConfig;
import dev.vigil.streams.config.StreamsServiceConfig.HttpSettings;
import dev.vigil.streams.config.StreamsServiceConfig.KafkaSettings;
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
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;

/**
 * End-to-end benchmark of the verdict topology on the embedded broker.
 *
 * <ol>
 *   <li><b>Raw pipe</b> (the physical reference): the same serialized probe results go through a plain
 *       consumer → idempotent producer loop between two 6-partition topics; records/s from the first record
 *       produced to the last record readable downstream.</li>
 *   <li><b>Kafka Streams pass-through</b> (the framework's ceiling): the same records through a source → sink
 *       topology with the verdict service's guarantee and commit interval (exactly_once_v2, 100 ms); records/s
 *       until the last is readable with read_committed.</li>
 *   <li><b>Verdict throughput</b>: the results go to {@code vigil.probe-results}; the Streams service
 *       (exactly_once_v2) turns each (monitor, window) into a verdict; results/s from the first result
 *       produced to the last verdict readable with read_committed on {@code vigil.monitor-status}.</li>
 *   <li><b>Verdict latency</b>: one more window produced at a steady rate; for each monitor, the time from
 *       sending its last expected result to its verdict being readable (read_committed), p50/p99.</li>
 * </ol>
 *
 * Run: see {@code streams-topology/README.md} (section "Benchmark"). Prints a last line
 * {@code RESULT streams-verdicts ...} and writes {@code target/results/streams-verdicts.json}.
 */
public final class VerdictPipelineBench {
    public static final String NAME = "streams-verdicts";
    private static final long HOUR = 3_600_000L;
    private static final String RAW_IN = "bench.raw-in";
    private static final String RAW_OUT = "bench.raw-out";
    private static final String EOS_IN = "bench.eos-in";
    private static final String EOS_OUT = "bench.eos-out";

    /** Scale of one run. */
    public record Options(
            int monitors,
            int regions,
            int throughputWindows,
            int latencyRatePerSecond,
            int streamThreads,
            Path resultsDir,
            int rounds) {
        public Options(
                int monitors,
                int regions,
                int throughputWindows,
                int latencyRatePerSecond,
                int streamThreads,
                Path resultsDir) {
            this(monitors, regions, throughputWindows, latencyRatePerSecond, streamThreads, resultsDir, 1);
        }

        public static Options defaults() {
            return new Options(10_000, 3, 5, 6_000, 1, Path.of("target", "results"), 3);
        }

        Options withRounds(int n) {
            return new Options(
                    monitors, regions, throughputWindows, latencyRatePerSecond, streamThreads, resultsDir, n);
        }
    }

    /**
     * Measured figures: the best round of each phase (the least disturbed by other load on the machine),
     * and per CPU-second of this process (broker included), which other processes' load does not distort.
     * {@code roundRatioMedian}: the median over rounds of (verdict rate / raw pipe rate of the same round), which
     * pairs two phases run back to back under the same conditions; the best-of-each ratio instead divides by the
     * raw pipe's single best burst (about a second long, the noisiest phase).
     */
    public record Result(
            int monitors,
            int regions,
            long results,
            int rounds,
            double rawPipeRecordsPerSecond,
            double verdictResultsPerSecond,
            double ratio,
            double rawPipeRecordsPerCpuSecond,
            double verdictResultsPerCpuSecond,
            double cpuRatio,
            double passThroughRecordsPerSecond,
            double passThroughRecordsPerCpuSecond,
            double roundRatioMedian,
            double roundCpuRatioMedian,
            double latencyP50Ms,
            double latencyP99Ms,
            double latencyMaxMs,
            int latencySamples) {
        /** Verdict topology over the Streams pass-through, per CPU-second: the share of the framework's ceiling. */
        public double passThroughCpuRatio() {
            return verdictResultsPerCpuSecond / passThroughRecordsPerCpuSecond;
        }

        public String line() {
            return String.format(
                    java.util.Locale.ROOT,
                    "RESULT %s monitors=%d regions=%d results=%d rounds=%d verdict_results_per_s=%.0f raw_pipe_records_per_s=%.0f "
                            + "ratio=%.3f verdict_results_per_cpu_s=%.0f raw_pipe_records_per_cpu_s=%.0f cpu_ratio=%.3f "
                            + "streams_pass_through_records_per_s=%.0f streams_pass_through_records_per_cpu_s=%.0f "
                            + "pass_through_cpu_ratio=%.3f round_ratio_median=%.3f round_cpu_ratio_median=%.3f "
                            + "latency_p50_ms=%.1f latency_p99_ms=%.1f latency_max_ms=%.1f latency_samples=%d",
                    NAME,
                    monitors,
                    regions,
                    results,
                    rounds,
                    verdictResultsPerSecond,
                    rawPipeRecordsPerSecond,
                    ratio,
                    verdictResultsPerCpuSecond,
                    rawPipeRecordsPerCpuSecond,
                    cpuRatio,
                    passThroughRecordsPerSecond,
                    passThroughRecordsPerCpuSecond,
                    passThroughCpuRatio(),
                    roundRatioMedian,
                    roundCpuRatioMedian,
                    latencyP50Ms,
                    latencyP99Ms,
                    latencyMaxMs,
                    latencySamples);
        }
    }

    /** A phase's rate by wall clock and by CPU time of this process. */
    private record Rate(double perSecond, double perCpuSecond) {}

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private VerdictPipelineBench() {}

    /**
     * Extra Kafka Streams properties for the verdict service, to compare settings on the same run conditions:
     * {@code -Dvigil.bench.kafka=producer.batch.size=65536,producer.linger.ms=20}.
     */
    private static Map<String, String> extraKafkaProperties() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : System.getProperty("vigil.bench.kafka", "").split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                out.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.defaults();
        for (int i = 0; i + 1 < args.length; i += 2) {
            int v = Integer.parseInt(args[i + 1]);
            o = switch (args[i]) {
                case "--monitors" -> new Options(
                        v,
                        o.regions(),
                        o.throughputWindows(),
                        o.latencyRatePerSecond(),
                        o.streamThreads(),
                        o.resultsDir());
                case "--regions" -> new Options(
                        o.monitors(),
                        v,
                        o.throughputWindows(),
                        o.latencyRatePerSecond(),
                        o.streamThreads(),
                        o.resultsDir());
                case "--windows" -> new Options(
                        o.monitors(), o.regions(), v, o.latencyRatePerSecond(), o.streamThreads(), o.resultsDir());
                case "--latency-rate" -> new Options(
                        o.monitors(), o.regions(), o.throughputWindows(), v, o.streamThreads(), o.resultsDir());
                case "--threads" -> new Options(
                        o.monitors(), o.regions(), o.throughputWindows(), o.latencyRatePerSecond(), v, o.resultsDir());
                case "--rounds" -> o.withRounds(v);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (known: --monitors --regions --windows --latency-rate --threads --rounds)");
            };
        }
        Result r = run(o);
        // tracing=on: the service exported a span per verdict and per alert (see TraceExport)
        System.out.println(
                r.line() + " tracing=" + ("on".equals(System.getProperty("vigil.bench.otel")) ? "on" : "off"));
        System.exit(0);
    }

    public static Result run(Options o) throws Exception {
        Path work = Files.createTempDirectory("vigil-bench-streams");
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start();
                TraceExport trace = TraceExport.fromProperty()) {
            List<TopicSpec> topics = new ArrayList<>(Topics.all());
            topics.add(new TopicSpec(RAW_IN, Topics.DEFAULT_PARTITIONS, false));
            topics.add(new TopicSpec(RAW_OUT, Topics.DEFAULT_PARTITIONS, false));
            topics.add(new TopicSpec(EOS_IN, Topics.DEFAULT_PARTITIONS, false));
            topics.add(new TopicSpec(EOS_OUT, Topics.DEFAULT_PARTITIONS, false));
            kafka.createTopics(topics);

            // Hourly windows from the next hour on: deadlines ahead, so verdicts are decided by completeness,
            // as in steady operation (results arrive before the deadline).
            long base = System.currentTimeMillis() - Math.floorMod(System.currentTimeMillis(), HOUR) + HOUR;
            List<String> regions = regions(o.regions());
            int perRound = o.monitors() * o.regions() * o.throughputWindows();
            System.out.printf(
                    "%d rounds of %d probe results (%d monitors x %d regions x %d windows)%n",
                    o.rounds(), perRound, o.monitors(), o.regions(), o.throughputWindows());

            Path state = work.resolve("state");
            var cfg = StreamsServiceConfig.defaults()
                    .withKafka(new KafkaSettings(
                            kafka.bootstrapServers(),
                            "vigil-bench",
                            state.toString(),
                            o.streamThreads(),
                            1,
                            0,
                            Duration.ofMillis(100),
                            extraKafkaProperties()))
                    .withHttp(HttpSettings.loopback(0))
                    .withAuth(StreamsServiceConfig.AuthSettings.of(
                            List.of(new TokenSpec("bench", BearerTokens.hash(BENCH_TOKEN), List.of("read")))))
                    .withOtel(trace.settings());
            List<ProducerRecord<String, byte[]>> definitions = new ArrayList<>();
            for (int m = 0; m < o.monitors(); m++) {
                MonitorDefinition def = new MonitorDefinition(
                        1,
                        id(m),
                        null,
                        "https://example.com/" + m,
                        null,
                        3600,
                        2500,
                        regions,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null);
                definitions.add(new ProducerRecord<>(Topics.MONITORS, def.id(), Json.bytes(def)));
            }
            sendAll(kafka, definitions);
            Rate bestRaw = new Rate(0, 0);
            Rate bestVerdict = new Rate(0, 0);
            Rate bestPassThrough = new Rate(0, 0);
            List<Double> roundRatios = new ArrayList<>();
            List<Double> roundCpuRatios = new ArrayList<>();
            Latencies lat;
            try (var streams = StreamsApp.start(cfg);
                    KafkaStreams passThrough = passThrough(kafka, work.resolve("eos"))) {
                awaitMonitorsLoaded(streams.httpPort(), o.monitors());
                System.out.println("streams running with " + o.monitors() + " monitors loaded");
                try (VerdictObserver observer = new VerdictObserver(kafka)) {
                    // Rounds alternate the two phases so both see the same share of whatever else runs on the machine.
                    for (int round = 0; round < o.rounds(); round++) {
                        List<ProducerRecord<String, byte[]>> batch =
                                results(o, regions, base, o.throughputWindows(), round * o.throughputWindows());
                        Rate raw = rawPipe(kafka, batch);
                        Rate eos = passThroughRate(kafka, batch);
                        Rate verdicts =
                                verdictThroughput(kafka, observer, batch, (long) o.monitors() * o.throughputWindows());
                        System.out.printf(
                                "round %d: raw pipe %.0f records/s (%.0f per CPU-s), streams pass-through %.0f "
                                        + "records/s (%.0f per CPU-s), verdict topology %.0f results/s (%.0f per CPU-s)%n",
                                round + 1,
                                raw.perSecond(),
                                raw.perCpuSecond(),
                                eos.perSecond(),
                                eos.perCpuSecond(),
                                verdicts.perSecond(),
                                verdicts.perCpuSecond());
                        roundRatios.add(verdicts.perSecond() / raw.perSecond());
                        roundCpuRatios.add(verdicts.perCpuSecond() / raw.perCpuSecond());
                        bestPassThrough = new Rate(
                                Math.max(bestPassThrough.perSecond(), eos.perSecond()),
                                Math.max(bestPassThrough.perCpuSecond(), eos.perCpuSecond()));
                        bestRaw = new Rate(
                                Math.max(bestRaw.perSecond(), raw.perSecond()),
                                Math.max(bestRaw.perCpuSecond(), raw.perCpuSecond()));
                        bestVerdict = new Rate(
                                Math.max(bestVerdict.perSecond(), verdicts.perSecond()),
                                Math.max(bestVerdict.perCpuSecond(), verdicts.perCpuSecond()));
                    }
                    lat = latency(kafka, observer, o, regions, base + (long) o.rounds() * o.throughputWindows() * HOUR);
                    System.out.printf(
                            "verdict latency at %d results/s: p50 %.1f ms, p99 %.1f ms%n",
                            o.latencyRatePerSecond(), lat.p50, lat.p99);
                }
            }
            Result r = new Result(
                    o.monitors(),
                    o.regions(),
                    perRound,
                    o.rounds(),
                    bestRaw.perSecond(),
                    bestVerdict.perSecond(),
                    bestVerdict.perSecond() / bestRaw.perSecond(),
                    bestRaw.perCpuSecond(),
                    bestVerdict.perCpuSecond(),
                    bestVerdict.perCpuSecond() / bestRaw.perCpuSecond(),
                    bestPassThrough.perSecond(),
                    bestPassThrough.perCpuSecond(),
                    median(roundRatios),
                    median(roundCpuRatios),
                    lat.p50,
                    lat.p99,
                    lat.max,
                    lat.samples);
            write(o.resultsDir(), r);
            return r;
        } finally {
            deleteTree(work);
        }
    }

    private static List<String> regions(int n) {
        List<String> all = List.of("eu-west", "us-east", "ap-south", "sa-east", "af-south", "eu-north", "us-west");
        if (n < 1 || n > all.size()) {
            throw new IllegalArgumentException("regions must be 1.." + all.size());
        }
        return all.subList(0, n);
    }

    private static String id(int m) {
        return "bench-" + m;
    }

    /** Serialized results, window by window; one in ten monitors fails in one region. */
    private static List<ProducerRecord<String, byte[]>> results(
            Options o, List<String> regions, long base, int windows, int firstWindow) {
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>(o.monitors() * regions.size() * windows);
        for (int k = firstWindow; k < firstWindow + windows; k++) {
            long ws = base + k * HOUR;
            for (int m = 0; m < o.monitors(); m++) {
                for (int r = 0; r < regions.size(); r++) {
                    out.add(new ProducerRecord<>(
                            Topics.PROBE_RESULTS,
                            id(m),
                            Json.bytes(result(id(m), regions.get(r), ws, m % 10 == 0 && r == 0))));
                }
            }
        }
        return out;
    }

    /** A typical probe result for window {@code ws}: a 200 in 35 ms, or a timeout when {@code fail} (also used by the console harness). */
    public static ProbeResult result(String id, String region, long ws, boolean fail) {
        return fail
                ? new ProbeResult(
                        1,
                        id,
                        region,
                        "w-" + region,
                        ws,
                        ws + 100,
                        Outcome.NETWORK_FAILURE,
                        ErrorKind.TIMEOUT,
                        null,
                        null,
                        2500,
                        0L,
                        0,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        "r-" + id + "-" + region + "-" + ws)
                : new ProbeResult(
                        1,
                        id,
                        region,
                        "w-" + region,
                        ws,
                        ws + 100,
                        Outcome.SUCCESS,
                        null,
                        200,
                        35,
                        40,
                        512L,
                        0,
                        null,
                        null,
                        3,
                        5,
                        9,
                        null,
                        "r-" + id + "-" + region + "-" + ws);
    }

    /**
     * Sends every record and re-sends the ones whose send failed (on a loaded machine the broker times out the
     * odd request): a lost input would leave a phase waiting for a verdict that cannot come.
     */
    public static void sendAll(EmbeddedKafka kafka, List<ProducerRecord<String, byte[]>> records) {
        List<ProducerRecord<String, byte[]>> pending = records;
        for (int attempt = 1; !pending.isEmpty(); attempt++) {
            if (attempt > 5) {
                throw new IllegalStateException(pending.size() + " records could not be produced after 5 attempts");
            }
            List<ProducerRecord<String, byte[]>> failed = java.util.Collections.synchronizedList(new ArrayList<>());
            try (var producer = producer(kafka)) {
                for (var r : pending) {
                    producer.send(r, (md, e) -> {
                        if (e != null) {
                            failed.add(r);
                        }
                    });
                }
                producer.flush();
            }
            if (!failed.isEmpty()) {
                System.out.printf("re-sending %d records whose send failed%n", failed.size());
            }
            pending = new ArrayList<>(failed);
        }
    }

    private static KafkaProducer<String, byte[]> producer(EmbeddedKafka kafka) {
        Map<String, Object> props = kafka.producerProps();
        props.put("batch.size", 131072);
        return new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
    }

    /** All results of a batch into the topology; results/s from the first sent to the last verdict readable. */
    private static Rate verdictThroughput(
            EmbeddedKafka kafka, VerdictObserver observer, List<ProducerRecord<String, byte[]>> batch, long verdicts) {
        long target = observer.count() + verdicts;
        long cpu0 = cpuNanos();
        long t0 = System.nanoTime();
        sendAll(kafka, batch);
        long tLast = observer.awaitCount(target, Duration.ofMinutes(10));
        long cpu = cpuNanos() - cpu0;
        return new Rate(batch.size() / ((tLast - t0) / 1e9), batch.size() / (cpu / 1e9));
    }

    /** A source → sink Kafka Streams app with the verdict service's guarantee, commit interval and batch size. */
    private static KafkaStreams passThrough(EmbeddedKafka kafka, Path stateDir) throws InterruptedException {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "vigil-bench-eos-pass-through");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.producerPrefix("batch.size"), StreamsApp.PRODUCER_BATCH_BYTES);
        Topology t = new Topology();
        t.addSource("in", new ByteArrayDeserializer(), new ByteArrayDeserializer(), EOS_IN);
        t.addSink("out", EOS_OUT, new ByteArraySerializer(), new ByteArraySerializer(), "in");
        KafkaStreams streams = new KafkaStreams(t, p);
        streams.start();
        long deadline = System.currentTimeMillis() + 120_000;
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (System.currentTimeMillis() > deadline) {
                streams.close();
                throw new IllegalStateException("the pass-through app did not reach RUNNING: " + streams.state());
            }
            Thread.sleep(50);
        }
        return streams;
    }

    /** The batch through the pass-through app; records/s until the last is readable (read_committed). */
    private static Rate passThroughRate(EmbeddedKafka kafka, List<ProducerRecord<String, byte[]>> records) {
        try (var counter = new CountingConsumer(kafka, EOS_OUT)) {
            long cpu0 = cpuNanos();
            long t0 = System.nanoTime();
            sendAll(
                    kafka,
                    records.stream()
                            .map(r -> new ProducerRecord<>(EOS_IN, r.key(), r.value()))
                            .toList());
            long tLast = counter.awaitCount(records.size(), Duration.ofMinutes(10));
            long cpu = cpuNanos() - cpu0;
            return new Rate(records.size() / ((tLast - t0) / 1e9), records.size() / (cpu / 1e9));
        }
    }

    /** Plain consume → produce of the same records between two topics; records/s end to end. */
    private static Rate rawPipe(EmbeddedKafka kafka, List<ProducerRecord<String, byte[]>> records) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean assigned = new AtomicBoolean();
        Thread pipe = new Thread(
                () -> {
                    Map<String, Object> cprops = kafka.consumerProps("bench-raw-pipe-" + System.nanoTime());
                    cprops.put("max.poll.records", 2000);
                    try (var consumer =
                                    new KafkaConsumer<>(cprops, new StringDeserializer(), new ByteArrayDeserializer());
                            var producer = producer(kafka)) {
                        var parts = consumer.partitionsFor(RAW_IN).stream()
                                .map(p -> new TopicPartition(RAW_IN, p.partition()))
                                .toList();
                        consumer.assign(parts);
                        consumer.seekToEnd(parts);
                        parts.forEach(consumer::position);
                        assigned.set(true);
                        while (!stop.get()) {
                            var polled = consumer.poll(Duration.ofMillis(100));
                            for (ConsumerRecord<String, byte[]> r : polled) {
                                producer.send(new ProducerRecord<>(RAW_OUT, r.key(), r.value()));
                            }
                            if (!polled.isEmpty()) {
                                consumer.commitAsync();
                            }
                        }
                        producer.flush();
                    }
                },
                "bench-raw-pipe");
        pipe.start();
        long t0;
        long tLast;
        long cpu0;
        long cpu;
        while (!assigned.get()) {
            LockSupport.parkNanos(1_000_000);
        }
        try (var counter = new CountingConsumer(kafka, RAW_OUT)) {
            cpu0 = cpuNanos();
            t0 = System.nanoTime();
            sendAll(
                    kafka,
                    records.stream()
                            .map(r -> new ProducerRecord<>(RAW_IN, r.key(), r.value()))
                            .toList());
            tLast = counter.awaitCount(records.size(), Duration.ofMinutes(10));
            cpu = cpuNanos() - cpu0;
        } finally {
            stop.set(true);
            pipe.join(30_000);
        }
        return new Rate(records.size() / ((tLast - t0) / 1e9), records.size() / (cpu / 1e9));
    }

    private record Latencies(double p50, double p99, double max, int samples) {}

    /** One window at a steady rate; per monitor, last result sent → verdict readable. */
    private static Latencies latency(
            EmbeddedKafka kafka, VerdictObserver observer, Options o, List<String> regions, long ws) throws Exception {
        Map<String, Long> sentAt = new ConcurrentHashMap<>();
        observer.track(ws, sentAt);
        long intervalNanos = 1_000_000_000L / o.latencyRatePerSecond();
        long next = System.nanoTime();
        List<ProducerRecord<String, byte[]>> failed = java.util.Collections.synchronizedList(new ArrayList<>());
        try (var producer = producer(kafka)) {
            for (int m = 0; m < o.monitors(); m++) {
                for (int r = 0; r < regions.size(); r++) {
                    LockSupport.parkNanos(next - System.nanoTime());
                    next += intervalNanos;
                    byte[] value = Json.bytes(result(id(m), regions.get(r), ws, false));
                    if (r == regions.size() - 1) {
                        sentAt.put(id(m), System.nanoTime());
                    }
                    var record = new ProducerRecord<>(Topics.PROBE_RESULTS, id(m), value);
                    producer.send(record, (md, e) -> {
                        if (e != null) {
                            failed.add(record);
                        }
                    });
                }
            }
            producer.flush();
        }
        if (!failed.isEmpty()) {
            // rare (a timed-out request on a loaded machine); their monitors' samples include the re-send delay
            System.out.printf("re-sending %d latency-phase records whose send failed%n", failed.size());
            sendAll(kafka, new ArrayList<>(failed));
        }
        List<Long> samples = observer.awaitLatencies(o.monitors(), Duration.ofMinutes(5));
        long[] sorted = samples.stream().mapToLong(Long::longValue).sorted().toArray();
        return new Latencies(
                percentile(sorted, 0.50) / 1e6,
                percentile(sorted, 0.99) / 1e6,
                sorted[sorted.length - 1] / 1e6,
                sorted.length);
    }
    /** The bench's own query API token (read scope), generated per run. */
    private static final String BENCH_TOKEN = BearerTokens.generate();

    private static void awaitMonitorsLoaded(int port, int monitors) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.currentTimeMillis() + 180_000;
        while (System.currentTimeMillis() < deadline) {
            try {
                HttpResponse<String> res = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/status?scope=local"))
                                .header("Authorization", "Bearer " + BENCH_TOKEN)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (res.statusCode() == 200
                        && Json.tree(res.body().getBytes()).path("monitors").size() >= monitors) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            }
            LockSupport.parkNanos(Duration.ofMillis(250).toNanos());
        }
        throw new IllegalStateException("streams did not load " + monitors + " monitors in time");
    }

    private static void write(Path dir, Result r) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("monitors", r.monitors());
        json.put("regions", r.regions());
        json.put("results", r.results());
        json.put("verdictResultsPerSecond", Math.round(r.verdictResultsPerSecond()));
        json.put("rawPipeRecordsPerSecond", Math.round(r.rawPipeRecordsPerSecond()));
        json.put("ratio", r.ratio());
        json.put("rounds", r.rounds());
        json.put("verdictResultsPerCpuSecond", Math.round(r.verdictResultsPerCpuSecond()));
        json.put("rawPipeRecordsPerCpuSecond", Math.round(r.rawPipeRecordsPerCpuSecond()));
        json.put("cpuRatio", r.cpuRatio());
        json.put("streamsPassThroughRecordsPerSecond", Math.round(r.passThroughRecordsPerSecond()));
        json.put("streamsPassThroughRecordsPerCpuSecond", Math.round(r.passThroughRecordsPerCpuSecond()));
        json.put("passThroughCpuRatio", r.passThroughCpuRatio());
        json.put("roundRatioMedian", r.roundRatioMedian());
        json.put("roundCpuRatioMedian", r.roundCpuRatioMedian());
        json.put("latencyP50Ms", r.latencyP50Ms());
        json.put("latencyP99Ms", r.latencyP99Ms());
        json.put("latencyMaxMs", r.latencyMaxMs());
        json.put("latencySamples", r.latencySamples());
        json.put("processingGuarantee", "exactly_once_v2");
        writeJson(dir, NAME, json);
    }
    /** Counts records arriving on a topic (read_committed), from its end at start. */
    private static final class CountingConsumer implements AutoCloseable {
        private final AtomicLong count = new AtomicLong();
        private final AtomicLong lastNanos = new AtomicLong();
        private final TopicTail<byte[], byte[]> tail;

        CountingConsumer(EmbeddedKafka kafka, String topic) {
            tail = new TopicTail<>(
                    kafka,
                    topic,
                    new ByteArrayDeserializer(),
                    new ByteArrayDeserializer(),
                    Duration.ofMillis(50),
                    (records, nanos) -> {
                        lastNanos.set(nanos);
                        count.addAndGet(records.count());
                    });
        }

        long awaitCount(long n, Duration timeout) {
            BenchSupport.awaitUntil(
                    () -> count.get() >= n, timeout, () -> "only " + count.get() + " of " + n + " records arrived");
            return lastNanos.get();
        }

        @Override
        public void close() {
            tail.close();
        }
    }

    /**
     * Reads verdicts (read_committed) as they become readable; counts them and times tracked windows. A verdict is
     * decoded only while a window is tracked (the latency phase): while throughput is measured this reader only
     * counts, like the raw pipe's and the pass-through's readers, so no phase pays for decoding its own output.
     */
    private static final class VerdictObserver implements AutoCloseable {
        private final AtomicLong count = new AtomicLong();
        private final AtomicLong lastNanos = new AtomicLong();
        private final List<Long> latencies = java.util.Collections.synchronizedList(new ArrayList<>());
        private volatile long trackedWindow = -1;
        private volatile Map<String, Long> sentAt = Map.of();
        private final TopicTail<String, byte[]> tail;

        VerdictObserver(EmbeddedKafka kafka) {
            tail = new TopicTail<>(
                    kafka,
                    Topics.MONITOR_STATUS,
                    new StringDeserializer(),
                    new ByteArrayDeserializer(),
                    Duration.ofMillis(20),
                    (records, nanos) -> {
                        for (ConsumerRecord<String, byte[]> r : records) {
                            count.incrementAndGet();
                            lastNanos.set(nanos);
                            Long sent = trackedWindow >= 0 ? sentAt.get(r.key()) : null;
                            if (sent != null
                                    && VigilSerdes.monitorStatus()
                                                    .deserialize(r.topic(), r.value())
                                                    .windowStart()
                                            == trackedWindow) {
                                latencies.add(nanos - sent);
                            }
                        }
                    });
        }

        long count() {
            return count.get();
        }

        void track(long windowStart, Map<String, Long> sent) {
            this.sentAt = sent;
            this.trackedWindow = windowStart;
        }

        long awaitCount(long n, Duration timeout) {
            BenchSupport.awaitUntil(
                    () -> count.get() >= n, timeout, () -> "only " + count.get() + " of " + n + " verdicts arrived");
            return lastNanos.get();
        }

        List<Long> awaitLatencies(int n, Duration timeout) {
            BenchSupport.awaitUntil(
                    () -> latencies.size() >= n,
                    timeout,
                    () -> "only " + latencies.size() + " of " + n + " latency samples");
            synchronized (latencies) {
                return new ArrayList<>(latencies);
            }
        }

        @Override
        public void close() {
            tail.close();
        }
    }
}
