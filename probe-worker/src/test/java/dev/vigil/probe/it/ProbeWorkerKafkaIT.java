package dev.vigil.probe.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.probe.ProbeWorker;
import dev.vigil.probe.config.ProbeWorkerConfig;
import dev.vigil.probe.publish.ResultPublisher;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.schemas.window.Windows;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@WithKafka
class ProbeWorkerKafkaIT {
    EmbeddedKafka kafka;
    private LocalTarget target;
    private final List<AutoCloseable> open = new ArrayList<>();
    // Topics of their own per test: the broker is shared by the class.
    private String monitorsTopic;
    private String resultsTopic;
    private String heartbeatsTopic;
    private String deadLetterTopic;

    @BeforeEach
    void setUp() {
        target = new LocalTarget();
        String p = "t" + UUID.randomUUID().toString().substring(0, 8) + ".";
        monitorsTopic = p + Topics.MONITORS;
        resultsTopic = p + Topics.PROBE_RESULTS;
        heartbeatsTopic = p + Topics.HEARTBEATS;
        deadLetterTopic = p + Topics.DEAD_LETTER;
        kafka.createTopics(
                new Topics.TopicSpec(monitorsTopic, 3, true),
                new Topics.TopicSpec(resultsTopic, 3, false),
                new Topics.TopicSpec(heartbeatsTopic, 1, false),
                new Topics.TopicSpec(deadLetterTopic, 1, false));
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        target.close();
    }

    private ProbeWorkerConfig config(String workerId) {
        var d = ProbeWorkerConfig.defaults();
        return new ProbeWorkerConfig(
                "us-east",
                workerId,
                d.regions(),
                64,
                "",
                List.of("127.0.0.0/8"),
                "",
                Duration.ofMillis(500),
                Duration.ofMillis(10_000),
                new ProbeWorkerConfig.Kafka(
                        kafka.bootstrapServers(),
                        new ProbeWorkerConfig.TopicNames(
                                monitorsTopic, resultsTopic, heartbeatsTopic, deadLetterTopic)),
                new ProbeWorkerConfig.Http("127.0.0.1", 0),
                d.remote());
    }

    private static MonitorDefinition monitor(String id, String url, String... regions) {
        return new MonitorDefinition(
                1, id, null, url, null, 10, 2000, List.of(regions), null, null, null, null, null, null, null);
    }

    private KafkaProducer<String, byte[]> producer() {
        var p = new KafkaProducer<>(kafka.producerProps(), new StringSerializer(), new ByteArraySerializer());
        open.add(p);
        return p;
    }

    /** Every record of a topic from the beginning up to its end offsets now. */
    private List<ConsumerRecord<String, byte[]>> readAll(String topic) {
        Map<String, Object> props = new HashMap<>(kafka.consumerProps("reader-" + UUID.randomUUID()));
        props.remove("group.id");
        try (var c = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition()))
                    .toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
            long deadline = System.currentTimeMillis() + 30_000;
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))
                    && System.currentTimeMillis() < deadline) {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            return out;
        }
    }

    private List<ProbeResult> results() {
        return readAll(resultsTopic).stream()
                .map(r -> VigilSerdes.probeResult().deserialize(r.topic(), r.value()))
                .toList();
    }

    private List<WorkerHeartbeat> heartbeats() {
        return readAll(heartbeatsTopic).stream()
                .map(r -> VigilSerdes.workerHeartbeat().deserialize(r.topic(), r.value()))
                .toList();
    }

    private static int get(String url) throws Exception {
        return HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    private static String body(String url) throws Exception {
        return HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
                .body();
    }

    @Test
    void definitionsOnTheTopicBecomeWindowAlignedResultsAndHeartbeats() throws Exception {
        var producer = producer();
        var api = monitor("api", target.url("/health"), "us-east", "eu-west");
        var elsewhere = monitor("elsewhere", target.url("/health"), "eu-west");
        var gone = monitor("gone", target.url("/health"), "us-east");
        producer.send(new ProducerRecord<>(monitorsTopic, "api", Json.bytes(api)));
        producer.send(new ProducerRecord<>(monitorsTopic, "elsewhere", Json.bytes(elsewhere)));
        producer.send(new ProducerRecord<>(monitorsTopic, "gone", Json.bytes(gone)));
        producer.send(new ProducerRecord<>(monitorsTopic, "gone", null));
        producer.send(new ProducerRecord<>(
                monitorsTopic, "broken", "{\"id\":\"broken\",\"url\":\"ftp://x\"}".getBytes(StandardCharsets.UTF_8)));
        producer.flush();

        var worker = ProbeWorker.start(config("w-it-1"), Map.of());
        open.add(worker);
        String base = "http://127.0.0.1:" + worker.httpPort();
        assertThat(get(base + "/health")).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> get(base + "/ready") == 200);
        assertThat(worker.scheduler().monitorsAssigned()).isEqualTo(1);

        await().atMost(Duration.ofSeconds(40))
                .until(() -> results().stream().anyMatch(r -> r.monitorId().equals("api")));
        List<ProbeResult> rs = results();
        assertThat(rs).extracting(ProbeResult::monitorId).containsOnly("api");
        for (ProbeResult r : rs) {
            assertThat(r.region()).isEqualTo("us-east");
            assertThat(r.workerId()).isEqualTo("w-it-1");
            assertThat(r.windowStart() % 10_000).isZero();
            assertThat(r.startedAt()).isBetween(r.windowStart(), r.windowStart() + 10_000);
            assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        }
        assertThat(rs.get(0).startedAt() - rs.get(0).windowStart())
                .isGreaterThanOrEqualTo(Windows.offsetMs("api", 10_000, 2000));
        assertThat(rs.stream().map(ProbeResult::windowStart).distinct().count()).isEqualTo(rs.size());

        await().atMost(Duration.ofSeconds(20))
                .until(() -> heartbeats().stream().anyMatch(h -> h.monitorsAssigned() == 1));
        assertThat(heartbeats()).isNotEmpty().allSatisfy(hb -> {
            assertThat(hb.workerId()).isEqualTo("w-it-1");
            assertThat(hb.region()).isEqualTo("us-east");
            assertThat(hb.version()).isEqualTo(ProbeWorkerConfig.VERSION);
        });
        assertThat(readAll(heartbeatsTopic)).extracting(ConsumerRecord::key).containsOnly("w-it-1");

        await().atMost(Duration.ofSeconds(20))
                .until(() -> !readAll(deadLetterTopic).isEmpty());
        DeadLetter dl = VigilSerdes.deadLetter()
                .deserialize(deadLetterTopic, readAll(deadLetterTopic).get(0).value());
        assertThat(dl.key()).isEqualTo("broken");
        assertThat(dl.reason()).contains("MonitorDefinition");

        String metrics = body(base + "/metrics");
        // counts of at least 1: the http success series exist (at 0) before any probe
        assertThat(metrics)
                .containsPattern(
                        "vigil_probe_results_total\\{error_kind=\"none\",outcome=\"success\",type=\"http\"} [1-9]")
                .contains("vigil_probe_in_flight")
                .contains("vigil_probe_skipped_windows_total")
                .containsPattern("vigil_probe_duration_seconds_count\\{outcome=\"success\",type=\"http\"} [1-9]")
                .contains("vigil_probe_duration_seconds_bucket")
                .contains("vigil_probe_schedule_lag_seconds");
        assertThat(get(base + "/nope")).isEqualTo(404);

        // A tombstone while running removes the monitor without a restart.
        producer.send(new ProducerRecord<>(monitorsTopic, "api", null)).get();
        await().atMost(Duration.ofSeconds(20)).until(() -> worker.scheduler().monitorsAssigned() == 0);
    }

    @Test
    void aBrokerRestartDuringProbingLosesNoAcknowledgedResult() throws Exception {
        var producer = producer();
        for (int i = 0; i < 20; i++) {
            var m = monitor("m-" + i, target.url("/health"), "us-east");
            producer.send(new ProducerRecord<>(monitorsTopic, m.id(), Json.bytes(m)));
        }
        producer.flush();
        producer.close();
        open.remove(producer);

        Set<String> acked = ConcurrentHashMap.newKeySet();
        var worker = ProbeWorker.start(config("w-it-2"), Map.of(), new ResultPublisher.Listener() {
            @Override
            public void acknowledged(ProbeResult result) {
                acked.add(result.requestId());
            }
        });
        open.add(worker);
        await().atMost(Duration.ofSeconds(40)).until(() -> acked.size() >= 20);

        long probedBefore = target.requests.get();
        kafka.stop();
        // Probing goes on while the broker is away: at least one more round of every monitor.
        await().atMost(Duration.ofSeconds(30)).until(() -> target.requests.get() >= probedBefore + 20);
        int ackedWhileDown = acked.size();
        kafka.start();

        // Every result produced while the broker was down is delivered after it returns.
        await().atMost(Duration.ofSeconds(90)).until(() -> acked.size() >= ackedWhileDown + 20);
        worker.close();
        open.remove(worker);
        assertThat(worker.publisher().failed()).isZero();

        List<ProbeResult> onTopic = results();
        Set<String> ids = new HashSet<>();
        onTopic.forEach(r -> ids.add(r.requestId()));
        assertThat(ids).containsAll(acked);
        assertThat(ids).hasSize(onTopic.size());
        // One result per (monitor, window) from this worker: no duplicates from retries.
        assertThat(onTopic.stream()
                        .map(r -> r.monitorId() + "@" + r.windowStart())
                        .distinct()
                        .count())
                .isEqualTo(onTopic.size());
    }
}
