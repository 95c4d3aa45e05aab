package dev.vigil.schemas.json;

import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.WireEnum;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
 *       passes null, as for an absent field); {@link Outcome}/{@link ErrorKind} a string that is one of their wire
 *       names (the lookup table is built through their own {@code fromWire}, which refuses anything else);</li>
 *   <li>an unknown field (the mapper ignores it, possibly after buffering it) holds a scalar: a string or number as
 *       above, {@code true}, {@code false} or {@code null}; an object or array there is deferred;</li>
 *   <li>no known component appears twice (the mapper keeps the last value);</li>
 *   <li>the canonical constructor accepts the values (otherwise the mapper reports the violation with its field
 *       path and message, byte for byte).</li>
 * </ul>
 * Everything else is left to the mapper. Never throws.
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

    /** The record's components in declaration order, with their kinds. */
    private static final String[] NAMES = {
            "schemaVersion", "monitorId", "region", "workerId", "windowStart", "startedAt", "outcome", "errorKind",
            "httpStatus", "responseMs", "totalMs", "bytesRead", "redirects", "finalUrl", "tlsDaysLeft", "dnsMs",
            "connectMs", "tlsMs", "detail", "requestId"};
    private static final int[] KINDS = {
            INT, TEXT, TEXT, TEXT, LONG, LONG, OUTCOME, ERROR_KIND,
            INT, INT, INT, LONG, INT, TEXT, INT, INT,
            INT, INT, TEXT, TEXT};
    private static final byte[][] NAME_BYTES = ascii(NAMES);

    private static final Outcome[] OUTCOMES = Outcome.values();
    private static final byte[][] OUTCOME_WIRES = wires(OUTCOMES, Outcome::fromWire);
    private static final ErrorKind[] ERROR_KINDS = ErrorKind.values();
    private static final byte[][] ERROR_KIND_WIRES = wires(ERROR_KINDS, ErrorKind::fromWire);

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    private ProbeResultReader() {
    }

    /** The decoded record, or null when the mapper must decide (see the class comment); never throws. */
    public static ProbeResult readOrNull(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return new Scan(bytes).read();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** One pass over one document; {@link NotSure} leaves it to the mapper. */
    private static final class Scan {
        private final byte[] b;
        private final int end;
        private int pos;
        private final Object[] values = new Object[NAMES.length];
        private int seen;

        Scan(byte[] b) {
            this.b = b;
            this.end = b.length;
        }

        ProbeResult read() {
            skipWhitespace();
            expect('{');
            skipWhitespace();
            if (peek() == '}') {
                pos++;
            } else {
                int hint = 0;
                while (true) {
                    int field = key(hint);
                    skipWhitespace();
                    expect(':');
                    skipWhitespace();
                    if (field < 0) {
                        skipScalar();
                    } else {
                        int bit = 1 << field;
                        if ((seen & bit) != 0) {
                            throw NotSure.INSTANCE;
                        }
                        seen |= bit;
                        values[field] = value(KINDS[field]);
                        hint = field + 1;
                    }
                    skipWhitespace();
                    byte c = peek();
                    pos++;
                    if (c == '}') {
                        break;
                    }
                    if (c != ',') {
                        throw NotSure.INSTANCE;
                    }
                    skipWhitespace();
                }
            }
            skipWhitespace();
            if (pos != end) {
                throw NotSure.INSTANCE;
            }
            Object[] v = values;
            return new ProbeResult((Integer) v[0], (String) v[1], (String) v[2], (String) v[3], (Long) v[4],
                    (Long) v[5], (Outcome) v[6], (ErrorKind) v[7], (Integer) v[8], (Integer) v[9], (Integer) v[10],
                    (Long) v[11], (Integer) v[12], (String) v[13], (Integer) v[14], (Integer) v[15], (Integer) v[16],
                    (Integer) v[17], (String) v[18], (String) v[19]);
        }

        /** Reads a key; returns the component index, or -1 for an unknown field. Tries {@code hint} first. */
        private int key(int hint) {
            int start = string();
            int stop = pos - 1;
            int length = stop - start;
            if (length > MAX_KEY) {
                throw NotSure.INSTANCE;
            }
            if (hint < NAME_BYTES.length && matches(NAME_BYTES[hint], start, stop)) {
                return hint;
            }
            for (int i = 0; i < NAME_BYTES.length; i++) {
                if (matches(NAME_BYTES[i], start, stop)) {
                    return i;
                }
            }
            return -1;
        }

        private boolean matches(byte[] name, int start, int stop) {
            return name.length == stop - start && Arrays.equals(b, start, stop, name, 0, name.length);
        }

        private Object value(int kind) {
            byte c = peek();
            if (c == 'n') {
                literal(NULL);
                return null;
            }
            switch (kind) {
                case INT -> {
                    long n = integer();
                    if ((int) n != n) {
                        throw NotSure.INSTANCE;
                    }
                    return (int) n;
                }
                case LONG -> {
                    return integer();
                }
                case TEXT -> {
                    int start = string();
                    return new String(b, start, pos - 1 - start, StandardCharsets.ISO_8859_1);
                }
                case OUTCOME -> {
                    return OUTCOMES[wire(OUTCOME_WIRES)];
                }
                default -> {
                    return ERROR_KINDS[wire(ERROR_KIND_WIRES)];
                }
            }
        }

        private int wire(byte[][] wires) {
            int start = string();
            int stop = pos - 1;
            for (int i = 0; i < wires.length; i++) {
                if (matches(wires[i], start, stop)) {
                    return i;
                }
            }
            throw NotSure.INSTANCE;
        }

        /** An unknown field's value: a scalar of the accepted subset, read and dropped. */
        private void skipScalar() {
            switch (peek()) {
                case '"' -> string();
                case 't' -> literal(TRUE);
                case 'f' -> literal(FALSE);
                case 'n' -> literal(NULL);
                default -> integer();
            }
        }

        /**
         * A string of printable ASCII without escapes, from the opening quote at {@code pos}; returns the index of
         * its first content byte and leaves {@code pos} just after the closing quote.
         */
        private int string() {
            expect('"');
            int start = pos;
            int limit = Math.min(end, start + MAX_STRING + 1);
            for (int i = start; i < limit; i++) {
                byte c = b[i];
                if (c == '"') {
                    pos = i + 1;
                    return start;
                }
                // Signed bytes: 0x80..0xFF are negative, so one test catches controls and non-ASCII alike.
                if (c < 0x20 || c == '\\' || c == 0x7F) {
                    throw NotSure.INSTANCE;
                }
            }
            throw NotSure.INSTANCE;
        }

        /** {@code -?(0|[1-9][0-9]*)} that fits a long; what follows is checked by the caller's separator test. */
        private long integer() {
            boolean negative = false;
            if (pos < end && b[pos] == '-') {
                negative = true;
                pos++;
            }
            if (pos >= end) {
                throw NotSure.INSTANCE;
            }
            int d = b[pos] - '0';
            if (d < 0 || d > 9) {
                throw NotSure.INSTANCE;
            }
            pos++;
            if (d == 0) {
                return 0L;
            }
            // Accumulated negatively so that Long.MIN_VALUE fits.
            long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
            long multMin = limit / 10;
            long acc = -d;
            while (pos < end) {
                d = b[pos] - '0';
                if (d < 0 || d > 9) {
                    break;
                }
                if (acc < multMin) {
                    throw NotSure.INSTANCE;
                }
                acc *= 10;
                if (acc < limit + d) {
                    throw NotSure.INSTANCE;
                }
                acc -= d;
                pos++;
            }
            return negative ? acc : -acc;
        }

        private void literal(byte[] word) {
            if (end - pos < word.length || !Arrays.equals(b, pos, pos + word.length, word, 0, word.length)) {
                throw NotSure.INSTANCE;
            }
            pos += word.length;
        }

        private void skipWhitespace() {
            while (pos < end) {
                byte c = b[pos];
                if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                    return;
                }
                pos++;
            }
        }

        private byte peek() {
            if (pos >= end) {
                throw NotSure.INSTANCE;
            }
            return b[pos];
        }

        private void expect(char c) {
            if (peek() != c) {
                throw NotSure.INSTANCE;
            }
            pos++;
        }
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
    private static <E extends Enum<E> & WireEnum> byte[][] wires(
            E[] constants, Function<String, E> fromWire) {
        byte[][] out = new byte[constants.length][];
        for (int i = 0; i < constants.length; i++) {
            String wire = constants[i].wire();
            if (!wire.chars().allMatch(c -> c >= 0x20 && c < 0x7F) || fromWire.apply(wire) != constants[i]) {
                throw new IllegalStateException(constants[i] + " is not printable ASCII or does not round-trip through fromWire");
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
