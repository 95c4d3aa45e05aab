package dev.vigil.schemas.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.vigil.schemas.json.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A request header's value: a string, or {@code {"secretEnv": "NAME"}}; the secret itself never travels. */
class HeaderValueTest {
    private static final String SECRET = "s3cr3t-hunter2";

    @Test
    void aStringIsAPlainValueBothWays() {
        HeaderValue v = Json.read("\"application/json\"", HeaderValue.class);
        assertThat(v).isEqualTo(HeaderValue.plain("application/json"));
        assertThat(v.value()).isEqualTo("application/json");
        assertThat(v.secretEnv()).isNull();
        assertThat(v.isSecret()).isFalse();
        assertThat(Json.string(v)).isEqualTo("\"application/json\"");
        assertThat(Json.string(HeaderValue.plain("")))
                .as("an empty value is a legal header")
                .isEqualTo("\"\"");
        assertThat(HeaderValue.plain("a\tb").value()).as("tab is allowed").isEqualTo("a\tb");
    }

    @Test
    void anObjectWithSecretEnvNamesTheVariableBothWays() {
        HeaderValue v = Json.read("{\"secretEnv\": \"HEALTH_TOKEN\"}", HeaderValue.class);
        assertThat(v).isEqualTo(HeaderValue.secret("HEALTH_TOKEN"));
        assertThat(v.value()).isNull();
        assertThat(v.secretEnv()).isEqualTo("HEALTH_TOKEN");
        assertThat(v.isSecret()).isTrue();
        assertThat(Json.string(v)).isEqualTo("{\"secretEnv\":\"HEALTH_TOKEN\"}");
        assertThat(Json.read(Json.bytes(v), HeaderValue.class)).isEqualTo(v);
    }

    @Test
    void aMapOfHeadersRoundTripsWithBothForms() throws Exception {
        Map<String, HeaderValue> headers = Map.of(
                "Authorization", HeaderValue.secret("API_TOKEN"), "Accept", HeaderValue.plain("application/json"));
        String json = Json.string(headers);
        assertThat(json).isEqualTo("{\"Accept\":\"application/json\",\"Authorization\":{\"secretEnv\":\"API_TOKEN\"}}");
        assertThat(Json.mapper().readValue(json, new TypeReference<Map<String, HeaderValue>>() {}))
                .isEqualTo(headers);
    }

    @Test
    void bothOrNeitherIsRefused() {
        assertThatThrownBy(() -> new HeaderValue("Bearer x", "API_TOKEN"))
                .isInstanceOfSatisfying(
                        ContractViolation.class, v -> assertThat(v.field()).isEqualTo("$"));
        assertThatThrownBy(() -> new HeaderValue(null, null))
                .isInstanceOfSatisfying(
                        ContractViolation.class, v -> assertThat(v.field()).isEqualTo("$"));
        // on the wire: an object with anything but secretEnv, or without it
        assertRefused("{\"value\": \"Bearer x\", \"secretEnv\": \"API_TOKEN\"}", "$");
        assertRefused("{\"value\": \"Bearer x\"}", "$");
        assertRefused("{}", "secretEnv");
        assertRefused("{\"secretEnv\": null}", "secretEnv");
        assertRefused("{\"secretEnv\": 7}", "secretEnv");
        assertRefused("12", "$");
        assertRefused("true", "$");
        assertRefused("[\"a\"]", "$");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1TOKEN", "API-TOKEN", "API TOKEN", "", "$API", "ÄPI"})
    void aSecretEnvMustBeAnEnvironmentVariableName(String env) {
        assertThatThrownBy(() -> HeaderValue.secret(env))
                .isInstanceOfSatisfying(
                        ContractViolation.class, v -> assertThat(v.field()).isEqualTo("secretEnv"));
        assertRefused("{\"secretEnv\": " + Json.string(env) + "}", "secretEnv");
    }

    @Test
    void secretEnvNamesOfUpTo128CharactersAreAccepted() {
        assertThat(HeaderValue.secret("_" + "A".repeat(127)).secretEnv()).hasSize(128);
        assertThat(HeaderValue.secret("api_token_2").secretEnv()).isEqualTo("api_token_2");
        assertThatThrownBy(() -> HeaderValue.secret("A".repeat(129))).isInstanceOf(ContractViolation.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\rb", "a\nX-Injected: 1", "\u0000", "a\u001fb", "a\u007fb"})
    void controlCharactersInAValueAreRefused(String value) {
        assertThatThrownBy(() -> HeaderValue.plain(value))
                .isInstanceOfSatisfying(
                        ContractViolation.class, v -> assertThat(v.field()).isEqualTo("value"));
        // the string is the value itself on the wire, so the violation names the header, not a member of it
        assertRefused(Json.string(value), "$");
    }

    @Test
    void aValueIsAtMost1024Characters() {
        assertThat(HeaderValue.plain("x".repeat(HeaderValue.MAX_VALUE_CHARS)).value())
                .hasSize(1024);
        assertThatThrownBy(() -> HeaderValue.plain("x".repeat(1025)))
                .isInstanceOfSatisfying(
                        ContractViolation.class, v -> assertThat(v.field()).isEqualTo("value"));
    }

    @Test
    void toStringNeverShowsASecret() {
        HeaderValue secret = HeaderValue.secret("HEALTH_TOKEN");
        assertThat(secret.toString()).isEqualTo("${HEALTH_TOKEN}");
        assertThat(HeaderValue.plain("application/json").toString()).isEqualTo("application/json");
        // a monitor's toString shows the variable's name only; the secret is never in the record to begin with
        MonitorDefinition m = new MonitorDefinition(
                1,
                "api",
                null,
                "https://api.example.com/",
                "POST",
                null,
                null,
                List.of("eu-west"),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                CheckType.HTTP,
                Map.of("Authorization", secret),
                "{}",
                null,
                null,
                null,
                null);
        assertThat(m.toString()).contains("Authorization=${HEALTH_TOKEN}").doesNotContain(SECRET);
        assertThat(Json.string(m)).contains("\"Authorization\":{\"secretEnv\":\"HEALTH_TOKEN\"}");
    }

    @Test
    void violationsNeverEchoTheValue() {
        assertThatThrownBy(() -> HeaderValue.plain(SECRET + "\n"))
                .isInstanceOf(ContractViolation.class)
                .message()
                .doesNotContain(SECRET);
        assertThatThrownBy(() -> Json.read(Json.string(SECRET + "\n"), HeaderValue.class))
                .isInstanceOf(ContractViolation.class)
                .message()
                .doesNotContain(SECRET);
        assertThatThrownBy(() -> Json.read("{\"secretEnv\": \"" + SECRET + "\"}", HeaderValue.class))
                .isInstanceOf(ContractViolation.class)
                .message()
                .doesNotContain(SECRET);
    }

    private static void assertRefused(String json, String field) {
        assertThatThrownBy(() -> Json.read(json, HeaderValue.class))
                .isInstanceOfSatisfying(
                        ContractViolation.class,
                        v -> assertThat(v.field()).as(v.getMessage()).isEqualTo(field));
    }
}
