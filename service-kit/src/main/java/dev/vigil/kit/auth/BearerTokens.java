package dev.vigil.kit.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Bearer tokens held only as SHA-256 hashes. A presented token is hashed and compared with every configured hash in
 * constant time (no early exit), so neither which token matched nor a prefix leaks through timing. Tokens are never
 * stored, logged or echoed.
 */
public final class BearerTokens {
    private static final HexFormat HEX = HexFormat.of();
    private static final int MAX_TOKEN_LENGTH = 512;
    private static final SecureRandom RANDOM = new SecureRandom();

    private record Entry(byte[] hash, Principal principal) {
    }

    private final List<Entry> entries;

    private BearerTokens(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * @param tokens        configured tokens (validated: see {@link TokenSpec#problems})
     * @param instanceToken the instances' shared forwarding credential, or null for none
     */
    public static BearerTokens of(List<TokenSpec> tokens, String instanceToken) {
        List<Entry> entries = new ArrayList<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        for (TokenSpec t : tokens) {
            List<String> problems = t.problems("token " + t.name());
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException(String.join("; ", problems));
            }
            if (!names.add(t.name())) {
                throw new IllegalArgumentException("token name " + t.name() + " is configured twice");
            }
            entries.add(new Entry(HEX.parseHex(t.sha256()), new Principal(t.name(), t.scopeSet(), false)));
        }
        if (instanceToken != null) {
            entries.add(new Entry(sha256(instanceToken), new Principal("vigil-instance", java.util.Set.of(Scope.READ), true)));
        }
        return new BearerTokens(entries);
    }

    public int size() {
        return entries.size();
    }

    /** The principal an {@code Authorization} header value authenticates, or empty. */
    public Optional<Principal> authenticate(String authorizationHeader) {
        String token = bearer(authorizationHeader);
        if (token == null) {
            return Optional.empty();
        }
        byte[] presented = sha256(token);
        Principal match = null;
        for (Entry e : entries) {
            if (MessageDigest.isEqual(e.hash, presented) && match == null) {
                match = e.principal;
            }
        }
        return Optional.ofNullable(match);
    }

    /** The token of a {@code Bearer} header value, or null when absent, not a bearer credential or over 512 chars. */
    public static String bearer(String header) {
        if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = header.substring(7).trim();
        return token.isEmpty() || token.length() > MAX_TOKEN_LENGTH ? null : token;
    }

    /** Lower-case hex SHA-256 of a token: the form configuration holds. */
    public static String hash(String token) {
        return HEX.formatHex(sha256(token));
    }

    /** A new random token: {@code vgl_} and 43 URL-safe base64 characters (256 bits). */
    public static String generate() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "vgl_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by the Java platform", e);
        }
    }
}
