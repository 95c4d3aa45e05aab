package dev.vigil.schemas.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The hand-written slug and metric-name checks accept exactly what their published patterns accept. */
class RequireTest {
    private static final String ALPHABET = "az09-_Z./ é\t";

    @Test
    void loopsAgreeWithThePatternsOnEdgeCases() {
        List<String> cases = List.of("", "a", "0", "-", "_", "a-", "a_", "-a", "_a", "0a", "A", "aB", "a b", "é",
                "api", "api-v2", "http_request", "x".repeat(62), "x".repeat(63), "x".repeat(64), "x".repeat(65),
                "9".repeat(63), "9".repeat(64), "a\n", "a.b");
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
                sb.append(random.nextInt(10) < 8 ? "abcxyz0189"
                        .charAt(random.nextInt(10)) : ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
            values.add(sb.toString());
        }
        int accepted = 0;
        for (String value : values) {
            accepted += assertAgrees(value);
        }
        assertThat(accepted).as("the random set exercises acceptance too").isGreaterThan(1_000);
    }

    @Test
    void refusalNamesTheFieldAndTheRule() {
        assertThatThrownBy(() -> Require.slug("monitorId", "Not_A_Slug"))
                .isInstanceOf(ContractViolation.class)
                .hasMessageContaining("monitorId").hasMessageContaining("slug");
        assertThat(Require.slug("monitorId", "api-7")).isEqualTo("api-7");
    }

    private static int assertAgrees(String value) {
        int accepted = 0;
        for (Pattern p : List.of(Require.SLUG, Require.METRIC_NAME)) {
            boolean regex = p.matcher(value).matches();
            assertThat(Require.matchesPattern(value, p)).as("%s on '%s'", p, value).isEqualTo(regex);
            accepted += regex ? 1 : 0;
        }
        return accepted;
    }
}
