package dev.vigil.schemas.sign;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA-256 request signing shared by remote probe workers (signing) and ingest (verifying), and by
 * the notifier's generic webhook.
 *
 * <p>Canonical form, one field per line, UTF-8:
 * <pre>
 * vigil-v1
 * &lt;timestamp epoch ms&gt;
 * &lt;request id&gt;
 * &lt;region&gt;
 * &lt;lower-case hex SHA-256 of the body&gt;
 * </pre>
 * The signature header value is {@code v1=<lower-case hex HMAC>}. Binding timestamp, request id and
 * region into the MAC lets the verifier refuse stale requests, replays and a key used for another region.
 */
public final class RequestSigner {
    public static final String HEADER_TIMESTAMP = "X-Vigil-Timestamp";
    public static final String HEADER_REQUEST_ID = "X-Vigil-Request-Id";
    public static final String HEADER_REGION = "X-Vigil-Region";
    public static final String HEADER_KEY_ID = "X-Vigil-Key-Id";
    public static final String HEADER_SIGNATURE = "X-Vigil-Signature";
    public static final String VERSION_PREFIX = "v1=";
    private static final String ALGORITHM = "HmacSHA256";
    private static final HexFormat HEX = HexFormat.of();

    private final SecretKeySpec key;

    /** @param secret the shared secret; at least 32 bytes so the MAC is not the weak point */
    public RequestSigner(byte[] secret) {
        if (secret == null || secret.length < 32) {
            throw new IllegalArgumentException("signing secret must be at least 32 bytes");
        }
        this.key = new SecretKeySpec(secret.clone(), ALGORITHM);
    }

    public static String canonicalForm(long timestampMs, String requestId, String region, byte[] body) {
        return "vigil-v1\n" + timestampMs + "\n" + requestId + "\n" + region + "\n" + HEX.formatHex(sha256(body));
    }

    /** The {@code X-Vigil-Signature} header value for a request. */
    public String sign(long timestampMs, String requestId, String region, byte[] body) {
        return VERSION_PREFIX + HEX.formatHex(mac(canonicalForm(timestampMs, requestId, region, body)));
    }

    /** HMAC of an arbitrary payload, hex encoded with the version prefix (webhook bodies). */
    public String signBody(byte[] body) {
        return VERSION_PREFIX + HEX.formatHex(mac(body));
    }

    /** Constant-time check of a signature header against the request; false for any malformed header. */
    public boolean verify(long timestampMs, String requestId, String region, byte[] body, String signatureHeader) {
        if (signatureHeader == null || !signatureHeader.startsWith(VERSION_PREFIX)) {
            return false;
        }
        byte[] presented;
        try {
            presented = HEX.parseHex(signatureHeader.substring(VERSION_PREFIX.length()));
        } catch (IllegalArgumentException e) {
            return false;
        }
        byte[] expected = mac(canonicalForm(timestampMs, requestId, region, body));
        return MessageDigest.isEqual(expected, presented);
    }

    private byte[] mac(String canonical) {
        return mac(canonical.getBytes(StandardCharsets.UTF_8));
    }

    private byte[] mac(byte[] data) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(data);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is required by the Java platform", e);
        }
    }

    private static byte[] sha256(byte[] body) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(body == null ? new byte[0] : body);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by the Java platform", e);
        }
    }
}
