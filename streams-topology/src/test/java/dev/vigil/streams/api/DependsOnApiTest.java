package dev.vigil.streams.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.kafka.CompactedTopicView;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.DriverBackend;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.QueryServer;
import dev.vigil.streams.query.TestApi;
import dev.vigil.streams.topology.CompactedTopicMirror;
import dev.vigil.streams.topology.StoreNames;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.Stores;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/monitors.md#dependencies at apply, over real HTTP on loopback: a parent that is not a monitor and a cycle are
 * refused, naming the member and the cycle, judged on the whole catalog after the change. Heartbeat monitors, so no
 * target or region is judged.
 */
class DependsOnApiTest {
    private static final String TOPIC = "vigil.monitors";
    private static final Node NODE = new Node(1, "127.0.0.1", 9092);

    private final MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Catalog<MonitorDefinition> catalog;
    private Forwarder forwarder;
    private QueryServer server;
    private TopologyTestDriver driver;

    @BeforeEach
    void start() {
        consumer.updatePartitions(
                TOPIC, List.of(new PartitionInfo(TOPIC, 0, NODE, new Node[] {NODE}, new Node[] {NODE})));
        consumer.updateBeginningOffsets(Map.of(new TopicPartition(TOPIC, 0), 0L));
        consumer.updateEndOffsets(Map.of(new TopicPartition(TOPIC, 0), 0L));
        // a fixed clock: this instance's own writes stand in for the topic (which this test never feeds) for good
        Clock clock = Clock.fixed(Instant.parse("2027-01-04T10:00:00Z"), ZoneOffset.UTC);
        catalog = new Catalog<MonitorDefinition>(
                        listener -> new CompactedTopicView<>(
                                consumer,
                                TOPIC,
                                r -> Json.read(r.value(), MonitorDefinition.class),
                                listener,
                                new CompactedTopicView.Options(
                                        "depends-on-test",
                                        CompactedTopicView.MissingTopic.HOLDS_NOTHING,
                                        true,
                                        Duration.ofMillis(10),
                                        Duration.ofMillis(10),
                                        Duration.ofMinutes(1))),
                        MonitorDefinition::id,
                        clock)
                .start();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(catalog::ready);
        // the one store the monitors' API reads: the regions' pictures (empty: heartbeats name no probed region)
        Topology topology = new Topology();
        topology.addGlobalStore(
                Stores.keyValueStoreBuilder(
                                Stores.inMemoryKeyValueStore(StoreNames.REGIONS_STORE),
                                Serdes.String(),
                                VigilSerdes.regionStatus())
                        .withLoggingDisabled(),
                "regions-source",
                Serdes.String().deserializer(),
                VigilSerdes.regionStatus(),
                "vigil.regions",
                "regions-updater",
                () -> new CompactedTopicMirror<>(StoreNames.REGIONS_STORE, RegionStatus::region));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "depends-on-api-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(topology, props);
        ApiRoutes routes = new ApiRoutes();
        new MonitorsResource(
                        catalog,
                        new MonitorChecks(List.of(), Duration.ofMillis(200)),
                        TestApi.acceptingWriter(r -> {}),
                        TOPIC,
                        "http://ingest.example",
                        100,
                        clock)
                .register(routes, new DriverBackend(driver), null);
        forwarder = TestApi.forwarder(Duration.ofSeconds(5));
        server = TestApi.start(routes);
    }

    @AfterEach
    void stop() {
        server.close();
        forwarder.close();
        catalog.close();
        driver.close();
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .header("Authorization", TestApi.admin())
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String heartbeat(String id, String... parents) {
        return Json.string(Map.of("schemaVersion", 1, "id", id, "type", "heartbeat", "dependsOn", List.of(parents)));
    }

    private HttpResponse<String> apply(boolean dryRun, String... monitors) throws Exception {
        return post(
                "/v1/monitors:apply", "{\"dryRun\":" + dryRun + ",\"monitors\":[" + String.join(",", monitors) + "]}");
    }

    private static JsonNode body(HttpResponse<String> res) {
        return Json.tree(res.body().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void aCycleInOneApplyIsRefusedAndNamed() throws Exception {
        for (boolean dryRun : new boolean[] {true, false}) {
            var res = apply(dryRun, heartbeat("a", "b"), heartbeat("b", "c"), heartbeat("c", "a"));
            assertThat(res.statusCode()).as(res.body()).isEqualTo(400);
            JsonNode errors = body(res).path("errors");
            assertThat(errors).hasSize(1);
            assertThat(errors.get(0).path("field").asText()).isEqualTo("monitors[0].dependsOn");
            assertThat(errors.get(0).path("problem").asText()).startsWith("dependsOn cycle: a → b → c → a");
        }
        assertThat(catalog.snapshot()).isEmpty();
    }

    @Test
    void aCycleClosedWithTheCatalogIsRefusedAndNamed() throws Exception {
        var res = apply(false, heartbeat("a"), heartbeat("b", "c"), heartbeat("c", "a"));
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        assertThat(catalog.snapshot()).containsOnlyKeys("a", "b", "c");

        // a alone, judged with the b and c already in the catalog
        var validate = post("/v1/monitors:validate", heartbeat("a", "b"));
        assertThat(validate.statusCode()).as(validate.body()).isEqualTo(400);
        assertThat(body(validate).path("field").asText()).isEqualTo("dependsOn");
        assertThat(body(validate).path("detail").asText()).contains("dependsOn cycle: a → b → c → a");

        var applied = apply(false, heartbeat("a", "b"));
        assertThat(applied.statusCode()).as(applied.body()).isEqualTo(400);
        assertThat(body(applied).path("errors").get(0).path("problem").asText())
                .startsWith("dependsOn cycle: a → b → c → a");
        assertThat(catalog.get("a").dependsOn()).isEmpty();
    }

    @Test
    void aParentThatIsNotAMonitorIsRefusedNamingIt() throws Exception {
        var res = apply(true, heartbeat("api", "db", "nope"), heartbeat("db"));
        assertThat(res.statusCode()).as(res.body()).isEqualTo(400);
        JsonNode errors = body(res).path("errors");
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0).path("field").asText()).isEqualTo("monitors[0].dependsOn[1]");
        assertThat(errors.get(0).path("problem").asText()).startsWith("'nope' is not a monitor");

        var ok = apply(true, heartbeat("api", "db"), heartbeat("db"));
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    }

    @Test
    void aParentMayBeDeletedItsChildrenAreNotRefusedUntilTheyChange() throws Exception {
        assertThat(apply(false, heartbeat("api", "db"), heartbeat("db")).statusCode())
                .isEqualTo(200);
        var pruned = post("/v1/monitors:apply", "{\"prune\":true,\"monitors\":[" + heartbeat("api", "db") + "]}");
        assertThat(pruned.statusCode()).as(pruned.body()).isEqualTo(200);
        assertThat(catalog.snapshot()).containsOnlyKeys("api");
        var unchanged = post("/v1/monitors:validate", heartbeat("api", "db"));
        assertThat(unchanged.statusCode()).as(unchanged.body()).isEqualTo(200);
        var changed = Json.tree(heartbeat("api", "db").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        ((com.fasterxml.jackson.databind.node.ObjectNode) changed).put("name", "the API");
        var again = post("/v1/monitors:validate", Json.string(changed));
        assertThat(again.statusCode()).as(again.body()).isEqualTo(400);
        assertThat(body(again).path("field").asText()).isEqualTo("dependsOn[0]");
    }
}
