package dev.vigil.schemas.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.validate.PrivacyViolation.Kind;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Data written with look-alike, invisible or unusual separator characters is found as if written plainly. */
class PrivacyGuardNormalisationTest {

    /** Fullwidth forms, which NFKC folds to ASCII. */
    private static final String FULLWIDTH_EMAIL =
            "\uFF4A\uFF4F\uFF48\uFF4E\uFF20\uFF45\uFF58\uFF41\uFF4D\uFF50\uFF4C\uFF45\uFF0E\uFF43\uFF4F\uFF4D";

    private static final String FULLWIDTH_CARD =
            "\uFF14\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11\uFF11";

    static Stream<Arguments> disguisedValues() {
        return Stream.of(
                arguments("ｊｏｈｎ＠ｅｘａｍｐｌｅ．ｃｏｍ", Kind.EMAIL),
                arguments(FULLWIDTH_EMAIL, Kind.EMAIL),
                arguments("john＠example．com", Kind.EMAIL),
                arguments("jo\u200Bhn@exa\u200Bmple.com", Kind.EMAIL),
                arguments("login failed for jo\u2060hn@exa\uFEFFmple.com", Kind.EMAIL),
                arguments("john%EF%BC%A0example.com", Kind.EMAIL),
                arguments("4111.1111.1111.1111", Kind.CARD_NUMBER),
                arguments("4111/1111/1111/1111", Kind.CARD_NUMBER),
                arguments("3782.822463.10005", Kind.CARD_NUMBER),
                arguments("card 5500.0000.0000.0004 declined", Kind.CARD_NUMBER),
                arguments("/cards/4111/1111/1111/1111", Kind.CARD_NUMBER),
                arguments("4111%2F1111%2F1111%2F1111", Kind.CARD_NUMBER),
                arguments("4111\u00A01111\u00A01111\u00A01111", Kind.CARD_NUMBER),
                arguments("4111\u202F1111\u202F1111\u202F1111", Kind.CARD_NUMBER),
                arguments("4111\u20091111\u20091111\u20091111", Kind.CARD_NUMBER),
                arguments("4111\u20131111\u20131111\u20131111", Kind.CARD_NUMBER),
                arguments(FULLWIDTH_CARD, Kind.CARD_NUMBER),
                arguments("４１１１　１１１１　１１１１　１１１１", Kind.CARD_NUMBER),
                arguments("４１１１．１１１１．１１１１．１１１１", Kind.CARD_NUMBER),
                arguments("41\u200B11111111111111", Kind.CARD_NUMBER),
                arguments("＋１ ４１５ ５５５ ２６７１", Kind.PHONE_NUMBER),
                arguments("+1\u00A0415\u00A0555\u00A02671", Kind.PHONE_NUMBER),
                arguments("Bearer\u00A0abc123def456ghi789", Kind.BEARER_TOKEN),
                arguments("ｐａｓｓｗｏｒｄ＝hunter2", Kind.PASSWORD),
                arguments("/search\uFF1Fq=shoes", Kind.QUERY_STRING));
    }

    /** Legitimate values, ASCII or not: normalisation must not turn them into findings. */
    static Stream<String> legitimateValues() {
        return Stream.of(
                "checkout-api",
                "ORD-2024-000123",
                "123e4567-e89b-12d3-a456-426614174000",
                "1764531314000",
                "1.2.3.4",
                "10.0.19045.3693",
                "v2024.11.30",
                "2024.11.30-1234",
                "PT1H30M",
                "1500ms",
                "1h30m",
                "250\u00B5s",
                "2026-11-30T19:35:14Z",
                "/api/v1/orders/1234",
                "/orders/2024/1130/1234",
                "2024/11/30",
                "30.11.2026",
                "4111.1111.1111.1112",
                "4111/1111/1111/1112",
                "4111\u00A01111\u00A01111\u00A01112",
                "1234.5678.1234.5670",
                "192.168.100.200",
                "Z\u00FCrich",
                "caf\u00E9 au lait",
                "\u65E5\u672C\u8A9E\u306E\u30C6\u30AD\u30B9\u30C8",
                "/menu/cr\u00E8me-br\u00FBl\u00E9e",
                "naive \u2014 r\u00E9sum\u00E9",
                "\uD83D\uDE00 ok",
                "1\u00A0234\u00A0567 requests",
                "\u200Bcheckout\u200B",
                "p95\u00A0>\u00A02000ms",
                "status \u2212 200",
                "\u202Eevil\u202C");
    }

    @ParameterizedTest(name = "rejects {0} as {1}")
    @MethodSource("disguisedValues")
    void disguisedDataIsRejectedWithItsKind(String value, Kind kind) {
        assertThat(PrivacyGuard.check("labels.x", value)).contains(new PrivacyViolation("labels.x", kind));
    }

    @ParameterizedTest(name = "message for {0} echoes neither it nor its normalised form")
    @MethodSource("disguisedValues")
    void messagesNeverEchoTheValueOrItsNormalisedForm(String value, Kind kind) {
        String normalised = java.text.Normalizer.normalize(value, java.text.Normalizer.Form.NFKC);
        assertThatThrownBy(() -> PrivacyGuard.requireClean("summary", value))
                .isInstanceOf(ContractViolation.class)
                .hasMessage("summary: contains " + kind.description())
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(value).doesNotContain(normalised));
    }

    @ParameterizedTest(name = "passes {0}")
    @MethodSource("legitimateValues")
    void legitimateValuesStillPass(String value) {
        assertThat(PrivacyGuard.check("f", value)).isEmpty();
    }

    /** Each zero-width or bidi control the spec names, hidden inside an address. */
    @ParameterizedTest(name = "U+{0} inside an e-mail address")
    @ValueSource(
            strings = {
                "200B", "200C", "200D", "2060", "FEFF", "061C", "200E", "200F", "202A", "202B", "202C", "202D", "202E",
                "2066", "2067", "2068", "2069", "00AD"
            })
    void invisibleCharactersCannotSplitAnAddress(String hex) {
        String invisible = Character.toString(Integer.parseInt(hex, 16));
        String value = "alice" + invisible + "@example" + invisible + ".com";
        assertThat(PrivacyGuard.check("f", value)).contains(new PrivacyViolation("f", Kind.EMAIL));
    }

    @Test
    void aSanitisedPathIsStillCheckedForWhatTheSanitizerCannotSee() {
        String fullwidth = PathSanitizer.sanitize("/users/" + FULLWIDTH_EMAIL + "/orders");
        String slashed = PathSanitizer.sanitize("/cards/4111/1111/1111/1111");
        String dotted = PathSanitizer.sanitize("/pay/4111.1111.1111.1111");

        assertThat(PrivacyGuard.inspectSanitized(metric(fullwidth, Map.of())))
                .containsExactly(new PrivacyViolation("pathname", Kind.EMAIL));
        assertThat(PrivacyGuard.inspectSanitized(metric(slashed, Map.of())))
                .containsExactly(new PrivacyViolation("pathname", Kind.CARD_NUMBER));
        assertThat(PrivacyGuard.inspectSanitized(metric(dotted, Map.of())))
                .containsExactly(new PrivacyViolation("pathname", Kind.CARD_NUMBER));
        assertThat(PrivacyGuard.inspectSanitized(metric("/api/v1/orders/1234", Map.of())))
                .isEmpty();
        assertThat(PrivacyGuard.inspectSanitized(
                        metric(PathSanitizer.sanitize("/menu/cr\u00E8me-br\u00FBl\u00E9e"), Map.of())))
                .isEmpty();
    }

    @Test
    void labelKeysAndValuesAreNormalisedAndTheKeyIsNeverEchoed() {
        DomainMetric metric = metric(
                "/menu",
                Map.of(FULLWIDTH_EMAIL, "1", "card", "4111\u00A01111\u00A01111\u00A01111", "region", "eu-west"));
        List<PrivacyViolation> violations = PrivacyGuard.inspectSanitized(metric);
        assertThat(violations)
                .containsExactlyInAnyOrder(
                        new PrivacyViolation("labels", Kind.EMAIL),
                        new PrivacyViolation("labels.card", Kind.CARD_NUMBER));
        assertThat(violations)
                .allSatisfy(v ->
                        assertThat(v.message()).doesNotContain(FULLWIDTH_EMAIL).doesNotContain("john@example.com"));
        assertThat(PrivacyGuard.inspect(metric)).isEqualTo(violations);
    }

    @Test
    void alertTextIsNormalisedToo() {
        AlertEvent event = new AlertEvent(
                1,
                null,
                "monitor/checkout-api",
                null,
                AlertState.OPENED,
                Severity.CRITICAL,
                "checkout",
                "api",
                "Login failing for jo\u200Bhn@exa\u200Bmple.com",
                Map.of(),
                Map.of("card", "4111/1111/1111/1111"),
                null,
                1_764_531_314_000L,
                1_764_531_314_000L,
                AlertSource.APP,
                null,
                List.of("ops"));
        assertThat(PrivacyGuard.inspect(event))
                .containsExactly(
                        new PrivacyViolation("summary", Kind.EMAIL),
                        new PrivacyViolation("attributes.card", Kind.CARD_NUMBER));
    }

    private static DomainMetric metric(String pathname, Map<String, String> labels) {
        return new DomainMetric(
                1, "bakery", DomainMetric.HTTP_REQUEST, "200", pathname, null, 14.2, labels, 1_764_531_314_000L);
    }
}
