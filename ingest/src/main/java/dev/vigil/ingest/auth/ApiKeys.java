package dev.vigil.ingest.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Per-application API keys, held only as SHA-256 hashes. A presented key is hashed and compared with
 * every configured hash in constant time (no early exit), so neither the match position nor a prefix
 * leaks through timing. The key itself is never stored or logged.
 */
public final class ApiKeys {
    private static final HexFormat HEX = HexFormat.of();
    private static final int MAX_KEY_LENGTH = 512;

    private record Entry(byte[] hash, String appId) {
    }

    private final List<Entry> entries = new ArrayList<>();

    /** @param hashesByApp appId → lower-case hex SHA-256 hashes of its keys */
    public ApiKeys(Map<String, List<String>> hashesByApp) {
        hashesByApp.forEach((app, hashes) -> hashes.forEach(h -> entries.add(new Entry(HEX.parseHex(h), app))));
    }

    /** The app a {@code Authorization} header value authenticates, or empty. */
    public Optional<String> authenticate(String authorizationHeader) {
        String key = bearer(authorizationHeader);
        if (key == null) {
            return Optional.empty();
        }
        byte[] presented = sha256(key);
        String match = null;
        for (Entry e : entries) {
            if (MessageDigest.isEqual(e.hash, presented) && match == null) {
                match = e.appId;
            }
        }
        return Optional.ofNullable(match);
    }

    /** The bearer token of a header value, or null when the header is absent or not a bearer credential. */
    public static String bearer(String header) {
        if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String key = header.substring(7).trim();
        return key.isEmpty() || key.length() > MAX_KEY_LENGTH ? null : key;
    }

    /** Lower-case hex SHA-256 of a key: the form the configuration holds. */
    public static String hash(String key) {
        return HEX.formatHex(sha256(key));
    }

    private static byte[] sha256(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by the Java platform", e);
        }
    }
}
