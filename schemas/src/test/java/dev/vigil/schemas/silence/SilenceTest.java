package dev.vigil.schemas.silence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.json.Json;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class SilenceTest {
    static final long T0 = 1_767_225_600_000L;
    static final long H = 3_600_000L;

    static Silence silence(
            String id, String fingerprint, String service, Map<String, String> attrs, long start, long end) {
        return new Silence(1, id, fingerprint, service, attrs, start, end, "ops@oncall", "deploy window", start - 1000);
    }

    @ParameterizedTest(name = "{0} ~ {1} -> {2}")
    @CsvSource({
        "monitor/checkout-api, monitor/checkout-api, true",
        "monitor/checkout-api, monitor/checkout-api/tls, false",
        "monitor/checkout-*, monitor/checkout-api, true",
        "monitor/checkout-*, monitor/checkout-api/no-data, true",
        "monitor/checkout-*, monitor/cart, false",
        "*, worker/us-east/w-1, true",
        "worker/*/w-1, worker/eu-west/w-1, true",
        "worker/*/w-1, worker/eu-west/w-10, false",
        "*/tls, monitor/a/tls, true",
        "a*b*c, abxbc, true",
        "a*b*c, acb, false",
        "monitor/a, monitor/ab, false"
    })
    void fingerprintGlobs(String glob, String fingerprint, boolean matches) {
        assertThat(Silence.globMatches(glob, fingerprint)).isEqualTo(matches);
    }

    @Test
    void allMatchersMustMatch() {
        Silence s = silence("s1", "monitor/*", "checkout", Map.of("region", "us-east"), T0, T0 + H);
        assertThat(s.matches("monitor/api", "checkout", Map.of("region", "us-east", "x", "y")))
                .isTrue();
        assertThat(s.matches("monitor/api", "cart", Map.of("region", "us-east")))
                .isFalse();
        assertThat(s.matches("monitor/api", "checkout", Map.of("region", "eu-west")))
                .isFalse();
        assertThat(s.matches("monitor/api", "checkout", Map.of())).isFalse();
        assertThat(s.matches("rule/x/checkout", "checkout", Map.of("region", "us-east")))
                .isFalse();
        Silence byService = silence("s2", null, "checkout", null, T0, T0 + H);
        assertThat(byService.matches("rule/dlq-routed/shop", "checkout", null)).isTrue();
    }

    @Test
    void activeOnAHalfOpenInterval() {
        Silence s = silence("s1", "*", null, null, T0, T0 + H);
        assertThat(s.activeAt(T0 - 1)).isFalse();
        assertThat(s.activeAt(T0)).isTrue();
        assertThat(s.activeAt(T0 + H - 1)).isTrue();
        assertThat(s.activeAt(T0 + H)).isFalse();
        assertThat(s.expiredAt(T0 + H)).isTrue();
    }

    @Test
    void expireEndsAnActiveSilenceNowAndDeletesAFutureOne() {
        Silence s = silence("s1", "*", null, null, T0, T0 + H);
        Silence ended = s.expire(T0 + 10).orElseThrow();
        assertThat(ended.endsAt()).isEqualTo(T0 + 10);
        assertThat(ended.activeAt(T0 + 10)).isFalse();
        assertThat(ended.activeAt(T0 + 9)).isTrue();
        assertThat(s.expire(T0 - 5)).isEmpty();
        assertThat(s.expire(T0)).isEmpty();
        assertThat(ended.expire(T0 + 20)).contains(ended);
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("no matcher", (Runnable) () -> silence("s", null, null, null, T0, T0 + H), "fingerprint"),
                Arguments.of("end before start", (Runnable) () -> silence("s", "*", null, null, T0, T0), "endsAt"),
                Arguments.of(
                        "longer than a year",
                        (Runnable) () -> silence("s", "*", null, null, T0, T0 + 367 * 24 * H),
                        "endsAt"),
                Arguments.of(
                        "bad fingerprint",
                        (Runnable) () -> silence("s", "monitor/a b", null, null, T0, T0 + H),
                        "fingerprint"),
                Arguments.of("bad id", (Runnable) () -> silence("Not A Slug", "*", null, null, T0, T0 + H), "id"),
                Arguments.of("blank service", (Runnable) () -> silence("s", null, " ", null, T0, T0 + H), "service"),
                Arguments.of(
                        "no author",
                        (Runnable) () -> new Silence(1, "s", "*", null, null, T0, T0 + H, null, "r", T0),
                        "author"),
                Arguments.of(
                        "no reason",
                        (Runnable) () -> new Silence(1, "s", "*", null, null, T0, T0 + H, "a", " ", T0),
                        "reason"),
                Arguments.of(
                        "no start",
                        (Runnable) () -> new Silence(1, "s", "*", null, null, null, T0 + H, "a", "r", T0),
                        "startsAt"),
                Arguments.of(
                        "no createdAt",
                        (Runnable) () -> new Silence(1, "s", "*", null, null, T0, T0 + H, "a", "r", null),
                        "createdAt"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void invalidSilencesAreRefusedNamingTheField(String name, Runnable make, String field) {
        assertThatThrownBy(make::run)
                .isInstanceOf(ContractViolation.class)
                .satisfies(e -> assertThat(((ContractViolation) e).field()).isEqualTo(field));
    }

    @Test
    void roundTripsThroughTheSharedMapperAndReportsTheFieldOnBadJson() {
        Silence s = silence("maint-1", "monitor/checkout-*", "checkout", Map.of("region", "us-east"), T0, T0 + H);
        assertThat(Json.read(Json.bytes(s), Silence.class)).isEqualTo(s);
        String noEnd =
                "{\"id\":\"s\",\"fingerprint\":\"*\",\"startsAt\":1,\"author\":\"a\",\"reason\":\"r\",\"createdAt\":1}";
        assertThatThrownBy(() -> Json.read(noEnd, Silence.class))
                .isInstanceOf(ContractViolation.class)
                .hasMessageContaining("endsAt");
    }

    @Test
    void matcherAnswersAtATime() {
        Silence maint = silence("maint", "monitor/checkout-*", null, null, T0, T0 + H);
        Silence later = silence("later", "*", "cart", null, T0 + 2 * H, T0 + 3 * H);
        SilenceMatcher m = new SilenceMatcher(List.of(later, maint));
        assertThat(m.isSilenced("monitor/checkout-api", "checkout", Map.of(), T0 + 5))
                .isTrue();
        assertThat(m.isSilenced("monitor/checkout-api", "checkout", Map.of(), T0 + H))
                .isFalse();
        assertThat(m.isSilenced("monitor/cart", "cart", Map.of(), T0 + 5)).isFalse();
        assertThat(m.isSilenced("monitor/cart", "cart", Map.of(), T0 + 2 * H)).isTrue();
        assertThat(m.matching("monitor/checkout-api", "checkout", Map.of(), T0 + 5))
                .containsExactly(maint);
        assertThat(m.current(T0 + 5)).containsExactly(maint, later);
        assertThat(m.current(T0 + H)).containsExactly(later);
        assertThat(SilenceMatcher.none().isSilenced("monitor/a", "a", Map.of(), T0))
                .isFalse();
    }
}
