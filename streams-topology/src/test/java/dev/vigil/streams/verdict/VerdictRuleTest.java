package dev.vigil.streams.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.Status;
import dev.vigil.streams.Fixtures;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class VerdictRuleTest {

    /** Every assignment of success / failure (of each failure kind) / missing to 1..5 expected regions. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void exhaustiveOverEveryAssignment(int n) {
        List<String> regions = Fixtures.regions(n);
        Outcome[] choices = {
            null, Outcome.SUCCESS, Outcome.HTTP_FAILURE, Outcome.NETWORK_FAILURE, Outcome.ASSERTION_FAILURE
        };
        int combos = (int) Math.pow(choices.length, n);
        int[] seen = new int[Status.values().length];
        for (int c = 0; c < combos; c++) {
            Map<String, Outcome> outcomes = new HashMap<>();
            int code = c;
            int successes = 0;
            int failures = 0;
            for (String region : regions) {
                Outcome o = choices[code % choices.length];
                code /= choices.length;
                if (o != null) {
                    outcomes.put(region, o);
                    if (o == Outcome.SUCCESS) {
                        successes++;
                    } else {
                        failures++;
                    }
                }
            }
            Status expected;
            if (successes + failures == 0) {
                expected = Status.UNKNOWN;
            } else if (successes == n) {
                expected = Status.UP;
            } else if (failures * 2 > n) {
                expected = Status.DOWN;
            } else {
                expected = Status.DEGRADED;
            }
            Status actual = VerdictRule.decide(regions, outcomes);
            assertThat(actual).as("n=%d outcomes=%s", n, outcomes).isEqualTo(expected);
            seen[actual.ordinal()]++;
        }
        assertThat(seen[Status.UNKNOWN.ordinal()]).isEqualTo(1);
        assertThat(seen[Status.UP.ordinal()]).isEqualTo(1);
        assertThat(seen[Status.DOWN.ordinal()]).isPositive();
        if (n > 1) {
            assertThat(seen[Status.DEGRADED.ordinal()]).isPositive();
        }
    }

    @ParameterizedTest(name = "{0} regions: {1} up, {2} failed, {3} missing -> {4}")
    @CsvSource({
        // n, successes, failures, missing, expected
        "1, 1, 0, 0, up",
        "1, 0, 1, 0, down",
        "1, 0, 0, 1, unknown",
        "2, 2, 0, 0, up",
        "2, 0, 2, 0, down",
        "2, 1, 1, 0, degraded", // exact half down is not a majority
        "2, 1, 0, 1, degraded", // missing without failure
        "2, 0, 1, 1, degraded", // missing with failure: 1 of 2 is not a strict majority
        "2, 0, 0, 2, unknown",
        "3, 3, 0, 0, up",
        "3, 1, 2, 0, down",
        "3, 0, 3, 0, down",
        "3, 2, 1, 0, degraded",
        "3, 2, 0, 1, degraded",
        "3, 1, 1, 1, degraded",
        "3, 0, 2, 1, down", // missing with failures: 2 of 3 expected failed
        "3, 0, 1, 2, degraded", // a lone failure with two missing is never down
        "3, 0, 0, 3, unknown",
        "5, 5, 0, 0, up",
        "5, 2, 3, 0, down",
        "5, 3, 2, 0, degraded",
        "5, 0, 3, 2, down",
        "5, 0, 2, 3, degraded",
        "5, 4, 0, 1, degraded",
        "5, 0, 0, 5, unknown",
    })
    void namedCombinations(int n, int successes, int failures, int missing, String expected) {
        List<String> regions = Fixtures.regions(n);
        Map<String, Outcome> outcomes = new HashMap<>();
        for (int i = 0; i < successes; i++) {
            outcomes.put(regions.get(i), Outcome.SUCCESS);
        }
        for (int i = successes; i < successes + failures; i++) {
            outcomes.put(regions.get(i), Outcome.NETWORK_FAILURE);
        }
        assertThat(successes + failures + missing).isEqualTo(n);
        assertThat(VerdictRule.decide(regions, outcomes)).isEqualTo(Status.fromWire(expected));
    }

    @Test
    void resultsFromRegionsOutsideTheExpectedSetAreIgnored() {
        List<String> expected = List.of("eu-west", "us-east");
        Map<String, Outcome> outcomes =
                Map.of("eu-west", Outcome.SUCCESS, "us-east", Outcome.SUCCESS, "ap-south", Outcome.NETWORK_FAILURE);
        assertThat(VerdictRule.decide(expected, outcomes)).isEqualTo(Status.UP);
        assertThat(VerdictRule.decide(expected, Map.of("ap-south", Outcome.SUCCESS)))
                .isEqualTo(Status.UNKNOWN);
    }

    @Test
    void verdictRecordListsMissingRegionsAndOnlyExpectedResults() {
        RegionResult ok = new RegionResult(Outcome.SUCCESS, null, 200, 12);
        MonitorStatus status = VerdictRule.verdict(
                "shop",
                60_000,
                List.of("us-east", "eu-west", "ap-south"),
                Map.of("eu-west", ok, "sa-east", ok),
                99_000);
        assertThat(status.status()).isEqualTo(Status.DEGRADED);
        assertThat(status.complete()).isFalse();
        assertThat(status.regions()).containsOnlyKeys("eu-west");
        assertThat(status.missingRegions()).containsExactly("ap-south", "us-east");
        assertThat(status.decidedAt()).isEqualTo(99_000);

        MonitorStatus none = VerdictRule.verdict("shop", 60_000, List.of("eu-west"), Map.of(), 99_000);
        assertThat(none.status()).isEqualTo(Status.UNKNOWN);
        assertThat(none.regions()).isEmpty();
    }

    @Test
    void completenessNeedsEveryExpectedRegion() {
        assertThat(VerdictRule.complete(List.of("a", "b"), Map.of("a", 1))).isFalse();
        assertThat(VerdictRule.complete(List.of("a", "b"), Map.of("a", 1, "b", 2)))
                .isTrue();
        assertThat(VerdictRule.complete(List.of("a"), Map.of("a", 1, "c", 2))).isTrue();
    }

    @Test
    void noExpectedRegionIsAProgrammingError() {
        assertThatThrownBy(() -> VerdictRule.decide(List.of(), Map.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
