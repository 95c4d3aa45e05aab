package dev.vigil.schemas.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import java.io.IOException;

/**
 * A streaming decoder for the common shape of {@link ProbeResult}, because the verdict topology spends a
 * noticeable share of its stream thread in databind's record binding for every probe result it reads.
 *
 * <p>The contract is <em>fast path with fallback</em>: {@link #readOrNull(byte[])} returns either exactly the record
 * {@code Json.read(bytes, ProbeResult.class)} would return, or {@code null} meaning "not sure: use the mapper". It
 * answers only when every token is one the strict {@link Json} mapper binds in a known way:
 * <ul>
 *   <li>the root is one object and nothing follows it (the mapper fails on trailing tokens);</li>
 *   <li>Integer fields: an integer that fits an int; Long fields: an integer that fits a long; text fields: a
 *       string; {@link Outcome}/{@link ErrorKind}: a string their own {@code fromWire} accepts; any field: an
 *       explicit {@code null} (every component is boxed, so the mapper passes null, as for an absent field);</li>
 *   <li>an unknown field (ignored by the mapper) only if its value holds nothing but strings, int/long integers,
 *       booleans, nulls, objects and arrays; every string in it is materialised, so the parser's length limit
 *       applies as when databind buffers the field.</li>
 * </ul>
 * Everything else is left to the mapper: floats, big integers, strings for numbers, numbers/booleans for text,
 * objects or arrays for a component, a field given twice, a root that is not an object, a syntax error or a
 * {@link com.fasterxml.jackson.core.exc.StreamConstraintsException stream limit}, an enum value {@code fromWire}
 * refuses, and any exception from the record constructor (so a broken contract is reported with the mapper's
 * field path and message, byte for byte). The parser comes from the shared mapper, so the limits and read features
 * are the mapper's own.
 */
public final class ProbeResultReader {
    private ProbeResultReader() {
    }

    /** The decoded record, or null when the mapper must decide (see the class comment); never throws. */
    public static ProbeResult readOrNull(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try (JsonParser p = Json.mapper().createParser(bytes)) {
            return read(p);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static ProbeResult read(JsonParser p) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            return null;
        }
        Integer schemaVersion = null;
        String monitorId = null;
        String region = null;
        String workerId = null;
        Long windowStart = null;
        Long startedAt = null;
        Outcome outcome = null;
        ErrorKind errorKind = null;
        Integer httpStatus = null;
        Integer responseMs = null;
        Integer totalMs = null;
        Long bytesRead = null;
        Integer redirects = null;
        String finalUrl = null;
        Integer tlsDaysLeft = null;
        Integer dnsMs = null;
        Integer connectMs = null;
        Integer tlsMs = null;
        String detail = null;
        String requestId = null;
        int seen = 0;
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            int bit;
            switch (name) {
                case "schemaVersion" -> { bit = 1; schemaVersion = intOf(p, v); }
                case "monitorId" -> { bit = 1 << 1; monitorId = text(p, v); }
                case "region" -> { bit = 1 << 2; region = text(p, v); }
                case "workerId" -> { bit = 1 << 3; workerId = text(p, v); }
                case "windowStart" -> { bit = 1 << 4; windowStart = longOf(p, v); }
                case "startedAt" -> { bit = 1 << 5; startedAt = longOf(p, v); }
                case "outcome" -> {
                    bit = 1 << 6;
                    String s = text(p, v);
                    outcome = s == null ? null : Outcome.fromWire(s);
                }
                case "errorKind" -> {
                    bit = 1 << 7;
                    String s = text(p, v);
                    errorKind = s == null ? null : ErrorKind.fromWire(s);
                }
                case "httpStatus" -> { bit = 1 << 8; httpStatus = intOf(p, v); }
                case "responseMs" -> { bit = 1 << 9; responseMs = intOf(p, v); }
                case "totalMs" -> { bit = 1 << 10; totalMs = intOf(p, v); }
                case "bytesRead" -> { bit = 1 << 11; bytesRead = longOf(p, v); }
                case "redirects" -> { bit = 1 << 12; redirects = intOf(p, v); }
                case "finalUrl" -> { bit = 1 << 13; finalUrl = text(p, v); }
                case "tlsDaysLeft" -> { bit = 1 << 14; tlsDaysLeft = intOf(p, v); }
                case "dnsMs" -> { bit = 1 << 15; dnsMs = intOf(p, v); }
                case "connectMs" -> { bit = 1 << 16; connectMs = intOf(p, v); }
                case "tlsMs" -> { bit = 1 << 17; tlsMs = intOf(p, v); }
                case "detail" -> { bit = 1 << 18; detail = text(p, v); }
                case "requestId" -> { bit = 1 << 19; requestId = text(p, v); }
                default -> {
                    skipUnknown(p, v);
                    continue;
                }
            }
            if ((seen & bit) != 0) {
                throw NotSure.INSTANCE;
            }
            seen |= bit;
        }
        if (t != JsonToken.END_OBJECT || p.nextToken() != null) {
            return null;
        }
        return new ProbeResult(schemaVersion, monitorId, region, workerId, windowStart, startedAt, outcome,
                errorKind, httpStatus, responseMs, totalMs, bytesRead, redirects, finalUrl, tlsDaysLeft, dnsMs,
                connectMs, tlsMs, detail, requestId);
    }

    private static Integer intOf(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_NULL) {
            return null;
        }
        if (v == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT) {
            return p.getIntValue();
        }
        throw NotSure.INSTANCE;
    }

    private static Long longOf(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_NULL) {
            return null;
        }
        if (v == JsonToken.VALUE_NUMBER_INT) {
            JsonParser.NumberType type = p.getNumberType();
            if (type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG) {
                return p.getLongValue();
            }
        }
        throw NotSure.INSTANCE;
    }

    private static String text(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_NULL) {
            return null;
        }
        if (v == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        throw NotSure.INSTANCE;
    }

    /**
     * Walks an ignored field's value. Databind may buffer such a value (materialising its strings and numbers)
     * before it ignores it, so this reads every string and accepts only numbers whose reading cannot fail.
     */
    private static void skipUnknown(JsonParser p, JsonToken v) throws IOException {
        int depth = 0;
        JsonToken t = v;
        while (true) {
            switch (t) {
                case START_OBJECT, START_ARRAY -> depth++;
                case END_OBJECT, END_ARRAY -> depth--;
                case FIELD_NAME, VALUE_TRUE, VALUE_FALSE, VALUE_NULL -> {
                }
                case VALUE_STRING -> p.getText();
                case VALUE_NUMBER_INT -> {
                    JsonParser.NumberType type = p.getNumberType();
                    if (type != JsonParser.NumberType.INT && type != JsonParser.NumberType.LONG) {
                        throw NotSure.INSTANCE;
                    }
                }
                default -> throw NotSure.INSTANCE;
            }
            if (depth == 0) {
                return;
            }
            t = p.nextToken();
            if (t == null) {
                throw NotSure.INSTANCE;
            }
        }
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
