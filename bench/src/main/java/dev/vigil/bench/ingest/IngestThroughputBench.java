package dev.vigil.bench.ingest;

import static dev.vigil.bench.BenchSupport.percentile;
import static dev.vigil.bench.BenchSupport.report;

import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.ingest.IngestServer;
import dev.vigil.ingest.auth.ApiKeys;
import dev.vigil.ingest.config.IngestConfig;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import io.netty.buffer.Unpooled;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * End-to-end ingest throughput: a load generator posts DomainMetric batches (default 500 events) over
 * loopback HTTP to a real {@link IngestServer} (API key, per-event validation, privacy guard, one Kafka
 * transaction per request group, 202 only after commit) on an in-process KRaft broker. Closed loop with a
 * fixed number of requests in flight.
 *
 * <p>Physical reference, same run, same broker, same serialized records: a raw idempotent acks=all
 * producer sending them as fast as it can (send all, then flush). Reports accepted events/s, the ratio
 * to the raw producer, and request latency p50/p99/max. Everything (broker, server, load generator) shares
 * this JVM and the machine's cores, as the loopback setup implies.
 *
 * <p>Run (from the repository root):
 * <pre>
 * mvn -B -o -q -Dvigil.target=target-ingest -pl bench -am package -DskipTests dependency:build-classpath \
 *     -Dmdep.outputFile=target-ingest/classpath.txt -Dmdep.includeScope=runtime
 * java -Xmx1g -cp bench/target-ingest/classes:$(cat bench/target-ingest/classpath.txt) \
 *     dev.vigil.bench.ingest.IngestThroughputBench --duration 30 --warmup 10 --batch 500 --in-flight 32 --producers 1
 * </pre>
 * The last line is {@code RESULT ingest-throughput key=value ...}; the same goes to
 * {@code bench/target/results/ingest-throughput.json} (directory: {@code -Dvigil.results.dir}).
 */
public final class IngestThroughputBench {
    private static final String KEY = "bench-key-0123456789abcdef";

    /** Harness options. */
    public record Options(
            int durationSeconds,
            int warmupSeconds,
            int batch,
            int inFlight,
            int producers,
            int partitions,
            int rawRecords,
            String compression) {
        public Options(
                int durationSeconds,
                int warmupSeconds,
                int batch,
                int inFlight,
                int producers,
                int partitions,
                int rawRecords) {
            this(durationSeconds, warmupSeconds, batch, inFlight, producers, partitions, rawRecords, "none");
        }

        static Options parse(String[] args) {
            int duration = 30;
            int warmup = 10;
            int batch = 500;
            int inFlight = 32;
            int producers = 1;
            int partitions = 6;
            int raw = 1_000_000;
            String compression = "none";
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--duration" -> duration = Integer.parseInt(args[++i]);
                    case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                    case "--batch" -> batch = Integer.parseInt(args[++i]);
                    case "--in-flight" -> inFlight = Integer.parseInt(args[++i]);
                    case "--producers" -> producers = Integer.parseInt(args[++i]);
                    case "--partitions" -> partitions = Integer.parseInt(args[++i]);
                    case "--raw-records" -> raw = Integer.parseInt(args[++i]);
                    case "--compression" -> compression = args[++i];
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + "; options: --duration S --warmup S --batch N --in-flight N --producers N --partitions N --raw-records N"
                            + " --compression none|lz4|zstd|snappy|gzip");
                }
            }
            return new Options(duration, warmup, batch, inFlight, producers, partitions, raw, compression);
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, Object> r = run(Options.parse(args));
        System.exit(r.isEmpty() ? 1 : 0);
    }

    /** Runs the benchmark, prints the RESULT line, writes the JSON file and returns the figures. */
    public static Map<String, Object> run(Options o) throws Exception {
        String name = "ingest-throughput";
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            kafka.createTopics(
                    new Topics.TopicSpec(Topics.METRICS, o.partitions(), false),
                    new Topics.TopicSpec("bench.raw-metrics", o.partitions(), false));
            Map<String, Object> r = new LinkedHashMap<>();
            // Reference first, on the same records the HTTP path will carry.
            Map<String, Object> raw = rawProducer(kafka, o);
            r.putAll(http(kafka, o));
            r.putAll(raw);
            double ratio = (double) r.get("eventsPerSec") / (double) raw.get("rawProducerEventsPerSec");
            r.put("ratioToRawProducer", round(ratio));
            report(name, r);
            return r;
        }
    }

    private static Map<String, Object> http(EmbeddedKafka kafka, Options o) throws Exception {
        IngestConfig.Kafka k =
                IngestConfig.Kafka.defaults(kafka.bootstrapServers()).withTransactionalIdPrefix("bench-ingest");
        k = k.withProducers(o.producers(), Map.of("compression.type", o.compression()));
        IngestConfig config = new IngestConfig(
                new IngestConfig.Http("127.0.0.1", 0),
                k,
                Map.of("bench", List.of(ApiKeys.hash(KEY))),
                Map.of(),
                IngestConfig.Limits.defaults());
        try (IngestServer.Running server = IngestServer.start(config, Map.of(), Clock.systemUTC())) {
            if (!server.awaitReady(Duration.ofSeconds(30))) {
                throw new IllegalStateException("ingest did not become ready");
            }
            ConnectionProvider pool = ConnectionProvider.builder("ingest-bench")
                    .maxConnections(o.inFlight())
                    .pendingAcquireMaxCount(-1)
                    .build();
            // The load generator gets its own event loop so it does not queue behind the server's work.
            reactor.netty.resources.LoopResources clientLoop =
                    reactor.netty.resources.LoopResources.create("bench-client", 1, true);
            HttpClient client = HttpClient.create(pool)
                    .runOn(clientLoop)
                    .baseUrl(server.baseUrl())
                    .headers(h -> h.set("Authorization", "Bearer " + KEY).set("Content-Type", "application/json"));
            try {
                run(client, o, o.warmupSeconds(), null);
                var txTimer = server.registry()
                        .find("vigil.ingest.kafka.send")
                        .tag("outcome", "committed")
                        .timer();
                long tx0 = txTimer == null ? 0 : txTimer.count();
                double txNanos0 = txTimer == null ? 0 : txTimer.totalTime(TimeUnit.NANOSECONDS);
                Stats stats = new Stats();
                long t0 = System.nanoTime();
                run(client, o, o.durationSeconds(), stats);
                double seconds = (System.nanoTime() - t0) / 1e9;
                long[] lat = stats.latencies();
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("batch", o.batch());
                r.put("inFlight", o.inFlight());
                r.put("producers", o.producers());
                r.put("compression", o.compression());
                r.put("requests", stats.ok.sum());
                r.put("non202", stats.failed.sum());
                r.put("eventsAccepted", stats.events.sum());
                r.put("eventsPerSec", round(stats.events.sum() / seconds));
                r.put("requestsPerSec", round(stats.ok.sum() / seconds));
                r.put("p50Ms", round(percentile(lat, 0.50) / 1e6));
                r.put("p99Ms", round(percentile(lat, 0.99) / 1e6));
                r.put("maxMs", round(lat.length == 0 ? 0 : lat[lat.length - 1] / 1e6));
                long txns = txTimer == null ? 0 : txTimer.count() - tx0;
                r.put("transactions", txns);
                r.put("eventsPerTransaction", txns == 0 ? 0 : stats.events.sum() / txns);
                r.put(
                        "transactionMeanMs",
                        txns == 0 ? 0 : round((txTimer.totalTime(TimeUnit.NANOSECONDS) - txNanos0) / txns / 1e6));
                return r;
            } finally {
                pool.disposeLater().block(Duration.ofSeconds(5));
                clientLoop.disposeLater().block(Duration.ofSeconds(5));
            }
        }
    }

    private static void run(HttpClient client, Options o, int seconds, Stats stats) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        AtomicLong seq = new AtomicLong();
        BodyPool pool = new BodyPool(o.batch());
        Flux.range(0, o.inFlight())
                .flatMap(
                        worker -> Mono.defer(() -> post(client, pool.next(seq.getAndIncrement()), o.batch(), stats))
                                .repeat(() -> System.nanoTime() < end),
                        o.inFlight())
                .blockLast();
    }

    /**
     * Pre-serialised request bodies, so the load generator spends little CPU on the machine it shares with
     * the server; renewed every minute because ingest refuses timestamps more than 5 minutes off.
     */
    private static final class BodyPool {
        private static final int SIZE = 64;
        private final int batch;
        private volatile byte[][] bodies;
        private volatile long madeAt;

        BodyPool(int batch) {
            this.batch = batch;
            renew();
        }

        private synchronized void renew() {
            byte[][] b = new byte[SIZE][];
            for (int i = 0; i < SIZE; i++) {
                b[i] = body(batch, i);
            }
            bodies = b;
            madeAt = System.nanoTime();
        }

        byte[] next(long seq) {
            if (System.nanoTime() - madeAt > TimeUnit.SECONDS.toNanos(60)) {
                renew();
            }
            return bodies[(int) (seq % SIZE)];
        }
    }

    private static Mono<Void> post(HttpClient client, byte[] body, int events, Stats stats) {
        long start = System.nanoTime();
        return client.post()
                .uri("/v1/metrics")
                .send(ByteBufFlux.fromInbound(Mono.just(Unpooled.wrappedBuffer(body))))
                .responseSingle((res, content) -> content.asByteArray()
                        .defaultIfEmpty(new byte[0])
                        .map(b -> res.status().code()))
                .doOnNext(status -> {
                    if (stats == null) {
                        return;
                    }
                    if (status == 202) {
                        stats.ok.increment();
                        stats.events.add(events);
                        stats.record(System.nanoTime() - start);
                    } else {
                        stats.failed.increment();
                    }
                })
                .then();
    }

    /** A batch with a fresh timestamp (the ±5 min skew check applies) and varied paths and statuses. */
    static byte[] body(int batch, long seq) {
        long now = System.currentTimeMillis();
        List<DomainMetric> items = new ArrayList<>(batch);
        for (int i = 0; i < batch; i++) {
            items.add(metric(seq, i, now));
        }
        return Json.bytes(items);
    }

    private static DomainMetric metric(long seq, int i, long now) {
        String[] statuses = {"200", "200", "200", "201", "404", "500"};
        return new DomainMetric(
                1,
                "bench",
                i % 3 == 0 ? "http_request" : "inquiry_submitted",
                statuses[i % statuses.length],
                "/api/v1/items/" + (seq * 1000 + i) % 5000,
                1.0,
                3.0 + i % 250,
                Map.of("method", i % 4 == 0 ? "POST" : "GET"),
                now);
    }

    private static Map<String, Object> rawProducer(EmbeddedKafka kafka, Options o) {
        long now = System.currentTimeMillis();
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>(o.rawRecords());
        for (int i = 0; i < o.rawRecords(); i++) {
            DomainMetric m = metric(i / o.batch(), i % o.batch(), now);
            records.add(new ProducerRecord<>("bench.raw-metrics", m.key(), Json.bytes(m)));
        }
        Map<String, Object> props = new HashMap<>(kafka.producerProps());
        props.put("batch.size", 256 * 1024);
        props.put("compression.type", o.compression());
        long bytes = records.stream().mapToLong(r -> r.value().length).sum();
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
            // warm-up: a tenth of the records
            for (int i = 0; i < records.size() / 10; i++) {
                producer.send(records.get(i));
            }
            producer.flush();
            long t0 = System.nanoTime();
            for (ProducerRecord<String, byte[]> r : records) {
                producer.send(r);
            }
            producer.flush();
            double seconds = (System.nanoTime() - t0) / 1e9;
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("rawProducerEventsPerSec", round(records.size() / seconds));
            r.put("avgEventBytes", bytes / Math.max(1, records.size()));
            return r;
        }
    }

    private static final class Stats {
        final LongAdder ok = new LongAdder();
        final LongAdder failed = new LongAdder();
        final LongAdder events = new LongAdder();
        private final List<Long> latencies = new ArrayList<>();

        synchronized void record(long nanos) {
            latencies.add(nanos);
        }

        synchronized long[] latencies() {
            long[] a = latencies.stream().mapToLong(Long::longValue).toArray();
            Arrays.sort(a);
            return a;
        }
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
