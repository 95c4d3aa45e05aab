package dev.vigil.schemas.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertRule;
import dev.vigil.schemas.contract.ContractSchemas;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The Kafka serdes: round trip, tombstones, poison records that never echo the value, deterministic bytes. */
class JsonSerdeTest {
    private static final String TOPIC = "vigil.test";
    /** Stands for a secret or personal value that must never reach an exception message or a log. */
    private static final String SECRET = "S3CR3T-hunter2";

    private static final Path GOLDEN = goldenRoot();

    private static final Map<Class<?>, JsonSerde<?>> SERDES = Map.of(
            MonitorDefinition.class, VigilSerdes.monitorDefinition(),
            ProbeResult.class, VigilSerdes.probeResult(),
            WorkerHeartbeat.class, VigilSerdes.workerHeartbeat(),
            DomainMetric.class, VigilSerdes.domainMetric(),
            MonitorStatus.class, VigilSerdes.monitorStatus(),
            AlertRule.class, VigilSerdes.alertRule(),
            AlertEvent.class, VigilSerdes.alertEvent(),
            DeadLetter.class, VigilSerdes.deadLetter(),
            dev.vigil.schemas.contract.RegionStatus.class, VigilSerdes.regionStatus());

    static Stream<ContractSchemas.Contract> contracts() {
        return ContractSchemas.all().stream();
    }

    @SuppressWarnings("unchecked")
    private static <T> JsonSerde<T> serde(Class<T> type) {
        return (JsonSerde<T>) SERDES.get(type);
    }

    @Test
    void thereIsOneSerdePerContract() {
        assertThat(SERDES).hasSize(ContractSchemas.all().size());
        SERDES.forEach((type, serde) -> assertThat(serde.type()).isEqualTo(type));
        contracts().forEach(c -> assertThat(SERDES).containsKey(c.type()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("contracts")
    void roundTripsEveryValidGoldenExample(ContractSchemas.Contract c) throws IOException {
        JsonSerde<Record> serde = serde(recordType(c));
        List<Path> files = golden("valid", c);
        assertThat(files).hasSizeGreaterThanOrEqualTo(2);
        for (Path file : files) {
            Record record = serde.deserialize(TOPIC, Files.readAllBytes(file));
            byte[] bytes = serde.serialize(TOPIC, record);
            assertThat(serde.deserialize(TOPIC, bytes)).as(file.toString()).isEqualTo(record);
            assertThat(serde.deserialize(TOPIC, new RecordHeaders(), bytes)).isEqualTo(record);
            assertThat(bytes).as("the serde writes what Json writes").isEqualTo(Json.bytes(record));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("contracts")
    void tombstoneIsNullBothWays(ContractSchemas.Contract c) {
        JsonSerde<Record> serde = serde(recordType(c));
        assertThat(serde.serialize(TOPIC, null)).isNull();
        assertThat(serde.deserialize(TOPIC, null)).isNull();
        assertThat(serde.serializer().serialize(TOPIC, null)).isNull();
        assertThat(serde.deserializer().deserialize(TOPIC, new RecordHeaders(), (byte[]) null))
                .isNull();
    }

    /** Every invalid golden example, read from a topic, is a poison record naming the type and the field. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("contracts")
    void invalidGoldenExamplesArePoisonNamingTypeAndField(ContractSchemas.Contract c) throws IOException {
        JsonSerde<Record> serde = serde(recordType(c));
        List<Path> files = golden("invalid", c);
        assertThat(files).hasSizeGreaterThanOrEqualTo(4);
        for (Path file : files) {
            String field = Files.readAllLines(expectFile(file), StandardCharsets.UTF_8)
                    .get(0)
                    .strip();
            byte[] bytes = Files.readAllBytes(file);
            JsonSerde.PoisonRecordException poison = poison(serde, bytes);
            assertThat(poison.field()).as(file.toString()).isEqualTo(field);
            assertThat(poison.getMessage()).startsWith("invalid " + c.type().getSimpleName() + ": " + field + ": ");
        }
    }

    @Test
    void notJsonIsPoisonNamingTheDocument() {
        var poison = poison(VigilSerdes.probeResult(), (SECRET + " {").getBytes(StandardCharsets.UTF_8));
        assertThat(poison.field()).isEqualTo("$");
        assertThat(poison.getMessage()).isEqualTo("invalid ProbeResult: $: is not valid JSON");
        assertNoEcho(poison);

        var binary = poison(VigilSerdes.probeResult(), new byte[] {(byte) 0xC3, 0x28, 0x00, (byte) 0xFF});
        assertThat(binary.field()).isEqualTo("$");

        var trailing = poison(
                VigilSerdes.workerHeartbeat(),
                (Json.string(heartbeat()) + " \"" + SECRET + "\"").getBytes(StandardCharsets.UTF_8));
        assertThat(trailing.field()).isEqualTo("$");
        assertNoEcho(trailing);

        var array = poison(VigilSerdes.workerHeartbeat(), ("[\"" + SECRET + "\"]").getBytes(StandardCharsets.UTF_8));
        assertThat(array.field()).isEqualTo("$");
        assertThat(array.getMessage()).startsWith("invalid WorkerHeartbeat: $: ");
        assertNoEcho(array);
    }

    @Test
    void wrongTypeIsPoisonNamingTheFieldWithoutTheValue() {
        ObjectNode probe = probeTree();
        probe.put("httpStatus", SECRET);
        var poison = poison(VigilSerdes.probeResult(), bytes(probe));
        assertThat(poison.field()).isEqualTo("httpStatus");
        assertThat(poison.getMessage()).isEqualTo("invalid ProbeResult: httpStatus: has the wrong type or format");
        assertNoEcho(poison);

        ObjectNode nested = (ObjectNode) Json.toTree(monitor());
        ((ObjectNode) nested.get("expect"))
                .putArray("statusCodes")
                .add("200")
                .addObject()
                .put("code", SECRET);
        var nestedPoison = poison(VigilSerdes.monitorDefinition(), bytes(nested));
        assertThat(nestedPoison.field()).isEqualTo("expect.statusCodes[1]");
        assertThat(nestedPoison.getMessage()).contains("MonitorDefinition");
        assertNoEcho(nestedPoison);
    }

    @Test
    void missingFieldIsPoisonNamingTheField() {
        ObjectNode probe = probeTree();
        probe.remove("requestId");
        var poison = poison(VigilSerdes.probeResult(), bytes(probe));
        assertThat(poison.field()).isEqualTo("requestId");
        assertThat(poison.getMessage()).isEqualTo("invalid ProbeResult: requestId: is required");

        ObjectNode status = (ObjectNode) Json.toTree(new MonitorStatus(
                1,
                "api",
                0L,
                dev.vigil.schemas.contract.Status.UP,
                true,
                Map.of("us-east", new MonitorStatus.RegionResult(Outcome.SUCCESS, null, 200, 12)),
                null,
                5L));
        ((ObjectNode) status.get("regions").get("us-east")).remove("outcome");
        var nested = poison(VigilSerdes.monitorStatus(), bytes(status));
        assertThat(nested.field()).isEqualTo("regions.us-east.outcome");
        assertThat(nested.getMessage()).isEqualTo("invalid MonitorStatus: regions.us-east.outcome: is required");
    }

    @Test
    void badValuesAreNeverEchoed() {
        List<JsonSerde.PoisonRecordException> poisons = new ArrayList<>();

        ObjectNode badEnum = probeTree();
        badEnum.put("outcome", SECRET);
        poisons.add(poison(VigilSerdes.probeResult(), bytes(badEnum)));

        ObjectNode badSlug = probeTree();
        badSlug.put("monitorId", SECRET);
        poisons.add(poison(VigilSerdes.probeResult(), bytes(badSlug)));

        ObjectNode credentials = (ObjectNode) Json.toTree(monitor());
        credentials.put("url", "https://admin:" + SECRET + "@api.example.com/health");
        poisons.add(poison(VigilSerdes.monitorDefinition(), bytes(credentials)));

        ObjectNode badSeverity = (ObjectNode) Json.toTree(monitor());
        badSeverity.put("severity", SECRET);
        poisons.add(poison(VigilSerdes.monitorDefinition(), bytes(badSeverity)));

        ObjectNode longLabel = (ObjectNode)
                Json.toTree(new DomainMetric(1, "shop", "http_request", "200", "/", null, null, Map.of("k", "v"), 1L));
        ((ObjectNode) longLabel.get("labels")).put("k", SECRET.repeat(20));
        poisons.add(poison(VigilSerdes.domainMetric(), bytes(longLabel)));

        ObjectNode query =
                (ObjectNode) Json.toTree(new DomainMetric(1, "shop", "http_request", "200", "/", null, null, null, 1L));
        query.put("pathname", "/login?password=" + SECRET);
        poisons.add(poison(VigilSerdes.domainMetric(), bytes(query)));

        assertThat(poisons)
                .extracting(JsonSerde.PoisonRecordException::field)
                .containsExactly("outcome", "monitorId", "url", "severity", "labels.k", "pathname");
        poisons.forEach(JsonSerdeTest::assertNoEcho);
    }

    @Test
    void poisonIsAKafkaSerializationException() {
        var poison = poison(VigilSerdes.alertEvent(), "{}".getBytes(StandardCharsets.UTF_8));
        assertThat(poison).isInstanceOf(SerializationException.class);
        assertThat(poison.field()).isEqualTo("schemaVersion");
        assertThat(poison.getMessage()).isEqualTo("invalid AlertEvent: schemaVersion: is required");
    }

    @Test
    void serialisationIsDeterministicWithSortedMapKeys() {
        Map<String, String> zyx = new LinkedHashMap<>();
        zyx.put("zone", "b");
        zyx.put("method", "GET");
        zyx.put("app", "a");
        Map<String, String> axz = new LinkedHashMap<>();
        axz.put("app", "a");
        axz.put("zone", "b");
        axz.put("method", "GET");
        DomainMetric one = new DomainMetric(1, "shop", "http_request", "200", "/x", 2.5, 1.0, zyx, 10L);
        DomainMetric two = new DomainMetric(1, "shop", "http_request", "200", "/x", 2.5, 1.0, axz, 10L);
        JsonSerde<DomainMetric> serde = VigilSerdes.domainMetric();

        byte[] first = serde.serialize(TOPIC, one);
        assertThat(serde.serialize(TOPIC, one)).isEqualTo(first);
        assertThat(serde.serialize(TOPIC, two)).isEqualTo(first);
        assertThat(serde.serialize(TOPIC, serde.deserialize(TOPIC, first))).isEqualTo(first);
        String json = new String(first, StandardCharsets.UTF_8);
        assertThat(json).contains("\"labels\":{\"app\":\"a\",\"method\":\"GET\",\"zone\":\"b\"}");

        Map<String, MonitorStatus.RegionResult> regions = new LinkedHashMap<>();
        regions.put("us-west", new MonitorStatus.RegionResult(Outcome.SUCCESS, null, 200, 5));
        regions.put("ap-south", new MonitorStatus.RegionResult(Outcome.SUCCESS, null, 200, 7));
        regions.put("eu-west", new MonitorStatus.RegionResult(Outcome.SUCCESS, null, 204, 6));
        String status = new String(
                VigilSerdes.monitorStatus()
                        .serialize(
                                TOPIC,
                                new MonitorStatus(
                                        1, "api", 0L, dev.vigil.schemas.contract.Status.UP, true, regions, null, 9L)),
                StandardCharsets.UTF_8);
        assertThat(status.indexOf("\"ap-south\"")).isLessThan(status.indexOf("\"eu-west\""));
        assertThat(status.indexOf("\"eu-west\"")).isLessThan(status.indexOf("\"us-west\""));

        // The same document with its keys in another order reads to the same record and the same bytes.
        String reordered = "{\"timestamp\":10,\"labels\":{\"zone\":\"b\",\"app\":\"a\",\"method\":\"GET\"},"
                + "\"durationMs\":1.0,\"value\":2.5,\"pathname\":\"/x\",\"status\":\"200\","
                + "\"metricName\":\"http_request\",\"appId\":\"shop\",\"schemaVersion\":1,\"unknown\":[1,2]}";
        assertThat(serde.serialize(TOPIC, serde.deserialize(TOPIC, reordered.getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(first);
    }

    // ------------------------------------------------------------------------------------------ helpers

    private static <T> JsonSerde.PoisonRecordException poison(JsonSerde<T> serde, byte[] bytes) {
        var poison = catchThrowableOfType(JsonSerde.PoisonRecordException.class, () -> serde.deserialize(TOPIC, bytes));
        assertThat(poison).as("expected a poison record").isNotNull();
        assertThat(poison.getMessage()).contains(serde.type().getSimpleName()).contains(poison.field());
        return poison;
    }

    /** Neither the message nor anything in the cause chain or stack trace carries the value. */
    private static void assertNoEcho(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        assertThat(out.toString()).doesNotContain(SECRET).doesNotContain("S3CR3T");
    }

    private static WorkerHeartbeat heartbeat() {
        return new WorkerHeartbeat(1, "w-1", "us-east", 1L, 0, 3, "0.1.0");
    }

    private static MonitorDefinition monitor() {
        return new MonitorDefinition(
                1,
                "api",
                null,
                "https://api.example.com/health",
                null,
                null,
                null,
                List.of("us-east"),
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    private static ObjectNode probeTree() {
        return (ObjectNode) Json.toTree(new ProbeResult(
                1,
                "api",
                "us-east",
                "w-1",
                60_000L,
                60_010L,
                Outcome.SUCCESS,
                null,
                200,
                12,
                15,
                100L,
                0,
                "https://api.example.com/health",
                30,
                1,
                2,
                3,
                null,
                "req-1"));
    }

    private static byte[] bytes(JsonNode node) {
        return Json.bytes(node);
    }

    @SuppressWarnings("unchecked")
    private static Class<Record> recordType(ContractSchemas.Contract c) {
        return (Class<Record>) (Class<?>) c.type();
    }

    private static List<Path> golden(String kind, ContractSchemas.Contract c) {
        try (Stream<Path> files = Files.list(GOLDEN.resolve(kind).resolve(c.name()))) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path expectFile(Path json) {
        return json.resolveSibling(json.getFileName().toString().replaceFirst("\\.json$", ".expect"));
    }

    private static Path goldenRoot() {
        try {
            var url = JsonSerdeTest.class.getClassLoader().getResource("golden");
            assertThat(url).as("golden/ on the test classpath").isNotNull();
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
