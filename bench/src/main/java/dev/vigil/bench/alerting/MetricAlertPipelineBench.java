package dev.vigil.bench.alerting;

import static dev.vigil.bench.BenchSupport.deleteTree;
import static dev.vigil.bench.BenchSupport.percentile;
import static dev.vigil.bench.BenchSupport.writeJson;

import dev.vigil.bench.BenchSupport;
import dev.vigil.bench.TopicTail;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.schemas.topic.Topics.TopicSpec;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.deadletter.DeadLetterHandler;
import dev.vigil.streams.topology.AlertingTopology;
import dev.vigil.streams.topology.VigilTopology;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
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
 * End-to-end benchmark of the metric windows + metric rules + alert state machine
 * on the embedded broker, with {@code exactly_once_v2}.
 *
 * <ol>
 *   <li><b>Raw pipe</b> (the physical reference, same run): the same serialized metrics through a plain
 *       consumer → idempotent producer loop between two 6-partition topics; records/s from the first record
 *       produced to the last readable downstream.</li>
 *   <li><b>Metric throughput</b>: the metrics go to {@code vigil.metrics} ({@code http_request} of
 *       {@code apps} applications spread over {@code minutes} minutes of event time, 2 % 5xx, log-normal
 *       durations); the Streams application (topology I + {@link AlertingTopology}) aggregates one-minute
 *       windows and evaluates the shipped rules at every closed minute; metrics/s from the first produced to
 *       the Streams group's committed offsets reaching the end of the topic (committed = processed, under
 *       exactly_once_v2).</li>
 *   <li><b>Decision latency</b>: for each sample a fresh application sends one {@code dlq_routed} metric and
 *       then a later metric that closes its minute (event time past the minute end + grace); the time from
 *       sending that closing record to the {@code opened} alert being readable (read_committed) on
 *       {@code vigil.alerts}, p50/p99.</li>
 * </ol>
 *
 * <p>Run (from the repository root):
 * <pre>
 * mvn -B -o -q -Dvigil.target=target-alerting -pl bench -am package -DskipTests dependency:build-classpath \
 *     -Dmdep.outputFile=target-alerting/classpath.txt -Dmdep.includeScope=runtime
 * java -Xmx1g -cp bench/target-alerting/classes:$(cat bench/target-alerting/classpath.txt) \
 *     dev.vigil.bench.alerting.MetricAlertPipelineBench --metrics 1000000 --apps 50 --minutes 60 --samples 200
 * </pre>
 * Prints a last line {@code RESULT streams-metric-alerts ...} and writes
 * {@code target/results/streams-metric-alerts.json} (relative to the working directory).
 */
public final class MetricAlertPipelineBench {
    public static final String NAME = "streams-metric-alerts";
    private static final String RAW_IN = "bench.metrics-raw-in";
    private static final String RAW_OUT = "bench.metrics-raw-out";
    private static final String APPLICATION_ID = "vigil-bench-alerting";
    private static final long MIN = 60_000L;

    /** Scale of one run. */
    public record Options(
            int metrics,
            int apps,
            int minutes,
            int latencySamples,
            int latencyRatePerSecond,
            int streamThreads,
            Path resultsDir) {
        public static Options defaults() {
            return new Options(1_000_000, 50, 60, 200, 20, 1, Path.of("target", "results"));
        }
    }

    /** Measured figures. */
    public record Result(
            long metrics,
            int apps,
            double rawPipeRecordsPerSecond,
            double metricsPerSecond,
            double ratio,
            double latencyP50Ms,
            double latencyP99Ms,
            double latencyMaxMs,
            int latencySamples,
            long alertsDuringThroughput) {
        public String line() {
            return String.format(
                    Locale.ROOT,
                    "RESULT %s metrics=%d apps=%d metrics_per_s=%.0f raw_pipe_records_per_s=%.0f ratio=%.3f "
                            + "decision_latency_p50_ms=%.1f decision_latency_p99_ms=%.1f decision_latency_max_ms=%.1f "
                            + "latency_samples=%d alerts_during_throughput=%d",
                    NAME,
                    metrics,
                    apps,
                    metricsPerSecond,
                    rawPipeRecordsPerSecond,
                    ratio,
                    latencyP50Ms,
                    latencyP99Ms,
                    latencyMaxMs,
                    latencySamples,
                    alertsDuringThroughput);
        }
    }

    private MetricAlertPipelineBench() {}

    public static void main(String[] args) throws Exception {
        Options o = Options.defaults();
        for (int i = 0; i + 1 < args.length; i += 2) {
            int v = Integer.parseInt(args[i + 1]);
            o = switch (args[i]) {
                case "--metrics" -> new Options(
                        v,
                        o.apps(),
                        o.minutes(),
                        o.latencySamples(),
                        o.latencyRatePerSecond(),
                        o.streamThreads(),
                        o.resultsDir());
                case "--apps" -> new Options(
                        o.metrics(),
                        v,
                        o.minutes(),
                        o.latencySamples(),
                        o.latencyRatePerSecond(),
                        o.streamThreads(),
                        o.resultsDir());
                case "--minutes" -> new Options(
                        o.metrics(),
                        o.apps(),
                        v,
                        o.latencySamples(),
                        o.latencyRatePerSecond(),
                        o.streamThreads(),
                        o.resultsDir());
                case "--samples" -> new Options(
                        o.metrics(),
                        o.apps(),
                        o.minutes(),
                        v,
                        o.latencyRatePerSecond(),
                        o.streamThreads(),
                        o.resultsDir());
                case "--latency-rate" -> new Options(
                        o.metrics(), o.apps(), o.minutes(), o.latencySamples(), v, o.streamThreads(), o.resultsDir());
                case "--threads" -> new Options(
                        o.metrics(),
                        o.apps(),
                        o.minutes(),
                        o.latencySamples(),
                        o.latencyRatePerSecond(),
                        v,
                        o.resultsDir());
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (known: --metrics --apps --minutes --samples --latency-rate --threads)");
            };
        }
        Result r = run(o);
        System.out.println(r.line());
        System.exit(0);
    }

    public static Result run(Options o) throws Exception {
        if (System.getProperty("logback.configurationFile") == null) {
            // the bench module's quiet config (WARN to stderr); Kafka at DEBUG would distort the figures
            System.setProperty("logback.configurationFile", "dev/vigil/bench/notifier/logback-bench.xml");
        }
        Path work = Files.createTempDirectory("vigil-bench-alerting");
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            List<TopicSpec> topics = new ArrayList<>(Topics.all());
            topics.add(new TopicSpec(RAW_IN, Topics.DEFAULT_PARTITIONS, false));
            topics.add(new TopicSpec(RAW_OUT, Topics.DEFAULT_PARTITIONS, false));
            // the self-watch's internal topic, which StreamsApp creates at start-up
            topics.add(new TopicSpec(TopologyConfig.SelfWatchSettings.DEFAULT_SIGNALS_TOPIC, 1, false));
            kafka.createTopics(topics);

            long now = System.currentTimeMillis();
            long base = now - Math.floorMod(now, MIN) - (o.minutes() + 30L) * MIN;
            List<ProducerRecord<String, byte[]>> batch = metrics(o, base);
            System.out.printf(
                    "generated %d metrics (%d apps over %d minutes of event time)%n",
                    batch.size(), o.apps(), o.minutes());

            double raw = rawPipe(kafka, batch);
            System.out.printf("raw pipe: %.0f records/s%n", raw);

            try (KafkaStreams streams = startStreams(kafka, work.resolve("state"), o.streamThreads());
                    AlertObserver alerts = new AlertObserver(kafka)) {
                long t0 = System.nanoTime();
                try (var producer = producer(kafka)) {
                    batch.forEach(producer::send);
                    producer.flush();
                }
                long tLast = awaitCommitted(kafka, Topics.METRICS, Duration.ofMinutes(15));
                double rate = batch.size() / ((tLast - t0) / 1e9);
                long alertsSeen = alerts.count();
                System.out.printf(
                        "metric windows + rules: %.0f metrics/s (%d alerts emitted meanwhile; streams %s)%n",
                        rate, alertsSeen, streams.state());

                Latencies lat = latency(kafka, alerts, o, base + (o.minutes() + 5L) * MIN);
                System.out.printf(
                        "decision latency: p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d samples%n",
                        lat.p50, lat.p99, lat.max, lat.samples);
                Result r = new Result(
                        batch.size(),
                        o.apps(),
                        raw,
                        rate,
                        rate / raw,
                        lat.p50,
                        lat.p99,
                        lat.max,
                        lat.samples,
                        alertsSeen);
                write(o.resultsDir(), r);
                return r;
            }
        } finally {
            deleteTree(work);
        }
    }

    /** http_request metrics spread evenly over the event-time span; keys appId/http_request. */
    static List<ProducerRecord<String, byte[]>> metrics(Options o, long base) {
        Random rnd = new Random(42);
        List<ProducerRecord<String, byte[]>> out = new ArrayList<>(o.metrics());
        long span = o.minutes() * MIN;
        String[] paths = {"/", "/cart", "/checkout", "/search", "/product"};
        for (int i = 0; i < o.metrics(); i++) {
            String app = "app-" + (i % o.apps());
            long ts = base + (long) ((double) i / o.metrics() * span);
            String status = rnd.nextInt(100) < 2 ? "503" : rnd.nextInt(10) == 0 ? "404" : "200";
            double duration = Math.exp(4.5 + 0.8 * rnd.nextGaussian());
            DomainMetric m = new DomainMetric(
                    1, app, DomainMetric.HTTP_REQUEST, status, paths[i % paths.length], null, duration, null, ts);
            out.add(new ProducerRecord<>(Topics.METRICS, null, ts, m.key(), Json.bytes(m)));
        }
        return out;
    }

    private static KafkaStreams startStreams(EmbeddedKafka kafka, Path stateDir, int threads) {
        TopologyConfig cfg = TopologyConfig.defaults();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Topology topology = VigilTopology.build(cfg, registry);
        AlertingTopology.addTo(topology, cfg, AlertingConfig.defaults(), registry);
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
        KafkaStreams streams = new KafkaStreams(topology, p);
        streams.start();
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (System.nanoTime() > deadline || streams.state() == KafkaStreams.State.ERROR) {
                streams.close(Duration.ofSeconds(10));
                throw new IllegalStateException("streams did not reach RUNNING: " + streams.state());
            }
            LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
        }
        System.out.println("streams running (exactly_once_v2, " + threads + " thread(s))");
        return streams;
    }

    /** Waits until the Streams group's committed offsets reach the end offsets of {@code topic}; returns when seen. */
    private static long awaitCommitted(EmbeddedKafka kafka, String topic, Duration timeout) throws Exception {
        try (Admin admin = Admin.create(kafka.adminProps())) {
            var parts = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
            parts.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
            var ends = admin.listOffsets(latest).all().get();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(APPLICATION_ID)
                        .partitionsToOffsetAndMetadata()
                        .get();
                boolean done = true;
                for (TopicPartition tp : parts) {
                    OffsetAndMetadata c = committed.get(tp);
                    long at = c == null ? 0 : c.offset(); // a partition that got no record has nothing to commit
                    if (at < ends.get(tp).offset()) {
                        done = false;
                        break;
                    }
                }
                if (done) {
                    return System.nanoTime();
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("streams did not process " + topic + " in time");
                }
                LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
            }
        }
    }

    private static KafkaProducer<String, byte[]> producer(EmbeddedKafka kafka) {
        Map<String, Object> props = kafka.producerProps();
        props.put("batch.size", 131072);
        return new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
    }

    /** Plain consume → produce of the same records between two topics; records/s until the last copy is acknowledged. */
    private static double rawPipe(EmbeddedKafka kafka, List<ProducerRecord<String, byte[]>> records) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong acked = new AtomicLong();
        AtomicLong lastAck = new AtomicLong();
        Thread pipe = new Thread(
                () -> {
                    Map<String, Object> cprops = kafka.consumerProps("bench-alerting-raw-pipe");
                    cprops.put("max.poll.records", 2000);
                    try (var consumer =
                                    new KafkaConsumer<>(cprops, new StringDeserializer(), new ByteArrayDeserializer());
                            var producer = producer(kafka)) {
                        consumer.subscribe(List.of(RAW_IN));
                        while (!stop.get()) {
                            var polled = consumer.poll(Duration.ofMillis(100));
                            for (ConsumerRecord<String, byte[]> r : polled) {
                                producer.send(new ProducerRecord<>(RAW_OUT, r.key(), r.value()), (md, e) -> {
                                    if (e == null) {
                                        lastAck.set(System.nanoTime());
                                        acked.incrementAndGet();
                                    }
                                });
                            }
                            if (!polled.isEmpty()) {
                                consumer.commitAsync();
                            }
                        }
                        producer.flush();
                    }
                },
                "bench-alerting-raw-pipe");
        pipe.start();
        try {
            long t0 = System.nanoTime();
            try (var producer = producer(kafka)) {
                for (var r : records) {
                    producer.send(new ProducerRecord<>(RAW_IN, r.key(), r.value()));
                }
                producer.flush();
            }
            long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            while (acked.get() < records.size()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("raw pipe copied only " + acked.get() + " of " + records.size());
                }
                LockSupport.parkNanos(1_000_000);
            }
            return records.size() / ((lastAck.get() - t0) / 1e9);
        } finally {
            stop.set(true);
            pipe.join(30_000);
        }
    }

    private record Latencies(double p50, double p99, double max, int samples) {}

    /** Per sample: a dlq_routed metric, then a metric closing its minute; closing record sent → opened readable. */
    private static Latencies latency(EmbeddedKafka kafka, AlertObserver alerts, Options o, long minute)
            throws Exception {
        Map<String, Long> sentAt = new ConcurrentHashMap<>();
        alerts.track(sentAt);
        long intervalNanos = 1_000_000_000L / Math.max(1, o.latencyRatePerSecond());
        long next = System.nanoTime();
        long grace = AlertingConfig.defaults().metricGrace().toMillis();
        try (var producer = producer(kafka)) {
            for (int k = 0; k < o.latencySamples(); k++) {
                String app = "lat-" + k;
                DomainMetric breach = new DomainMetric(
                        1, app, DomainMetric.DLQ_ROUTED, "archived", null, null, null, null, minute + 1_000);
                DomainMetric closer = new DomainMetric(
                        1,
                        app,
                        DomainMetric.DLQ_ROUTED,
                        "archived",
                        null,
                        null,
                        null,
                        null,
                        minute + MIN + grace + 1_000);
                producer.send(new ProducerRecord<>(
                        Topics.METRICS, null, breach.timestamp(), breach.key(), Json.bytes(breach)));
                LockSupport.parkNanos(next - System.nanoTime());
                next += intervalNanos;
                sentAt.put("rule/dlq-routed/" + app, System.nanoTime());
                producer.send(new ProducerRecord<>(
                        Topics.METRICS, null, closer.timestamp(), closer.key(), Json.bytes(closer)));
                producer.flush();
            }
        }
        List<Long> samples = alerts.awaitLatencies(o.latencySamples(), Duration.ofMinutes(5));
        long[] sorted = samples.stream().mapToLong(Long::longValue).sorted().toArray();
        return new Latencies(
                percentile(sorted, 0.50) / 1e6,
                percentile(sorted, 0.99) / 1e6,
                sorted[sorted.length - 1] / 1e6,
                sorted.length);
    }

    private static void write(Path dir, Result r) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("metrics", r.metrics());
        json.put("apps", r.apps());
        json.put("metricsPerSecond", Math.round(r.metricsPerSecond()));
        json.put("rawPipeRecordsPerSecond", Math.round(r.rawPipeRecordsPerSecond()));
        json.put("ratio", r.ratio());
        json.put("decisionLatencyP50Ms", r.latencyP50Ms());
        json.put("decisionLatencyP99Ms", r.latencyP99Ms());
        json.put("decisionLatencyMaxMs", r.latencyMaxMs());
        json.put("latencySamples", r.latencySamples());
        json.put("alertsDuringThroughput", r.alertsDuringThroughput());
        json.put("processingGuarantee", "exactly_once_v2");
        writeJson(dir, NAME, json);
    }
    /** Reads vigil.alerts (read_committed) from its end; counts events and times tracked opened alerts. */
    private static final class AlertObserver implements AutoCloseable {
        private final AtomicLong count = new AtomicLong();
        private final List<Long> latencies = java.util.Collections.synchronizedList(new ArrayList<>());
        private volatile Map<String, Long> sentAt = new ConcurrentHashMap<>();
        private final TopicTail<String, AlertEvent> tail;

        AlertObserver(EmbeddedKafka kafka) {
            tail = new TopicTail<>(
                    kafka,
                    Topics.ALERTS,
                    new StringDeserializer(),
                    VigilSerdes.alertEvent(),
                    Duration.ofMillis(10),
                    (records, nanos) -> {
                        for (ConsumerRecord<String, AlertEvent> r : records) {
                            count.incrementAndGet();
                            Long sent = sentAt.remove(r.key());
                            if (sent != null && r.value().state() == AlertState.OPENED) {
                                latencies.add(nanos - sent);
                            }
                        }
                    });
        }

        long count() {
            return count.get();
        }

        void track(Map<String, Long> sent) {
            this.sentAt = sent;
        }

        List<Long> awaitLatencies(int n, Duration timeout) {
            BenchSupport.awaitUntil(
                    () -> latencies.size() >= n,
                    timeout,
                    () -> "only " + latencies.size() + " of " + n + " opened alerts arrived");
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
