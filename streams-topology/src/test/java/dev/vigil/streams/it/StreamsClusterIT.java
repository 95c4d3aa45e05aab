package dev.vigil.streams.it;

import static dev.vigil.streams.it.ItSupport.get;
import static dev.vigil.streams.it.ItSupport.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.Status;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.streams.Fixtures;
import dev.vigil.streams.alerting.AlertStateRecord;
import dev.vigil.streams.app.StreamsApp;
import dev.vigil.streams.query.KafkaStreamsBackend;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.rules.Fingerprints;
import dev.vigil.streams.topology.StoreNames;
import dev.vigil.streams.topology.VigilTopology;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Streams instances on the embedded broker with 6 partitions and a standby replica: every monitor is answered
 * correctly by both; each holds standby copies of exactly the other's partitions (what it answers for the other
 * while that one is killed and still in the group); one stops, the other takes over its partitions; no window has two
 * verdicts.
 */
@WithKafka(createVigilTopics = true)
class StreamsClusterIT {
    private static final int MONITORS = 24;
    private static final long HOUR = ItSupport.HOUR;

    EmbeddedKafka kafka;

    @TempDir
    Path dirA;

    @TempDir
    Path dirB;

    private static final long BASE = ItSupport.nextHourStart();

    /**
     * Hourly windows from the next hour on: their collection deadlines are still ahead, so every verdict
     * under test is decided by completeness, and the silent-window punctuator (which skips decided windows)
     * never overtakes them, even if the test runs across an hour boundary.
     */
    private static long window(int k) {
        return BASE + k * HOUR;
    }

    private static String id(int i) {
        return "m-" + i;
    }

    /** up, down (2 of 3 failed), degraded (1 of 3 failed), rotating with the monitor and the window. */
    private static Status expected(int monitor, int k) {
        return switch ((monitor + k) % 3) {
            case 0 -> Status.UP;
            case 1 -> Status.DOWN;
            default -> Status.DEGRADED;
        };
    }

    private static List<ProbeResult> results(int monitor, int k) {
        String id = id(monitor);
        long ws = window(k);
        List<String> regions = Fixtures.regions(3);
        int failures =
                switch (expected(monitor, k)) {
                    case UP -> 0;
                    case DOWN -> 2;
                    default -> 1;
                };
        List<ProbeResult> out = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            out.add(r < failures ? Fixtures.failure(id, regions.get(r), ws) : Fixtures.success(id, regions.get(r), ws));
        }
        return out;
    }

    private static dev.vigil.schemas.contract.MonitorDefinition hourly(String id) {
        return new dev.vigil.schemas.contract.MonitorDefinition(
                1,
                id,
                null,
                "https://example.com/" + id,
                null,
                3600,
                2500,
                Fixtures.regions(3),
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    private TopologyDescription topologyDescription() {
        var cfg = ItSupport.config(kafka, "vigil-cluster-it", dirA);
        return VigilTopology.build(cfg.topology(), cfg.alerting(), new SimpleMeterRegistry())
                .describe();
    }

    /** One standby replica: each instance holds a copy of the other's tasks. */
    private static dev.vigil.streams.config.StreamsServiceConfig withStandby(
            dev.vigil.streams.config.StreamsServiceConfig c) {
        var k = c.kafka();
        return c.withKafka(new dev.vigil.streams.config.StreamsServiceConfig.KafkaSettings(
                k.bootstrapServers(),
                k.applicationId(),
                k.stateDir(),
                k.numStreamThreads(),
                k.replicationFactor(),
                1,
                k.commitInterval(),
                k.properties(),
                k.groupInstanceId(),
                k.topics()));
    }

    private void produceWindow(int k) {
        try (var producer = ItSupport.producer(kafka)) {
            for (int m = 0; m < MONITORS; m++) {
                for (ProbeResult r : results(m, k)) {
                    ItSupport.result(producer, r);
                }
            }
            producer.flush();
        }
    }

    private void assertAnswers(int port, int k) {
        for (int m = 0; m < MONITORS; m++) {
            var res = get(port, "/v1/monitors/" + id(m));
            assertThat(res.statusCode())
                    .as("monitor %s on port %d: %s", id(m), port, res.body())
                    .isEqualTo(200);
            JsonNode status = json(res).path("status");
            assertThat(status.path("windowStart").asLong()).isEqualTo(window(k));
            assertThat(status.path("status").asText())
                    .as(id(m))
                    .isEqualTo(expected(m, k).wire());
        }
        var all = get(port, "/v1/status");
        assertThat(all.statusCode()).isEqualTo(200);
        JsonNode rows = json(all).path("monitors");
        assertThat(rows).hasSize(MONITORS);
        Map<String, String> byId = new HashMap<>();
        rows.forEach(
                r -> byId.put(r.path("monitorId").asText(), r.path("status").asText()));
        for (int m = 0; m < MONITORS; m++) {
            assertThat(byId.get(id(m))).isEqualTo(expected(m, k).wire());
        }
    }

    /** Every monitor id in id order (String order: m-0, m-1, m-10, m-11, ...), as pages list them. */
    private static List<String> idsInOrder() {
        List<String> ids = new ArrayList<>();
        for (int m = 0; m < MONITORS; m++) {
            ids.add(id(m));
        }
        ids.sort(null);
        return ids;
    }

    /**
     * Follows {@code next} through pages of 5, each asked of the next port in turn (a cursor from one instance goes on
     * at any other): every monitor exactly once, in id order, with its status. Each instance range-scans each of its
     * partitions from the cursor; a partition read after another instead of merged with it would break the order.
     */
    private static List<String> pages(String query, int k, int... ports) {
        List<String> listed = new ArrayList<>();
        String cursor = null;
        int asked = 0;
        do {
            int port = ports[asked++ % ports.length];
            var res = get(port, "/v1/status?" + query + "limit=5" + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(res.statusCode())
                    .as("page %d on port %d: %s", asked, port, res.body())
                    .isEqualTo(200);
            JsonNode body = json(res);
            assertThat(body.path("monitors").size()).isLessThanOrEqualTo(5);
            for (JsonNode row : body.path("monitors")) {
                String id = row.path("monitorId").asText();
                listed.add(id);
                int m = Integer.parseInt(id.substring(2));
                assertThat(row.path("windowStart").asLong()).as(id).isEqualTo(window(k));
                assertThat(row.path("status").asText())
                        .as(id)
                        .isEqualTo(expected(m, k).wire());
            }
            cursor = body.hasNonNull("next") ? body.get("next").asText() : null;
            assertThat(asked).as("pages").isLessThanOrEqualTo(MONITORS + 1);
        } while (cursor != null);
        return listed;
    }

    private static void assertPages(int k, int... ports) {
        assertThat(pages("", k, ports)).containsExactlyElementsOf(idsInOrder());
    }

    @Test
    void twoInstancesAnswerEveryKeyAndOneTakesOverWhenTheOtherStops() {
        var a = StreamsApp.start(withStandby(ItSupport.config(kafka, "vigil-cluster-it", dirA)), ItSupport.env());
        var b = StreamsApp.start(withStandby(ItSupport.config(kafka, "vigil-cluster-it", dirB)), ItSupport.env());
        try {
            await().atMost(Duration.ofSeconds(90))
                    .until(() -> a.running()
                            && b.running()
                            && get(a.httpPort(), "/ready").statusCode() == 200
                            && get(b.httpPort(), "/ready").statusCode() == 200);
            try (var producer = ItSupport.producer(kafka)) {
                for (int m = 0; m < MONITORS; m++) {
                    ItSupport.define(producer, hourly(id(m)));
                }
                // a poison record among them: dead-lettered, processing goes on
                producer.send(
                        new ProducerRecord<>("vigil.probe-results", id(0), "{broken".getBytes(StandardCharsets.UTF_8)));
                producer.flush();
            }
            produceWindow(0);
            produceWindow(1);

            // both instances own some partitions, and each answers every key
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> {
                        assertAnswers(a.httpPort(), 1);
                        assertAnswers(b.httpPort(), 1);
                    });
            assertThat(a.streams().metadataForLocalThreads().stream()
                            .mapToInt(t -> t.activeTasks().size())
                            .sum())
                    .isPositive();
            assertThat(b.streams().metadataForLocalThreads().stream()
                            .mapToInt(t -> t.activeTasks().size())
                            .sum())
                    .isPositive();
            assertThat(json(get(a.httpPort(), "/v1/status")).path("instances").asInt())
                    .isEqualTo(2);
            // paged: the same list, whichever instance each page is asked of; each instance's own pages (scope=local)
            // hold its share, and the two shares are the fleet without overlap
            // (within an await: a late rebalance answers 503 for a moment)
            List<String> ofB = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> {
                        assertPages(1, a.httpPort(), b.httpPort());
                        List<String> mineA = pages("scope=local&", 1, a.httpPort());
                        List<String> mineB = pages("scope=local&", 1, b.httpPort());
                        assertThat(mineA).isNotEmpty().isSortedAccordingTo(String::compareTo);
                        assertThat(mineB)
                                .isNotEmpty()
                                .isSortedAccordingTo(String::compareTo)
                                .doesNotContainAnyElementsOf(mineA);
                        List<String> both = new ArrayList<>(mineA);
                        both.addAll(mineB);
                        assertThat(both).containsExactlyInAnyOrderElementsOf(idsInOrder());
                        ofB.clear();
                        ofB.addAll(mineB);
                    });
            // A holds standby copies of B's tasks before B goes
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> a.streams().metadataForLocalThreads().stream()
                                    .mapToInt(t -> t.standbyTasks().size())
                                    .sum()
                            > 0);

            // A's standby copies of B's partitions (what A answers for B while B is killed and still in the group)
            // hold what B itself answers for them: the topology's stores mapped to B's active partitions and A's
            // standby tasks, read as stale stores
            a.streams().metadataForAllStreamsClients().forEach(m -> System.out.println("DBG-MD " + m));
            a.streams().metadataForLocalThreads().forEach(m -> System.out.println("DBG-TH " + m));
            QueryBackend standbyOfB = new KafkaStreamsBackend(
                            a.streams(), HostInfo.buildFromEndpoint(a.applicationServer()), topologyDescription())
                    .standbyFor(b.applicationServer());
            await("A's standbys of B's partitions hold B's monitors")
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> {
                        Map<String, String> statuses = new HashMap<>();
                        for (ReadOnlyKeyValueStore<String, MonitorStatus> partition :
                                standbyOfB.<MonitorStatus>keyValueStorePartitions(StoreNames.STATUS_STORE)) {
                            try (var it = partition.all()) {
                                it.forEachRemaining(kv ->
                                        statuses.put(kv.key, kv.value.status().wire()));
                            }
                        }
                        assertThat(statuses.keySet()).containsExactlyInAnyOrderElementsOf(ofB);
                        statuses.forEach((id, status) -> assertThat(status)
                                .as(id)
                                .isEqualTo(expected(Integer.parseInt(id.substring(2)), 1)
                                        .wire()));
                        // another sub-topology's store, keyed by alert fingerprint: B's monitors' alerts are there too
                        ReadOnlyKeyValueStore<String, AlertStateRecord> alerts =
                                standbyOfB.keyValueStore(StoreNames.MONITOR_ALERTS_STORE);
                        for (String id : ofB) {
                            if (expected(Integer.parseInt(id.substring(2)), 1) == Status.DOWN) {
                                assertThat(alerts.get(Fingerprints.monitor(id)))
                                        .as("alert of %s", id)
                                        .isNotNull();
                            }
                        }
                    });
            // and nothing of A's own partitions: those are not B's
            assertThat(standbyOfB
                            .<MonitorStatus>keyValueStore(StoreNames.STATUS_STORE)
                            .get(idsInOrder().stream()
                                    .filter(id -> !ofB.contains(id))
                                    .findFirst()
                                    .orElseThrow()))
                    .isNull();

            b.close();
            // B's session runs out: A promotes its standbys of B's partitions and answers the same statuses alone
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertAnswers(a.httpPort(), 1));
            assertThat(json(get(a.httpPort(), "/v1/status")).path("instances").asInt())
                    .isEqualTo(1);
            // A alone now holds every partition: its pages merge all six
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertPages(1, a.httpPort()));
            // and keeps deciding: a new window for every monitor, a repeated one is late
            produceWindow(2);
            produceWindow(1);
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertAnswers(a.httpPort(), 2));
        } finally {
            a.close();
            b.close();
        }

        List<MonitorStatus> verdicts = ItSupport.readAllVerdicts(kafka);
        Set<String> seen = new HashSet<>();
        List<String> duplicates = new ArrayList<>();
        for (MonitorStatus v : verdicts) {
            if (!seen.add(v.monitorId() + "@" + v.windowStart())) {
                duplicates.add(v.monitorId() + "@" + v.windowStart());
            }
        }
        assertThat(duplicates).as("windows with more than one verdict").isEmpty();
        for (int m = 0; m < MONITORS; m++) {
            for (int k = 0; k < 3; k++) {
                assertThat(seen).contains(id(m) + "@" + window(k));
            }
        }
        assertThat(deadLetters()).anySatisfy(d -> {
            assertThat(d.topic()).isEqualTo("vigil.probe-results");
            assertThat(d.payload()).isEqualTo("{broken");
        });
    }

    private List<DeadLetter> deadLetters() {
        List<DeadLetter> out = new ArrayList<>();
        try (var consumer = new KafkaConsumer<>(
                kafka.consumerProps("dlq-reader"), new StringDeserializer(), VigilSerdes.deadLetter())) {
            consumer.subscribe(List.of("vigil.dead-letter"));
            long deadline = System.currentTimeMillis() + 15_000;
            while (out.isEmpty() && System.currentTimeMillis() < deadline) {
                consumer.poll(Duration.ofMillis(300)).forEach(r -> out.add(r.value()));
            }
        }
        return out;
    }
}
