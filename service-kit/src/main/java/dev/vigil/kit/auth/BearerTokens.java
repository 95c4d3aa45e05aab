package dev.vigil.kit.auth;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The query API's tokens: each a name and scopes ({@link Principal}), held as SHA-256 hashes and matched in constant
 * time by {@link HashedCredentials}, plus the instances' shared forwarding credential.
 */
public final class BearerTokens {
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The name the instances' forwarding credential goes by (in audit records); no configured token may take it. */
    public static final String INSTANCE_NAME = "vigil-instance";

    private final HashedCredentials<Principal> credentials;

    private BearerTokens(HashedCredentials<Principal> credentials) {
        this.credentials = credentials;
    }

    /**
     * @param tokens        configured tokens (validated: see {@link TokenSpec#problems})
     * @param instanceToken the instances' shared forwarding credential, or null for none
     */
    public static BearerTokens of(List<TokenSpec> tokens, String instanceToken) {
        List<Map.Entry<String, Principal>> entries = new ArrayList<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        java.util.Set<String> hashes = new java.util.HashSet<>();
        for (TokenSpec t : tokens) {
            if (INSTANCE_NAME.equals(t.name())) {
                throw new IllegalArgumentException(
                        "token name " + INSTANCE_NAME + " is reserved for the instances' own credential");
            }
            if (!hashes.add(t.sha256())) {
                throw new IllegalArgumentException(
                        "token " + t.name() + " has the same hash as another token: every token must be distinct");
            }
            List<String> problems = t.problems("token " + t.name());
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException(String.join("; ", problems));
            }
            if (!names.add(t.name())) {
                throw new IllegalArgumentException("token name " + t.name() + " is configured twice");
            }
            entries.add(Map.entry(t.sha256(), new Principal(t.name(), t.scopeSet(), false)));
        }
        if (instanceToken != null) {
            if (hashes.contains(hash(instanceToken))) {
                throw new IllegalArgumentException(
                        "the instance credential equals a configured token: use a distinct secret");
            }
            entries.add(
                    Map.entry(hash(instanceToken), new Principal(INSTANCE_NAME, java.util.Set.of(Scope.READ), true)));
        }
        return new BearerTokens(HashedCredentials.of(entries));
    }

    public int size() {
        return credentials.size();
    }

    /** The principal an {@code Authorization} header value authenticates, or empty. */
    public Optional<Principal> authenticate(String authorizationHeader) {
        return credentials.authenticate(authorizationHeader);
    }

    /** Lower-case hex SHA-256 of a token: the form configuration holds. */
    public static String hash(String token) {
        return HashedCredentials.hash(token);
    }

    /** A new random token: {@code vgl_} and 43 URL-safe base64 characters (256 bits). */
    public static String generate() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "vgl_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
