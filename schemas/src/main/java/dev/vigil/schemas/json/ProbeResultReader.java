package dev.vigil.schemas.json;

import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.SkipReason;
import dev.vigil.schemas.contract.WireEnum;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A byte-level decoder for the common shape of {@link ProbeResult}, because the verdict topology spends a noticeable
 * share of its stream thread decoding every probe result it reads, and even Jackson's tokenizer costs more than the
 * whole of this scan.
 *
 * <p>The contract is <em>fast path with fallback</em>: {@link #readOrNull(byte[])} returns either exactly the record
 * {@code Json.read(bytes, ProbeResult.class)} would return, or {@code null} meaning "not sure: use the mapper". It
 * answers only for a strict subset of JSON whose binding by the {@link Json} mapper is obvious:
 * <ul>
 *   <li>the bytes are one flat object, with whitespace (space, tab, LF, CR only) around tokens and nothing but
 *       whitespace after it (no BOM, no comments: the mapper fails on trailing tokens and allows no comments);</li>
 *   <li>every key and every string value is printable ASCII (0x20..0x7E) without a backslash, so the UTF-8 text is
 *       its own ISO-8859-1 decoding and no escape is ever decoded; keys are at most {@value #MAX_KEY} bytes and
 *       strings at most {@value #MAX_STRING} (the mapper's limit is 1 MiB);</li>
 *   <li>every number is an integer {@code -?(0|[1-9][0-9]*)} (no fraction, exponent, plus sign or leading zero) that
 *       fits a long, and an int for Integer components (the mapper fails on out-of-range ints; it never coerces
 *       floats, text or booleans into numbers, nor numbers into text);</li>
 *   <li>a known component holds a value of its own type or {@code null} (every component is boxed, so the mapper
 *       passes null, as for an absent field); {@link Outcome}/{@link ErrorKind}/{@link CheckType} a string that is
 *       one of their wire names (the lookup table is built through their own {@code fromWire}, which refuses anything
 *       else); {@code dnsAnswers} an array of strings as above (a {@code null} or any other element is deferred;
 *       the mapper binds the array to a list of those strings, which the constructor copies);</li>
 *   <li>an unknown field (the mapper ignores it, possibly after buffering it) holds a scalar: a string or number as
 *       above, {@code true}, {@code false} or {@code null}; an object or array there is deferred;</li>
 *   <li>no known component appears twice (the mapper keeps the last value);</li>
 *   <li>the canonical constructor accepts the values (otherwise the mapper reports the violation with its field
 *       path and message, byte for byte).</li>
 * </ul>
 * Everything else is left to the mapper. Never throws.
 *
 * <p>Why it exists: the verdict topology decodes every probe result it reads, and this costs a fraction of the mapper.
 */
public final class ProbeResultReader {
    /** Far below Jackson's default name-length limit (50,000), far above any real key. */
    static final int MAX_KEY = 256;
    /**
     * Well under the mapper's {@code maxStringLength} (1 MiB), so no answer depends on where exactly the parser
     * enforces it; the longest component allows 2,048 characters. Strings here are ASCII, so bytes = chars.
     */
    static final int MAX_STRING = 1 << 16;

    private static final int INT = 0;
    private static final int LONG = 1;
    private static final int TEXT = 2;
    private static final int OUTCOME = 3;
    private static final int ERROR_KIND = 4;
    private static final int CHECK_TYPE = 5;
    private static final int TEXT_LIST = 6;
    private static final int SKIP_REASON = 7;

    /** The record's components in declaration order, with their kinds. */
    private static final String[] NAMES = {
        "schemaVersion", "monitorId", "region", "workerId", "windowStart", "startedAt", "outcome", "errorKind",
        "httpStatus", "responseMs", "totalMs", "bytesRead", "redirects", "finalUrl", "tlsDaysLeft", "dnsMs",
        "connectMs", "tlsMs", "detail", "requestId", "checkType", "dnsAnswers", "skipReason"
    };

    private static final int[] KINDS = {
        INT, TEXT, TEXT, TEXT, LONG, LONG, OUTCOME, ERROR_KIND,
        INT, INT, INT, LONG, INT, TEXT, INT, INT,
        INT, INT, TEXT, TEXT, CHECK_TYPE, TEXT_LIST, SKIP_REASON
    };
    private static final byte[][] NAME_BYTES = ascii(NAMES);

    /** Each name and its closing quote as two little-endian words with masks, for the sixteen-byte key match. */
    private static final long[] KEY_LO = new long[NAMES.length];

    private static final long[] KEY_LO_MASK = new long[NAMES.length];
    private static final long[] KEY_HI = new long[NAMES.length];
    private static final long[] KEY_HI_MASK = new long[NAMES.length];

    static {
        // A component added to ProbeResult but not here would be skipped as an unknown field and silently lost
        // (checkType, dnsAnswers): refuse to load instead.
        if (NAMES.length != ProbeResult.class.getRecordComponents().length || NAMES.length > Integer.SIZE) {
            throw new IllegalStateException("the reader's components are not ProbeResult's");
        }
        for (int i = 0; i < NAMES.length; i++) {
            if (!NAMES[i].equals(ProbeResult.class.getRecordComponents()[i].getName())) {
                throw new IllegalStateException(
                        "component " + i + " is " + ProbeResult.class.getRecordComponents()[i]);
            }
            byte[] quoted = (NAMES[i] + '"').getBytes(StandardCharsets.US_ASCII);
            if (quoted.length > 2 * Long.BYTES) {
                throw new IllegalStateException("component name too long for the key match: " + NAMES[i]);
            }
            for (int j = 0; j < quoted.length; j++) {
                long value = (quoted[j] & 0xFFL) << (8 * (j % Long.BYTES));
                long mask = 0xFFL << (8 * (j % Long.BYTES));
                if (j < Long.BYTES) {
                    KEY_LO[i] |= value;
                    KEY_LO_MASK[i] |= mask;
                } else {
                    KEY_HI[i] |= value;
                    KEY_HI_MASK[i] |= mask;
                }
            }
        }
    }

    private static final Outcome[] OUTCOMES = Outcome.values();
    private static final byte[][] OUTCOME_WIRES = wires(OUTCOMES, Outcome::fromWire);
    private static final ErrorKind[] ERROR_KINDS = ErrorKind.values();
    private static final byte[][] ERROR_KIND_WIRES = wires(ERROR_KINDS, ErrorKind::fromWire);
    private static final CheckType[] CHECK_TYPES = CheckType.values();
    private static final byte[][] CHECK_TYPE_WIRES = wires(CHECK_TYPES, CheckType::fromWire);
    private static final SkipReason[] SKIP_REASONS = SkipReason.values();
    private static final byte[][] SKIP_REASON_WIRES = wires(SKIP_REASONS, SkipReason::fromWire);

    private static final byte PLAIN = 0;
    private static final byte QUOTE = 1;
    private static final byte REFUSED = 2;
    /** Each byte inside a string: printable ASCII but the backslash is plain, a quote ends it, the rest defers. */
    private static final byte[] STRING_BYTE = new byte[256];

    static {
        for (int c = 0; c < 256; c++) {
            STRING_BYTE[c] = c >= 0x20 && c <= 0x7E && c != '\\' ? PLAIN : REFUSED;
        }
        STRING_BYTE['"'] = QUOTE;
    }

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    private ProbeResultReader() {}

    /** The decoded record, or null when the mapper must decide (see the class comment); never throws. */
    public static ProbeResult readOrNull(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return read(bytes);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * One pass over one document. The position lives in a local and every helper takes and returns it, because a
     * position kept in a field made each token wait on a store and a reload. {@link NotSure} (or an
     * {@link ArithmeticException} from an overflowing number) leaves the document to the mapper.
     */
    private static ProbeResult read(byte[] b) {
        int n = b.length;
        int p = skipWhitespace(b, 0);
        if (p >= n || b[p] != '{') {
            throw NotSure.INSTANCE;
        }
        p = skipWhitespace(b, p + 1);
        Object[] values = new Object[NAMES.length];
        if (p < n && b[p] == '}') {
            p++;
        } else {
            int seen = 0;
            int hint = 0;
            while (true) {
                long keyAndEnd = key(b, p, hint);
                int field = (int) (keyAndEnd >> 32);
                p = skipWhitespace(b, (int) keyAndEnd);
                if (p >= n || b[p] != ':') {
                    throw NotSure.INSTANCE;
                }
                p = skipWhitespace(b, p + 1);
                if (p >= n) {
                    throw NotSure.INSTANCE;
                }
                if (field < 0) {
                    p = skipScalar(b, p);
                } else {
                    int bit = 1 << field;
                    if ((seen & bit) != 0) {
                        throw NotSure.INSTANCE;
                    }
                    seen |= bit;
                    hint = field + 1;
                    if (b[p] == 'n') {
                        p = literal(b, p, NULL);
                    } else {
                        int end;
                        switch (KINDS[field]) {
                            case INT -> {
                                end = integerEnd(b, p);
                                long v = integerValue(b, p, end);
                                if ((int) v != v) {
                                    throw NotSure.INSTANCE;
                                }
                                values[field] = (int) v;
                            }
                            case LONG -> {
                                end = integerEnd(b, p);
                                values[field] = integerValue(b, p, end);
                            }
                            case TEXT -> {
                                end = stringEnd(b, p);
                                values[field] = new String(b, p + 1, end - p - 2, StandardCharsets.ISO_8859_1);
                            }
                            case OUTCOME -> {
                                end = stringEnd(b, p);
                                values[field] = OUTCOMES[wire(b, p + 1, end - 1, OUTCOME_WIRES)];
                            }
                            case ERROR_KIND -> {
                                end = stringEnd(b, p);
                                values[field] = ERROR_KINDS[wire(b, p + 1, end - 1, ERROR_KIND_WIRES)];
                            }
                            case CHECK_TYPE -> {
                                end = stringEnd(b, p);
                                values[field] = CHECK_TYPES[wire(b, p + 1, end - 1, CHECK_TYPE_WIRES)];
                            }
                            case SKIP_REASON -> {
                                end = stringEnd(b, p);
                                values[field] = SKIP_REASONS[wire(b, p + 1, end - 1, SKIP_REASON_WIRES)];
                            }
                            default -> {
                                List<String> list = new ArrayList<>();
                                end = stringList(b, p, list);
                                values[field] = list;
                            }
                        }
                        p = end;
                    }
                }
                p = skipWhitespace(b, p);
                if (p >= n) {
                    throw NotSure.INSTANCE;
                }
                byte c = b[p++];
                if (c == '}') {
                    break;
                }
                if (c != ',') {
                    throw NotSure.INSTANCE;
                }
                p = skipWhitespace(b, p);
            }
        }
        if (skipWhitespace(b, p) != n) {
            throw NotSure.INSTANCE;
        }
        return build(values);
    }

    @SuppressWarnings("unchecked")
    private static ProbeResult build(Object[] v) {
        return new ProbeResult(
                (Integer) v[0],
                (String) v[1],
                (String) v[2],
                (String) v[3],
                (Long) v[4],
                (Long) v[5],
                (Outcome) v[6],
                (ErrorKind) v[7],
                (Integer) v[8],
                (Integer) v[9],
                (Integer) v[10],
                (Long) v[11],
                (Integer) v[12],
                (String) v[13],
                (Integer) v[14],
                (Integer) v[15],
                (Integer) v[16],
                (Integer) v[17],
                (String) v[18],
                (String) v[19],
                (CheckType) v[20],
                (List<String>) v[21],
                (SkipReason) v[22]);
    }

    /**
     * Past an array of strings (as {@link #stringEnd} accepts them) whose opening bracket is at {@code p}, adding
     * them to {@code out}: {@code [} and {@code ]} around strings separated by commas, whitespace between tokens.
     * Any other element ({@code null}, a number, a nested array) is deferred.
     */
    private static int stringList(byte[] b, int p, List<String> out) {
        int n = b.length;
        if (b[p] != '[') {
            throw NotSure.INSTANCE;
        }
        p = skipWhitespace(b, p + 1);
        if (p < n && b[p] == ']') {
            return p + 1;
        }
        while (true) {
            int end = stringEnd(b, p);
            out.add(new String(b, p + 1, end - p - 2, StandardCharsets.ISO_8859_1));
            p = skipWhitespace(b, end);
            if (p >= n) {
                throw NotSure.INSTANCE;
            }
            byte c = b[p++];
            if (c == ']') {
                return p;
            }
            if (c != ',') {
                throw NotSure.INSTANCE;
            }
            p = skipWhitespace(b, p);
        }
    }

    /**
     * The key whose opening quote is at {@code p}: returns {@code (component index or -1) << 32 | position after
     * the closing quote}. A component name followed by the closing quote is that key (names are plain ASCII without
     * quotes), so known keys are matched in place, sixteen bytes at a time when the buffer allows; writers emit the
     * components in declaration order skipping nulls, so the search starts at {@code hint}.
     */
    private static long key(byte[] b, int p, int hint) {
        if (p >= b.length || b[p] != '"') {
            throw NotSure.INSTANCE;
        }
        int start = p + 1;
        int count = NAME_BYTES.length;
        if (start + 2 * Long.BYTES <= b.length) {
            long w0 = (long) LONGS.get(b, start);
            long w1 = (long) LONGS.get(b, start + Long.BYTES);
            for (int k = 0; k < count; k++) {
                int i = hint + k < count ? hint + k : hint + k - count;
                if (((w0 ^ KEY_LO[i]) & KEY_LO_MASK[i]) == 0 && ((w1 ^ KEY_HI[i]) & KEY_HI_MASK[i]) == 0) {
                    return (long) i << 32 | (start + NAME_BYTES[i].length + 1);
                }
            }
        } else {
            for (int k = 0; k < count; k++) {
                int i = hint + k < count ? hint + k : hint + k - count;
                byte[] name = NAME_BYTES[i];
                int close = start + name.length;
                if (close < b.length && b[close] == '"' && matches(b, start, name)) {
                    return (long) i << 32 | (close + 1);
                }
            }
        }
        int end = stringEnd(b, p);
        if (end - 1 - start > MAX_KEY) {
            throw NotSure.INSTANCE;
        }
        return -1L << 32 | end;
    }

    /** Whether {@code name} occurs at {@code start} (the caller checked the bounds). */
    private static boolean matches(byte[] b, int start, byte[] name) {
        for (int i = 0; i < name.length; i++) {
            if (b[start + i] != name[i]) {
                return false;
            }
        }
        return true;
    }

    /** The index of the wire name equal to {@code b[start..stop)}; fromWire refuses any other, so defer. */
    private static int wire(byte[] b, int start, int stop, byte[][] wires) {
        for (int i = 0; i < wires.length; i++) {
            if (wires[i].length == stop - start && matches(b, start, wires[i])) {
                return i;
            }
        }
        throw NotSure.INSTANCE;
    }

    /** Past an unknown field's value: a scalar of the accepted subset. */
    private static int skipScalar(byte[] b, int p) {
        return switch (b[p]) {
            case '"' -> stringEnd(b, p);
            case 't' -> literal(b, p, TRUE);
            case 'f' -> literal(b, p, FALSE);
            case 'n' -> literal(b, p, NULL);
            default -> {
                int end = integerEnd(b, p);
                integerValue(b, p, end);
                yield end;
            }
        };
    }

    /**
     * Past a string of printable ASCII without escapes whose opening quote is at {@code p} (the position after its
     * closing quote), at most {@link #MAX_STRING} bytes long.
     */
    private static int stringEnd(byte[] b, int p) {
        if (p >= b.length || b[p] != '"') {
            throw NotSure.INSTANCE;
        }
        int start = p + 1;
        int limit = Math.min(b.length, start + MAX_STRING + 1);
        int i = start;
        // Eight bytes at a time while none of them needs a look (SWAR; see plainWord).
        while (i + Long.BYTES <= limit && plainWord((long) LONGS.get(b, i))) {
            i += Long.BYTES;
        }
        for (; i < limit; i++) {
            byte kind = STRING_BYTE[b[i] & 0xFF];
            if (kind != PLAIN) {
                if (kind == QUOTE) {
                    return i + 1;
                }
                throw NotSure.INSTANCE;
            }
        }
        throw NotSure.INSTANCE;
    }

    /**
     * Past {@code -?(0|[1-9][0-9]*)} starting at {@code p}, at most 19 digits; what follows is checked by the
     * caller's separator test (so {@code 01}, {@code 1.5}, {@code 1e3} are refused there).
     */
    private static int integerEnd(byte[] b, int p) {
        int n = b.length;
        if (p < n && b[p] == '-') {
            p++;
        }
        if (p >= n) {
            throw NotSure.INSTANCE;
        }
        int d = b[p] - '0';
        if (d < 0 || d > 9) {
            throw NotSure.INSTANCE;
        }
        int first = p++;
        if (d == 0) {
            return p;
        }
        while (p < n) {
            d = b[p] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            p++;
        }
        if (p - first > 19) {
            throw NotSure.INSTANCE;
        }
        return p;
    }

    /**
     * The value of the integer {@link #integerEnd} accepted in {@code b[p..end)}. Accumulated negatively so that
     * {@code Long.MIN_VALUE} fits; up to 18 digits cannot overflow, 19 use exact arithmetic, which throws on
     * overflow (the caller defers).
     */
    private static long integerValue(byte[] b, int p, int end) {
        boolean negative = b[p] == '-';
        if (negative) {
            p++;
        }
        long acc = 0;
        if (end - p < 19) {
            for (; p < end; p++) {
                acc = acc * 10 - (b[p] - '0');
            }
        } else {
            for (; p < end; p++) {
                acc = Math.subtractExact(Math.multiplyExact(acc, 10L), b[p] - '0');
            }
        }
        return negative ? acc : Math.negateExact(acc);
    }

    private static int literal(byte[] b, int p, byte[] word) {
        if (b.length - p < word.length || !matches(b, p, word)) {
            throw NotSure.INSTANCE;
        }
        return p + word.length;
    }

    private static int skipWhitespace(byte[] b, int p) {
        while (p < b.length) {
            byte c = b[p];
            // Most bytes are above the space: one comparison ends the common case.
            if (c > ' ' || c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return p;
            }
            p++;
        }
        return p;
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /**
     * True when all eight bytes of {@code w} are plain string bytes (0x20..0x7E, not {@code "} or {@code \\}).
     * {@code (x - n*ONES) & ~x & HIGHS} is non-zero exactly when some byte of {@code x} is below {@code n}, provided
     * no byte has its high bit set, which the last term checks; a false answer only sends these bytes to the
     * byte-by-byte loop, which decides.
     */
    static boolean plainWord(long w) {
        long below20 = (w - 0x20 * ONES) & ~w;
        long quote = w ^ ('"' * ONES);
        quote = (quote - ONES) & ~quote;
        long backslash = w ^ ('\\' * ONES);
        backslash = (backslash - ONES) & ~backslash;
        long delete = w ^ (0x7F * ONES);
        delete = (delete - ONES) & ~delete;
        return ((below20 | quote | backslash | delete | w) & HIGHS) == 0;
    }

    private static byte[][] ascii(String[] names) {
        byte[][] out = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            out[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        }
        return out;
    }

    /**
     * The wire names of {@code constants}, each checked to be what {@code fromWire} maps back to that constant, so a
     * byte match here answers what {@code fromWire} answers; {@code fromWire} refuses any other string, and those
     * are deferred.
     */
    private static <E extends Enum<E> & WireEnum> byte[][] wires(E[] constants, Function<String, E> fromWire) {
        byte[][] out = new byte[constants.length][];
        for (int i = 0; i < constants.length; i++) {
            String wire = constants[i].wire();
            if (!wire.chars().allMatch(c -> c >= 0x20 && c < 0x7F) || fromWire.apply(wire) != constants[i]) {
                throw new IllegalStateException(
                        constants[i] + " is not printable ASCII or does not round-trip through fromWire");
            }
            out[i] = wire.getBytes(StandardCharsets.US_ASCII);
        }
        return out;
    }

    /** Control flow out of the fast path: the mapper decides. Stackless, shared. */
    private static final class NotSure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final NotSure INSTANCE = new NotSure();

        private NotSure() {
            super("not sure: use the mapper", null, false, false);
        }
    }
}
