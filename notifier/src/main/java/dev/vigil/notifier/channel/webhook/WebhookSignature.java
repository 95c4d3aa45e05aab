package dev.vigil.notifier.channel.webhook;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The generic webhook's signature, in the style of Stripe's: {@code t=<unix seconds>,v1=<hex HMAC>} where the HMAC
 * is HMAC-SHA-256 keyed with the channel's secret over {@code <t>.<exact body bytes>}. Binding the timestamp
 * into the MAC lets a receiver refuse an old request replayed with its original body; with the body alone
 * signed, a captured request stayed valid forever. The receiver's recipe is in the notifier's README.
 */
public final class WebhookSignature {
    /** Same header name as before; only the value's format changed. */
    public static final String HEADER = "X-Vigil-Signature";
    /** How far from its own clock a receiver should accept {@code t}, as the README recommends. */
    public static final long TOLERANCE_SECONDS = 300;

    private static final String ALGORITHM = "HmacSHA256";
    private static final HexFormat HEX = HexFormat.of();

    private final SecretKeySpec key;

    /** @param secret at least 32 bytes (checked at start-up as well), so the key is not the weak point */
    public WebhookSignature(byte[] secret) {
        if (secret == null || secret.length < 32) {
            throw new IllegalArgumentException("webhook signing secret must be at least 32 bytes");
        }
        this.key = new SecretKeySpec(secret.clone(), ALGORITHM);
    }

    /** The header value for a body sent at {@code epochSeconds}. */
    public String header(long epochSeconds, byte[] body) {
        return "t=" + epochSeconds + ",v1=" + HEX.formatHex(mac(epochSeconds, body));
    }

    private byte[] mac(long epochSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            mac.update((epochSeconds + ".").getBytes(StandardCharsets.US_ASCII));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is required by the Java platform", e);
        }
    }
}
