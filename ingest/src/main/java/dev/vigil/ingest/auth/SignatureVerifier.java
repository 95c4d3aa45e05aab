package dev.vigil.ingest.auth;

import dev.vigil.ingest.validate.TimeBounds;
import dev.vigil.schemas.sign.RequestSigner;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * Verifies remote probe-worker requests: a known key id, the key's region, a fresh timestamp, a valid
 * HMAC-SHA-256 over {@link RequestSigner#canonicalForm} and a request id not seen before. Header checks
 * ({@link #checkHeaders}: present, well formed, fresh) come before the body is read and are the same for every key
 * id; {@link #verify} needs the body. Whether a key id exists is never told apart from a wrong signature: an unknown
 * key id is verified against a decoy secret and refused {@code BAD_SIGNATURE} exactly as a known one with a wrong
 * signature (same answer, same order of work), and the region is judged only once the signature proved the caller
 * holds the key. Without that, the error type listed which key ids exist. A request id enters
 * its key's replay cache only once its signature is valid, so forged requests cannot fill or poison it; each key
 * has its own bounded cache, so one key filling it (a runaway worker, a stolen secret) never refuses another's
 * requests. The key set is fixed at start, so the number of caches is bounded too.
 */
public final class SignatureVerifier {
    /** Why a signed request is refused; the HTTP mapping lives in the route. */
    public enum Failure {
        MISSING_HEADERS(
                "the request must carry X-Vigil-Key-Id, X-Vigil-Timestamp, X-Vigil-Request-Id, X-Vigil-Region and X-Vigil-Signature"),
        BAD_TIMESTAMP("X-Vigil-Timestamp must be epoch milliseconds (a non-negative integer)"),
        BAD_REQUEST_ID("X-Vigil-Request-Id must be 1-64 printable characters"),
        WRONG_REGION("the region is not the one the signing key is configured for"),
        STALE("the request timestamp is outside the allowed clock skew"),
        /** Also an unknown key id: whether a key id exists is not told. */
        BAD_SIGNATURE("the signature does not match the request"),
        REPLAYED("this request id was already received"),
        REPLAY_CACHE_FULL("too many signed requests inside the replay window; retry later");

        private final String detail;

        Failure(String detail) {
            this.detail = detail;
        }

        public String detail() {
            return detail;
        }
    }

    /** A worker key: its region, the worker id it speaks for (heartbeats) and its secret. */
    public record WorkerKey(String region, String workerId, RequestSigner signer) {}

    /** Result of a check: a failure, or the verified key's id, the request id, the key's region and worker id. */
    public record Verdict(Failure failure, String keyId, String requestId, String region, String workerId) {
        public boolean ok() {
            return failure == null;
        }

        static Verdict fail(Failure f) {
            return new Verdict(f, null, null, null, null);
        }
    }

    private final Map<String, WorkerKey> keys;
    /** Signs for key ids that do not exist, so they cost the same work as known ones and never verify. */
    private final RequestSigner decoy;

    private final Map<String, ReplayCache> replays;
    private final long skewMs;
    private final Clock clock;

    /** @param replayCacheSize request ids remembered per key within the skew window */
    public SignatureVerifier(Map<String, WorkerKey> keys, int replayCacheSize, long skewMs, Clock clock) {
        this.keys = Map.copyOf(keys);
        byte[] decoySecret = new byte[32];
        new java.security.SecureRandom().nextBytes(decoySecret);
        this.decoy = new RequestSigner(decoySecret);
        Map<String, ReplayCache> caches = new HashMap<>();
        keys.keySet().forEach(id -> caches.put(id, new ReplayCache(replayCacheSize, skewMs)));
        this.replays = Map.copyOf(caches);
        this.skewMs = skewMs;
        this.clock = clock;
    }

    /** Request ids {@code keyId}'s cache holds now (0 for an unknown key). */
    public int replayCacheSize(String keyId) {
        ReplayCache c = replays.get(keyId);
        return c == null ? 0 : c.size();
    }

    /**
     * Everything that does not need the body and says nothing about the key id: the verdict of a well-formed, fresh
     * request carries its key id ({@link #known} says whether it exists, for budgeting only, never for the answer).
     */
    public Verdict checkHeaders(SignedRequest r) {
        if (r.keyId() == null
                || r.timestamp() == null
                || r.requestId() == null
                || r.region() == null
                || r.signature() == null) {
            return Verdict.fail(Failure.MISSING_HEADERS);
        }
        long ts;
        try {
            ts = Long.parseLong(r.timestamp());
        } catch (NumberFormatException e) {
            return Verdict.fail(Failure.BAD_TIMESTAMP);
        }
        if (ts < 0) {
            return Verdict.fail(Failure.BAD_TIMESTAMP);
        }
        if (r.requestId().isEmpty() || r.requestId().length() > 64 || !printable(r.requestId())) {
            return Verdict.fail(Failure.BAD_REQUEST_ID);
        }
        // Never Math.abs(now - ts): it wraps for ts near Long.MIN_VALUE (refused above) and then passes any skew.
        if (!TimeBounds.within(ts, clock.millis(), skewMs)) {
            return Verdict.fail(Failure.STALE);
        }
        WorkerKey key = keys.get(r.keyId());
        return new Verdict(
                null, r.keyId(), r.requestId(), key == null ? null : key.region(), key == null ? null : key.workerId());
    }

    /** Whether {@code keyId} is configured: which body share a request draws on, never what it is answered. */
    public boolean known(String keyId) {
        return keyId != null && keys.containsKey(keyId);
    }

    /** Header checks, signature over the body (a decoy's for an unknown key id), the key's region, the replay cache. */
    public Verdict verify(SignedRequest r, byte[] body) {
        Verdict headers = checkHeaders(r);
        if (!headers.ok()) {
            return headers;
        }
        long ts = Long.parseLong(r.timestamp());
        WorkerKey key = keys.get(r.keyId());
        boolean signed =
                (key == null ? decoy : key.signer()).verify(ts, r.requestId(), r.region(), body, r.signature());
        if (key == null || !signed) {
            return Verdict.fail(Failure.BAD_SIGNATURE);
        }
        if (!key.region().equals(r.region())) {
            return Verdict.fail(Failure.WRONG_REGION);
        }
        return switch (replays.get(r.keyId()).remember(r.requestId(), ts, clock.millis())) {
            case NEW -> headers;
            case REPLAYED -> Verdict.fail(Failure.REPLAYED);
            case FULL -> Verdict.fail(Failure.REPLAY_CACHE_FULL);
        };
    }

    /** The request was not accepted after all (Kafka unavailable): let the worker retry the same id. */
    public void release(Verdict verdict) {
        if (verdict.ok()) {
            replays.get(verdict.keyId()).forget(verdict.requestId());
        }
    }

    private static boolean printable(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }
}
