package dev.vigil.kit.http;

import java.nio.charset.StandardCharsets;

/**
 * An RFC 9457 problem-details body. {@code type} is a short slug under {@link #TYPE_BASE}, the one namespace every
 * Vigil service uses. Written by hand (five fields, JSON string escaping) so the edge guard needs no mapper.
 */
public record Problem(int status, String type, String title, String detail, String instance) {
    public static final String TYPE_BASE = "https://vigil.dev/problems/";
    public static final String CONTENT_TYPE = "application/problem+json";

    public byte[] bytes() {
        StringBuilder sb = new StringBuilder(160).append("{\"type\":");
        quote(sb, TYPE_BASE + type).append(",\"title\":");
        quote(sb, title).append(",\"status\":").append(status).append(",\"detail\":");
        quote(sb, detail);
        if (instance != null) {
            sb.append(",\"instance\":");
            quote(sb, instance);
        }
        return sb.append('}').toString().getBytes(StandardCharsets.UTF_8);
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
