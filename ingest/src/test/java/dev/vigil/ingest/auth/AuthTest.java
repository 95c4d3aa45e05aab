package dev.vigil.ingest.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.sign.RequestSigner;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuthTest {
    private static final long NOW = 1_764_500_000_000L;
    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private static final byte[] SECRET_2 = "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.UTF_8);

    @Test
    void apiKeysMatchOnlyTheirHashAndNeverAcceptOtherSchemes() {
        ApiKeys keys = new ApiKeys(Map.of(
                "checkout",
                List.of(ApiKeys.hash("k-1"), ApiKeys.hash("k-2")),
                "billing",
                List.of(ApiKeys.hash("k-3"))));
        assertThat(keys.authenticate("Bearer k-1")).contains("checkout");
        assertThat(keys.authenticate("bearer   k-2 ")).contains("checkout");
        assertThat(keys.authenticate("Bearer k-3")).contains("billing");
        assertThat(keys.authenticate("Bearer k-4")).isEmpty();
        assertThat(keys.authenticate("Basic k-1")).isEmpty();
        assertThat(keys.authenticate("Bearer ")).isEmpty();
        assertThat(keys.authenticate(null)).isEmpty();
        assertThat(keys.authenticate("Bearer " + ApiKeys.hash("k-1")))
                .as("the hash itself is not a key")
                .isEmpty();
        assertThat(ApiKeys.hash("abc")).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void replayCacheRefusesRepeatsAndStaysBounded() {
        ReplayCache cache = new ReplayCache(2, 60_000);
        assertThat(cache.remember("a", NOW, NOW)).isEqualTo(ReplayCache.Admission.NEW);
        assertThat(cache.remember("a", NOW, NOW)).isEqualTo(ReplayCache.Admission.REPLAYED);
        assertThat(cache.remember("b", NOW, NOW)).isEqualTo(ReplayCache.Admission.NEW);
        assertThat(cache.remember("c", NOW, NOW)).as("full of live ids").isEqualTo(ReplayCache.Admission.FULL);
        assertThat(cache.remember("c", NOW, NOW + 60_001))
                .as("expired ids make room")
                .isEqualTo(ReplayCache.Admission.NEW);
        assertThat(cache.size()).isEqualTo(1);
        cache.forget("c");
        assertThat(cache.remember("c", NOW, NOW)).isEqualTo(ReplayCache.Admission.NEW);
    }

    private SignatureVerifier verifier(int replayCacheSize) {
        return new SignatureVerifier(
                Map.of(
                        "w1", new SignatureVerifier.WorkerKey("us-east", "probe-us-east-1", new RequestSigner(SECRET)),
                        "w2", new SignatureVerifier.WorkerKey("eu-west", "w2", new RequestSigner(SECRET_2))),
                replayCacheSize,
                60_000,
                Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC));
    }

    private static SignedRequest signed(long ts, String id, String region, byte[] body) {
        return new SignedRequest(
                "w1", Long.toString(ts), id, region, new RequestSigner(SECRET).sign(ts, id, region, body));
    }

    private static SignedRequest signedByW2(long ts, String id, byte[] body) {
        return new SignedRequest(
                "w2", Long.toString(ts), id, "eu-west", new RequestSigner(SECRET_2).sign(ts, id, "eu-west", body));
    }

    @Test
    void eachKeyHasItsOwnReplayCacheSoOneKeyFillingItLocksOutOnlyItself() {
        SignatureVerifier v = verifier(16);
        byte[] body = "[]".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 16; i++) {
            assertThat(v.verify(signed(NOW, "a-" + i, "us-east", body), body).ok())
                    .isTrue();
        }
        assertThat(v.verify(signed(NOW, "a-16", "us-east", body), body).failure())
                .as("w1's cache is full of live ids")
                .isEqualTo(SignatureVerifier.Failure.REPLAY_CACHE_FULL);
        for (int i = 0; i < 15; i++) {
            assertThat(v.verify(signedByW2(NOW, "b-" + i, body), body).ok())
                    .as("w2's fresh request %d", i)
                    .isTrue();
        }
        assertThat(v.verify(signed(NOW, "a-0", "us-east", body), body).failure())
                .as("a replay of w1's id is still refused")
                .isEqualTo(SignatureVerifier.Failure.REPLAYED);
        assertThat(v.verify(signedByW2(NOW, "a-0", body), body).ok())
                .as("request ids are per key: w2 may use an id w1 used")
                .isTrue();
        assertThat(v.replayCacheSize("w1")).isEqualTo(16);
        assertThat(v.replayCacheSize("w2")).isEqualTo(16);
        assertThat(v.replayCacheSize("w9")).isZero();
    }

    @Test
    void extremeSignatureTimestampsAreRefusedWithoutOverflow() {
        SignatureVerifier v = verifier(100);
        byte[] body = "[]".getBytes(StandardCharsets.UTF_8);
        // Math.abs(now - ts) wraps to Long.MIN_VALUE for this ts, which passed any skew check.
        long wraps = Long.MIN_VALUE + NOW;
        assertThat(v.verify(signed(wraps, "r1", "us-east", body), body).failure())
                .isEqualTo(SignatureVerifier.Failure.BAD_TIMESTAMP);
        assertThat(v.verify(signed(-1, "r2", "us-east", body), body).failure())
                .isEqualTo(SignatureVerifier.Failure.BAD_TIMESTAMP);
        assertThat(v.verify(signed(Long.MAX_VALUE, "r3", "us-east", body), body).failure())
                .isEqualTo(SignatureVerifier.Failure.STALE);
        for (String ts :
                new String[] {"+999999999-01-01T00:00:00Z", "2026-13-45T99:00:00Z", "1e300", "9223372036854775808", ""
                }) {
            assertThat(v.verify(new SignedRequest("w1", ts, "r4", "us-east", "v1=00"), body)
                            .failure())
                    .as(ts)
                    .isEqualTo(SignatureVerifier.Failure.BAD_TIMESTAMP);
        }
        assertThat(v.replayCacheSize("w1")).isZero();
    }

    @Test
    void replayCacheEvictionDoesNotOverflowOnExtremeTimestamps() {
        ReplayCache cache = new ReplayCache(2, 60_000);
        assertThat(cache.remember("a", Long.MIN_VALUE + NOW, NOW)).isEqualTo(ReplayCache.Admission.NEW);
        assertThat(cache.remember("b", NOW, NOW)).isEqualTo(ReplayCache.Admission.NEW);
        assertThat(cache.remember("c", NOW, NOW))
                .as("the absurd id is expired, not kept forever")
                .isEqualTo(ReplayCache.Admission.NEW);
    }

    @Test
    void verifiesFreshSignedRequestsOnce() {
        SignatureVerifier v = verifier(100);
        byte[] body = "[]".getBytes(StandardCharsets.UTF_8);
        var ok = v.verify(signed(NOW - 60_000, "r1", "us-east", body), body);
        assertThat(ok.ok()).isTrue();
        assertThat(ok.region()).isEqualTo("us-east");
        assertThat(ok.workerId())
                .as("the worker the key speaks for (heartbeats)")
                .isEqualTo("probe-us-east-1");
        assertThat(v.verify(signed(NOW - 60_000, "r1", "us-east", body), body).failure())
                .isEqualTo(SignatureVerifier.Failure.REPLAYED);
        v.release(ok);
        assertThat(v.verify(signed(NOW, "r1", "us-east", body), body).ok())
                .as("released after a 503")
                .isTrue();
    }

    @Test
    void refusesEachKindOfBadRequest() {
        SignatureVerifier v = verifier(100);
        byte[] body = "[1]".getBytes(StandardCharsets.UTF_8);
        assertThat(v.verify(new SignedRequest(null, "1", "r", "us-east", "v1=00"), body)
                        .failure())
                .isEqualTo(SignatureVerifier.Failure.MISSING_HEADERS);
        var s = signed(NOW, "r2", "us-east", body);
        assertThat(v.verify(new SignedRequest("w9", s.timestamp(), s.requestId(), s.region(), s.signature()), body)
                        .failure())
                .as("an unknown key id is told apart from a wrong signature by nothing")
                .isEqualTo(SignatureVerifier.Failure.BAD_SIGNATURE);
        assertThat(v.verify(new SignedRequest("w1", "soon", "r2", "us-east", s.signature()), body)
                        .failure())
                .isEqualTo(SignatureVerifier.Failure.BAD_TIMESTAMP);
        assertThat(v.verify(new SignedRequest("w1", s.timestamp(), "has space", "us-east", s.signature()), body)
                        .failure())
                .isEqualTo(SignatureVerifier.Failure.BAD_REQUEST_ID);
        assertThat(v.verify(signed(NOW, "r3", "eu-west", body), body).failure())
                .isEqualTo(SignatureVerifier.Failure.WRONG_REGION);
        assertThat(v.verify(signed(NOW - 60_001, "r4", "us-east", body), body).failure())
                .isEqualTo(SignatureVerifier.Failure.STALE);
        assertThat(v.verify(signed(NOW + 60_001, "r5", "us-east", body), body).failure())
                .isEqualTo(SignatureVerifier.Failure.STALE);
        assertThat(v.verify(s, "[2]".getBytes(StandardCharsets.UTF_8)).failure())
                .isEqualTo(SignatureVerifier.Failure.BAD_SIGNATURE);
        assertThat(v.verify(new SignedRequest("w1", s.timestamp(), s.requestId(), s.region(), "v1=zz"), body)
                        .failure())
                .isEqualTo(SignatureVerifier.Failure.BAD_SIGNATURE);
        assertThat(v.replayCacheSize("w1"))
                .as("nothing unverified enters the replay cache")
                .isZero();
    }
}
