package dev.vigil.bench.notifier;

import static dev.vigil.bench.BenchSupport.percentile;
import static dev.vigil.bench.BenchSupport.report;

import dev.vigil.bench.TraceExport;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.embedded.postgres.EmbeddedPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.NotifierService;
import dev.vigil.notifier.claim.ClaimStore;
import dev.vigil.notifier.claim.Migrations;
import dev.vigil.notifier.config.ChannelSpec;
import dev.vigil.notifier.config.ChannelType;
import dev.vigil.notifier.config.NotifierConfig;
import dev.vigil.notifier.config.RoutingSpec;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The notifier's full path — consume, claim, send, record, commit — into a local webhook sink, on the embedded
 * broker and embedded PostgreSQL, in one JVM (or, with {@code --notifier-process}, the notifier in a second one).
 *
 * <ul>
 *   <li><b>burst</b>: N distinct critical events are put on the topic at once; deliveries/s is N divided by the
 *   time from the first event produced to the moment every offset is committed.</li>
 *   <li><b>paced</b>: events at a fixed rate; latency from the producer's send to the request arriving at the
 *   sink (p50/p99).</li>
 *   <li><b>reference</b>, same machine, same database: {@code pgbench} running the claim statement one row per
 *   statement ({@code /usr/lib/postgresql/15/bin/pgbench}, 4 clients); without pgbench, a single-row R2DBC
 *   claim loop (and the RESULT line says {@code reference=r2dbc-single-row}).</li>
 * </ul>
 *
 * <p>Run (from the repository root):
 * <pre>
 * mvn -B -o -q -Dvigil.target=target-notifier -pl bench -am package -DskipTests dependency:build-classpath \
 *     -Dmdep.outputFile=target-notifier/classpath.txt -Dmdep.includeScope=runtime
 * java -Xmx1g -cp bench/target-notifier/classes:$(cat bench/target-notifier/classpath.txt) \
 *     dev.vigil.bench.notifier.NotifierThroughputBench --events 10000 --paced-rate 1000 --paced-seconds 5
 * </pre>
 * With {@code --notifier-process} the notifier runs as deployed, a process of its own with its own JVM flags, and is
 * costed as Alertmanager is: its process's CPU from {@code /proc} ({@code deliveries_per_notifier_cpu_s}), then with
 * PostgreSQL's, then with the broker's threads as well; this JVM keeps the broker, the producer and the sink.
 * The last line is {@code RESULT notifier-throughput key=value ...}; the same goes to
 * {@code bench/target/results/notifier-throughput.json} (directory: {@code -Dvigil.results.dir}).
 */
public final class NotifierThroughputBench {
    static final String SECRET_ENV = "BENCH_HOOK_SECRET";
    /** The embedded server requires its generated password; the notifier reads it from this variable. */
    static final String DB_PASSWORD_ENV = "BENCH_DB_PASSWORD";

    public record Options(
            int events,
            int pacedRate,
            int pacedSeconds,
            int referenceSeconds,
            int warmup,
            int pacedWarmupSeconds,
            boolean notifierProcess) {
        static Options parse(String[] args) {
            int events = 10_000;
            int rate = 1000;
            int seconds = 5;
            int reference = 10;
            int warmup = 5000;
            int pacedWarmup = 0;
            boolean process = false;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--events" -> events = Integer.parseInt(args[++i]);
                    case "--paced-rate" -> rate = Integer.parseInt(args[++i]);
                    case "--paced-seconds" -> seconds = Integer.parseInt(args[++i]);
                    case "--reference-seconds" -> reference = Integer.parseInt(args[++i]);
                    case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                    case "--paced-warmup" -> pacedWarmup = Integer.parseInt(args[++i]);
                    case "--notifier-process" -> process = true;
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + "; options: --events N --paced-rate N --paced-seconds S --reference-seconds S"
                            + " (0: no reference) --warmup N --paced-warmup S --notifier-process");
                }
            }
            return new Options(events, rate, seconds, reference, warmup, pacedWarmup, process);
        }
    }

    public static void main(String[] args) throws Exception {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "dev/vigil/bench/notifier/logback-bench.xml");
        }
        Map<String, Object> r = run(Options.parse(args));
        System.exit(r.isEmpty() ? 1 : 0);
    }

    /** Runs the benchmark, prints the RESULT line, writes the JSON file and returns the figures. */
    public static Map<String, Object> run(Options o) throws Exception {
        Map<String, Object> result = new LinkedHashMap<>();
        Path dir = Files.createTempDirectory("vigil-notifier-bench");
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start();
                EmbeddedPostgres pg = server().start();
                Sink sink = new Sink();
                TraceExport trace = TraceExport.fromProperty()) {
            result.put("tracing", trace.mode());
            result.put("notifier", o.notifierProcess() ? "process" : "in-jvm");
            PostgresDatabase db = pg.createDatabase("notifier_bench");
            String topic = "bench-alerts";
            createTopics(kafka, topic);
            Map<String, String> env =
                    Map.of(SECRET_ENV, "bench-secret-0123456789abcdef0123456789", DB_PASSWORD_ENV, db.password());
            NotifierConfig cfg = config(kafka, db, topic, sink.port()).withOtel(trace.settings());
            Map<String, Object> producerProps = new HashMap<>(kafka.producerProps());
            // the driver stands in for the alert state machine upstream: its records go out at once, so the latency
            // measured is the notifier's (topic to sink), as Alertmanager's runs from its API to the sink
            producerProps.put(org.apache.kafka.clients.producer.ProducerConfig.LINGER_MS_CONFIG, 0);
            try (KafkaProducer<byte[], byte[]> producer =
                            new KafkaProducer<>(producerProps, new ByteArraySerializer(), new ByteArraySerializer());
                    Target notifier = Target.start(o.notifierProcess(), cfg, env, dir);
                    Admin admin = Admin.create(kafka.adminProps())) {
                long run = System.nanoTime();
                // warm-up: JIT, connection pools, group join
                burst(producer, topic, sink, admin, cfg.kafka().groupId(), o.warmup(), "warm" + run);
                sink.reset();
                if (o.pacedWarmupSeconds() > 0) {
                    // the paced phase runs other code paths (small fetches, batches of one) than a burst: the JIT
                    // compiles them too before anything is measured
                    paced(producer, topic, sink, o.pacedRate(), o.pacedWarmupSeconds(), "warmpaced" + run);
                    sink.reset();
                }
                var os = (com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
                long cpu0 = os.getProcessCpuTime();
                double pg0 = PostgresCpu.seconds();
                double own0 = notifier.processCpuSeconds();
                Map<String, Double> kinds0 = notifier.processCpuByKind();
                double seconds;
                Map<String, Long> burstThreads0 = ThreadCpu.snapshot();
                Map<String, double[]> burstBatches0 = notifier.batchTotals();
                try (dev.vigil.bench.Profiling profile = dev.vigil.bench.Profiling.startIfAsked()) {
                    seconds = burst(producer, topic, sink, admin, cfg.kafka().groupId(), o.events(), "burst" + run);
                }
                double cpuSeconds = (os.getProcessCpuTime() - cpu0) / 1e9;
                double pgSeconds = PostgresCpu.seconds() - pg0;
                double ownSeconds = notifier.processCpuSeconds() - own0;
                // CPU per delivery by role: what the notifier costs, and what the stand-ins beside it cost
                Map<String, Double> perEvent =
                        notifier.rolesHere(ThreadCpu.perEvent(burstThreads0, ThreadCpu.snapshot(), o.events()));
                perEvent.forEach((role, us) -> result.put("burst_us_" + role.replace('+', '_'), us));
                result.put("burst_us_postgres", round(pgSeconds * 1e6 / o.events()));
                // the burst's own batches: the warm-ups' (mostly batches of one) are left out
                notifier.batchTotals().forEach((stmt, now) -> {
                    double[] was = burstBatches0.getOrDefault(stmt, new double[3]);
                    double n = now[0] - was[0];
                    if (n > 0) {
                        result.put("batch_" + stmt + "_avg_rows", round((now[1] - was[1]) / n));
                        result.put("batch_" + stmt + "_avg_ms", round((now[2] - was[2]) / n));
                    }
                });
                long duplicates = sink.duplicates.get();
                result.put("events", o.events());
                result.put("deliveries_per_s", round(o.events() / seconds));
                result.put("burst_seconds", round(seconds));
                if (notifier.ownProcess()) {
                    // the notifier's process alone (its threads, JIT and collector), as Alertmanager's is costed;
                    // then with PostgreSQL, then with the broker's threads as well (the JIT and collector of the
                    // benchmark's JVM, which hosts the broker, the producer and the sink, stay out)
                    double brokerSeconds = perEvent.get(ThreadCpu.BROKER) * o.events() / 1e6;
                    result.put("notifier_cpu_seconds", round(ownSeconds));
                    result.put("burst_us_notifier_process", round(ownSeconds * 1e6 / o.events()));
                    // of which its own work, its JIT, its collector
                    notifier.processCpuByKind()
                            .forEach((kind, sec) -> result.put(
                                    "burst_us_notifier_process_" + kind,
                                    round((sec - kinds0.getOrDefault(kind, 0.0)) * 1e6 / o.events())));
                    result.put("deliveries_per_notifier_cpu_s", round(o.events() / ownSeconds));
                    result.put("deliveries_per_notifier_pg_cpu_s", round(o.events() / (ownSeconds + pgSeconds)));
                    result.put(
                            "deliveries_per_notifier_pg_broker_cpu_s",
                            round(o.events() / (ownSeconds + pgSeconds + brokerSeconds)));
                    result.put("bench_jvm_cpu_seconds", round(cpuSeconds));
                } else {
                    // as Alertmanager's side is costed: without the driver and the sink (the broker, which Vigil
                    // needs and Alertmanager does not, stays in)
                    double driverSeconds = perEvent.get(ThreadCpu.DRIVER) * o.events() / 1e6;
                    result.put(
                            "deliveries_per_cpu_s_without_driver",
                            round(o.events() / (cpuSeconds - driverSeconds + pgSeconds)));
                    // this JVM also hosts the broker, the producer and the sink: an upper bound on the notifier's
                    result.put("jvm_cpu_seconds", round(cpuSeconds));
                    result.put("deliveries_per_jvm_cpu_s", round(o.events() / cpuSeconds));
                    result.put("deliveries_per_cpu_s_with_pg", round(o.events() / (cpuSeconds + pgSeconds)));
                }
                // PostgreSQL's processes (backends, WAL writer, checkpointer) do the claims' and settlements' work
                result.put("pg_cpu_seconds", round(pgSeconds));
                result.put("load_average", round(os.getSystemLoadAverage()));
                result.put("cores", os.getAvailableProcessors());
                if (!notifier.ownProcess()) {
                    // which collector this JVM ran with: the notifier's deployed flags choose the throughput one
                    result.put(
                            "gc",
                            ManagementFactory.getGarbageCollectorMXBeans().stream()
                                    .map(b -> b.getName().replace(' ', '-'))
                                    .collect(Collectors.joining("+")));
                }
                sink.reset();
                Map<String, double[]> before = notifier.statementTotals();
                long pacedCpu0 = os.getProcessCpuTime();
                double pacedPg0 = PostgresCpu.seconds();
                double pacedOwn0 = notifier.processCpuSeconds();
                long pacedStart = System.nanoTime();
                Map<String, Long> threads0 = ThreadCpu.snapshot();
                long[] lat;
                try (dev.vigil.bench.Profiling profile =
                        dev.vigil.bench.Profiling.startIfAsked("vigil.bench.profilePaced")) {
                    lat = paced(producer, topic, sink, o.pacedRate(), o.pacedSeconds(), "paced" + run);
                }
                result.put("paced_rate", o.pacedRate());
                result.put("paced_events", lat.length);
                double pacedWall = (System.nanoTime() - pacedStart) / 1e9;
                notifier.rolesHere(ThreadCpu.percent(threads0, ThreadCpu.snapshot(), pacedWall))
                        .forEach((role, pct) -> result.put("paced_cpu_pct_" + role.replace('+', '_'), pct));
                result.put("paced_jvm_cpu_pct", round(100 * (os.getProcessCpuTime() - pacedCpu0) / 1e9 / pacedWall));
                if (notifier.ownProcess()) {
                    result.put(
                            "paced_cpu_pct_notifier_process",
                            round(100 * (notifier.processCpuSeconds() - pacedOwn0) / pacedWall));
                }
                result.put("paced_pg_cpu_pct", round(100 * (PostgresCpu.seconds() - pacedPg0) / pacedWall));
                notifier.statementTotals().forEach((name, now) -> {
                    double[] was = before.getOrDefault(name, new double[2]);
                    double n = now[0] - was[0];
                    if (n > 0) {
                        result.put("paced_" + name + "_avg_ms", round((now[1] - was[1]) / n));
                    }
                });
                result.put("p50_ms", round(percentile(lat, 0.50) / 1e6));
                result.put("p99_ms", round(percentile(lat, 0.99) / 1e6));
                result.put("max_ms", round(percentile(lat, 1.0) / 1e6));
                result.put("duplicates", duplicates + sink.duplicates.get());
            }
            if (o.referenceSeconds() > 0) {
                Reference ref = reference(pg, db, o.referenceSeconds());
                result.put("reference", ref.kind());
                result.put("reference_claims_per_s", round(ref.perSecond()));
                result.put("ratio_to_reference", round((double) result.get("deliveries_per_s") / ref.perSecond()));
            }
        } finally {
            dev.vigil.bench.BenchSupport.deleteTree(dir);
        }
        report("notifier-throughput", result);
        return result;
    }

    /**
     * The notifier under test: in this JVM (its meters at hand, its CPU counted by thread role), or a process of
     * its own with the notifier's deployed flags (its CPU read from {@code /proc}; its meters out of reach).
     */
    private record Target(NotifierService.Running inJvm, Process process) implements AutoCloseable {
        static Target start(boolean ownProcess, NotifierConfig cfg, Map<String, String> env, Path dir)
                throws Exception {
            if (!ownProcess) {
                return new Target(NotifierService.start(cfg, env), null);
            }
            Path file = dir.resolve("notifier.json");
            Files.writeString(file, Json.string(cfg));
            return new Target(null, NotifierProcess.launch(file, env, dir.resolve("notifier.log")));
        }

        boolean ownProcess() {
            return process != null;
        }

        /**
         * The thread roles of this JVM that take part: with the notifier in a process of its own, none of this
         * JVM's threads is the notifier's, and its role is left out rather than shown near zero.
         */
        Map<String, Double> rolesHere(Map<String, Double> byRole) {
            if (ownProcess()) {
                byRole.remove(ThreadCpu.NOTIFIER);
            }
            return byRole;
        }

        double processCpuSeconds() {
            return process == null ? 0 : NotifierProcess.cpuSeconds(process);
        }

        Map<String, Double> processCpuByKind() {
            return process == null ? Map.of() : NotifierProcess.cpuSecondsByKind(process);
        }

        Map<String, double[]> batchTotals() {
            return inJvm == null ? Map.of() : NotifierThroughputBench.batchTotals(inJvm.registry());
        }

        Map<String, double[]> statementTotals() {
            return inJvm == null ? Map.of() : NotifierThroughputBench.statementTotals(inJvm.registry());
        }

        @Override
        public void close() throws Exception {
            if (inJvm != null) {
                inJvm.close();
            } else {
                process.destroy();
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        }
    }

    /**
     * The benchmark's PostgreSQL, durable as it ships ({@code fsync} and {@code synchronous_commit} on; the embedded
     * server turns both off for throwaway test data): a claim is on disk before its send, as in production. Settings
     * from {@code -Dvigil.bench.pgConfig=key=value,...} come on top, to look inside the server while it runs (e.g.
     * {@code shared_preload_libraries=auto_explain,auto_explain.log_min_duration=4,logging_collector=on,
     * log_directory=/tmp/pglog}: the plans of slow statements) or to measure without the flushes
     * ({@code fsync=off,synchronous_commit=off}).
     */
    static EmbeddedPostgres.Builder server() {
        EmbeddedPostgres.Builder b = EmbeddedPostgres.builder()
                .useEnvironment(false)
                .serverConfig("fsync", "on")
                .serverConfig("synchronous_commit", "on");
        String settings = System.getProperty("vigil.bench.pgConfig", "");
        for (String kv : settings.split(",")) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                b.serverConfig(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
            }
        }
        return b;
    }

    /** Per statement: batches run, rows in them, milliseconds they took. */
    private static Map<String, double[]> batchTotals(io.micrometer.core.instrument.MeterRegistry registry) {
        Map<String, double[]> out = new LinkedHashMap<>();
        for (var s : registry.find("vigil.notifier.store.batch.size").summaries()) {
            String stmt = s.getId().getTag("statement");
            var t = registry.find("vigil.notifier.store.statement")
                    .tag("statement", stmt)
                    .timer();
            out.put(stmt, new double[] {s.count(), s.totalAmount(), t == null ? 0 : t.totalTime(TimeUnit.MILLISECONDS)
            });
        }
        return out;
    }

    /**
     * Count and total milliseconds of each store statement kind and of the sends so far, keyed
     * {@code batch_<statement>} and {@code send}: the paced phase's means are the differences.
     */
    private static Map<String, double[]> statementTotals(io.micrometer.core.instrument.MeterRegistry registry) {
        Map<String, double[]> out = new LinkedHashMap<>();
        for (var t : registry.find("vigil.notifier.store.statement").timers()) {
            out.put(
                    "batch_" + t.getId().getTag("statement"),
                    new double[] {t.count(), t.totalTime(TimeUnit.MILLISECONDS)});
        }
        double[] send = new double[2];
        for (var t : registry.find("vigil.notifier.send").timers()) {
            send[0] += t.count();
            send[1] += t.totalTime(TimeUnit.MILLISECONDS);
        }
        out.put("send", send);
        return out;
    }

    /** The alerts topic the driver writes and every topic the notifier reads or writes. */
    static void createTopics(EmbeddedKafka kafka, String topic) {
        kafka.createTopics(
                new Topics.TopicSpec(topic, Topics.DEFAULT_PARTITIONS, false),
                new Topics.TopicSpec(Topics.DEAD_LETTER, 1, false),
                // the notifier also follows these; without them its consumers log missing-topic warnings
                new Topics.TopicSpec(Topics.SILENCES, 1, true),
                new Topics.TopicSpec(Topics.ACKS, 1, true),
                new Topics.TopicSpec(Topics.VENDOR_UPDATES, 1, false),
                // the notifier writes each event's outcome to the incident timeline
                new Topics.TopicSpec(Topics.INCIDENT_NOTES, Topics.DEFAULT_PARTITIONS, false));
    }

    static NotifierConfig config(EmbeddedKafka kafka, PostgresDatabase db, String topic, int sinkPort) {
        Map<String, ChannelSpec> ch = new LinkedHashMap<>();
        ch.put(
                "sink",
                new ChannelSpec(
                        ChannelType.WEBHOOK, "http://127.0.0.1:" + sinkPort + "/hook", null, SECRET_ENV, 0.0, 256));
        RoutingSpec routing = new RoutingSpec(
                ch,
                List.of(),
                Map.of("critical", List.of("sink"), "warning", List.of("sink"), "info", List.of("sink")));
        String url = "r2dbc:postgresql://" + db.host() + ":" + db.port() + "/" + db.name();
        return NotifierConfig.defaults()
                .withKafka(new NotifierConfig.Kafka(
                        kafka.bootstrapServers(),
                        "bench-" + UUID.randomUUID(),
                        new NotifierConfig.TopicNames(topic, Topics.DEAD_LETTER),
                        5000,
                        1000))
                .withDatabase(new NotifierConfig.Database(url, db.user(), DB_PASSWORD_ENV, 8))
                .withDelivery(new NotifierConfig.Delivery(null, null, null, null, null, null, 500))
                .withHttp(new NotifierConfig.Http("127.0.0.1", 0))
                .withRouting(routing);
    }

    static AlertEvent event(String prefix, int i, long now) {
        String fp = "bench/" + prefix + "-" + i;
        return new AlertEvent(
                1,
                null,
                fp,
                null,
                AlertState.OPENED,
                Severity.CRITICAL,
                "bench",
                "service",
                "synthetic event " + i,
                Map.of(),
                Map.of(),
                1,
                now,
                now,
                AlertSource.APP,
                false,
                List.of());
    }

    /** Produces n events at once; returns seconds from the first send until every offset is committed. */
    private static double burst(
            KafkaProducer<byte[], byte[]> producer,
            String topic,
            Sink sink,
            Admin admin,
            String group,
            int n,
            String prefix)
            throws Exception {
        long now = System.currentTimeMillis();
        List<byte[]> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            values.add(Json.bytes(event(prefix, i, now)));
        }
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            producer.send(new ProducerRecord<>(
                    topic, ("bench/" + prefix + "-" + i).getBytes(StandardCharsets.UTF_8), values.get(i)));
        }
        producer.flush();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (sink.received.size() < n) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "only " + sink.received.size() + " of " + n + " events reached the sink");
            }
            Thread.sleep(5);
        }
        while (!allCommitted(admin, group, topic)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("offsets were not committed in time");
            }
            Thread.sleep(5);
        }
        return (System.nanoTime() - start) / 1e9;
    }

    static boolean allCommitted(Admin admin, String group, String topic) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
        for (int p = 0; p < Topics.DEFAULT_PARTITIONS; p++) {
            ask.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        var ends = admin.listOffsets(ask).all().get(10, TimeUnit.SECONDS);
        for (var e : ends.entrySet()) {
            long end = e.getValue().offset();
            OffsetAndMetadata c = committed.get(e.getKey());
            if (end > 0 && (c == null || c.offset() < end)) {
                return false;
            }
        }
        return true;
    }

    /** Events at a fixed rate; latency from send to the request at the sink, per event. */
    private static long[] paced(
            KafkaProducer<byte[], byte[]> producer, String topic, Sink sink, int rate, int seconds, String prefix)
            throws Exception {
        int n = rate * seconds;
        Map<String, Long> sentAt = new ConcurrentHashMap<>();
        long start = System.nanoTime();
        long intervalNanos = 1_000_000_000L / Math.max(1, rate);
        for (int i = 0; i < n; i++) {
            long due = start + i * intervalNanos;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            AlertEvent e = event(prefix, i, System.currentTimeMillis());
            sentAt.put(e.eventId(), System.nanoTime());
            producer.send(new ProducerRecord<>(topic, e.fingerprint().getBytes(StandardCharsets.UTF_8), Json.bytes(e)));
        }
        producer.flush();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (sink.received.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        long[] lat = new long[sink.received.size()];
        int k = 0;
        for (var e : sink.received.entrySet()) {
            Long s = sentAt.get(e.getKey());
            if (s != null) {
                lat[k++] = e.getValue() - s;
            }
        }
        lat = Arrays.copyOf(lat, k);
        Arrays.sort(lat);
        return lat;
    }

    record Reference(String kind, double perSecond) {}

    /** pgbench on the claim statement (one row per statement), or a single-row R2DBC loop without pgbench. */
    static Reference reference(EmbeddedPostgres pg, PostgresDatabase db, int seconds) throws Exception {
        Path pgbench = Path.of("/usr/lib/postgresql/15/bin/pgbench");
        if (Files.isExecutable(pgbench)) {
            Path script = Files.createTempFile("claim", ".sql");
            String sql = ClaimStore.CLAIM_SQL
                    .replace("$1::text[]", "ARRAY['ref-' || :id]::text[]")
                    .replace("$2::text[]", "ARRAY['sink']::text[]")
                    .replace("$3::text[]", "ARRAY[md5(:id::text)]::text[]")
                    .replace("$4", "'pgbench'")
                    .replace("$5::interval", "'15000 milliseconds'::interval")
                    .replace("$6::interval", "'3600000 milliseconds'::interval");
            Files.writeString(script, "\\set id random(1, 2000000000)\n" + sql + ";\n");
            ProcessBuilder pb = new ProcessBuilder(
                            pgbench.toString(),
                            "-n",
                            "-h",
                            db.host(),
                            "-p",
                            String.valueOf(db.port()),
                            "-U",
                            db.user(),
                            "-c",
                            "4",
                            "-j",
                            "2",
                            "-T",
                            String.valueOf(seconds),
                            "-f",
                            script.toString(),
                            db.name())
                    .redirectErrorStream(true);
            if (db.password() != null) {
                pb.environment().put("PGPASSWORD", db.password());
            }
            Process p = pb.start();
            StringBuilder out = new StringBuilder();
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    out.append(line).append('\n');
                }
            }
            p.waitFor(seconds + 60L, TimeUnit.SECONDS);
            Matcher m = Pattern.compile("tps = ([0-9.]+)").matcher(out);
            if (m.find()) {
                return new Reference("pgbench-4-clients", Double.parseDouble(m.group(1)));
            }
            System.err.println("pgbench gave no tps; falling back to the R2DBC loop:\n" + out);
        }
        Migrations.run(db.jdbcUrl(), db.user(), db.password()).block(Duration.ofSeconds(60));
        return new Reference("r2dbc-single-row", r2dbcLoop(db.connectionFactory(), seconds));
    }

    /** Four concurrent loops, each one claim statement with one row at a time, for {@code seconds}. */
    static double r2dbcLoop(ConnectionFactory cf, int seconds) {
        AtomicLong done = new AtomicLong();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long start = System.nanoTime();
        Flux.range(0, 4)
                .flatMap(
                        w -> Mono.usingWhen(
                                Mono.from(cf.create()),
                                (Connection c) -> Flux.range(0, Integer.MAX_VALUE)
                                        .concatMap(i -> {
                                            String id = "loop-" + w + "-" + i + "-" + start;
                                            return Flux.from(c.createStatement(ClaimStore.CLAIM_SQL)
                                                            .bind("$1", new String[] {id})
                                                            .bind("$2", new String[] {"sink"})
                                                            .bind("$3", new String[] {
                                                                UUID.randomUUID()
                                                                        .toString()
                                                            })
                                                            .bind("$4", "loop")
                                                            .bind("$5", "15000 milliseconds")
                                                            .bind("$6", "3600000 milliseconds")
                                                            .execute())
                                                    .flatMap(r -> r.map((row, m) -> 1))
                                                    .then(Mono.fromRunnable(done::incrementAndGet));
                                        })
                                        .takeWhile(x -> System.nanoTime() < end)
                                        .then(),
                                c -> Mono.from(c.close())),
                        4)
                .blockLast(Duration.ofSeconds(seconds + 60L));
        return done.get() / ((System.nanoTime() - start) / 1e9);
    }

    private static double round(double v) {
        return Math.round(v * 100.0) / 100.0;
    }
    /** The webhook sink: answers 200 at once and keeps the arrival time of each event id (first arrival). */
    static final class Sink implements AutoCloseable {
        final Map<String, Long> received = new ConcurrentHashMap<>();
        final AtomicLong duplicates = new AtomicLong();
        /** The sink's own event loop, so its CPU is told apart from the notifier's HTTP client. */
        private final reactor.netty.resources.LoopResources loops =
                reactor.netty.resources.LoopResources.create("bench-sink", 1, true);

        private final DisposableServer server = HttpServer.create()
                .runOn(loops)
                .host("127.0.0.1")
                .port(0)
                .handle((req, res) -> {
                    long at = System.nanoTime();
                    String id = req.requestHeaders().get("X-Vigil-Event-Id");
                    if (id != null && received.putIfAbsent(id, at) != null) {
                        duplicates.incrementAndGet();
                    }
                    return req.receive().then(res.status(200).send());
                })
                .bindNow();

        int port() {
            return server.port();
        }

        void reset() {
            received.clear();
        }

        @Override
        public void close() {
            server.disposeNow();
            loops.dispose();
        }
    }
}
