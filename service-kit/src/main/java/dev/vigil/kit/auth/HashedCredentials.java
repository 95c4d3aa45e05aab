package dev.vigil.kit.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Bearer credentials held only as SHA-256 hashes, each standing for a {@code T} (a principal, an app id). A presented
 * credential is hashed and compared with every configured hash in constant time (no early exit), so neither which
 * one matched nor a prefix leaks through timing. Credentials are never stored, logged or echoed. The one
 * implementation behind the query API's tokens and ingest's API keys.
 */
public final class HashedCredentials<T> {
    private static final HexFormat HEX = HexFormat.of();
    private static final int MAX_LENGTH = 512;

    private record Entry<T>(byte[] hash, T subject) {}

    private final List<Entry<T>> entries;

    private HashedCredentials(List<Entry<T>> entries) {
        this.entries = List.copyOf(entries);
    }

    /** @param hashes lower-case hex SHA-256 of each credential → what it stands for */
    public static <T> HashedCredentials<T> of(List<Map.Entry<String, T>> hashes) {
        List<Entry<T>> entries = new ArrayList<>();
        for (Map.Entry<String, T> e : hashes) {
            entries.add(new Entry<>(HEX.parseHex(e.getKey()), e.getValue()));
        }
        return new HashedCredentials<>(entries);
    }

    public int size() {
        return entries.size();
    }

    /** What an {@code Authorization: Bearer …} header value authenticates, or empty. */
    public Optional<T> authenticate(String authorizationHeader) {
        String credential = bearer(authorizationHeader);
        if (credential == null) {
            return Optional.empty();
        }
        byte[] presented = sha256(credential);
        T match = null;
        for (Entry<T> e : entries) {
            if (MessageDigest.isEqual(e.hash, presented) && match == null) {
                match = e.subject;
            }
        }
        return Optional.ofNullable(match);
    }

    /** The credential of a {@code Bearer} header value, or null when absent, not a bearer credential or over 512 chars. */
    public static String bearer(String header) {
        if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String credential = header.substring(7).trim();
        return credential.isEmpty() || credential.length() > MAX_LENGTH ? null : credential;
    }

    /** Lower-case hex SHA-256 of a credential: the form configuration holds. */
    public static String hash(String credential) {
        return HEX.formatHex(sha256(credential));
    }

    static byte[] sha256(String credential) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(credential.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by the Java platform", e);
        }
    }
}
