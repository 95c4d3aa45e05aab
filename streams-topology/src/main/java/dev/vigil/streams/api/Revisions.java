package dev.vigil.streams.api;

import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The revision of a managed value (a monitor, an alert rule) as an HTTP entity tag, and the conditional-request rules
 * of RFC 9110 section 13 over it. The revision is a digest of the value's canonical JSON (sorted map keys, nulls left
 * out): the same content always has the same revision on every instance, so no counter needs to be kept or agreed
 * on, and an editor who read revision R can be refused when someone else changed the value since.
 */
public final class Revisions {
    private Revisions() {}

    /** The strong entity tag of {@code value}, quoted as it travels in {@code ETag}; null for no value. */
    public static String of(Object value) {
        if (value == null) {
            return null;
        }
        return "\"" + digest(Json.bytes(value)).substring(0, 24) + "\"";
    }

    /** A short digest of text for the audit log (before and after a change), never the text itself. */
    public static String digest(String text) {
        return digest(text.getBytes(StandardCharsets.UTF_8)).substring(0, 24);
    }

    private static String digest(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * Whether {@code If-Match: header} holds when the current revision is {@code current} (null: the value does not
     * exist). {@code *} holds for any existing value; otherwise one of the listed tags must equal it (strong
     * comparison: a weak tag {@code W/"…"} never matches, as the RFC asks of If-Match).
     */
    public static boolean ifMatch(String header, String current) {
        if (current == null) {
            return false;
        }
        for (String tag : header.split(",")) {
            String t = tag.strip();
            if (t.equals("*") || t.equals(current)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code If-None-Match: header} holds: {@code *} only when no value exists (create, never replace);
     * otherwise none of the listed tags (weak or strong) may equal the current revision.
     */
    public static boolean ifNoneMatch(String header, String current) {
        for (String tag : header.split(",")) {
            String t = tag.strip();
            if (t.equals("*")) {
                return current == null;
            }
            if (current != null && (t.equals(current) || t.equals("W/" + current))) {
                return false;
            }
        }
        return true;
    }
}
