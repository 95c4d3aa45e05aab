package dev.vigil.kit.http;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A JSON object of flat members (strings, numbers, booleans, null), written by hand: what the kit's own answers
 * (problem bodies, the ops endpoints) need, without a JSON mapper. Any other value is written as its string form.
 */
public final class FlatJson {
    private FlatJson() {
    }

    /** {@code members} as one JSON object, in the map's iteration order. */
    public static byte[] object(Map<String, ?> members) {
        StringBuilder sb = new StringBuilder(32 + 24 * members.size()).append('{');
        members.forEach((name, value) -> member(sb, name, value));
        return sb.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Appends {@code "name":value}, preceded by a comma unless it is the object's first member. */
    static void member(StringBuilder sb, String name, Object value) {
        if (sb.charAt(sb.length() - 1) != '{') {
            sb.append(',');
        }
        quote(sb, name).append(':');
        value(sb, value);
    }

    static void value(StringBuilder sb, Object value) {
        if (value == null) {
            sb.append("null");
        } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long
                || value instanceof Short || value instanceof Byte || value instanceof BigInteger
                || value instanceof BigDecimal) {
            sb.append(value);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            // JSON has no NaN or infinity
            if (Double.isFinite(d)) {
                sb.append(value);
            } else {
                sb.append("null");
            }
        } else {
            quote(sb, value.toString());
        }
    }

    static StringBuilder quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"');
    }
}
