package dev.vigil.schemas.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.CheckType;
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
import org.junit.jupiter.params.provider.MethodSource;
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

    /**
     * Golden examples outside the scanner's subset (an escaped quote in a string; a nested object in an ignored
     * field): deferred to the mapper, which reads them as before.
     */
    private static final List<String> GOLDEN_DEFERRED = List.of("assertion-failure.json", "forward-compatible.json");

    @Test
    void everyValidGoldenExampleInTheSubsetIsAnsweredAndEqualsTheMapper() throws IOException {
        List<Path> files = golden("valid");
        assertThat(files).hasSizeGreaterThanOrEqualTo(5);
        int answered = 0;
        for (Path file : files) {
            byte[] bytes = Files.readAllBytes(file);
            ProbeResult fast = ProbeResultReader.readOrNull(bytes);
            ProbeResult mapper = Json.read(bytes, ProbeResult.class);
            if (GOLDEN_DEFERRED.contains(file.getFileName().toString())) {
                assertThat(fast).as(file.toString()).isNull();
            } else {
                assertThat(fast).as(file.toString()).isNotNull().isEqualTo(mapper);
                answered++;
            }
            assertThat(SERDE.deserialize(TOPIC, bytes)).isEqualTo(mapper);
        }
        assertThat(answered).isEqualTo(files.size() - GOLDEN_DEFERRED.size()).isGreaterThanOrEqualTo(3);
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
            assertThat(outcome(() -> SERDE.deserialize(TOPIC, bytes)))
                    .as(file.toString())
                    .isEqualTo(before);
        }
    }

    // ---- 2. what the probe worker writes

    @Test
    void everythingTheWorkerWritesIsAnsweredAndEqualsTheRecord() {
        List<ProbeResult> records = realistic();
        assertThat(records.size()).isGreaterThanOrEqualTo(ErrorKind.values().length + 8);
        int answered = 0;
        for (ProbeResult r : records) {
            byte[] bytes = Json.bytes(r);
            ProbeResult fast = ProbeResultReader.readOrNull(bytes);
            String label = new String(bytes, StandardCharsets.UTF_8);
            // The writer escapes quotes, backslashes and controls, and writes non-ASCII as raw UTF-8: exactly the
            // strings the scanner leaves to the mapper.
            if (plainAscii(bytes)) {
                assertThat(fast).as(label).isNotNull().isEqualTo(r).isEqualTo(Json.read(bytes, ProbeResult.class));
                answered++;
            } else {
                assertThat(fast).as(label).isNull();
            }
            assertThat(SERDE.deserialize(TOPIC, bytes)).isEqualTo(r);
        }
        assertThat(answered).isEqualTo(records.size() - 2);
    }

    private static boolean plainAscii(byte[] bytes) {
        for (byte c : bytes) {
            if (c == '\\' || c < 0x20 || c == 0x7F) {
                return false;
            }
        }
        return true;
    }

    static List<ProbeResult> realistic() {
        List<ProbeResult> out = new ArrayList<>();
        out.add(new ProbeResult(
                1,
                "checkout-api",
                "us-east",
                "worker-us-east-1",
                W,
                W + 120,
                Outcome.SUCCESS,
                null,
                200,
                180,
                211,
                4_096L,
                0,
                "https://checkout.example.com/health",
                87,
                4,
                11,
                23,
                null,
                "0f8e2a4c-5b1d-4e7a-9c3f-1a2b3c4d5e6f"));
        out.add(new ProbeResult(
                1,
                "homepage",
                "eu-west",
                "w1",
                W,
                W,
                Outcome.SUCCESS,
                null,
                204,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                "r-1"));
        out.add(new ProbeResult(
                1,
                "shop",
                "ap-south",
                "w-2",
                W,
                W + 59_000,
                Outcome.HTTP_FAILURE,
                null,
                503,
                2400,
                2450,
                512L,
                3,
                "https://shop.example.com/x/y",
                0,
                0,
                0,
                0,
                "status 503 is not in 200-299",
                "req-2"));
        out.add(new ProbeResult(
                1,
                "shop",
                "ap-south",
                "w-2",
                W,
                W + 1,
                Outcome.HTTP_FAILURE,
                ErrorKind.OTHER,
                404,
                10,
                12,
                0L,
                10,
                "http://shop.example.com/",
                -36500,
                null,
                null,
                null,
                "\"quoted\" \\ back\tslash, ünïcødé ✓ 😀",
                "req-3"));
        for (ErrorKind kind : ErrorKind.values()) {
            out.add(new ProbeResult(
                    1,
                    "api-" + kind.wire().replace('_', '-'),
                    "us-west",
                    "worker-us-west-3",
                    W,
                    W + 7,
                    Outcome.NETWORK_FAILURE,
                    kind,
                    null,
                    null,
                    2500,
                    0L,
                    0,
                    null,
                    kind == ErrorKind.TLS ? -3 : null,
                    kind == ErrorKind.DNS ? null : 2,
                    kind == ErrorKind.CONNECT_REFUSED ? 1 : null,
                    null,
                    kind.wire() + " after 2500 ms",
                    "req-" + kind.ordinal()));
        }
        out.add(new ProbeResult(
                1,
                "status",
                "eu-central",
                "w9",
                W,
                W + 5,
                Outcome.ASSERTION_FAILURE,
                null,
                200,
                40,
                45,
                128L,
                1,
                "https://status.example.com/status",
                36500,
                1,
                2,
                3,
                "/status was \"degraded\"",
                "req-a"));
        out.add(new ProbeResult(
                1,
                "status",
                "eu-central",
                "w9",
                W,
                W + 5,
                Outcome.ASSERTION_FAILURE,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                1,
                null,
                null,
                null,
                null,
                "req-b"));
        out.add(new ProbeResult(
                7,
                "big",
                "us-east",
                "w" + "x".repeat(120),
                Long.MAX_VALUE - 10,
                Long.MAX_VALUE,
                Outcome.SUCCESS,
                null,
                599,
                Integer.MAX_VALUE,
                Integer.MAX_VALUE,
                Long.MAX_VALUE,
                10,
                "https://" + "a".repeat(2000) + ".example",
                0,
                Integer.MAX_VALUE,
                0,
                Integer.MAX_VALUE,
                "d".repeat(300),
                "r".repeat(64)));
        out.add(new ProbeResult(
                Integer.MAX_VALUE,
                "0",
                "0-0",
                " w ",
                0L,
                0L,
                Outcome.SUCCESS,
                null,
                100,
                0,
                0,
                0L,
                0,
                "",
                -1,
                0,
                0,
                0,
                "",
                "x"));
        // docs/monitors.md#check-types: the other check types
        out.add(new ProbeResult(
                1,
                "mail-relay",
                "eu-west",
                "w1",
                W,
                W + 15,
                Outcome.SUCCESS,
                null,
                null,
                42,
                42,
                0L,
                0,
                null,
                null,
                null,
                40,
                null,
                null,
                "r-tcp",
                CheckType.TCP,
                null));
        out.add(new ProbeResult(
                1,
                "mail-relay",
                "eu-west",
                "w1",
                W,
                W + 15,
                Outcome.ASSERTION_FAILURE,
                null,
                null,
                42,
                42,
                0L,
                0,
                null,
                null,
                null,
                40,
                null,
                "banner did not contain 250",
                "r-tcp-2",
                CheckType.TCP,
                null));
        out.add(new ProbeResult(
                1,
                "mx-records",
                "ap-south",
                "w3",
                W,
                W + 2,
                Outcome.SUCCESS,
                null,
                null,
                18,
                null,
                null,
                null,
                null,
                null,
                18,
                null,
                null,
                null,
                "r-dns",
                CheckType.DNS,
                List.of("mx1.example.com", "mx2.example.com", "10 mx3.example.com")));
        out.add(new ProbeResult(
                1,
                "mx-records",
                "ap-south",
                "w3",
                W,
                W + 2,
                Outcome.NETWORK_FAILURE,
                ErrorKind.DNS,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                2500,
                null,
                null,
                "no answer",
                "r-dns-2",
                CheckType.DNS,
                List.of()));
        out.add(new ProbeResult(
                1,
                "admin-tls",
                "us-east",
                "w2",
                W,
                W + 1,
                Outcome.SUCCESS,
                null,
                null,
                90,
                90,
                null,
                null,
                null,
                41,
                3,
                20,
                60,
                null,
                "r-tls",
                CheckType.TLS,
                null));
        out.add(new ProbeResult(
                1,
                "nightly-backup",
                "push",
                "ingest-1",
                W,
                W + 300_000,
                Outcome.SUCCESS,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                "hb-1",
                CheckType.HEARTBEAT,
                null));
        out.add(new ProbeResult(
                1,
                "nightly-backup",
                "push",
                "streams-1",
                W,
                W + 86_400_000,
                Outcome.NETWORK_FAILURE,
                ErrorKind.MISSED_HEARTBEAT,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                "no ping by the end of the window plus 60 s",
                "missed-1",
                CheckType.HEARTBEAT,
                null));
        out.add(new ProbeResult(
                1,
                "nightly-backup",
                "push",
                "ingest-1",
                W,
                W + 9,
                Outcome.ASSERTION_FAILURE,
                ErrorKind.REPORTED_FAILURE,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                "hb-2",
                CheckType.HEARTBEAT,
                null));
        out.add(new ProbeResult(
                1,
                "homepage",
                "eu-west",
                "w1",
                W,
                W,
                Outcome.SUCCESS,
                null,
                200,
                5,
                6,
                10L,
                0,
                null,
                null,
                null,
                null,
                null,
                null,
                "r-http",
                CheckType.HTTP,
                null));
        return out;
    }

    // ---- 3. mutation fuzz

    private static final String[] OTHER_VALUES = {
        "\"12\"",
        "12.0",
        "1e3",
        "true",
        "false",
        "null",
        "{}",
        "[]",
        "99999999999",
        "-1",
        "0",
        "-0",
        "99999999999999999999",
        "2147483648",
        "-2147483649",
        "9223372036854775808",
        "\"\"",
        "\"success\"",
        "\"network_failure\"",
        "\"SUCCESS\"",
        "\"dns\"",
        "\"x\"",
        "{\"a\":1}",
        "[1,2]",
        "1.5",
        "-1.0E2",
        "\"2024\"",
        "503",
        "1700000040000",
        "\" \"",
        "\"a\\u0000b\"",
        "\"checkout-api\"",
        "01",
        "+1",
        "NaN",
        "\"tcp\"",
        "\"heartbeat\"",
        "\"http\"",
        "[\"a\"]",
        "[\"mx1.example.com\",\"mx2.example.com\"]",
        "[null]",
        "[\"a\",1]",
        "[\"\"]",
        "[ \"a\" , \"b\" ]",
        "\"push\"",
        "\"missed_heartbeat\"",
        "\"reported_failure\""
    };
    private static final String[] UNKNOWN_VALUES = {
        "1",
        "\"h2\"",
        "true",
        "null",
        "{\"ttfb\":5}",
        "[1,\"a\",null,{\"b\":[]}]",
        "1.5",
        "1e400",
        "123456789012345678901234567890",
        "{\"x\":{\"y\":[[[1]]]}}",
        "\"" + "z".repeat(300) + "\"",
        "[",
        "{\"a\":}",
        "-7"
    };
    private static final String[] TRAILING = {
        " ", "\n", " x", "{}", "null", ",", "]", "}", "1", "\"a\"", "/* c */", "\u0000"
    };

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
            assertThat(outcome(() -> SERDE.deserialize(TOPIC, bytes)))
                    .as(label)
                    .isEqualTo(outcome(() -> MAPPER_ONLY.deserialize(TOPIC, bytes)));
        }
        System.out.printf(
                "ProbeResultReader fuzz: %d cases, mapper accepted %d, fast path answered %d%n",
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
                case 5 -> members.add(rnd.nextInt(members.size() + 1), new String[] {
                    pick(rnd, new String[] {
                        "httpVersion", "phases", "x", "", "HttpStatus", "succeeded", "schema_version", "monitorid"
                    }),
                    pick(rnd, UNKNOWN_VALUES)
                });
                case 6 -> Collections.shuffle(members, rnd);
                case 7 -> whitespace = true;
                case 8 -> suffix = pick(rnd, TRAILING);
                case 9 -> truncate = rnd.nextInt(400);
                case 10 -> byteFlips = 1 + rnd.nextInt(3);
                default -> {
                    switch (rnd.nextInt(4)) {
                        case 0 -> {
                            prefix = "[";
                            suffix = "]";
                        }
                        case 1 -> prefix = "\uFEFF";
                        case 2 -> {
                            prefix = "{\"wrapped\":";
                            suffix = "}";
                        }
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
            sb.append(gap)
                    .append(Json.string(members.get(i)[0]))
                    .append(gap)
                    .append(':')
                    .append(gap)
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
    @ValueSource(
            strings = {
                "\"httpStatus\":\"200\"",
                "\"httpStatus\":200.0",
                "\"httpStatus\":2e2",
                "\"httpStatus\":true",
                "\"httpStatus\":{}",
                "\"httpStatus\":[200]",
                "\"httpStatus\":2147483648",
                "\"windowStart\":1.7e12",
                "\"windowStart\":9223372036854775808",
                "\"windowStart\":\"1700000040000\"",
                "\"monitorId\":12",
                "\"monitorId\":true",
                "\"outcome\":\"SUCCESS\"",
                "\"outcome\":1",
                "\"errorKind\":\"nope\"",
                "\"x\":1.5",
                "\"x\":[1e400]",
                "\"x\":123456789012345678901234567890",
                "\"httpStatus\":700",
                "\"requestId\":null",
                "\"requestId\":\"r-1\"",
                "\"startedAt\":1"
            })
    void leavesToTheMapperWhatItCannotBeSureOf(String member) {
        byte[] bytes = minimalWith(member);
        assertThat(ProbeResultReader.readOrNull(bytes)).as(member).isNull();
        assertConsistent(member, bytes);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"schemaVersion\":1}",
                "[]",
                "null",
                "\"a\"",
                "1",
                "",
                "  ",
                "{",
                "not json",
                "{\"schemaVersion\":1,\"monitorId\":\"homepage\"}{}"
            })
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
                + "\"future\":-9223372036854775808,\"t\":true,\"f\":false,\"n\":null,\"also\":\"x\",\"\":0");
        ProbeResult fast = ProbeResultReader.readOrNull(bytes);
        assertThat(fast).isNotNull().isEqualTo(Json.read(bytes, ProbeResult.class));
        assertThat(fast.bytesRead()).isZero();
        assertThat(fast.tlsDaysLeft()).isEqualTo(-3);
        assertThat(ProbeResultReader.readOrNull(null)).isNull();
        // A structured ignored value is outside the scanner's subset (the old streaming reader answered it).
        byte[] nested = minimalWith("\"future\":{\"a\":[1,\"b\",true,false,null,{}],\"n\":-9223372036854775808}");
        assertThat(ProbeResultReader.readOrNull(nested)).isNull();
        assertThat(SERDE.deserialize(TOPIC, nested)).isEqualTo(Json.read(nested, ProbeResult.class));
    }

    /** The check type and the DNS answers are read, never dropped as if they were unknown fields. */
    @Test
    void readsTheCheckTypeAndTheDnsAnswers() {
        byte[] tcp = ("{\"schemaVersion\":1,\"monitorId\":\"mail-relay\",\"region\":\"eu-west\",\"workerId\":\"w1\","
                        + "\"windowStart\":1700000040000,\"startedAt\":1700000040000,\"outcome\":\"success\","
                        + "\"requestId\":\"r-1\",\"checkType\":\"tcp\"}")
                .getBytes(StandardCharsets.UTF_8);
        ProbeResult fast = ProbeResultReader.readOrNull(tcp);
        assertThat(fast).isNotNull().isEqualTo(Json.read(tcp, ProbeResult.class));
        assertThat(fast.checkType()).isEqualTo(CheckType.TCP);
        assertThat(fast.httpStatus()).isNull();

        byte[] dns = minimalWith("\"checkType\":\"dns\",\"dnsAnswers\":[\"192.0.2.1\", \"192.0.2.2\"]");
        ProbeResult answers = ProbeResultReader.readOrNull(dns);
        assertThat(answers).isNotNull().isEqualTo(Json.read(dns, ProbeResult.class));
        assertThat(answers.checkType()).isEqualTo(CheckType.DNS);
        assertThat(answers.dnsAnswers()).containsExactly("192.0.2.1", "192.0.2.2");
        assertThat(ProbeResultReader.readOrNull(minimalWith(null)).checkType())
                .as("absent: null, read as http")
                .isNull();

        // http_failure is refused for a non-http result: left to the mapper, which names the field
        byte[] tcpHttpFailure = new String(minimalWith("\"checkType\":\"tcp\""), StandardCharsets.UTF_8)
                .replace("\"success\"", "\"http_failure\"")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(ProbeResultReader.readOrNull(tcpHttpFailure)).isNull();
        assertThat(outcome(() -> SERDE.deserialize(TOPIC, tcpHttpFailure)))
                .isEqualTo(new Failure(
                        JsonSerde.PoisonRecordException.class,
                        "invalid ProbeResult: outcome: http_failure is for http checks; "
                                + "a tcp check fails with network_failure or assertion_failure"));
        assertThat(outcome(() -> SERDE.deserialize(TOPIC, tcpHttpFailure)))
                .isEqualTo(outcome(() -> MAPPER_ONLY.deserialize(TOPIC, tcpHttpFailure)));
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
    void stringsUpToTheScannersLimitAreAnsweredLongerOnesDeferred() {
        int max = ProbeResultReader.MAX_STRING;
        byte[] atLimit = minimalWith("\"future\":\"" + "z".repeat(max) + "\"");
        ProbeResult fast = ProbeResultReader.readOrNull(atLimit);
        assertThat(fast).isNotNull().isEqualTo(Json.read(atLimit, ProbeResult.class));
        byte[] over = minimalWith("\"future\":\"" + "z".repeat(max + 1) + "\"");
        assertThat(ProbeResultReader.readOrNull(over)).isNull();
        assertThat(SERDE.deserialize(TOPIC, over)).isEqualTo(fast);
        byte[] longKey = minimalWith("\"" + "k".repeat(max + 1) + "\":1");
        assertThat(ProbeResultReader.readOrNull(longKey)).isNull();
        assertConsistent("long key", longKey);
    }

    @Test
    void theSerdeTriesItsFastReaderFirstAndFallsBackToTheMapperOnNull() {
        ProbeResult sentinel = realistic().get(0);
        byte[] minimal = minimalWith(null);
        assertThat(new JsonSerde<>(ProbeResult.class, b -> sentinel).deserialize(TOPIC, minimal))
                .isSameAs(sentinel);
        JsonSerde<ProbeResult> never = new JsonSerde<>(ProbeResult.class, b -> null);
        assertThat(never.deserialize(TOPIC, minimal)).isEqualTo(Json.read(minimal, ProbeResult.class));
        assertThat(never.deserialize(TOPIC, null)).isNull();
        byte[] bad = minimalWith("\"httpStatus\":\"200\"");
        assertThat(outcome(() -> never.deserialize(TOPIC, bad)))
                .isEqualTo(new Failure(
                        JsonSerde.PoisonRecordException.class,
                        "invalid ProbeResult: httpStatus: has the wrong type or format"));
        assertThat(outcome(() -> SERDE.deserialize(TOPIC, bad)))
                .isEqualTo(outcome(() -> never.deserialize(TOPIC, bad)));
    }

    // ---- the byte-level scanner's subset

    /** Members (appended to the minimal example) that stay inside the subset: answered, equal to the mapper. */
    @ParameterizedTest
    @MethodSource("membersInTheSubset")
    void answersMembersInsideTheSubsetLikeTheMapper(String member) {
        byte[] bytes = minimalWith(member);
        ProbeResult fast = ProbeResultReader.readOrNull(bytes);
        assertThat(fast).as(member).isNotNull().isEqualTo(Json.read(bytes, ProbeResult.class));
        assertThat(SERDE.deserialize(TOPIC, bytes)).isEqualTo(fast);
    }

    static Stream<String> membersInTheSubset() {
        StringBuilder printable = new StringBuilder();
        for (char c = 0x20; c < 0x7F; c++) {
            if (c != '"' && c != '\\') {
                printable.append(c);
            }
        }
        return Stream.of(
                "\"detail\":\"" + printable + "\"",
                "\"" + printable + "\":\"" + printable + "\"",
                "\"detail\":\"\"",
                "\"finalUrl\":\"https://a.example/b\"",
                "\"errorKind\":null",
                "\"detail\":null",
                "\"responseMs\":0",
                "\"responseMs\":-0",
                "\"responseMs\":2147483647",
                "\"tlsDaysLeft\":-36500",
                "\"bytesRead\":9223372036854775807",
                "\"bytesRead\":2147483648",
                "\"x\":9223372036854775807",
                "\"x\":-9223372036854775808",
                "\"x\":2147483648",
                "\"x\":-2147483649",
                "\"x\":-0",
                "\"x\":0",
                "\"x\":true",
                "\"x\":false",
                "\"x\":null",
                "\"x\":\"\"",
                "\"x\":1,\"x\":2",
                " \"x\" \t:\r\n 1 \n",
                "\"k" + "k".repeat(ProbeResultReader.MAX_KEY - 2) + "\":1",
                // docs/monitors.md#check-types
                "\"checkType\":\"http\"",
                "\"checkType\":\"tcp\"",
                "\"checkType\":\"heartbeat\"",
                "\"checkType\":null",
                "\"dnsAnswers\":null",
                "\"dnsAnswers\":[]",
                "\"dnsAnswers\":[ ]",
                "\"dnsAnswers\":[\"a\"]",
                "\"dnsAnswers\":[\"mx1.example.com\",\"10 mx2.example.com\"]",
                "\"dnsAnswers\" : [ \"a\" ,\n\"b\"\t]",
                "\"dnsAnswers\":[\"" + printable + "\"]",
                "\"checkType\":\"dns\",\"dnsAnswers\":[\"192.0.2.1\"]",
                "\"errorKind\":null,\"checkType\":\"tls\"");
    }

    /** Members outside the subset: deferred; whatever the mapper says, the serde says the same as before. */
    @ParameterizedTest
    @MethodSource("membersOutsideTheSubset")
    void defersMembersOutsideTheSubset(String member) {
        byte[] bytes = minimalWith(member);
        assertThat(ProbeResultReader.readOrNull(bytes)).as(member).isNull();
        assertThat(outcome(() -> SERDE.deserialize(TOPIC, bytes)))
                .as(member)
                .isEqualTo(outcome(() -> MAPPER_ONLY.deserialize(TOPIC, bytes)));
    }

    static Stream<String> membersOutsideTheSubset() {
        return Stream.of(
                // escapes in values and keys
                "\"detail\":\"a\\\"b\"",
                "\"detail\":\"a\\\\b\"",
                "\"detail\":\"\\u00e9\"",
                "\"detail\":\"a\\nb\"",
                "\"detail\":\"\\/\"",
                "\"de\\u0074ail\":\"x\"",
                "\"x\\\"y\":1",
                "\"x\\\\\":1",
                "\"x\\n\":1",
                "\"schemaVersion\\u0000\":1",
                // raw non-ASCII and control characters
                "\"detail\":\"\u00e9\"",
                "\"detail\":\"\uD83D\uDE00\"",
                "\"\u00e9\":1",
                "\"x\":\"\u00e9\"",
                "\"detail\":\"a\u0001b\"",
                "\"detail\":\"a\tb\"",
                "\"detail\":\"a\nb\"",
                "\"detail\":\"\u007f\"",
                "\"x\u0000\":1",
                // numbers
                "\"responseMs\":012",
                "\"responseMs\":00",
                "\"responseMs\":-",
                "\"responseMs\":-01",
                "\"responseMs\":1.",
                "\"responseMs\":1.0",
                "\"responseMs\":1e5",
                "\"responseMs\":1E5",
                "\"responseMs\":0e0",
                "\"responseMs\":+1",
                "\"responseMs\":2147483648",
                "\"responseMs\":-2147483649",
                "\"responseMs\":-2147483648",
                "\"responseMs\":-1",
                "\"tlsDaysLeft\":-2147483648",
                "\"bytesRead\":9223372036854775808",
                "\"windowStart\":-9223372036854775809",
                "\"x\":9223372036854775808",
                "\"x\":-9223372036854775809",
                "\"x\":" + "9".repeat(70),
                "\"x\":" + "1".repeat(20),
                "\"x\":-",
                "\"x\":--1",
                "\"x\":0x10",
                "\"x\":.5",
                "\"x\":Infinity",
                "\"x\":-Infinity",
                "\"x\":1.5",
                "\"x\":1e400",
                // literals
                "\"x\":tru",
                "\"x\":nul",
                "\"x\":fals",
                "\"x\":NaN",
                "\"x\":True",
                "\"x\":NULL",
                "\"x\":nulll",
                "\"x\":truex",
                "\"detail\":true",
                "\"responseMs\":false",
                "\"outcome\":null",
                "\"errorKind\":true",
                "\"errorKind\":\"DNS\"",
                "\"errorKind\":\"dns \"",
                "\"detail\":1",
                "\"responseMs\":\"1\"",
                // structure
                "\"x\":{}",
                "\"x\":[]",
                "\"x\":{\"a\":1}",
                "\"x\":[1]",
                "\"detail\":{}",
                "\"detail\":[]",
                "\"x\"",
                "\"x\":",
                "\"x\" 1",
                "'x':1",
                "\"x\":'a'",
                "x:1",
                "\"x\":1,",
                "\"x\":1 \"y\":2",
                "\"x\"::1",
                "\"x\":1:2",
                "/* c */\"x\":1",
                "// c\n\"x\":1",
                "\"x\":1 /* c */",
                "\"x\":1\f",
                "\"x\":\u00a01",
                "\"x\":\"a",
                "\"x\":\"a\"\"b\"",
                // a repeated known field, a key longer than the scanner looks at
                "\"region\":\"eu-west\"",
                "\"k" + "k".repeat(ProbeResultReader.MAX_KEY) + "\":1",
                // check types and DNS answers outside the subset, or refused
                "\"checkType\":\"TCP\"",
                "\"checkType\":\"smtp\"",
                "\"checkType\":1",
                "\"checkType\":[]",
                "\"checkType\":\"tcp\",\"checkType\":\"dns\"",
                "\"checkType\":\"tc\\u0070\"",
                "\"dnsAnswers\":[null]",
                "\"dnsAnswers\":[\"a\",null]",
                "\"dnsAnswers\":[1]",
                "\"dnsAnswers\":\"a\"",
                "\"dnsAnswers\":{}",
                "\"dnsAnswers\":[\"a\",]",
                "\"dnsAnswers\":[,]",
                "\"dnsAnswers\":[\"a\" \"b\"]",
                "\"dnsAnswers\":[\"a\"",
                "\"dnsAnswers\":[[\"a\"]]",
                "\"dnsAnswers\":[\"a\\\"b\"]",
                "\"dnsAnswers\":[\"\u00e9\"]",
                "\"dnsAnswers\":[\"\"]",
                "\"dnsAnswers\":[\" \"]",
                "\"dnsAnswers\":" + Json.string(Collections.nCopies(17, "a")),
                "\"dnsAnswers\":[\"a\"],\"dnsAnswers\":[]",
                "\"dnsAnswers\":[true]",
                "\"dnsAnswers\":[\"a\"]]");
    }

    @ParameterizedTest
    @MethodSource("documentsOutsideTheSubset")
    void defersDocumentsOutsideTheSubset(byte[] bytes) {
        String label = new String(bytes, StandardCharsets.ISO_8859_1);
        assertThat(ProbeResultReader.readOrNull(bytes)).as(label).isNull();
        assertThat(outcome(() -> SERDE.deserialize(TOPIC, bytes)))
                .as(label)
                .isEqualTo(outcome(() -> MAPPER_ONLY.deserialize(TOPIC, bytes)));
    }

    static Stream<byte[]> documentsOutsideTheSubset() {
        byte[] minimal = minimalWith(null);
        String text = new String(minimal, StandardCharsets.US_ASCII);
        List<byte[]> out = new ArrayList<>();
        out.add(concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, minimal));
        out.add(concat(minimal, "/* c */".getBytes(StandardCharsets.US_ASCII)));
        out.add(concat("/* c */".getBytes(StandardCharsets.US_ASCII), minimal));
        out.add(concat(minimal, new byte[] {'\f'}));
        out.add(concat(new byte[] {(byte) 0xC2, (byte) 0xA0}, minimal));
        out.add(concat(minimal, new byte[] {0}));
        for (String json : new String[] {
            "{}",
            " { } ",
            "{,}",
            "{\"x\":1}",
            "{\"x\":1}{",
            "[" + text + "]",
            text.replace('"', '\''),
            text.replace(",", ",,"),
            text.replace("}", ",}"),
            text.replace(",\"region\"", "\"region\""),
            text.replace("\"region\":", "\"region\""),
            text.replace("{", "{\"wrapped\":{") + "}",
            text + text,
            text + "}"
        }) {
            out.add(json.getBytes(StandardCharsets.UTF_8));
        }
        // invalid UTF-8 inside a value and a key: a lone continuation byte, a truncated sequence, 0xFF, an
        // overlong encoding of '/'
        byte[][] invalid = {
            {(byte) 0x80},
            {(byte) 0xC3},
            {(byte) 0xFF},
            {(byte) 0xC0, (byte) 0xAF},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}
        };
        for (byte[] bad : invalid) {
            out.add(minimalWith(
                    "\"detail\":\"a" + new String(bad, StandardCharsets.ISO_8859_1) + "b\"",
                    StandardCharsets.ISO_8859_1));
            out.add(minimalWith(
                    "\"x" + new String(bad, StandardCharsets.ISO_8859_1) + "\":1", StandardCharsets.ISO_8859_1));
        }
        return out.stream();
    }

    @Test
    void aDocumentCutAtAnyByteIsLeftToTheMapperWhichRefusesIt() throws IOException {
        List<byte[]> docs = new ArrayList<>();
        docs.add(Json.bytes(realistic().get(0)));
        docs.add(Files.readAllBytes(
                GOLDEN.resolve("valid").resolve("probe-result").resolve("canonical.json")));
        int cuts = 0;
        for (byte[] doc : docs) {
            assertThat(ProbeResultReader.readOrNull(doc)).isNotNull();
            int close = lastIndexOf(doc, (byte) '}');
            for (int length = 0; length <= close; length++) {
                byte[] cut = Arrays.copyOf(doc, length);
                String label = "cut at " + length + ": " + new String(cut, StandardCharsets.ISO_8859_1);
                assertThat(ProbeResultReader.readOrNull(cut)).as(label).isNull();
                assertThat(outcome(() -> SERDE.deserialize(TOPIC, cut)))
                        .as(label)
                        .isEqualTo(outcome(() -> MAPPER_ONLY.deserialize(TOPIC, cut)))
                        .isInstanceOf(Failure.class);
                cuts++;
            }
        }
        assertThat(cuts).isGreaterThan(600);
    }

    /** Every byte of a valid document replaced by, preceded by, or dropped for a byte that matters to a scanner. */
    @Test
    void singleByteEditsAtEveryOffsetAreEitherLeftToTheMapperOrEqualToIt() {
        byte[] doc = Json.bytes(realistic().get(0));
        byte[] interesting = {
            '"',
            '\\',
            ',',
            ':',
            '{',
            '}',
            '[',
            ']',
            ' ',
            '\t',
            '\n',
            '\f',
            0,
            0x1F,
            0x7F,
            (byte) 0x80,
            (byte) 0xC3,
            (byte) 0xFF,
            '0',
            '1',
            '9',
            '-',
            '+',
            '.',
            'e',
            'E',
            'n',
            't',
            'a',
            'A',
            '/',
            '\''
        };
        int cases = 0;
        int answered = 0;
        for (int at = 0; at < doc.length; at++) {
            List<byte[]> edits = new ArrayList<>();
            byte[] dropped = new byte[doc.length - 1];
            System.arraycopy(doc, 0, dropped, 0, at);
            System.arraycopy(doc, at + 1, dropped, at, doc.length - at - 1);
            edits.add(dropped);
            for (byte x : interesting) {
                byte[] replaced = doc.clone();
                replaced[at] = x;
                edits.add(replaced);
                byte[] inserted = new byte[doc.length + 1];
                System.arraycopy(doc, 0, inserted, 0, at);
                inserted[at] = x;
                System.arraycopy(doc, at, inserted, at + 1, doc.length - at);
                edits.add(inserted);
            }
            for (byte[] edit : edits) {
                cases++;
                ProbeResult fast = ProbeResultReader.readOrNull(edit);
                if (fast != null) {
                    answered++;
                    assertThat(outcome(() -> Json.read(edit, ProbeResult.class)))
                            .as(new String(edit, StandardCharsets.ISO_8859_1))
                            .isEqualTo(fast);
                }
            }
        }
        System.out.printf("ProbeResultReader byte edits: %d cases, fast path answered %d%n", cases, answered);
        assertThat(answered).isPositive().isLessThan(cases);
    }

    /** The eight-bytes-at-a-time test against the byte rule: every byte value at every position, then random words. */
    @Test
    void theWordTestAgreesWithTheByteRule() {
        int checked = 0;
        for (int position = 0; position < 8; position++) {
            for (int value = 0; value < 256; value++) {
                byte[] word = "abcdefgh".getBytes(StandardCharsets.US_ASCII);
                word[position] = (byte) value;
                assertThat(ProbeResultReader.plainWord(littleEndian(word)))
                        .as("byte %d at %d", value, position)
                        .isEqualTo(plain(word));
                checked++;
            }
        }
        Random rnd = new Random(7);
        byte[] pool = {' ', '!', '"', '#', '[', '\\', ']', '~', 0x7F, (byte) 0x80, (byte) 0xFF, 0, 0x1F, 'a', '0'};
        for (int i = 0; i < 200_000; i++) {
            byte[] word = new byte[8];
            for (int j = 0; j < 8; j++) {
                word[j] = rnd.nextInt(3) == 0 ? pool[rnd.nextInt(pool.length)] : (byte) rnd.nextInt(256);
            }
            assertThat(ProbeResultReader.plainWord(littleEndian(word))).isEqualTo(plain(word));
            checked++;
        }
        assertThat(checked).isEqualTo(8 * 256 + 200_000);
    }

    private static long littleEndian(byte[] word) {
        return java.nio.ByteBuffer.wrap(word)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .getLong();
    }

    private static boolean plain(byte[] word) {
        for (byte c : word) {
            if (c < 0x20 || c == 0x7F || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static int lastIndexOf(byte[] bytes, byte b) {
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    // ---- helpers

    /** The golden minimal example with {@code member} appended (a later duplicate when it names a field). */
    private static byte[] minimalWith(String member) {
        return minimalWith(member, StandardCharsets.UTF_8);
    }

    private static byte[] minimalWith(String member, java.nio.charset.Charset charset) {
        String base = "{\"schemaVersion\":1,\"monitorId\":\"homepage\",\"region\":\"eu-west\",\"workerId\":\"w1\","
                + "\"windowStart\":1700000040000,\"startedAt\":1700000040000,\"outcome\":\"success\","
                + "\"httpStatus\":200";
        String tail = member == null ? "" : "," + member;
        return (base + ",\"requestId\":\"r-1\"" + tail + "}").getBytes(charset);
    }

    /** When the fast path answers, the mapper succeeds with an equal record. */
    private static void assertConsistent(String label, byte[] bytes) {
        ProbeResult fast = ProbeResultReader.readOrNull(bytes);
        if (fast != null) {
            assertThat(outcome(() -> Json.read(bytes, ProbeResult.class)))
                    .as(label)
                    .isEqualTo(fast);
        }
    }

    record Failure(Class<?> type, String message) {}

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
