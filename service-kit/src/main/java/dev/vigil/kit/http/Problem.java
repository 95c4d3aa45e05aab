package dev.vigil.kit.http;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * An RFC 9457 problem-details body. {@code type} is a short slug under {@link #TYPE_BASE}, the one namespace every
 * Vigil service uses. {@link #bytes} writes it by hand (flat members only) so the kit needs no mapper; a service that
 * adds structured extension members takes {@link #members()} and writes them with its own.
 */
public record Problem(int status, String type, String title, String detail, String instance) {
    public static final String TYPE_BASE = "https://vigil.dev/problems/";
    public static final String CONTENT_TYPE = "application/problem+json";
    /** The members RFC 9457 defines; an extension member may not replace one of them. */
    private static final Set<String> STANDARD = Set.of("type", "title", "status", "detail", "instance");

    /** A problem without an {@code instance}. */
    public static Problem of(int status, String type, String title, String detail) {
        return new Problem(status, type, title, detail, null);
    }

    /** This problem about {@code instance} (the request's path). */
    public Problem at(String instance) {
        return new Problem(status, type, title, detail, instance);
    }

    /** The wire form of {@code type}: {@link #TYPE_BASE} + slug. */
    public String typeUri() {
        return TYPE_BASE + type;
    }

    /** The standard members in wire order ({@code instance} only when set), to add extension members to. */
    public Map<String, Object> members() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", typeUri());
        m.put("title", title);
        m.put("status", status);
        m.put("detail", detail);
        if (instance != null) {
            m.put("instance", instance);
        }
        return m;
    }

    public byte[] bytes() {
        return bytes(Map.of());
    }

    /**
     * The body with flat extension members after the standard ones (strings, numbers, booleans, null, lists; see
     * {@link FlatJson}). An extension named like a standard member is left out.
     */
    public byte[] bytes(Map<String, ?> extensions) {
        Map<String, Object> all = new LinkedHashMap<>(members());
        extensions.forEach((name, value) -> {
            if (!STANDARD.contains(name)) {
                all.put(name, value);
            }
        });
        return FlatJson.object(all);
    }
}
