package dev.vigil.schemas.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.SkipReason;
import dev.vigil.schemas.contract.WireEnum;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
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
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ProbeResultReader} decodes exactly what Jackson (the generic path: {@link Json}'s mapper binding to
 * {@link ProbeResult}) decodes, for every golden ProbeResult document and for seeded fuzzed ones.
 *
 * <p>The reader never rejects on its own: it answers a record or null ("not sure"), and the serde then reads the
 * bytes through the mapper. So agreement, for every input, means:
 * <ul>
 *   <li>the reader never throws;</li>
 *   <li>Jackson accepts: the reader answers an equal record, or null;</li>
 *   <li>Jackson rejects: the reader answers null, and the serde raises the {@link JsonSerde.PoisonRecordException}
 *       (which the Streams handler routes to the dead-letter topic) that it raises without the reader: same
 *       message, same field;</li>
 *   <li>the serde with the reader returns or throws exactly what the serde without it does;</li>
 *   <li>a document built inside the reader's documented subset that Jackson accepts is answered (null is always
 *       safe, but a reader that defers what it claims to read does not earn its place).</li>
 * </ul>
 * The fuzzer is a {@link Random} per fixed seed; a failure names the seed, the case and the document.
 */
class ProbeResultReaderEquivalenceTest {
    private static final String TOPIC = "vigil.probe-results";
    private static final JsonSerde<ProbeResult> MAPPER_ONLY = new JsonSerde<>(ProbeResult.class);
    private static final JsonSerde<ProbeResult> SERDE = VigilSerdes.probeResult();
    private static final Path GOLDEN = goldenRoot();

    /** 8 seeds x 2,500 documents. */
    private static final int CASES_PER_SEED = 2_500;
    /** Re-encodings (order, whitespace, escapes, nulls, unknown fields) of each valid golden example. */
    private static final int VARIANTS_PER_GOLDEN = 200;

    // ---- golden documents

    @Test
    void everyGoldenProbeResultDecodesAsJacksonDecodesIt() throws IOException {
        Tally tally = new Tally();
        List<Path> valid = golden("valid", "probe-result");
        assertThat(valid).hasSizeGreaterThanOrEqualTo(10);
        for (Path file : valid) {
            byte[] bytes = Files.readAllBytes(file);
            assertThat(outcome(() -> Json.read(bytes, ProbeResult.class)))
                    .as(file.toString())
                    .isInstanceOf(ProbeResult.class);
            check(file.toString(), bytes, false, tally);
        }
        List<Path> refused = new ArrayList<>(golden("invalid", "probe-result"));
        refused.addAll(golden("record-only", "probe-result"));
        assertThat(refused).hasSizeGreaterThanOrEqualTo(25);
        for (Path file : refused) {
            byte[] bytes = Files.readAllBytes(file);
            check(file.toString(), bytes, false, tally);
            String expected = Files.readAllLines(Path.of(file.toString().replaceAll("\\.json$", ".expect"))).stream()
                    .map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                    .findFirst()
                    .orElseThrow();
            assertThat(outcome(() -> SERDE.deserialize(TOPIC, bytes)))
                    .as(file.toString())
                    .isInstanceOfSatisfying(Failure.class, f -> {
                        assertThat(f.type()).isEqualTo(JsonSerde.PoisonRecordException.class);
                        assertThat(f.field()).isEqualTo(expected);
                    });
        }
        assertThat(tally.answered)
                .as("valid golden examples the reader answers")
                .isEqualTo(valid.size() - 2);
        assertThat(tally.cases).isEqualTo(valid.size() + refused.size());
    }

    /** Other contracts' examples are not probe results: both refuse them (or both read them, identically). */
    @Test
    void everyOtherGoldenDocumentReadAsAProbeResultAgrees() throws IOException {
        Tally tally = new Tally();
        try (Stream<Path> files = Files.walk(GOLDEN)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".json"))
                    .filter(p -> !p.getParent().getFileName().toString().equals("probe-result"))
                    .sorted()
                    .toList()) {
                check(file.toString(), Files.readAllBytes(file), false, tally);
            }
        }
        assertThat(tally.cases).isGreaterThan(50);
    }

    @Test
    void everyValidGoldenCutAtEveryByteAgrees() throws IOException {
        Tally tally = new Tally();
        for (Path file : golden("valid", "probe-result")) {
            byte[] bytes = Files.readAllBytes(file);
            for (int length = 0; length < bytes.length; length++) {
                check(file + " cut at " + length, Arrays.copyOf(bytes, length), false, tally);
            }
        }
        // a cut keeps the document whole only when it drops trailing whitespace after the closing brace
        assertThat(tally.accepted)
                .isLessThanOrEqualTo(golden("valid", "probe-result").size());
        assertThat(tally.cases).isGreaterThan(3_000);
    }

    /**
     * Each valid golden example re-encoded: members reordered, whitespace between tokens, strings with escapes,
     * absent optional fields as explicit nulls, unknown fields added. Jackson must read the golden's record from every
     * variant (the variants are valid), and the reader must agree.
     */
    @Test
    void reEncodedGoldenExamplesDecodeToTheGoldenRecord() throws IOException {
        Tally tally = new Tally();
        Random rnd = new Random(20_261_202L);
        for (Path file : golden("valid", "probe-result")) {
            byte[] bytes = Files.readAllBytes(file);
            ProbeResult golden = Json.read(bytes, ProbeResult.class);
            for (int i = 0; i < VARIANTS_PER_GOLDEN; i++) {
                Gen gen = new Gen(rnd);
                byte[] variant = gen.reEncode(Json.tree(bytes));
                String label = "golden variant " + file.getFileName() + " #" + i + " (seed 20261202)";
                assertThat(outcome(() -> Json.read(variant, ProbeResult.class)))
                        .as("%s\n  document: %s", label, printable(variant))
                        .isEqualTo(golden);
                check(label, variant, gen.subset, tally);
            }
        }
        System.out.printf(
                "ProbeResultReader equivalence, golden variants: %d cases, reader answered %d%n",
                tally.cases, tally.answered);
        assertThat(tally.answered).isGreaterThan(tally.cases / 4);
    }

    // ---- every component with every edge value

    private static final String[] EDGE_VALUES = {
        "0",
        "-0",
        "1",
        "-1",
        "9",
        "10",
        "11",
        "99",
        "100",
        "599",
        "600",
        "36500",
        "-36500",
        "36501",
        "-36501",
        "2147483647",
        "-2147483648",
        "2147483648",
        "-2147483649",
        "4294967296",
        "9223372036854775807",
        "-9223372036854775808",
        "9223372036854775808",
        "-9223372036854775809",
        "1000000000000000000",
        "9999999999999999999",
        "-9999999999999999999",
        "10000000000000000000",
        "99999999999999999999",
        "1700000040000",
        "01",
        "-01",
        "00",
        "1.0",
        "1e2",
        "1E2",
        "-0.0",
        "0.5",
        ".5",
        "+1",
        "- 1",
        "NaN",
        "Infinity",
        "0x10",
        "\"\"",
        "\" \"",
        "\"\t\"",
        "\"x\"",
        "\"checkout-api\"",
        "\"push\"",
        "\"Push\"",
        "\"success\"",
        "\"http_failure\"",
        "\"network_failure\"",
        "\"assertion_failure\"",
        "\"dns\"",
        "\"tcp\"",
        "\"http\"",
        "\"tls\"",
        "\"heartbeat\"",
        "\"other\"",
        "\"missed_heartbeat\"",
        "\"reported_failure\"",
        "\"SUCCESS\"",
        "\"succ\\u0065ss\"",
        "\"a\\\"b\"",
        "\"\u00e9\"",
        "\"a\tb\"",
        "\"a\\tb\"",
        "\"https://a.example/x\"",
        "\"https://a.example/?q\"",
        "\"12\"",
        "\"-1\"",
        "\"" + "r".repeat(64) + "\"",
        "\"" + "r".repeat(65) + "\"",
        "\"" + "w".repeat(128) + "\"",
        "\"" + "w".repeat(129) + "\"",
        "\"" + "d".repeat(300) + "\"",
        "\"" + "d".repeat(301) + "\"",
        "\"" + "a".repeat(63) + "\"",
        "\"" + "a".repeat(64) + "\"",
        "\"https://a.example/" + "p".repeat(2_048 - 18) + "\"",
        "\"https://a.example/" + "p".repeat(2_049 - 18) + "\"",
        "null",
        "true",
        "false",
        "nul",
        "nulll",
        "True",
        "[]",
        "[ ]",
        "[\"a\"]",
        "[\"a\",\"b\"]",
        "[ \"a\" , \"b\" ]",
        "[null]",
        "[1]",
        "[\"\"]",
        "[\" \"]",
        "[\"a\",]",
        "[[\"a\"]]",
        "[\"" + "n".repeat(255) + "\"]",
        "[\"" + "n".repeat(256) + "\"]",
        Json.string(Collections.nCopies(16, "a")),
        Json.string(Collections.nCopies(17, "a")),
        "{}",
        "{\"a\":1}"
    };

    /**
     * Every component set to every edge value (numbers at and past the int and long limits and the record's ranges,
     * non-canonical numbers, strings at and past their length limits, enum names and near-misses, literals, arrays,
     * objects), in place, first and last, in the minimal example and in one that carries every component (the mapper
     * builds the record as soon as it has all of them).
     */
    @Test
    void everyComponentWithEveryEdgeValueAgrees() throws IOException {
        Tally tally = new Tally();
        List<String[]> minimal = members(golden("valid", "probe-result").stream()
                .filter(p -> p.getFileName().toString().equals("minimal.json"))
                .findFirst()
                .orElseThrow());
        List<String[]> every = members(golden("valid", "probe-result").stream()
                .filter(p -> p.getFileName().toString().equals("canonical.json"))
                .findFirst()
                .orElseThrow());
        every.add(new String[] {"checkType", "\"http\""});
        every.add(new String[] {"dnsAnswers", "[]"});
        every.add(new String[] {"skipReason", "null"});
        assertThat(every).hasSize(COMPONENTS.length);
        for (List<String[]> base : List.of(minimal, every)) {
            for (RecordComponent component : COMPONENTS) {
                for (String value : EDGE_VALUES) {
                    for (int where = 0; where < 3; where++) {
                        List<String[]> members = new ArrayList<>();
                        int at = -1;
                        for (String[] m : base) {
                            if (m[0].equals(component.getName())) {
                                at = members.size();
                            } else {
                                members.add(m);
                            }
                        }
                        String[] member = {component.getName(), value};
                        members.add(where == 0 && at >= 0 ? at : where == 1 ? 0 : members.size(), member);
                        StringBuilder sb = new StringBuilder("{");
                        for (String[] m : members) {
                            sb.append(sb.length() > 1 ? "," : "")
                                    .append('"')
                                    .append(m[0])
                                    .append("\":")
                                    .append(m[1]);
                        }
                        byte[] bytes = sb.append('}').toString().getBytes(StandardCharsets.UTF_8);
                        check(
                                component.getName() + "=" + value + " at " + where + " of " + base.size(),
                                bytes,
                                false,
                                tally);
                    }
                }
            }
        }
        System.out.printf(
                "ProbeResultReader equivalence, edge values: %d cases, Jackson accepted %d, reader answered" + " %d%n",
                tally.cases, tally.accepted, tally.answered);
        assertThat(tally.answered).isGreaterThan(tally.cases / 10);
    }

    /**
     * Why the reader defers a repeated component rather than keep the last value: the mapper keeps the last value
     * only until it has every component; then it has built the record, and refuses the repeat.
     */
    @Test
    void aComponentRepeatedAfterEveryComponentIsRefusedByTheMapperAndDeferredByTheReader() throws IOException {
        Path canonical = GOLDEN.resolve("valid").resolve("probe-result").resolve("canonical.json");
        String every = Files.readString(canonical).strip();
        every = every.substring(0, every.length() - 1)
                + ",\"checkType\":\"http\",\"dnsAnswers\":[],\"skipReason\":null";
        byte[] early = (every.replace("\"detail\":", "\"detail\":\"first\",\"detail\":") + "}")
                .getBytes(StandardCharsets.UTF_8);
        byte[] late = (every + ",\"detail\":\"again\"}").getBytes(StandardCharsets.UTF_8);
        assertThat(Json.read(early, ProbeResult.class).detail()).isEqualTo("status 503 is not in 200-299, 304");
        assertThat(outcome(() -> Json.read(late, ProbeResult.class)))
                .isEqualTo(new Failure(ContractViolation.class, "detail: cannot be read", "detail"));
        Tally tally = new Tally();
        check("repeated before the last component", early, false, tally);
        check("repeated after every component", late, false, tally);
        assertThat(tally.answered).isZero();
    }

    private static List<String[]> members(Path file) throws IOException {
        List<String[]> out = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it =
                Json.tree(Files.readAllBytes(file)).fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            out.add(new String[] {e.getKey(), e.getValue().toString()});
        }
        return out;
    }

    // ---- fuzzed documents

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1L, 7L, 42L, 1_234_567L, 20_261_202L, 0x5EEDL, 0xC0FFEEL, 987_654_321L})
    void fuzzedDocumentsDecodeAsJacksonDecodesThem(long seed) {
        Random rnd = new Random(seed);
        Tally tally = new Tally();
        for (int i = 0; i < CASES_PER_SEED; i++) {
            Gen gen = new Gen(rnd);
            byte[] bytes = gen.document();
            check("seed " + seed + " case " + i + " " + gen.notes, bytes, gen.subset, tally);
        }
        System.out.printf(
                "ProbeResultReader equivalence, seed %d: %d cases, Jackson accepted %d, reader answered %d,"
                        + " inside the subset and accepted %d%n",
                seed, tally.cases, tally.accepted, tally.answered, tally.subsetAccepted);
        // the fuzzer exercises both sides: valid documents the reader answers, and documents Jackson refuses
        assertThat(tally.answered).isGreaterThan(CASES_PER_SEED / 10);
        assertThat(tally.accepted - tally.answered).isGreaterThan(CASES_PER_SEED / 20);
        assertThat(tally.cases - tally.accepted).isGreaterThan(CASES_PER_SEED / 4);
    }

    // ---- the oracle

    private static final class Tally {
        int cases;
        int accepted;
        int answered;
        int subsetAccepted;
    }

    /** What the issue asks of the reader, for one document (see the class comment). */
    private static void check(String label, byte[] bytes, boolean inSubset, Tally tally) {
        String doc = label + "\n  document: " + printable(bytes);
        Object jackson = outcome(() -> Json.read(bytes, ProbeResult.class));
        ProbeResult fast;
        try {
            fast = ProbeResultReader.readOrNull(bytes);
        } catch (Throwable e) {
            throw new AssertionError(doc + "\n  the reader threw; it must answer or defer", e);
        }
        if (jackson instanceof Failure failure) {
            assertThat(fast)
                    .as("%s\n  Jackson rejects it (%s) but the reader answered", doc, failure)
                    .isNull();
        } else if (fast != null) {
            assertThat(fast)
                    .as("%s\n  the reader's record differs from Jackson's", doc)
                    .isEqualTo(jackson);
        }
        Object withReader = outcome(() -> SERDE.deserialize(TOPIC, bytes));
        Object withoutReader = outcome(() -> MAPPER_ONLY.deserialize(TOPIC, bytes));
        assertThat(withReader)
                .as("%s\n  the serde with the reader differs from the serde without it", doc)
                .isEqualTo(withoutReader);
        if (jackson instanceof Failure) {
            assertThat(withReader).as(doc).isInstanceOfSatisfying(Failure.class, f -> assertThat(f.type())
                    .isEqualTo(JsonSerde.PoisonRecordException.class));
        }
        if (inSubset && jackson instanceof ProbeResult) {
            assertThat(fast)
                    .as("%s\n  inside the reader's subset and accepted by Jackson, but deferred", doc)
                    .isNotNull();
            tally.subsetAccepted++;
        }
        tally.cases++;
        if (!(jackson instanceof Failure)) {
            tally.accepted++;
        }
        if (fast != null) {
            tally.answered++;
        }
    }

    record Failure(Class<?> type, String message, String field) {}

    /** The value ("null" for null), or the failure's class, message and field. */
    private static Object outcome(Supplier<?> read) {
        try {
            Object value = read.get();
            return value == null ? "null" : value;
        } catch (ContractViolation e) {
            return new Failure(e.getClass(), e.getMessage(), e.field());
        } catch (JsonSerde.PoisonRecordException e) {
            return new Failure(e.getClass(), e.getMessage(), e.field());
        } catch (RuntimeException e) {
            return new Failure(e.getClass(), String.valueOf(e.getMessage()), null);
        }
    }

    /** The document for a failure message: UTF-8 with control and non-ASCII bytes shown as {@code <xx>}. */
    private static String printable(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < bytes.length && sb.length() < 3_000; i++) {
            int c = bytes[i] & 0xFF;
            if (c >= 0x20 && c < 0x7F) {
                sb.append((char) c);
            } else {
                sb.append(String.format("<%02x>", c));
            }
        }
        return bytes.length > 3_000 ? sb + "... (" + bytes.length + " bytes)" : sb.toString();
    }

    // ---- the generator

    private static final long W = 1_700_000_040_000L;
    private static final RecordComponent[] COMPONENTS = ProbeResult.class.getRecordComponents();
    private static final String PLAIN;
    /** Controls (the record refuses all but the tab): one special string in six has some. */
    private static final String[] CONTROLS = {"\n", "\r", "\b", "\f", "\u0000", "\u0001", "\u001f"};

    private static final String[] SPECIAL = {
        "\"", "\\", "/", "\t", "\u007f", "\u0080", "\u00a0", "é", "ü", "ß", "✓", "\u2028", "\u2029", "\uFEFF", "\uFFFD",
        "😀", "𝄞", "中文", "'", "<", "&", "?", "#", " ", "\\u0041"
    };
    private static final String[] UNKNOWN_KEYS = {
        "httpVersion",
        "phases",
        "x",
        "",
        "HttpStatus",
        "succeeded",
        "schema_version",
        "monitorid",
        "MonitorId",
        "monitorId ",
        " region",
        "regions",
        "dnsMs2",
        "dnsAnswer",
        "checktype",
        "outcome_",
        "detail\t",
        "é",
        "k:1",
        "{",
        "\"",
        "\\",
        "null"
    };
    private static final String[] TRAILING = {
        "x",
        "}",
        "]",
        ",",
        "{}",
        "[]",
        "null",
        "1",
        "\"a\"",
        "/* c */",
        "// c",
        "\u0000",
        "\f",
        "\u00a0",
        "#",
        ":",
        "{\"a\":1}",
        "tru"
    };
    private static final String[] LEADING = {
        "\uFEFF", "[", "x", "/* c */", "// c\n", "\f", "\u00a0", "\u0000", ",", "{", "\"", "1"
    };

    static {
        StringBuilder sb = new StringBuilder();
        for (char c = 0x20; c < 0x7F; c++) {
            if (c != '"' && c != '\\') {
                sb.append(c);
            }
        }
        PLAIN = sb.toString();
    }

    /**
     * One document's worth of choices. {@link #subset} starts true and is cleared by anything outside the reader's
     * documented subset (escapes, non-ASCII, controls, floats, big numbers, structured unknown values, a repeated
     * known key, any invalid-JSON mutation); {@link #notes} lists what was done, for the failure message.
     */
    private static final class Gen {
        final Random rnd;
        boolean subset = true;
        final List<String> notes = new ArrayList<>();
        /** 0: compact; 1: pretty; 2: random whitespace (space, tab, LF, CR) around every token. */
        final int layout;
        /** 0: never escape a character that needs none; else one in this many is escaped. */
        final int escapeOdds;
        /** One in this many strings is drawn from the special characters as well as printable ASCII. */
        final int specialOdds;
        /** One in this many values is at or past the record's rules (a third of the documents are edge-heavy). */
        final int edgeOdds;

        Gen(Random rnd) {
            this.rnd = rnd;
            this.layout = rnd.nextInt(10) < 5 ? 0 : 1 + rnd.nextInt(2);
            int e = rnd.nextInt(10);
            this.escapeOdds = e < 8 ? 0 : e < 9 ? 12 : 2;
            this.specialOdds = rnd.nextInt(4) == 0 ? 2 : 20;
            this.edgeOdds = rnd.nextInt(3) == 0 ? 12 : 150;
        }

        boolean oneIn(int n) {
            return rnd.nextInt(n) == 0;
        }

        boolean edgy() {
            return oneIn(edgeOdds);
        }

        int pick(int... values) {
            return values[rnd.nextInt(values.length)];
        }

        long pickLong(long... values) {
            return values[rnd.nextInt(values.length)];
        }

        <T> T pick(T[] values) {
            return values[rnd.nextInt(values.length)];
        }

        /** A random document: a record's fields, maybe broken, maybe with extras, laid out at random. */
        byte[] document() {
            if (oneIn(200)) {
                subset = false;
                notes.add("random bytes");
                byte[] bytes = new byte[rnd.nextInt(64)];
                rnd.nextBytes(bytes);
                return bytes;
            }
            if (oneIn(150)) {
                subset = false;
                String root = pick(new String[] {"", " ", "null", "1", "\"x\"", "[]", "true", "{}", " { } ", "[{}]"});
                notes.add("root " + root);
                return root.getBytes(StandardCharsets.UTF_8);
            }
            List<Member> members = new ArrayList<>();
            Object[] values = record();
            // every component written (absent ones as null): the mapper builds the record as soon as it has them all
            boolean all = oneIn(6);
            if (all) {
                notes.add("every component");
            }
            for (int i = 0; i < COMPONENTS.length; i++) {
                String name = COMPONENTS[i].getName();
                if (values[i] == null) {
                    if (all || oneIn(4)) {
                        members.add(new Member(name, str(name), "null"));
                    }
                } else if (oneIn(300)) {
                    notes.add("dropped " + name);
                } else {
                    members.add(new Member(name, str(name), encode(values[i])));
                }
            }
            if (oneIn(3)) {
                int extras = 1 + rnd.nextInt(4);
                for (int k = 0; k < extras; k++) {
                    members.add(rnd.nextInt(members.size() + 1), unknownMember());
                }
            }
            if (oneIn(3)) {
                Collections.shuffle(members, rnd);
                notes.add("shuffled");
            }
            int mutations = rnd.nextInt(10) < 6 ? 0 : 1 + (oneIn(4) ? 1 : 0);
            List<Integer> textFaults = new ArrayList<>();
            for (int m = 0; m < mutations; m++) {
                int kind = rnd.nextInt(14);
                if (kind < 7) {
                    mutateMembers(members, kind);
                } else {
                    textFaults.add(kind);
                }
            }
            String text = emit(members, textFaults.contains(7) ? rnd.nextInt(members.size() + 1) : -1);
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            for (int fault : textFaults) {
                bytes = mutateBytes(bytes, fault);
            }
            return bytes;
        }

        /** Field values, mostly consistent with the record's rules, sometimes at or past their edges. */
        Object[] record() {
            Object[] v = new Object[COMPONENTS.length];
            v[0] = edgy()
                    ? pick(0, -1, Integer.MIN_VALUE)
                    : pick(1, 1, 1, 2, 3, Integer.MAX_VALUE, 1 + rnd.nextInt(1_000));
            v[1] = slug();
            v[2] = oneIn(8) ? "push" : slug();
            v[3] = text(1, 128);
            long window = pickLong(
                    0,
                    1,
                    W,
                    W + rnd.nextInt(1 << 30),
                    Long.MAX_VALUE - 100_000,
                    Long.MAX_VALUE,
                    rnd.nextLong() & Long.MAX_VALUE);
            long started = window > Long.MAX_VALUE - 100_000 ? Long.MAX_VALUE : window + pick(0, 1, 120, 59_999);
            v[4] = edgy() ? pickLong(-1, Long.MIN_VALUE) : window;
            v[5] = edgy() ? window - 1 : started;
            CheckType checkType = oneIn(2) ? null : pick(CheckType.values());
            Outcome outcome = edgy() ? null : pick(Outcome.values());
            boolean http = checkType == null || checkType == CheckType.HTTP;
            if (!http && outcome == Outcome.HTTP_FAILURE && !oneIn(10)) {
                outcome = Outcome.ASSERTION_FAILURE;
            }
            v[6] = outcome;
            v[7] = outcome == Outcome.SUCCESS
                    ? (edgy() ? pick(ErrorKind.values()) : null)
                    : outcome == Outcome.NETWORK_FAILURE
                            ? (edgy() ? null : pick(ErrorKind.values()))
                            : oneIn(2) ? null : pick(ErrorKind.values());
            boolean statusRequired = http && (outcome == Outcome.SUCCESS || outcome == Outcome.HTTP_FAILURE);
            v[8] = edgy()
                    ? (Object) pick(99, 600, 0, -1, Integer.MAX_VALUE, Integer.MIN_VALUE)
                    : statusRequired || oneIn(4)
                            ? pick(100, 200, 204, 301, 404, 503, 599, 100 + rnd.nextInt(500))
                            : null;
            v[9] = duration();
            v[10] = duration();
            v[11] = oneIn(2)
                    ? null
                    : edgy()
                            ? pickLong(-1, Long.MIN_VALUE)
                            : pickLong(
                                    0,
                                    1,
                                    4_096,
                                    Integer.MAX_VALUE + 1L,
                                    Long.MAX_VALUE,
                                    rnd.nextLong() & Long.MAX_VALUE);
            v[12] = oneIn(2) ? null : edgy() ? pick(-1, 11, Integer.MAX_VALUE) : rnd.nextInt(11);
            v[13] = oneIn(2) ? null : url();
            v[14] = oneIn(2)
                    ? null
                    : edgy()
                            ? pick(-36_501, 36_501, Integer.MIN_VALUE, Integer.MAX_VALUE)
                            : pick(-36_500, 36_500, 0, -1, 87, rnd.nextInt(73_001) - 36_500);
            v[15] = duration();
            v[16] = duration();
            v[17] = duration();
            v[18] = oneIn(2) ? null : text(0, 300);
            v[19] = text(1, 64);
            v[20] = checkType;
            v[21] = oneIn(2) ? null : answers();
            v[22] = outcome == Outcome.SKIPPED
                    ? (edgy() ? null : pick(SkipReason.values()))
                    : edgy() ? pick(SkipReason.values()) : null;
            if (outcome == Outcome.SKIPPED && !edgy()) {
                v[7] = null;
                v[8] = null;
            }
            return v;
        }

        Integer duration() {
            return oneIn(2)
                    ? null
                    : edgy()
                            ? pick(-1, Integer.MIN_VALUE)
                            : pick(0, 1, 42, 2_500, Integer.MAX_VALUE, rnd.nextInt(Integer.MAX_VALUE));
        }

        /** A slug, its longest, or (rarely) one past the rule. */
        String slug() {
            if (edgy()) {
                return pick(new String[] {"", "-a", "A", "a_b", "a".repeat(64), "é", "a b", "checkout-API"});
            }
            int length = oneIn(10) ? 63 : 1 + rnd.nextInt(20);
            String chars = "abcdefghijklmnopqrstuvwxyz0123456789-";
            StringBuilder sb = new StringBuilder();
            sb.append(chars.charAt(rnd.nextInt(36)));
            while (sb.length() < length) {
                sb.append(chars.charAt(rnd.nextInt(chars.length())));
            }
            return sb.toString();
        }

        /** Text of {@code min..max} characters, sometimes at or past {@code max}, blank, or with special characters. */
        String text(int min, int max) {
            int length =
                    switch (rnd.nextInt(20)) {
                        case 0 -> max;
                        case 1 -> edgy() ? max + 1 : max;
                        case 2 -> min;
                        case 3, 4 -> min + rnd.nextInt(max - min + 1);
                        default -> Math.max(min, 1 + rnd.nextInt(Math.min(max, 24)));
                    };
            if (edgy()) {
                return " ".repeat(length);
            }
            boolean special = oneIn(specialOdds);
            boolean controls = special && oneIn(6);
            StringBuilder sb = new StringBuilder();
            while (sb.length() < length) {
                if (special && oneIn(4)) {
                    sb.append(controls && oneIn(4) ? pick(CONTROLS) : pick(SPECIAL));
                } else {
                    sb.append(PLAIN.charAt(rnd.nextInt(PLAIN.length())));
                }
            }
            return sb.toString();
        }

        String url() {
            if (edgy()) {
                return "https://a.example/" + "p".repeat(2_049 - 18);
            }
            String url = "https://" + slug() + ".example/"
                    + text(0, 40).replace("?", "").replace("#", "");
            return edgy() ? url + pick(new String[] {"?q=1", "#top", "?", "#"}) : url;
        }

        List<String> answers() {
            int size = edgy() ? 17 : oneIn(5) ? 16 : rnd.nextInt(4);
            List<String> out = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                out.add(edgy() ? pick(new String[] {"", " ", null}) : text(1, 255));
            }
            return out;
        }

        /** The JSON for a field value; strings and enum names through {@link #str}, numbers maybe as -0. */
        String encode(Object value) {
            if (value == null) {
                return "null";
            }
            if (value instanceof Integer || value instanceof Long) {
                long v = ((Number) value).longValue();
                return v == 0 && oneIn(4) ? "-0" : Long.toString(v);
            }
            if (value instanceof WireEnum e) {
                return str(e.wire());
            }
            if (value instanceof String s) {
                return str(s);
            }
            List<?> list = (List<?>) value;
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < list.size(); i++) {
                sb.append(i > 0 ? ws() + "," : "").append(ws()).append(encode(list.get(i)));
            }
            return sb.append(ws()).append(']').toString();
        }

        /** A JSON string for {@code s}, escaping what must be escaped and, at {@link #escapeOdds}, what need not be. */
        String str(String s) {
            if (s.length() > ProbeResultReader.MAX_STRING) {
                subset = false;
            }
            StringBuilder sb = new StringBuilder("\"");
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                boolean escape = escapeOdds > 0 && oneIn(escapeOdds);
                if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    subset = false;
                    char low = s.charAt(++i);
                    sb.append(escape ? u(c) + u(low) : "" + c + low);
                } else if (Character.isSurrogate(c)) {
                    subset = false;
                    sb.append(u(c));
                } else if (c == '"' || c == '\\') {
                    subset = false;
                    sb.append(escape ? u(c) : "\\" + c);
                } else if (c < 0x20) {
                    subset = false;
                    String named =
                            switch (c) {
                                case '\b' -> "\\b";
                                case '\f' -> "\\f";
                                case '\n' -> "\\n";
                                case '\r' -> "\\r";
                                case '\t' -> "\\t";
                                default -> u(c);
                            };
                    sb.append(escape ? u(c) : named);
                } else if (c < 0x7F) {
                    if (escape) {
                        subset = false;
                        sb.append(c == '/' && rnd.nextBoolean() ? "\\/" : u(c));
                    } else {
                        sb.append(c);
                    }
                } else {
                    subset = false;
                    sb.append(escape ? u(c) : String.valueOf(c));
                }
            }
            return sb.append('"').toString();
        }

        String u(char c) {
            String hex = String.format("%04x", (int) c);
            return "\\u" + (rnd.nextBoolean() ? hex : hex.toUpperCase(java.util.Locale.ROOT));
        }

        String ws() {
            return switch (layout) {
                case 0 -> "";
                case 1 -> oneIn(2) ? " " : "";
                default -> {
                    StringBuilder sb = new StringBuilder();
                    for (int n = rnd.nextInt(4); n > 0; n--) {
                        sb.append(" \t\n\r".charAt(rnd.nextInt(4)));
                    }
                    yield sb.toString();
                }
            };
        }

        /** A field the record does not have, with a scalar the reader skips or a value it defers. */
        Member unknownMember() {
            String name = oneIn(4) ? text(0, 12) : pick(UNKNOWN_KEYS);
            if (oneIn(100)) {
                name = "k".repeat(ProbeResultReader.MAX_KEY + 1);
                subset = false;
            }
            for (RecordComponent c : COMPONENTS) {
                if (c.getName().equals(name)) {
                    name = name + "_";
                }
            }
            notes.add("unknown " + name);
            return new Member(null, str(name), unknownValue(0));
        }

        String unknownValue(int depth) {
            return switch (rnd.nextInt(depth > 0 ? 12 : 16)) {
                case 0 -> str(text(0, 20));
                case 1 -> Long.toString(pickLong(0, -1, Long.MAX_VALUE, Long.MIN_VALUE, rnd.nextLong()));
                case 2 -> "-0";
                case 3 -> pick(new String[] {"true", "false", "null"});
                case 4 -> {
                    subset = false;
                    yield pick(new String[] {"1.5", "-0.0", "1e3", "1E-7", "1e400", "-1.0E+2", "0.1", "2.5e-400"});
                }
                case 5 -> {
                    subset = false;
                    StringBuilder digits = new StringBuilder(oneIn(2) ? "-" : "").append(1 + rnd.nextInt(9));
                    for (int n = 19 + rnd.nextInt(45); n > 0; n--) {
                        digits.append(rnd.nextInt(10));
                    }
                    yield digits.toString();
                }
                case 6 -> {
                    subset = false;
                    yield oneIn(2) ? "9223372036854775808" : "-9223372036854775809";
                }
                case 7, 8 -> {
                    subset = false;
                    StringBuilder sb = new StringBuilder("[");
                    for (int n = rnd.nextInt(4); n > 0; n--) {
                        sb.append(sb.length() > 1 ? "," : "").append(ws()).append(unknownValue(depth + 1));
                    }
                    yield sb.append(ws()).append(']').toString();
                }
                case 9, 10 -> {
                    subset = false;
                    StringBuilder sb = new StringBuilder("{");
                    for (int n = rnd.nextInt(4); n > 0; n--) {
                        sb.append(sb.length() > 1 ? "," : "")
                                .append(ws())
                                .append(str(pick(UNKNOWN_KEYS)))
                                .append(ws())
                                .append(':')
                                .append(ws())
                                .append(unknownValue(depth + 1));
                    }
                    yield sb.append(ws()).append('}').toString();
                }
                case 11 -> depth == 0 && oneIn(10)
                        ? str("z".repeat(ProbeResultReader.MAX_STRING + 1))
                        : str(text(0, 60));
                default -> {
                    // a known field's value under an unknown key (an array there is outside the subset)
                    Object value = record()[rnd.nextInt(COMPONENTS.length)];
                    if (value instanceof List) {
                        subset = false;
                    }
                    yield encode(value);
                }
            };
        }

        /** A member-level fault: missing, repeated, wrongly typed, re-keyed, or (kind 6) a repeated unknown field. */
        void mutateMembers(List<Member> members, int kind) {
            List<Integer> known = new ArrayList<>();
            for (int i = 0; i < members.size(); i++) {
                if (members.get(i).component() != null) {
                    known.add(i);
                }
            }
            if (known.isEmpty()) {
                return;
            }
            int at = known.get(rnd.nextInt(known.size()));
            Member m = members.get(at);
            switch (kind) {
                case 0 -> {
                    subset = false;
                    notes.add("removed " + m.component());
                    members.remove(at);
                }
                case 1, 2 -> {
                    subset = false;
                    Object[] other = record();
                    String value =
                            switch (rnd.nextInt(3)) {
                                case 0 -> m.value();
                                case 1 -> encode(other[indexOf(m.component())]);
                                default -> wrongValue(m.component());
                            };
                    notes.add("repeated " + m.component() + " as " + value);
                    members.add(rnd.nextInt(members.size() + 1), new Member(m.component(), m.key(), value));
                }
                case 3, 4 -> {
                    subset = false;
                    String value = wrongValue(m.component());
                    notes.add(m.component() + " as " + value);
                    members.set(at, new Member(m.component(), m.key(), value));
                }
                case 5 -> {
                    subset = false;
                    String key =
                            switch (rnd.nextInt(4)) {
                                case 0 -> {
                                    StringBuilder sb = new StringBuilder("\"");
                                    for (char c : m.component().toCharArray()) {
                                        sb.append(oneIn(2) ? u(c) : String.valueOf(c));
                                    }
                                    yield sb.append('"').toString();
                                }
                                case 1 -> "\"" + m.component().toUpperCase(java.util.Locale.ROOT) + "\"";
                                case 2 -> "'" + m.component() + "'";
                                default -> m.component();
                            };
                    notes.add("re-keyed " + m.component() + " as " + key);
                    members.set(at, new Member(m.component(), key, m.value()));
                }
                default -> {
                    Member extra = unknownMember();
                    notes.add("repeated unknown");
                    members.add(rnd.nextInt(members.size() + 1), extra);
                    members.add(rnd.nextInt(members.size() + 1), extra);
                }
            }
        }

        /** A value Jackson must refuse for this component (or, for a few, read differently than the original). */
        String wrongValue(String component) {
            Class<?> type = COMPONENTS[indexOf(component)].getType();
            String[] candidates;
            if (type == Integer.class) {
                candidates = new String[] {
                    "\"12\"",
                    "12.0",
                    "1e2",
                    "1.5",
                    "true",
                    "false",
                    "{}",
                    "[1]",
                    "[]",
                    "01",
                    "+1",
                    "-",
                    "0x1",
                    "NaN",
                    "Infinity",
                    "-Infinity",
                    "2147483648",
                    "-2147483649",
                    "99999999999999999999",
                    "1 2",
                    "--1",
                    "-01",
                    ".5",
                    "1.",
                    "\"\"",
                    "[null]",
                    "nul"
                };
            } else if (type == Long.class) {
                candidates = new String[] {
                    "\"1700000040000\"",
                    "1.7e12",
                    "1700000040000.0",
                    "true",
                    "{}",
                    "[1]",
                    "9223372036854775808",
                    "-9223372036854775809",
                    "99999999999999999999",
                    "00",
                    "+0",
                    "-",
                    "NaN",
                    "1_000",
                    "0.0"
                };
            } else if (type == String.class) {
                candidates = new String[] {
                    "12",
                    "-1",
                    "1.5",
                    "true",
                    "false",
                    "{}",
                    "[]",
                    "[\"a\"]",
                    "{\"a\":1}",
                    "'a'",
                    "a",
                    "\"a",
                    "\"a\"\"b\"",
                    "\"a\" \"b\"",
                    "nul",
                    "nulls"
                };
            } else if (type == List.class) {
                candidates = new String[] {
                    "\"a\"",
                    "1",
                    "true",
                    "{}",
                    "[1]",
                    "[null]",
                    "[\"a\",null]",
                    "[[\"a\"]]",
                    "[\"a\",]",
                    "[,]",
                    "[\"a\" \"b\"]",
                    "[\"a\"",
                    "[true]",
                    "[\"a\"]]",
                    "[{}]",
                    "[1.5]"
                };
            } else {
                candidates = new String[] {
                    "\"SUCCESS\"",
                    "\"Success\"",
                    "\"success \"",
                    "\" dns\"",
                    "\"\"",
                    "1",
                    "true",
                    "{}",
                    "[]",
                    "[\"success\"]",
                    "\"http_failure\"",
                    "\"connect_refused\"",
                    "\"tcp\"",
                    "\"unknown\"",
                    "\"succ\\u0065ss\""
                };
            }
            return pick(candidates);
        }

        /** The document text; {@code fault} (a member index, or -1) breaks the punctuation around one member. */
        String emit(List<Member> members, int fault) {
            StringBuilder sb = new StringBuilder(ws()).append('{');
            int kind = fault >= 0 ? rnd.nextInt(7) : -1;
            if (fault >= 0) {
                subset = false;
                notes.add("punctuation fault " + kind + " at member " + fault);
            }
            for (int i = 0; i < members.size(); i++) {
                Member m = members.get(i);
                boolean here = i == fault;
                if (i > 0 && !(here && kind == 0)) {
                    sb.append(ws()).append(here && kind == 1 ? ",," : ",");
                }
                sb.append(ws()).append(m.key()).append(ws());
                if (!(here && kind == 2)) {
                    sb.append(here && kind == 3 ? "::" : here && kind == 4 ? "=" : ":");
                }
                sb.append(ws()).append(m.value());
            }
            if (fault == members.size() || kind == 5) {
                sb.append(',');
            }
            if (kind == 6) {
                sb.append(ws()).append(pick(new String[] {"\f", "\u000b", "\u00a0", "\u0000", "\u2028"}));
            }
            return sb.append(ws()).append('}').append(layout == 1 ? "\n" : ws()).toString();
        }

        /** A byte-level fault (kinds 8..13; 7 was the punctuation fault, applied while emitting). */
        byte[] mutateBytes(byte[] bytes, int kind) {
            if (kind == 7) {
                return bytes;
            }
            subset = false;
            switch (kind) {
                case 8 -> {
                    int length = rnd.nextInt(Math.max(1, bytes.length));
                    notes.add("truncated to " + length);
                    return Arrays.copyOf(bytes, length);
                }
                case 9 -> {
                    String garbage = pick(TRAILING);
                    notes.add("trailing " + garbage);
                    return concat(bytes, (ws() + garbage).getBytes(StandardCharsets.UTF_8));
                }
                case 10 -> {
                    String garbage = pick(LEADING);
                    notes.add("leading " + garbage);
                    return concat(garbage.getBytes(StandardCharsets.UTF_8), bytes);
                }
                case 11 -> {
                    int at = rnd.nextInt(bytes.length);
                    notes.add("bit flipped at " + at);
                    byte[] out = bytes.clone();
                    out[at] ^= (byte) (1 << rnd.nextInt(8));
                    return out;
                }
                case 12 -> {
                    byte[][] bad = {
                        {0x01},
                        {0x09},
                        {0x0A},
                        {0x1F},
                        {0x7F},
                        {(byte) 0x80},
                        {(byte) 0xC3},
                        {(byte) 0xFF},
                        {(byte) 0xC0, (byte) 0xAF},
                        {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                        {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
                        {(byte) 0xE2, (byte) 0x82}
                    };
                    byte[] insert = bad[rnd.nextInt(bad.length)];
                    List<Integer> quotes = new ArrayList<>();
                    for (int i = 0; i < bytes.length; i++) {
                        if (bytes[i] == '"') {
                            quotes.add(i);
                        }
                    }
                    int at = quotes.isEmpty() ? 0 : quotes.get(rnd.nextInt(quotes.size())) + 1;
                    notes.add("bytes " + Arrays.toString(insert) + " inserted at " + at);
                    byte[] out = new byte[bytes.length + insert.length];
                    System.arraycopy(bytes, 0, out, 0, at);
                    System.arraycopy(insert, 0, out, at, insert.length);
                    System.arraycopy(bytes, at, out, at + insert.length, bytes.length - at);
                    return out;
                }
                default -> {
                    String text = new String(bytes, StandardCharsets.UTF_8);
                    String wrapped =
                            switch (rnd.nextInt(4)) {
                                case 0 -> "[" + text + "]";
                                case 1 -> "{\"wrapped\":" + text + "}";
                                case 2 -> text + text;
                                default -> text + ws() + "," + ws() + text;
                            };
                    notes.add("wrapped");
                    return wrapped.getBytes(StandardCharsets.UTF_8);
                }
            }
        }

        /** A valid golden example re-encoded (its fields stay what they are; only the encoding changes). */
        byte[] reEncode(JsonNode tree) {
            List<Member> members = new ArrayList<>();
            List<String> present = new ArrayList<>();
            Iterator<Map.Entry<String, JsonNode>> it = tree.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                boolean known = indexOf(e.getKey()) >= 0;
                present.add(e.getKey());
                members.add(new Member(known ? e.getKey() : null, str(e.getKey()), node(e.getValue(), known)));
            }
            for (RecordComponent c : COMPONENTS) {
                if (!present.contains(c.getName()) && oneIn(3)) {
                    members.add(new Member(c.getName(), str(c.getName()), "null"));
                }
            }
            if (oneIn(2)) {
                for (int n = 1 + rnd.nextInt(3); n > 0; n--) {
                    members.add(rnd.nextInt(members.size() + 1), unknownMember());
                }
            }
            if (oneIn(2)) {
                Collections.shuffle(members, rnd);
            }
            return emit(members, -1).getBytes(StandardCharsets.UTF_8);
        }

        String node(JsonNode node, boolean known) {
            if (node.isTextual()) {
                return str(node.textValue());
            }
            if (node.isArray()) {
                if (!known) {
                    subset = false;
                }
                StringBuilder sb = new StringBuilder("[");
                for (int i = 0; i < node.size(); i++) {
                    sb.append(i > 0 ? "," : "").append(ws()).append(node(node.get(i), known));
                }
                return sb.append(ws()).append(']').toString();
            }
            if (node.isObject()) {
                subset = false;
                StringBuilder sb = new StringBuilder("{");
                Iterator<Map.Entry<String, JsonNode>> it = node.fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    sb.append(sb.length() > 1 ? "," : "")
                            .append(ws())
                            .append(str(e.getKey()))
                            .append(ws())
                            .append(':')
                            .append(ws())
                            .append(node(e.getValue(), false));
                }
                return sb.append(ws()).append('}').toString();
            }
            return node.toString();
        }
    }

    /** One member as written: the record component it sets (null: unknown), its key and value as JSON text. */
    private record Member(String component, String key, String value) {}

    private static int indexOf(String component) {
        for (int i = 0; i < COMPONENTS.length; i++) {
            if (COMPONENTS[i].getName().equals(component)) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static List<Path> golden(String kind, String type) {
        try (Stream<Path> files = Files.list(GOLDEN.resolve(kind).resolve(type))) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path goldenRoot() {
        try {
            var url = ProbeResultReaderEquivalenceTest.class.getClassLoader().getResource("golden");
            assertThat(url).as("golden/ on the test classpath").isNotNull();
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
