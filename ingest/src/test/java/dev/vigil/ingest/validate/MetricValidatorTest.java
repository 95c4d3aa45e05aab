package dev.vigil.ingest.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.kit.http.HttpProblem;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricValidatorTest {
    private static final long NOW = 1_764_500_000_000L;
    private final MetricValidator validator = new MetricValidator(300_000);

    private static List<JsonNode> batch(String json) {
        List<JsonNode> out = new java.util.ArrayList<>();
        Json.tree(json.getBytes(StandardCharsets.UTF_8)).forEach(out::add);
        return out;
    }

    private static String metric(String extra) {
        return "{\"schemaVersion\":1,\"metricName\":\"http_request\",\"status\":\"200\",\"timestamp\":" + NOW + extra
                + "}";
    }

    @Test
    void fillsTheAppFromTheKeyAndKeysByAppAndMetric() {
        var r = validator.validate(batch("[" + metric("") + "]"), "checkout", NOW);
        assertThat(r.rejected()).isEmpty();
        assertThat(r.accepted()).singleElement().satisfies(a -> {
            assertThat(a.value().appId()).isEqualTo("checkout");
            assertThat(a.key()).isEqualTo("checkout/http_request");
            assertThat(a.index()).isZero();
        });
    }

    @Test
    void stripsQueryAndFragmentFromThePathBeforeValidation() {
        var r = validator.validate(
                batch("[" + metric(",\"pathname\":\"/menu/2024?user=bob@example.com#top\"") + "]"), "checkout", NOW);
        assertThat(r.accepted())
                .singleElement()
                .extracting(a -> a.value().pathname())
                .isEqualTo("/menu/2024");
    }

    @Test
    void redactsPersonalDataInPathSegments() {
        var r = validator.validate(
                batch("[" + metric(",\"pathname\":\"/users/bob@example.com/orders\"") + "]"), "checkout", NOW);
        assertThat(r.accepted())
                .singleElement()
                .extracting(a -> a.value().pathname())
                .asString()
                .doesNotContain("example.com")
                .startsWith("/users/");
    }

    @Test
    void anotherAppRefusesTheWholeRequest() {
        assertThatThrownBy(() -> validator.validate(
                        batch("[" + metric("") + "," + metric(",\"appId\":\"billing\"") + "]"), "checkout", NOW))
                .isInstanceOfSatisfying(HttpProblem.class, p -> {
                    assertThat(p.status()).isEqualTo(403);
                    assertThat(p.detail()).contains("event 1").contains("'checkout'");
                });
    }

    @Test
    void sameAppNamedExplicitlyIsFine() {
        assertThat(validator
                        .validate(batch("[" + metric(",\"appId\":\"checkout\"") + "]"), "checkout", NOW)
                        .accepted())
                .hasSize(1);
    }

    @Test
    void timestampSkewIsInclusiveAtTheLimit() {
        String at = "[{\"schemaVersion\":1,\"metricName\":\"m\",\"timestamp\":" + (NOW - 300_000) + "},"
                + "{\"schemaVersion\":1,\"metricName\":\"m\",\"timestamp\":" + (NOW + 300_001) + "}]";
        var r = validator.validate(batch(at), "a", NOW);
        assertThat(r.accepted()).extracting(Accepted::index).containsExactly(0);
        assertThat(r.rejected()).singleElement().satisfies(x -> {
            assertThat(x.index()).isEqualTo(1);
            assertThat(x.field()).isEqualTo("timestamp");
            assertThat(x.kind()).isEqualTo(Rejection.Kind.TIMESTAMP);
        });
    }

    @Test
    void rejectsEachBadEventWithItsIndexFieldAndKind() {
        var r = validator.validate(
                batch("[" + metric("") + ",7," + metric(",\"labels\":{\"who\":\"bob@example.com\"}")
                        + ",{\"schemaVersion\":1,\"metricName\":\"BAD\",\"timestamp\":" + NOW + "},"
                        + metric(",\"value\":\"NaN\"") + "]"),
                "a",
                NOW);
        assertThat(r.accepted()).extracting(Accepted::index).containsExactly(0);
        assertThat(r.rejected())
                .extracting(Rejection::index, Rejection::field, Rejection::kind)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1, "$", Rejection.Kind.NOT_OBJECT),
                        org.assertj.core.groups.Tuple.tuple(2, "labels.who", Rejection.Kind.PRIVACY),
                        org.assertj.core.groups.Tuple.tuple(3, "metricName", Rejection.Kind.CONTRACT),
                        org.assertj.core.groups.Tuple.tuple(4, "value", Rejection.Kind.CONTRACT));
        assertThat(r.rejected().get(1).reason()).isEqualTo("contains an e-mail address");
    }

    @Test
    void acceptedValueIsTheCanonicalRecord() {
        var r = validator.validate(
                batch("[" + metric(",\"labels\":{\"b\":\"2\",\"a\":\"1\"},\"unknown\":true") + "]"), "a", NOW);
        assertThat(r.accepted().get(0).value())
                .isEqualTo(new DomainMetric(
                        1, "a", "http_request", "200", null, 1.0, null, Map.of("a", "1", "b", "2"), NOW));
    }
}
