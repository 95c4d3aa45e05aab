package dev.vigil.schemas.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The hand-written slug, metric-name and fingerprint checks accept exactly what their published patterns accept. */
class RequireTest {
    private static final String ALPHABET = "az09-_Z./ é\t:";

    @Test
    void loopsAgreeWithThePatternsOnEdgeCases() {
        List<String> cases = List.of(
                "",
                "a",
                "0",
                "-",
                "_",
                "a-",
                "a_",
                "-a",
                "_a",
                "0a",
                "A",
                "aB",
                "a b",
                "é",
                "api",
                "api-v2",
                "http_request",
                "x".repeat(62),
                "x".repeat(63),
                "x".repeat(64),
                "x".repeat(65),
                "9".repeat(63),
                "9".repeat(64),
                "a\n",
                "a.b",
                "monitor/api",
                "worker/us-east/w-1",
                "a/b/c/d/e",
                "a/b/c/d/e/f",
                "/api",
                "monitor/",
                "monitor//x",
                "Monitor/api",
                ".x/y",
                "x./Y:Z",
                "m/" + "y".repeat(128),
                "m/" + "y".repeat(129),
                "x".repeat(64) + "/a",
                "x".repeat(65) + "/a",
                "rule.5xx-ratio/checkout:http_request",
                "m/a b",
                "m/é");
        for (String value : cases) {
            assertAgrees(value);
        }
    }

    @Test
    void loopsAgreeWithThePatternsOnRandomStrings() {
        Random random = new Random(20261130);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            int length = random.nextInt(70);
            StringBuilder sb = new StringBuilder(length);
            for (int j = 0; j < length; j++) {
                // mostly valid characters, so long accepted values are generated too
                int pick = random.nextInt(20);
                sb.append(
                        pick < 15
                                ? "abcxyz0189".charAt(random.nextInt(10))
                                : pick < 16 ? '/' : ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
            values.add(sb.toString());
        }
        java.util.Map<Pattern, Integer> accepted = new java.util.HashMap<>();
        for (String value : values) {
            for (Pattern p : assertAgrees(value)) {
                accepted.merge(p, 1, Integer::sum);
            }
        }
        // the random set exercises acceptance of every pattern, not only refusals
        assertThat(accepted.getOrDefault(Require.SLUG, 0)).isGreaterThan(500);
        assertThat(accepted.getOrDefault(Require.METRIC_NAME, 0)).isGreaterThan(500);
        assertThat(accepted.getOrDefault(Require.FINGERPRINT, 0)).isGreaterThan(50);
    }

    @Test
    void refusalNamesTheFieldAndTheRule() {
        assertThatThrownBy(() -> Require.slug("monitorId", "Not_A_Slug"))
                .isInstanceOf(ContractViolation.class)
                .hasMessageContaining("monitorId")
                .hasMessageContaining("slug");
        assertThat(Require.slug("monitorId", "api-7")).isEqualTo("api-7");
    }

    /** The patterns that accept {@code value}, after checking each loop agrees with its pattern. */
    private static List<Pattern> assertAgrees(String value) {
        List<Pattern> accepting = new ArrayList<>();
        for (Pattern p : List.of(Require.SLUG, Require.METRIC_NAME, Require.FINGERPRINT)) {
            boolean regex = p.matcher(value).matches();
            assertThat(Require.matchesPattern(value, p))
                    .as("%s on '%s'", p, value)
                    .isEqualTo(regex);
            if (regex) {
                accepting.add(p);
            }
        }
        return accepting;
    }
}
