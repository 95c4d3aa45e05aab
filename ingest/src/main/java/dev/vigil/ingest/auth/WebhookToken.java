package dev.vigil.ingest.auth;

import dev.vigil.kit.auth.HashedCredentials;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A vendor webhook's shared token, held only as its SHA-256 hash and matched in constant time by the service kit's
 * {@link HashedCredentials} (the same comparison as the API keys). A vendor that can only be given a URL sends the
 * token as a path segment; a proxy or a test may send it as {@code Authorization: Bearer <token>}. Either way the
 * presented value is compared byte for byte: no case folding, no trimming of a path segment, no percent-decoding, so a
 * token in another case, with a trailing slash or with an extra segment is simply not the token.
 */
public final class WebhookToken {
    /**
     * Characters a token may have: RFC 3986 unreserved, which travel in a path segment as they are. A segment with
     * anything else (a percent escape included) is refused before it is hashed.
     */
    public static final Pattern URL_SAFE = Pattern.compile("[A-Za-z0-9._~-]+");
    /** The shortest token accepted at start-up: 32 characters of the unreserved set is well over 128 bits. */
    public static final int MIN_LENGTH = 32;
    /** The longest token, as {@link HashedCredentials#bearer} accepts. */
    public static final int MAX_LENGTH = 512;

    private final HashedCredentials<Boolean> token;

    private WebhookToken(String sha256) {
        this.token = HashedCredentials.of(List.of(Map.entry(sha256, Boolean.TRUE)));
    }

    /** Hashes the token at once; only the hash is kept. */
    public static WebhookToken of(String token) {
        return new WebhookToken(HashedCredentials.hash(token));
    }

    /** Why a configured token is unusable (no value is echoed), or empty when it is fine. */
    public static Optional<String> problem(String token) {
        if (token.getBytes(StandardCharsets.UTF_8).length < MIN_LENGTH) {
            return Optional.of("must be at least " + MIN_LENGTH + " characters");
        }
        if (token.length() > MAX_LENGTH) {
            return Optional.of("must be at most " + MAX_LENGTH + " characters");
        }
        if (!URL_SAFE.matcher(token).matches()) {
            return Optional.of(
                    "must consist of the URL-safe characters A-Z a-z 0-9 . _ ~ - (it travels in the URL path)");
        }
        return Optional.empty();
    }

    /** The path segment as sent (not decoded) is the token. */
    public boolean matchesPathSegment(String segment) {
        if (segment == null
                || segment.isEmpty()
                || segment.length() > MAX_LENGTH
                || !URL_SAFE.matcher(segment).matches()) {
            return false;
        }
        return token.authenticate("Bearer " + segment).isPresent();
    }

    /** The {@code Authorization: Bearer …} header value carries the token. */
    public boolean matchesAuthorization(String header) {
        return token.authenticate(header).isPresent();
    }
}
