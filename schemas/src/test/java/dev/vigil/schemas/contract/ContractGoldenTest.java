package dev.vigil.schemas.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.vigil.schemas.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Holds the published JSON Schemas and the Java records together, on the golden examples in
 * {@code src/test/resources/golden} (see the README there): every valid example passes both and round-trips,
 * every invalid example fails both naming the same field, and the documented rules only the records can check
 * stay documented.
 */
class ContractGoldenTest {
    private static final Path GOLDEN = goldenRoot();

    /** One golden example file. */
    record Example(String kind, ContractSchemas.Contract contract, Path file, String expectedField) {
        String stem() {
            String n = file.getFileName().toString();
            return n.substring(0, n.length() - ".json".length());
        }

        boolean canonical() {
            return stem().startsWith("canonical");
        }

        byte[] bytes() {
            try {
                return Files.readAllBytes(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        JsonNode tree() {
            return ContractGoldenTest.tree(bytes());
        }

        Class<? extends Record> type() {
            return contract.type();
        }

        @Override
        public String toString() {
            return kind + "/" + contract.name() + "/" + stem() + (expectedField == null ? "" : " -> " + expectedField);
        }
    }

    // ------------------------------------------------------------------------------------------ example sources

    static Stream<Example> valid() {
        return examples("valid");
    }

    static Stream<Example> invalid() {
        return examples("invalid");
    }

    static Stream<Example> recordOnly() {
        return examples("record-only");
    }

    static Stream<ContractSchemas.Contract> contracts() {
        return ContractSchemas.all().stream();
    }

    private static Stream<Example> examples(String kind) {
        List<Example> out = new ArrayList<>();
        for (ContractSchemas.Contract c : ContractSchemas.all()) {
            Path dir = GOLDEN.resolve(kind).resolve(c.name());
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".json"))
                        .sorted()
                        .toList()) {
                    String field = null;
                    if (!kind.equals("valid")) {
                        Path expect =
                                f.resolveSibling(f.getFileName().toString().replaceFirst("\\.json$", ".expect"));
                        assertThat(expect)
                                .as("every %s example declares its field in a .expect file", kind)
                                .exists();
                        field = Files.readAllLines(expect, StandardCharsets.UTF_8).stream()
                                .map(String::strip)
                                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                                .findFirst()
                                .orElseThrow(() -> new AssertionError("empty " + expect));
                    }
                    out.add(new Example(kind, c, f, field));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out.stream();
    }

    // ------------------------------------------------------------------------------------------ the golden rules

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void validExamplePassesTheSchemaAndReadsIntoTheRecord(Example e) {
        JsonNode tree = e.tree();
        Set<ValidationMessage> messages = ContractSchemaValidator.validate(e.type(), tree);
        assertThat(messages)
                .as("schema errors:\n  %s", ContractSchemaValidator.describe(messages))
                .isEmpty();

        Record record = Json.read(e.bytes(), e.type());
        byte[] written = Json.bytes(record);
        assertThat(Json.read(written, e.type())).as("record -> JSON -> record").isEqualTo(record);

        JsonNode writtenTree = tree(written);
        Set<ValidationMessage> writtenMessages = ContractSchemaValidator.validate(e.type(), writtenTree);
        assertThat(writtenMessages)
                .as(
                        "what the record writes must pass the schema:\n  %s",
                        ContractSchemaValidator.describe(writtenMessages))
                .isEmpty();
        assertThat(nulls(writtenTree)).as("nulls are omitted on write").isEmpty();
        if (e.canonical()) {
            assertThat(writtenTree)
                    .as("canonical JSON -> record -> JSON is lossless")
                    .isEqualTo(tree);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void invalidExampleIsRejectedByTheSchemaAndTheRecordNamingTheSameField(Example e) {
        Set<ValidationMessage> messages = ContractSchemaValidator.validate(e.type(), e.tree());
        assertThat(messages).as("the schema must reject it").isNotEmpty();
        assertThat(ContractSchemaValidator.fields(messages))
                .as("fields the schema names:\n  %s", ContractSchemaValidator.describe(messages))
                .containsExactly(e.expectedField());

        ContractViolation violation =
                catchThrowableOfType(ContractViolation.class, () -> Json.read(e.bytes(), e.type()));
        assertThat(violation).as("the record must reject it").isNotNull();
        assertThat(violation.field())
                .as("field the record names (%s)", violation.getMessage())
                .isEqualTo(e.expectedField());
    }

    /**
     * Rules the schema documents but cannot express (comparing two fields, parsing a URI). The record rejects the
     * example; the schema accepts it. If the schema learns to express one, move the example to {@code invalid/}.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("recordOnly")
    void ruleOnlyTheRecordCanCheckIsDocumentedAndEnforcedByTheRecord(Example e) {
        Set<ValidationMessage> messages = ContractSchemaValidator.validate(e.type(), e.tree());
        assertThat(messages)
                .as(
                        "expected a gap the schema cannot express; the schema now says:\n  %s",
                        ContractSchemaValidator.describe(messages))
                .isEmpty();
        assertThatThrownBy(() -> Json.read(e.bytes(), e.type()))
                .isInstanceOfSatisfying(
                        ContractViolation.class,
                        v -> assertThat(v.field()).as(v.getMessage()).isEqualTo(e.expectedField()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("contracts")
    void everyContractHasCanonicalMinimalAndInvalidExamples(ContractSchemas.Contract c) {
        Path valid = GOLDEN.resolve("valid").resolve(c.name());
        assertThat(valid.resolve("canonical.json")).exists();
        assertThat(valid.resolve("minimal.json")).exists();
        assertThat(examples("invalid").filter(e -> e.contract().equals(c)).count())
                .isGreaterThanOrEqualTo(4);
    }

    /**
     * Every valid example, mutated one field at a time (removed, or set to null; array elements too, at every
     * depth): the schema and the record must give the same verdict, and when both reject they must name the same
     * field. This is what keeps {@code required}, defaults and "null is the same as absent" in step.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void schemaAndRecordAgreeOnEveryOneFieldMutation(Example e) {
        List<String> disagreements = new ArrayList<>();
        forEachMutation(e.tree(), (label, mutated) -> {
            Set<String> schemaFields =
                    ContractSchemaValidator.fields(ContractSchemaValidator.validate(e.type(), mutated));
            String recordField;
            try {
                Json.convert(mutated, e.type());
                recordField = null;
            } catch (ContractViolation v) {
                recordField = v.field();
            }
            Set<String> recordFields = recordField == null ? Set.of() : Set.of(recordField);
            if (!schemaFields.equals(recordFields)) {
                disagreements.add(label + ": schema names " + schemaFields + ", record names " + recordFields);
            }
        });
        assertThat(disagreements).isEmpty();
    }

    // ------------------------------------------------------------------------------------------ the schemas themselves

    @ParameterizedTest(name = "{0}")
    @MethodSource("contracts")
    void schemaIsValidDraft202012WithStableIdAndTitle(ContractSchemas.Contract c) throws IOException {
        JsonNode schema;
        try (InputStream in = c.open()) {
            schema = Json.mapper().readTree(in);
        }
        var meta = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                .getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
        assertThat(meta.validate(schema)).as("meta-schema errors").isEmpty();

        assertThat(c.resourcePath()).isEqualTo("vigil/schemas/v1/" + c.name() + ".schema.json");
        assertThat(schema.path("$schema").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        assertThat(schema.path("$id").asText())
                .isEqualTo(c.id().toString())
                .isEqualTo("https://vigil.dev/schemas/v1/" + c.name() + ".schema.json");
        assertThat(schema.path("title").asText()).isEqualTo(c.type().getSimpleName());
        assertThat(schema.path("description").asText()).isNotBlank();
        assertThat(schema.path("type").asText()).isEqualTo("object");
        assertThat(schema.path("additionalProperties").asBoolean(false))
                .as("unknown fields are allowed")
                .isTrue();
        assertThat(textValues(schema.path("required"))).contains("schemaVersion");
        JsonNode version = schema.path("properties").path("schemaVersion");
        assertThat(version.path("type").asText()).isEqualTo("integer");
        assertThat(version.path("minimum").asInt()).isEqualTo(1);
    }

    /** The schema and the record describe the same fields, at every level, each with a description. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("contracts")
    void schemaPropertiesAreTheRecordComponents(ContractSchemas.Contract c) throws IOException {
        JsonNode schema;
        try (InputStream in = c.open()) {
            schema = Json.mapper().readTree(in);
        }
        assertSameFields(c.type(), schema.path("properties"));
        JsonNode defs = schema.path("$defs");
        if (c.type() == MonitorDefinition.class) {
            assertSameFields(MonitorDefinition.Expect.class, defs.path("expect").path("properties"));
            assertSameFields(
                    MonitorDefinition.JsonAssertion.class,
                    defs.path("jsonAssertion").path("properties"));
            assertSameFields(MonitorDefinition.Tcp.class, defs.path("tcp").path("properties"));
            assertSameFields(MonitorDefinition.Dns.class, defs.path("dns").path("properties"));
            assertSameFields(MonitorDefinition.Tls.class, defs.path("tls").path("properties"));
            assertSameFields(
                    MonitorDefinition.Heartbeat.class, defs.path("heartbeat").path("properties"));
            // a header value is a string or {secretEnv}: only secretEnv is a member on the wire
            assertThat(defs.path("headerValue").path("properties").size()).isEqualTo(1);
            assertThat(defs.path("headerValue")
                            .path("properties")
                            .path("secretEnv")
                            .path("description")
                            .asText())
                    .isNotBlank();
        }
        if (c.type() == MonitorStatus.class) {
            assertSameFields(
                    MonitorStatus.RegionResult.class, defs.path("regionResult").path("properties"));
        }
    }

    private static void assertSameFields(Class<?> type, JsonNode properties) {
        Set<String> components = Arrays.stream(type.getRecordComponents())
                .map(rc -> rc.getName())
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> schemaFields = new TreeSet<>();
        properties.fieldNames().forEachRemaining(schemaFields::add);
        assertThat(schemaFields).as(type.getSimpleName()).isEqualTo(components);
        properties.fields().forEachRemaining(f -> assertThat(
                        f.getValue().path("description").asText())
                .as("%s.%s has a description", type.getSimpleName(), f.getKey())
                .isNotBlank());
    }

    @Test
    void ecmaDollarMeansEndOfInputInSchemaPatterns() {
        var factory = new ContractSchemaValidator.EcmaDollarRegexFactory();
        var slug = factory.getRegularExpression("^[a-z0-9][a-z0-9-]{0,62}$");
        assertThat(slug.matches("api")).isTrue();
        assertThat(slug.matches("api\n")).isFalse();
        assertThat(factory.getRegularExpression("^[$]x\\$$").matches("$x$")).isTrue();
        assertThat(ContractSchemaValidator.EcmaDollarRegexFactory.translate("^[^$]a\\$b$"))
                .isEqualTo("^[^$]a\\$b\\z");
        JsonNode doc = tree(("{\"schemaVersion\":1,\"workerId\":\"w\",\"region\":\"us-east\\n\",\"sentAt\":0,"
                        + "\"inFlight\":0,\"monitorsAssigned\":0,\"version\":\"1\"}")
                .getBytes(StandardCharsets.UTF_8));
        assertThat(ContractSchemaValidator.fields(ContractSchemaValidator.validate(WorkerHeartbeat.class, doc)))
                .containsExactly("region");
    }

    /** The shared mapper does not coerce scalars: what the schema's types refuse, the record refuses too. */
    @Test
    void recordsRefuseCoercedScalarsLikeTheSchema() {
        String base =
                "{\"schemaVersion\":1,\"id\":\"api\",\"url\":\"https://api.example.com/\",\"regions\":[\"us-east\"]";
        Map<String, String> coerced = Map.of(
                "intervalSeconds", base + ",\"intervalSeconds\":\"60\"}",
                "timeoutMs", base + ",\"timeoutMs\":2500.7}",
                "enabled", base + ",\"enabled\":0}",
                "name", base + ",\"name\":200}");
        coerced.forEach((field, json) -> {
            JsonNode tree = tree(json.getBytes(StandardCharsets.UTF_8));
            assertThat(ContractSchemaValidator.fields(ContractSchemaValidator.validate(MonitorDefinition.class, tree)))
                    .containsExactly(field);
            assertThatThrownBy(() -> Json.read(json, MonitorDefinition.class))
                    .isInstanceOfSatisfying(
                            ContractViolation.class, e -> assertThat(e.field()).isEqualTo(field));
        });
    }

    // ------------------------------------------------------------------------------------------ defaults

    @Test
    void monitorDefinitionDefaults() {
        MonitorDefinition m = read("monitor-definition", "minimal", MonitorDefinition.class);
        assertThat(m.intervalSeconds()).isEqualTo(60);
        assertThat(m.timeoutMs()).isEqualTo(2500);
        assertThat(m.method()).isEqualTo("GET");
        assertThat(m.type()).isEqualTo(CheckType.HTTP);
        assertThat(m.headers()).isEmpty();
        assertThat(m.body()).isNull();
        assertThat(Json.toTree(m).path("type").asText())
                .as("the effective type is written")
                .isEqualTo("http");
        assertThat(Json.toTree(m).has("headers")).as("no headers: omitted").isFalse();
        assertThat(m.expect().statusCodes()).containsExactly("200-399");
        assertThat(m.expect().json())
                .as("no JSON assertion for a non-health URL")
                .isNull();
        assertThat(m.severity()).isEqualTo(Severity.CRITICAL);
        assertThat(m.tlsExpiryWarnDays()).isEqualTo(14);
        assertThat(m.name()).isEqualTo(m.id());
        assertThat(m.service()).isEqualTo(m.id());
        assertThat(m.links()).isEmpty();
        assertThat(m.enabled()).isTrue();

        MonitorDefinition health = read("monitor-definition", "health-defaults", MonitorDefinition.class);
        assertThat(health.expect().statusCodes()).containsExactly("200-399");
        assertThat(health.expect().json()).isEqualTo(MonitorDefinition.JsonAssertion.HEALTH);
        assertThat(health.expect().json().pointer()).isEqualTo("/status");
        assertThat(health.expect().json().anyOf()).containsExactly("ok", "healthy");

        MonitorDefinition nulls = read("monitor-definition", "nulls-are-absent", MonitorDefinition.class);
        assertThat(nulls)
                .isEqualTo(new MonitorDefinition(
                        1,
                        "status-page",
                        null,
                        "https://status.example.com/",
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
                        null));
        assertThat(nulls.intervalSeconds()).isEqualTo(60);

        MonitorDefinition alias =
                read("monitor-definition", "severity-alias-and-tightest-timeout", MonitorDefinition.class);
        assertThat(alias.severity()).isEqualTo(Severity.WARNING);
        assertThat(alias.expect().statusCodes()).as("empty means the default").containsExactly("200-399");
    }

    @Test
    void alertEventDefaultsAndSeverityAliases() {
        AlertEvent app = read("alert-event", "minimal", AlertEvent.class);
        assertThat(app.eventId())
                .isEqualTo("shop/payment-failures/opened")
                .isEqualTo(AlertEvent.appEventId(app.fingerprint(), AlertState.OPENED));
        assertThat(app.incidentId()).isEqualTo("shop/payment-failures@1700000040000");
        assertThat(app.severity()).isEqualTo(Severity.INFO);
        assertThat(app.occurrences()).isEqualTo(1);
        assertThat(app.silenced()).isFalse();
        assertThat(app.links()).isEmpty();
        assertThat(app.channels()).isEmpty();

        assertThat(read("alert-event", "app-severity-p1", AlertEvent.class).severity())
                .isEqualTo(Severity.CRITICAL);
        AlertEvent p7 = read("alert-event", "app-severity-unknown", AlertEvent.class);
        assertThat(p7.severity())
                .as("unknown severity is info: never dropped, never pages")
                .isEqualTo(Severity.INFO);
        assertThat(Json.toTree(p7).path("severity").asText()).isEqualTo("info");

        AlertEvent topology = read("alert-event", "canonical", AlertEvent.class);
        assertThat(topology.eventId())
                .isEqualTo(AlertEvent.topologyEventId(topology.incidentId(), AlertState.REMINDER, 2));
        assertThat(Json.toTree(topology).has("resolution"))
                .as("isResolution() is not a wire field")
                .isFalse();
    }

    @Test
    void otherDefaults() {
        ProbeResult probe = read("probe-result", "minimal", ProbeResult.class);
        assertThat(probe.bytesRead()).isZero();
        assertThat(probe.redirects()).isZero();
        assertThat(probe.checkType()).as("absent means http; not filled in").isNull();
        assertThat(probe.dnsAnswers()).isEmpty();
        assertThat(Json.toTree(probe).has("checkType")).isFalse();
        assertThat(Json.toTree(probe).has("dnsAnswers")).isFalse();

        DomainMetric metric = read("domain-metric", "minimal", DomainMetric.class);
        assertThat(metric.value()).isEqualTo(1.0);
        assertThat(metric.labels()).isEmpty();
        assertThat(metric.key()).isEqualTo("shop/dlq_routed");

        AlertRule rule = read("alert-rule", "minimal", AlertRule.class);
        assertThat(rule.minEvents()).isEqualTo(1);
        assertThat(rule.enabled()).isTrue();
        assertThat(rule.filter()).isEmpty();
        assertThat(rule.severity()).isEqualTo(Severity.WARNING);
        assertThat(rule.appliesTo("any-app")).isTrue();
        assertThat(read("alert-rule", "latency-p99", AlertRule.class).severity())
                .isEqualTo(Severity.WARNING);

        MonitorStatus status = read("monitor-status", "minimal", MonitorStatus.class);
        assertThat(status.regions()).isEmpty();
        assertThat(status.missingRegions()).isEmpty();

        DeadLetter dl = read("dead-letter", "payload-encoding-defaulted", DeadLetter.class);
        assertThat(dl.payloadEncoding()).isEqualTo(DeadLetter.UTF8);
        assertThat(dl.payloadTruncated()).isFalse();
        assertThat(read("dead-letter", "minimal", DeadLetter.class).payloadEncoding())
                .isNull();
    }

    // ------------------------------------------------------------------------------------------ helpers

    private static <T> T read(String contract, String stem, Class<T> type) {
        try {
            return Json.read(
                    Files.readAllBytes(GOLDEN.resolve("valid").resolve(contract).resolve(stem + ".json")), type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode tree(byte[] bytes) {
        try {
            return Json.mapper().readTree(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> textValues(JsonNode array) {
        Set<String> out = new LinkedHashSet<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<String> nulls(JsonNode node) {
        List<String> out = new ArrayList<>();
        collectNulls(node, "$", out);
        return out;
    }

    private static void collectNulls(JsonNode node, String path, List<String> out) {
        if (node.isNull()) {
            out.add(path);
        }
        if (node.isObject()) {
            node.fields().forEachRemaining(f -> collectNulls(f.getValue(), path + "." + f.getKey(), out));
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectNulls(node.get(i), path + "[" + i + "]", out);
            }
        }
    }

    /** Calls back with every one-field mutation of {@code root}: each member removed and set to null. */
    private static void forEachMutation(JsonNode root, Mutation callback) {
        mutate(root, root, "", callback);
    }

    interface Mutation {
        void accept(String label, JsonNode mutated);
    }

    private static void mutate(JsonNode root, JsonNode node, String path, Mutation callback) {
        if (node instanceof ObjectNode object) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                String at = path.isEmpty() ? name : path + "." + name;
                JsonNode original = object.get(name);
                object.remove(name);
                callback.accept("without " + at, root.deepCopy());
                object.putNull(name);
                callback.accept(at + " = null", root.deepCopy());
                object.set(name, original);
                restoreOrder(object, names);
                mutate(root, original, at, callback);
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                String at = path + "[" + i + "]";
                JsonNode original = array.get(i);
                array.remove(i);
                callback.accept("without " + at, root.deepCopy());
                array.insert(i, JsonNodeFactory.instance.nullNode());
                callback.accept(at + " = null", root.deepCopy());
                array.set(i, original);
                mutate(root, original, at, callback);
            }
        }
    }

    private static void restoreOrder(ObjectNode object, List<String> names) {
        ObjectNode copy = object.deepCopy();
        object.removeAll();
        for (String n : names) {
            object.set(n, copy.get(n));
        }
    }

    private static Path goldenRoot() {
        try {
            var url = ContractGoldenTest.class.getClassLoader().getResource("golden");
            if (url == null) {
                throw new IllegalStateException("golden/ is not on the test classpath");
            }
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
