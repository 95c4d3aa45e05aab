package dev.vigil.kit.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProblemTest {
    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void theOneTypeNamespaceAndTheStandardMembersInOrder() {
        Problem p = Problem.of(404, "not-found", "Not found", "no such endpoint");
        assertThat(p.typeUri()).isEqualTo("https://vigil.dev/problems/not-found");
        assertThat(text(p.bytes()))
                .isEqualTo("{\"type\":\"https://vigil.dev/problems/not-found\",\"title\":\"Not found\","
                        + "\"status\":404,\"detail\":\"no such endpoint\"}");
        assertThat(p.at("/v1/x").members())
                .containsExactly(
                        Map.entry("type", "https://vigil.dev/problems/not-found"),
                        Map.entry("title", "Not found"),
                        Map.entry("status", 404),
                        Map.entry("detail", "no such endpoint"),
                        Map.entry("instance", "/v1/x"));
    }

    @Test
    void flatExtensionsFollowAndCannotReplaceAStandardMember() {
        Map<String, Object> ext = new LinkedHashMap<>();
        ext.put("field", "endsAt");
        ext.put("count", 2);
        ext.put("ratio", Double.NaN);
        ext.put("ok", true);
        ext.put("missing", null);
        ext.put("status", 200);
        assertThat(text(Problem.of(400, "bad-request", "Bad request", "endsAt: \"tomorrow\"\n")
                        .bytes(ext)))
                .isEqualTo(
                        "{\"type\":\"https://vigil.dev/problems/bad-request\",\"title\":\"Bad request\",\"status\":400,"
                                + "\"detail\":\"endsAt: \\\"tomorrow\\\"\\n\",\"field\":\"endsAt\",\"count\":2,\"ratio\":null,"
                                + "\"ok\":true,\"missing\":null}");
    }

    @Test
    void controlAndLineSeparatorCharactersAreEscaped() {
        assertThat(text(FlatJson.object(Map.of("s", "a\u0001b\u2028c\\"))))
                .isEqualTo("{\"s\":\"a\\u0001b\\u2028c\\\\\"}");
    }

    @Test
    void aThrownProblemCarriesItsBody() {
        HttpProblem thrown = HttpProblem.tooLarge("at most 1 MiB");
        assertThat(thrown.problem("/v1/metrics"))
                .isEqualTo(new Problem(413, "payload-too-large", "Payload too large", "at most 1 MiB", "/v1/metrics"));
        assertThat(thrown.extensions()).isEmpty();
    }
}
