package dev.vigil.schemas.sign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestSignerTest {
    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private static final byte[] BODY = "[{\"monitorId\":\"api\"}]".getBytes(StandardCharsets.UTF_8);
    private final RequestSigner signer = new RequestSigner(SECRET);

    @Test
    void signatureVerifies() {
        String sig = signer.sign(1_764_531_314_123L, "req-1", "us-east", BODY);
        assertThat(sig).startsWith("v1=").hasSize(3 + 64);
        assertThat(signer.verify(1_764_531_314_123L, "req-1", "us-east", BODY, sig))
                .isTrue();
    }

    @Test
    void everyCanonicalFieldIsBound() {
        String sig = signer.sign(1000, "req-1", "us-east", BODY);
        assertThat(signer.verify(1001, "req-1", "us-east", BODY, sig))
                .as("timestamp")
                .isFalse();
        assertThat(signer.verify(1000, "req-2", "us-east", BODY, sig))
                .as("request id")
                .isFalse();
        assertThat(signer.verify(1000, "req-1", "eu-west", BODY, sig))
                .as("region")
                .isFalse();
        byte[] tampered = BODY.clone();
        tampered[3] ^= 1;
        assertThat(signer.verify(1000, "req-1", "us-east", tampered, sig))
                .as("body")
                .isFalse();
        RequestSigner other = new RequestSigner("fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.UTF_8));
        assertThat(other.verify(1000, "req-1", "us-east", BODY, sig)).as("key").isFalse();
    }

    @Test
    void malformedHeadersAreRejectedNotThrown() {
        assertThat(signer.verify(1000, "r", "us-east", BODY, null)).isFalse();
        assertThat(signer.verify(1000, "r", "us-east", BODY, "")).isFalse();
        assertThat(signer.verify(1000, "r", "us-east", BODY, "v1=zz")).isFalse();
        assertThat(signer.verify(1000, "r", "us-east", BODY, "v2=" + "0".repeat(64)))
                .isFalse();
        assertThat(signer.verify(1000, "r", "us-east", BODY, "v1=" + "0".repeat(10)))
                .isFalse();
    }

    @Test
    void canonicalFormIsStable() {
        // A change here breaks every remote worker in the field: it must be deliberate.
        assertThat(RequestSigner.canonicalForm(42, "req", "us-east", new byte[0]))
                .isEqualTo(
                        "vigil-v1\n42\nreq\nus-east\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void knownAnswerMatchesOpenssl() {
        // printf '<canonical form>' | openssl dgst -sha256 -hmac 0123456789abcdef0123456789abcdef
        assertThat(signer.sign(42, "req", "us-east", new byte[0]))
                .isEqualTo("v1=061353dd6a468d5acb3167d6da180d8d5e38930eea0937c29f8896e34a72a957");
    }

    @Test
    void shortSecretsAreRefused() {
        assertThatThrownBy(() -> new RequestSigner(new byte[16])).hasMessageContaining("at least 32 bytes");
    }
}
