package dev.vigil.kit.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JSON object of flat members (strings, numbers, booleans, null, and lists and maps of those, such as a problem's
 * list of field errors): what the kit's own answers (problem bodies, the ops endpoints) need, written by Jackson. A
 * value of any other type is written as its string form; a number JSON cannot hold (NaN, an infinity) as null. U+2028 and U+2029 are escaped as well, so a body pasted
 * into a script stays one string.
 */
public final class FlatJson {
    /**
     * A plain mapper, not the contracts' one: a problem body keeps its members in the order RFC 9457 lists them, and
     * a null member is written (the contracts' mapper sorts keys and leaves nulls out).
     */
    private static final ObjectWriter WRITER =
            JsonMapper.builder().build().writer().with(new LineSeparatorEscapes());

    private FlatJson() {}

    /** {@code members} as one JSON object, in the map's iteration order. */
    public static byte[] object(Map<String, ?> members) {
        Map<String, Object> flat = new LinkedHashMap<>();
        members.forEach((name, value) -> flat.put(name, flat(value)));
        try {
            return WRITER.writeValueAsBytes(flat);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a flat JSON object could not be written", e);
        }
    }

    private static Object flat(Object value) {
        if (value == null
                || value instanceof Boolean
                || value instanceof Integer
                || value instanceof Long
                || value instanceof Short
                || value instanceof Byte
                || value instanceof BigInteger
                || value instanceof BigDecimal) {
            return value;
        }
        if (value instanceof Double || value instanceof Float) {
            return Double.isFinite(((Number) value).doubleValue()) ? value : null;
        }
        if (value instanceof java.util.List<?> list) {
            // a list of field errors in a problem body: each element written by the same rules
            return list.stream().map(FlatJson::flat).toList();
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), flat(v)));
            return out;
        }
        return value.toString();
    }

    /** Jackson's standard escapes plus the two line separators JavaScript does not allow in a string literal. */
    private static final class LineSeparatorEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private static final SerializableString LS = new SerializedString("\\u2028");
        private static final SerializableString PS = new SerializedString("\\u2029");
        private final int[] escapes = standardAsciiEscapesForJSON();

        @Override
        public int[] getEscapeCodesForAscii() {
            return escapes;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return ch == 0x2028 ? LS : ch == 0x2029 ? PS : null;
        }
    }
}
