package dev.vigil.ingest.auth;

import dev.vigil.kit.auth.HashedCredentials;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Per-application API keys, held only as SHA-256 hashes and matched in constant time (the service kit's
 * {@link HashedCredentials}, as the query API's tokens are). The key itself is never stored or logged.
 */
public final class ApiKeys {
    private final HashedCredentials<String> keys;

    /** @param hashesByApp appId → lower-case hex SHA-256 hashes of its keys */
    public ApiKeys(Map<String, List<String>> hashesByApp) {
        List<Map.Entry<String, String>> entries = new ArrayList<>();
        hashesByApp.forEach((app, hashes) -> hashes.forEach(h -> entries.add(Map.entry(h, app))));
        this.keys = HashedCredentials.of(entries);
    }

    /** The app a {@code Authorization} header value authenticates, or empty. */
    public Optional<String> authenticate(String authorizationHeader) {
        return keys.authenticate(authorizationHeader);
    }

    /** The bearer token of a header value, or null when the header is absent or not a bearer credential. */
    public static String bearer(String header) {
        return HashedCredentials.bearer(header);
    }

    /** Lower-case hex SHA-256 of a key: the form the configuration holds. */
    public static String hash(String key) {
        return HashedCredentials.hash(key);
    }
}
