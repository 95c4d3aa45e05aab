package dev.vigil.bench.heartbeat;

import static dev.vigil.bench.BenchSupport.percentile;
import static dev.vigil.bench.BenchSupport.report;

import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.ingest.IngestServer;
import dev.vigil.ingest.config.IngestConfig;
import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * Heartbeat pings through a real {@link IngestServer} (its copy of {@code vigil.monitors}, the token hash check, the
 * first ping of a window published to {@code vigil.probe-results} on an in-process KRaft broker, later ones answered
 * without publishing), closed loop over loopback HTTP.
 *
 * <ol>
 *   <li><b>spread</b>: pings for random monitors among {@code --monitors}: pings/s and latency;</li>
 *   <li><b>others alone</b>: a light stream ({@code --others-in-flight}) of pings for every monitor but one;</li>
 *   <li><b>flood</b>: the same light stream while {@code --flood-in-flight} connections ping that one monitor as
 *       fast as they can: what the others' latency and rate become (a flood must not starve them).</li>
 * </ol>
 * Physical reference, same run: a bare Reactor Netty server answering 200 to the same requests, closed loop with
 * the spread phase's concurrency — requests/s of HTTP over loopback on this machine, and the ratio.
 *
 * <p>Run (from the repository root):
 * <pre>
 * mvn -B -q -Dvigil.target=target-hb -pl bench -am package -DskipTests dependency:build-classpath \
 *     -Dmdep.outputFile=target-hb/classpath.txt -Dmdep.includeScope=runtime
 * java -Xmx1g -cp bench/target-hb/classes:$(cat bench/target-hb/classpath.txt) \
 *     dev.vigil.bench.heartbeat.HeartbeatPingBench --monitors 10000 --duration 20
 * </pre>
 * The last line is {@code RESULT heartbeat-pings key=value ...}; the JSON goes to {@code bench/target/results/}.
 */
public final class HeartbeatPingBench {

    /** Harness options. */
    public record Options(
            int monitors, int durationSeconds, int warmupSeconds, int inFlight, int othersInFlight, int floodInFlight) {
        static Options parse(String[] args) {
            int monitors = 10_000;
            int duration = 20;
            int warmup = 5;
            int inFlight = 64;
            int others = 4;
            int flood = 64;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--monitors" -> monitors = Integer.parseInt(args[++i]);
                    case "--duration" -> duration = Integer.parseInt(args[++i]);
                    case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                    case "--in-flight" -> inFlight = Integer.parseInt(args[++i]);
                    case "--others-in-flight" -> others = Integer.parseInt(args[++i]);
                    case "--flood-in-flight" -> flood = Integer.parseInt(args[++i]);
                    default -> throw new IllegalArgumentException(
                            "unknown option " + args[i] + "; options: --monitors N"
                                    + " --duration S --warmup S --in-flight N --others-in-flight N --flood-in-flight N");
                }
            }
            return new Options(monitors, duration, warmup, inFlight, others, flood);
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, Object> r = run(Options.parse(args));
        System.exit(r.isEmpty() ? 1 : 0);
    }

    /** Runs the phases, prints the RESULT line, writes the JSON file and returns the figures. */
    public static Map<String, Object> run(Options o) throws Exception {
        String[] tokens = new String[o.monitors()];
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().start()) {
            kafka.createTopics(
                    new Topics.TopicSpec(Topics.MONITORS, 6, true),
                    new Topics.TopicSpec(Topics.PROBE_RESULTS, 6, false));
            publishMonitors(kafka, o.monitors(), tokens);
            IngestConfig config = new IngestConfig(
                    new IngestConfig.Http("127.0.0.1", 0),
                    IngestConfig.Kafka.defaults(kafka.bootstrapServers()).withTransactionalIdPrefix("bench-hb"),
                    Map.of(),
                    Map.of(),
                    IngestConfig.Limits.defaults());
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("monitors", o.monitors());
            try (IngestServer.Running server = IngestServer.start(config, Map.of(), Clock.systemUTC())) {
                if (!server.awaitReady(Duration.ofSeconds(30))) {
                    throw new IllegalStateException("ingest did not become ready");
                }
                LoopResources loop = LoopResources.create("bench-hb-client", 1, true);
                ConnectionProvider pool = ConnectionProvider.builder("bench-hb")
                        .maxConnections(512)
                        .pendingAcquireMaxCount(-1)
                        .build();
                HttpClient client = HttpClient.create(pool).runOn(loop).baseUrl(server.baseUrl());
                try {
                    awaitCatalog(client, tokens);
                    int n = o.monitors();
                    phase(client, tokens, o.inFlight(), o.warmupSeconds(), () -> ThreadLocalRandom.current()
                            .nextInt(n));
                    Stats spread =
                            phase(client, tokens, o.inFlight(), o.durationSeconds(), () -> ThreadLocalRandom.current()
                                    .nextInt(n));
                    put(r, "spread", spread, o.durationSeconds());
                    IntSupplier others = () -> 1 + ThreadLocalRandom.current().nextInt(n - 1);
                    Stats alone = phase(client, tokens, o.othersInFlight(), o.durationSeconds(), others);
                    put(r, "othersAlone", alone, o.durationSeconds());
                    Stats[] underFlood = new Stats[2];
                    Mono<Stats> flood = Mono.fromCallable(
                                    () -> phase(client, tokens, o.floodInFlight(), o.durationSeconds(), () -> 0))
                            .subscribeOn(reactor.core.scheduler.Schedulers.boundedElastic());
                    Mono<Stats> light = Mono.fromCallable(
                                    () -> phase(client, tokens, o.othersInFlight(), o.durationSeconds(), others))
                            .subscribeOn(reactor.core.scheduler.Schedulers.boundedElastic());
                    Mono.zip(flood, light)
                            .doOnNext(t -> {
                                underFlood[0] = t.getT1();
                                underFlood[1] = t.getT2();
                            })
                            .block();
                    put(r, "flood", underFlood[0], o.durationSeconds());
                    put(r, "othersUnderFlood", underFlood[1], o.durationSeconds());
                    r.put(
                            "othersP99RatioUnderFlood",
                            round((double) r.get("othersUnderFloodP99Ms")
                                    / Math.max(0.01, (double) r.get("othersAloneP99Ms"))));
                    var published = server.registry()
                            .find("vigil.ingest.heartbeats")
                            .tag("outcome", "success")
                            .counter();
                    r.put("resultsPublished", published == null ? 0 : (long) published.count());
                } finally {
                    pool.disposeLater().block(Duration.ofSeconds(5));
                    loop.disposeLater().block(Duration.ofSeconds(5));
                }
            }
            Map<String, Object> ref = reference(o, tokens);
            r.putAll(ref);
            r.put(
                    "ratioToBareHttp",
                    round((double) r.get("spreadPingsPerSec") / (double) ref.get("bareHttpRequestsPerSec")));
            report("heartbeat-pings", r);
            return r;
        }
    }

    private static void publishMonitors(EmbeddedKafka kafka, int n, String[] tokens) throws Exception {
        try (KafkaProducer<byte[], byte[]> p =
                new KafkaProducer<>(kafka.producerProps(), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < n; i++) {
                tokens[i] = BearerTokens.generate();
                String id = id(i);
                MonitorDefinition m = new MonitorDefinition(
                        1,
                        id,
                        null,
                        null,
                        null,
                        60,
                        2500,
                        null,
                        null,
                        null,
                        null,
                        "bench",
                        null,
                        Map.of(),
                        true,
                        CheckType.HEARTBEAT,
                        null,
                        null,
                        null,
                        null,
                        null,
                        new MonitorDefinition.Heartbeat(null, null, 30, BearerTokens.hash(tokens[i])));
                p.send(new ProducerRecord<>(Topics.MONITORS, id.getBytes(StandardCharsets.UTF_8), Json.bytes(m)));
            }
            p.flush();
        }
    }

    private static String id(int i) {
        return "hb-" + i;
    }

    /** Until ingest's copy of the monitors has the last one published (pings answer 503 before it caught up). */
    private static void awaitCatalog(HttpClient client, String[] tokens) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int last = tokens.length - 1;
        while (System.nanoTime() < end) {
            Integer status = ping(client, last, tokens[last]).block(Duration.ofSeconds(10));
            if (status != null && status / 100 == 2) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("ingest never accepted a ping for " + id(last));
    }

    private static Mono<Integer> ping(HttpClient client, int monitor, String token) {
        return client.headers(h -> h.set("Authorization", "Bearer " + token))
                .post()
                .uri("/v1/heartbeat/" + id(monitor))
                .responseSingle((res, body) -> body.then(Mono.just(res.status().code())));
    }

    private static Stats phase(HttpClient client, String[] tokens, int inFlight, int seconds, IntSupplier monitor) {
        Stats stats = new Stats();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Flux.range(0, inFlight)
                .flatMap(
                        w -> Mono.defer(() -> {
                                    int m = monitor.getAsInt();
                                    long t0 = System.nanoTime();
                                    return ping(client, m, tokens[m])
                                            .doOnNext(status -> stats.record(status, System.nanoTime() - t0));
                                })
                                .repeat(() -> System.nanoTime() < end),
                        inFlight)
                .blockLast();
        return stats;
    }

    /** Bare Reactor Netty server, same requests (path, header), answering 200: HTTP over loopback on this machine. */
    private static Map<String, Object> reference(Options o, String[] tokens) {
        DisposableServer bare = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .route(r -> r.post("/v1/heartbeat/{id}", (req, res) -> req.receive()
                        .then(res.status(200).send())))
                .bindNow();
        LoopResources loop = LoopResources.create("bench-hb-ref", 1, true);
        ConnectionProvider pool = ConnectionProvider.builder("bench-hb-ref")
                .maxConnections(512)
                .pendingAcquireMaxCount(-1)
                .build();
        try {
            HttpClient client = HttpClient.create(pool).runOn(loop).baseUrl("http://127.0.0.1:" + bare.port());
            int n = tokens.length;
            phase(client, tokens, o.inFlight(), o.warmupSeconds(), () -> ThreadLocalRandom.current()
                    .nextInt(n));
            Stats s = phase(client, tokens, o.inFlight(), o.durationSeconds(), () -> ThreadLocalRandom.current()
                    .nextInt(n));
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("bareHttpRequestsPerSec", round(s.count.sum() / (double) o.durationSeconds()));
            return r;
        } finally {
            pool.disposeLater().block(Duration.ofSeconds(5));
            loop.disposeLater().block(Duration.ofSeconds(5));
            bare.disposeNow(Duration.ofSeconds(5));
        }
    }

    private static void put(Map<String, Object> r, String phase, Stats s, int seconds) {
        long[] lat = s.latencies();
        r.put(phase + "Pings", s.count.sum());
        r.put(phase + "PingsPerSec", round(s.count.sum() / (double) seconds));
        r.put(phase + "Non2xx", s.non2xx.sum());
        r.put(phase + "P50Ms", round(percentile(lat, 0.50) / 1e6));
        r.put(phase + "P99Ms", round(percentile(lat, 0.99) / 1e6));
    }

    private static final class Stats {
        final LongAdder count = new LongAdder();
        final LongAdder non2xx = new LongAdder();
        private final List<Long> latencies = new ArrayList<>();

        synchronized void record(int status, long nanos) {
            count.increment();
            if (status / 100 != 2) {
                non2xx.increment();
            }
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
