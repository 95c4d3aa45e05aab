package dev.vigil.schemas.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ProbeResultReader} equals the mapper wherever it answers, answers on the shapes the probe worker writes,
 * and leaves the serde's values and poison messages exactly as they were.
 */
class ProbeResultReaderTest {
    private static final String TOPIC = "vigil.probe-results";
    private static final Path GOLDEN = goldenRoot().resolve("golden");
    /** The serde as it was before the fast reader: mapper only. */
    private static final JsonSerde<ProbeResult> MAPPER_ONLY = new JsonSerde<>(ProbeResult.class);
    private static final JsonSerde<ProbeResult> SERDE = VigilSerdes.probeResult();
    private static final long W = 1_700_000_040_000L;

    // ---- 1. golden examples

    @Test
    void everyValidGoldenExampleIsAnsweredAndEqualsTheMapper() throws IOException {
        List<Path> files = golden("valid");
        assertThat(files).hasSizeGreaterThanOrEqualTo(5);
        for (Path file : files) {
            byte[] bytes = Files.readAllBytes(file);
            ProbeResult fast = ProbeResultReader.readOrNull(bytes);
            assertThat(fast).as(file.toString()).isNotNull().isEqualTo(Json.read(bytes, ProbeResult.class));
            assertThat(SERDE.deserialize(TOPIC, bytes)).isEqualTo(fast);
        }
    }

    @Test
    void invalidAndRecordOnlyGoldenExamplesAreLeftToTheMapperAndPoisonAsBefore() throws IOException {
        List<Path> files = new ArrayList<>(golden("invalid"));
        files.addAll(golden("record-only"));
        assertThat(files).hasSizeGreaterThanOrEqualTo(20);
        for (Path file : files) {
            byte[] bytes = Files.readAllBytes(file);
            assertConsistent(file.toString(), bytes);
            Object before = outcome(() -> MAPPER_ONLY.deserialize(TOPIC, bytes));
            assertThat(before).as(file.toString()).isInstanceOf(Failure.class);
            assertThat(((Failure) before).type()).isEqualTo(JsonSerde.PoisonRecordException.class);
            assertThat(outcome(() -> SERDE.deserialize(TOPIC, bytes))).as(file.toString()).isEqualTo(before);
        }
    }

    // ---- 2. what the probe worker writes

    @Test
    void everythingTheWorkerWritesIsAnsweredAndEqualsTheRecord() {
        List<ProbeResult> records = realistic();
        assertThat(records.size()).isGreaterThanOrEqualTo(ErrorKind.values().length + 8);
        for (ProbeResult r : records) {
            byte[] bytes = Json.bytes(r);
            ProbeResult fast = ProbeResultReader.readOrNull(bytes);
            assertThat(fast).as(new String(bytes, StandardCharsets.UTF_8)).isNotNull().isEqualTo(r)
                    .isEqualTo(Json.read(bytes, ProbeResult.class));
            assertThat(SERDE.deserialize(TOPIC, bytes)).isEqualTo(r);
        }
    }

    static List<ProbeResult> realistic() {
        List<ProbeResult> out = new ArrayList<>();
        out.add(new ProbeResult(1, "checkout-api", "us-east", "worker-us-east-1", W, W + 120, Outcome.SUCCESS, null,
                200, 180, 211, 4_096L, 0, "https://checkout.example.com/health", 87, 4, 11, 23, null,
                "0f8e2a4c-5b1d-4e7a-9c3f-1a2b3c4d5e6f"));
        out.add(new ProbeResult(1, "homepage", "eu-west", "w1", W, W, Outcome.SUCCESS, null, 204, null, null, null,
                null, null, null, null, null, null, null, "r-1"));
        out.add(new ProbeResult(1, "shop", "ap-south", "w-2", W, W + 59_000, Outcome.HTTP_FAILURE, null, 503, 2400,
                2450, 512L, 3, "https://shop.example.com/x/y", 0, 0, 0, 0, "status 503 is not in 200-299",
                "req-2"));
        out.add(new ProbeResult(1, "shop", "ap-south", "w-2", W, W + 1, Outcome.HTTP_FAILURE, ErrorKind.OTHER, 404,
                10, 12, 0L, 10, "http://shop.example.com/", -36500, null, null, null,
                "\"quoted\" \\ back\tslash, ünïcødé ✓ 😀", "req-3"));
        for (ErrorKind kind : ErrorKind.values()) {
            out.add(new ProbeResult(1, "api-" + kind.wire().replace('_', '-'), "us-west", "worker-us-west-3", W,
                    W + 7, Outcome.NETWORK_FAILURE, kind, null, null, 2500, 0L, 0, null,
                    kind == ErrorKind.TLS ? -3 : null, kind == ErrorKind.DNS ? null : 2,
                    kind == ErrorKind.CONNECT_REFUSED ? 1 : null, null, kind.wire() + " after 2500 ms",
                    "req-" + kind.ordinal()));
        }
        out.add(new ProbeResult(1, "status", "eu-central", "w9", W, W + 5, Outcome.ASSERTION_FAILURE, null, 200, 40,
                45, 128L, 1, "https://status.example.com/status", 36500, 1, 2, 3, "/status was \"degraded\"",
                "req-a"));
        out.add(new ProbeResult(1, "status", "eu-central", "w9", W, W + 5, Outcome.ASSERTION_FAILURE, null, null,
                null, null, null, null, null, 1, null, null, null, null, "req-b"));
        out.add(new ProbeResult(7, "big", "us-east", "w" + "x".repeat(120), Long.MAX_VALUE - 10, Long.MAX_VALUE,
                Outcome.SUCCESS, null, 599, Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE, 10,
                "https://" + "a".repeat(2000) + ".example", 0, Integer.MAX_VALUE, 0, Integer.MAX_VALUE,
                "d".repeat(300), "r".repeat(64)));
        out.add(new ProbeResult(Integer.MAX_VALUE, "0", "0-0", " w ", 0L, 0L, Outcome.SUCCESS, null, 100, 0, 0, 0L,
                0, "", -1, 0, 0, 0, "", "x"));
        return out;
    }

    // ---- 3. mutation fuzz

    private static final String[] OTHER_VALUES = {
            "\"12\"", "12.0", "1e3", "true", "false", "null", "{}", "[]", "99999999999", "-1", "0", "-0",
            "99999999999999999999", "2147483648", "-2147483649", "9223372036854775808", "\"\"", "\"success\"",
            "\"network_failure\"", "\"SUCCESS\"", "\"dns\"", "\"x\"", "{\"a\":1}", "[1,2]", "1.5", "-1.0E2",
            "\"2024\"", "503", "1700000040000", "\" \"", "\"a\\u0000b\"", "\"checkout-api\"", "01", "+1", "NaN"};
    private static final String[] UNKNOWN_VALUES = {
            "1", "\"h2\"", "true", "null", "{\"ttfb\":5}", "[1,\"a\",null,{\"b\":[]}]", "1.5", "1e400",
            "123456789012345678901234567890", "{\"x\":{\"y\":[[[1]]]}}", "\"" + "z".repeat(300) + "\"", "[",
            "{\"a\":}", "-7"};
    private static final String[] TRAILING = {" ", "\n", " x", "{}", "null", ",", "]", "}", "1", "\"a\"", "/* c */",
            "\u0000"};

    @Test
    void mutatedEncodingsAreEitherLeftToTheMapperOrEqualToIt() throws IOException {
        List<List<String[]>> seeds = new ArrayList<>();
        for (Path file : golden("valid")) {
            seeds.add(members(Files.readAllBytes(file)));
        }
        for (ProbeResult r : realistic()) {
            seeds.add(members(Json.bytes(r)));
        }
        Random rnd = new Random(20261201L);
        int cases = 24_000;
        int answered = 0;
        int mapperAccepted = 0;
        for (int i = 0; i < cases; i++) {
            List<String[]> members = new ArrayList<>();
            for (String[] m : seeds.get(rnd.nextInt(seeds.size()))) {
                members.add(m.clone());
            }
            byte[] bytes = mutate(members, rnd);
            String label = "case " + i + ": " + new String(bytes, StandardCharsets.ISO_8859_1);
            Object mapper = outcome(() -> Json.read(bytes, ProbeResult.class));
            ProbeResult fast = ProbeResultReader.readOrNull(bytes);
            if (fast != null) {
                answered++;
                assertThat(mapper).as(label).isEqualTo(fast);
            }
            if (!(mapper instanceof Failure)) {
                mapperAccepted++;
            }
            assertThat(outcome(() -> SERDE.deserialize(TOPIC, bytes))).as(label)
                    .isEqualTo(outcome(() -> MAPPER_ONLY.deserialize(TOPIC, bytes)));
        }
        System.out.printf("ProbeResultReader fuzz: %d cases, mapper accepted %d, fast path answered %d%n",
                cases, mapperAccepted, answered);
        assertThat(answered).isPositive().isGreaterThan(cases / 10);
        assertThat(mapperAccepted).isGreaterThanOrEqualTo(answered).isLessThan(cases);
    }

    /** The top-level members of a JSON object, as [name, raw value JSON]. */
    private static List<String[]> members(byte[] bytes) {
        List<String[]> out = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = Json.tree(bytes).fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            out.add(new String[] {e.getKey(), e.getValue().toString()});
        }
        return out;
    }

    private static byte[] mutate(List<String[]> members, Random rnd) {
        String prefix = "";
        String suffix = "";
        boolean whitespace = false;
        int mutations = 1 + (rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(2) : 0);
        int byteFlips = 0;
        int truncate = -1;
        for (int m = 0; m < mutations; m++) {
            switch (rnd.nextInt(12)) {
                case 0 -> {
                    if (!members.isEmpty()) {
                        members.remove(rnd.nextInt(members.size()));
                    }
                }
                case 1 -> {
                    if (!members.isEmpty()) {
                        String[] dup = members.get(rnd.nextInt(members.size())).clone();
                        if (rnd.nextBoolean()) {
                            dup[1] = pick(rnd, OTHER_VALUES);
                        }
                        members.add(rnd.nextInt(members.size() + 1), dup);
                    }
                }
                case 2, 3, 4 -> {
                    if (!members.isEmpty()) {
                        members.get(rnd.nextInt(members.size()))[1] = pick(rnd, OTHER_VALUES);
                    }
                }
                case 5 -> members.add(rnd.nextInt(members.size() + 1),
                        new String[] {pick(rnd, new String[] {"httpVersion", "phases", "x", "", "HttpStatus",
                                "succeeded", "schema_version", "monitorid"}), pick(rnd, UNKNOWN_VALUES)});
                case 6 -> Collections.shuffle(members, rnd);
                case 7 -> whitespace = true;
                case 8 -> suffix = pick(rnd, TRAILING);
                case 9 -> truncate = rnd.nextInt(400);
                case 10 -> byteFlips = 1 + rnd.nextInt(3);
                default -> {
                    switch (rnd.nextInt(4)) {
                        case 0 -> { prefix = "["; suffix = "]"; }
                        case 1 -> prefix = "\uFEFF";
                        case 2 -> { prefix = "{\"wrapped\":"; suffix = "}"; }
                        default -> prefix = " \t\r\n";
                    }
                }
            }
        }
        StringBuilder sb = new StringBuilder(prefix).append('{');
        for (int i = 0; i < members.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            String gap = whitespace ? pick(rnd, new String[] {"", " ", "\n  ", "\t"}) : "";
            sb.append(gap).append(Json.string(members.get(i)[0])).append(gap).append(':').append(gap)
                    .append(members.get(i)[1]);
        }
        sb.append(whitespace ? "\n}" : "}").append(suffix);
        byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
        if (truncate >= 0 && truncate < bytes.length) {
            bytes = Arrays.copyOf(bytes, bytes.length - 1 - truncate);
        }
        for (int f = 0; f < byteFlips && bytes.length > 0; f++) {
            bytes[rnd.nextInt(bytes.length)] ^= (byte) (1 << rnd.nextInt(8));
        }
        return bytes;
    }

    private static String pick(Random rnd, String[] values) {
        return values[rnd.nextInt(values.length)];
    }

    // ---- targeted shapes

    @ParameterizedTest
    @ValueSource(strings = {
            "\"httpStatus\":\"200\"", "\"httpStatus\":200.0", "\"httpStatus\":2e2", "\"httpStatus\":true",
            "\"httpStatus\":{}", "\"httpStatus\":[200]", "\"httpStatus\":2147483648", "\"windowStart\":1.7e12",
            "\"windowStart\":9223372036854775808", "\"windowStart\":\"1700000040000\"", "\"monitorId\":12",
            "\"monitorId\":true", "\"outcome\":\"SUCCESS\"", "\"outcome\":1", "\"errorKind\":\"nope\"",
            "\"x\":1.5", "\"x\":[1e400]", "\"x\":123456789012345678901234567890", "\"httpStatus\":700",
            "\"requestId\":null", "\"requestId\":\"r-1\"", "\"startedAt\":1"})
    void leavesToTheMapperWhatItCannotBeSureOf(String member) {
        byte[] bytes = minimalWith(member);
        assertThat(ProbeResultReader.readOrNull(bytes)).as(member).isNull();
        assertConsistent(member, bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"schemaVersion\":1}", "[]", "null", "\"a\"", "1", "", "  ", "{", "not json",
            "{\"schemaVersion\":1,\"monitorId\":\"homepage\"}{}"})
    void leavesToTheMapperWhatIsNotOneProbeResultObject(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        assertThat(ProbeResultReader.readOrNull(bytes)).isNull();
        assertConsistent(json, bytes);
        assertThat(outcome(() -> SERDE.deserialize(TOPIC, bytes)))
                .isEqualTo(outcome(() -> MAPPER_ONLY.deserialize(TOPIC, bytes)));
    }

    @Test
    void answersWithExplicitNullsAndIgnoredFieldsLikeTheMapper() {
        byte[] bytes = minimalWith("\"errorKind\":null,\"detail\":null,\"bytesRead\":null,\"tlsDaysLeft\":-3,"
                + "\"future\":{\"a\":[1,\"b\",true,false,null,{}],\"n\":-9223372036854775808},\"also\":\"x\"");
        ProbeResult fast = ProbeResultReader.readOrNull(bytes);
        assertThat(fast).isNotNull().isEqualTo(Json.read(bytes, ProbeResult.class));
        assertThat(fast.bytesRead()).isZero();
        assertThat(fast.tlsDaysLeft()).isEqualTo(-3);
        assertThat(ProbeResultReader.readOrNull(null)).isNull();
    }

    /** Why a repeated field is deferred: the mapper takes the last value, which a fast path could easily get wrong. */
    @Test
    void aRepeatedFieldIsLeftToTheMapperWhichKeepsTheLastValue() {
        byte[] bytes = minimalWith("\"httpStatus\":503");
        assertThat(ProbeResultReader.readOrNull(bytes)).isNull();
        assertThat(SERDE.deserialize(TOPIC, bytes).httpStatus()).isEqualTo(503);
    }

    @Test
    void aStringOverTheParserLimitInAnIgnoredFieldIsLeftToTheMapper() {
        byte[] bytes = minimalWith("\"future\":\"" + "z".repeat((1 << 20) + 1) + "\"");
        assertThat(ProbeResultReader.readOrNull(bytes)).isNull();
        assertConsistent("long ignored string", bytes);
    }

    @Test
    void theSerdeTriesItsFastReaderFirstAndFallsBackToTheMapperOnNull() {
        ProbeResult sentinel = realistic().get(0);
        byte[] minimal = minimalWith(null);
        assertThat(new JsonSerde<>(ProbeResult.class, b -> sentinel).deserialize(TOPIC, minimal)).isSameAs(sentinel);
        JsonSerde<ProbeResult> never = new JsonSerde<>(ProbeResult.class, b -> null);
        assertThat(never.deserialize(TOPIC, minimal)).isEqualTo(Json.read(minimal, ProbeResult.class));
        assertThat(never.deserialize(TOPIC, null)).isNull();
        byte[] bad = minimalWith("\"httpStatus\":\"200\"");
        assertThat(outcome(() -> never.deserialize(TOPIC, bad)))
                .isEqualTo(new Failure(JsonSerde.PoisonRecordException.class,
                        "invalid ProbeResult: httpStatus: has the wrong type or format"));
        assertThat(outcome(() -> SERDE.deserialize(TOPIC, bad))).isEqualTo(outcome(() -> never.deserialize(TOPIC, bad)));
    }

    // ---- helpers

    /** The golden minimal example with {@code member} appended (a later duplicate when it names a field). */
    private static byte[] minimalWith(String member) {
        String base = "{\"schemaVersion\":1,\"monitorId\":\"homepage\",\"region\":\"eu-west\",\"workerId\":\"w1\","
                + "\"windowStart\":1700000040000,\"startedAt\":1700000040000,\"outcome\":\"success\","
                + "\"httpStatus\":200";
        String tail = member == null ? "" : "," + member;
        return (base + ",\"requestId\":\"r-1\"" + tail + "}").getBytes(StandardCharsets.UTF_8);
    }

    /** When the fast path answers, the mapper succeeds with an equal record. */
    private static void assertConsistent(String label, byte[] bytes) {
        ProbeResult fast = ProbeResultReader.readOrNull(bytes);
        if (fast != null) {
            assertThat(outcome(() -> Json.read(bytes, ProbeResult.class))).as(label).isEqualTo(fast);
        }
    }

    record Failure(Class<?> type, String message) {
    }

    /** The value, or the failure's class and message (ContractViolation and poison alike). */
    private static Object outcome(Supplier<?> read) {
        try {
            return Objects.requireNonNullElse(read.get(), "null");
        } catch (ContractViolation | JsonSerde.PoisonRecordException e) {
            return new Failure(e.getClass(), e.getMessage());
        } catch (RuntimeException e) {
            return new Failure(e.getClass(), String.valueOf(e.getMessage()));
        }
    }

    private static List<Path> golden(String kind) {
        try (Stream<Path> files = Files.list(GOLDEN.resolve(kind).resolve("probe-result"))) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path goldenRoot() {
        try {
            var url = ProbeResultReaderTest.class.getClassLoader().getResource("golden");
            assertThat(url).as("golden/ on the test classpath").isNotNull();
            return Path.of(url.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
