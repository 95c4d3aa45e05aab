package dev.vigil.schemas.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.vigil.schemas.validate.PrivacyViolation.Kind;
import java.nio.charset.StandardCharsets;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Percent-encoding applied again and again must not walk forbidden data past the guard: every layer is decoded
 * until nothing changes, and a value nested deeper than any real one is refused rather than half-read.
 */
class PrivacyGuardNestedEncodingTest {

    /** What the guard refuses in plain form, each read by a different path of the guard. */
    static Stream<Arguments> refusedInPlainForm() {
        return Stream.of(
                arguments("/users/alice@example.com/orders", Kind.EMAIL),
                arguments("login failed for john\uFF20example.com", Kind.EMAIL),
                arguments("/cards/4111/1111/1111/1111", Kind.CARD_NUMBER),
                arguments("/search?q=shoes", Kind.QUERY_STRING),
                arguments("password=hunter2", Kind.PASSWORD));
    }

    static Stream<Arguments> nestedEncodings() {
        return refusedInPlainForm().flatMap(a -> IntStream.of(2, 3, 4, 5, PercentDecoding.MAX_ROUNDS)
                .mapToObj(n -> arguments(n, a.get()[0], a.get()[1])));
    }

    @ParameterizedTest(name = "{0}-fold {1}")
    @MethodSource("nestedEncodings")
    void everyLayerIsDecodedBeforeTheChecks(int folds, String plain, Kind kind) {
        assertThat(PrivacyGuard.check("v", plain)).as("plain").hasValueSatisfying(v -> assertThat(v.kind())
                .isEqualTo(kind));
        String encoded = encode(plain, folds);
        assertThat(PrivacyGuard.check("pathname", encoded)).as(encoded).hasValueSatisfying(v -> assertThat(v.kind())
                .isEqualTo(kind));
    }

    @ParameterizedTest(name = "{0} folds past the bound")
    @ValueSource(ints = {1, 4})
    void aValueStillChangingAfterTheBoundIsRefused(int beyond) {
        String encoded = encode("/users/alice@example.com", PercentDecoding.MAX_ROUNDS + beyond);
        assertThat(PrivacyGuard.check("pathname", encoded))
                .hasValueSatisfying(v -> assertThat(v.kind()).isEqualTo(Kind.NESTED_ENCODING));
        assertThat(PrivacyGuard.check("pathname", encoded).orElseThrow().message())
                .isEqualTo("field 'pathname' contains a percent-encoding nested too deep to check");
    }

    @Test
    void ordinaryEncodedValuesStillPass() {
        for (String value : new String[] {
            "/files/report%202024.pdf",
            "100%25",
            "50% done",
            "%zz%",
            "/a%2Fb%252Fc",
            "/caf%C3%A9/menu",
            encode("/docs/getting started", 3)
        }) {
            assertThat(PrivacyGuard.check("pathname", value)).as(value).isEmpty();
        }
    }

    @Test
    void theDecoderStopsAtTheFixedPoint() {
        assertThat(PercentDecoding.decode(encode("a@b", 5))).isEqualTo("a@b");
        assertThat(PercentDecoding.decode("100%25")).isEqualTo("100%");
        assertThat(PercentDecoding.decode(encode("a@b", PercentDecoding.MAX_ROUNDS + 1)))
                .isNull();
    }

    /** Every byte that is not a letter or digit as {@code %XX}, {@code folds} times over. */
    static String encode(String value, int folds) {
        String out = value;
        for (int i = 0; i < folds; i++) {
            var sb = new StringBuilder();
            for (byte b : out.getBytes(StandardCharsets.UTF_8)) {
                int c = b & 0xff;
                if (c < 0x80 && Character.isLetterOrDigit(c)) {
                    sb.append((char) c);
                } else {
                    sb.append('%').append(String.format("%02X", c));
                }
            }
            out = sb.toString();
        }
        return out;
    }
}
