package dev.vigil.schemas.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.json.Json;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A user's {@code re:} header expectation must not be able to stall the thread that checks it: the pattern that froze a
 * whole standalone (nested {@code .*} before a letter that never comes) runs in linear time, patterns only a
 * backtracking engine can run are refused when the monitor is validated, and the value matched is bounded.
 */
class UserRegexTest {
    private static final String CATASTROPHIC = "re:.*a.*a.*a.*a.*a.*a.*a.*a.*a.*a.*b";

    /** Runs {@code check} on its own thread; a generous join, so only a hang (not a slow machine) fails it. */
    private static Boolean finishes(java.util.function.BooleanSupplier check) throws InterruptedException {
        AtomicReference<Boolean> result = new AtomicReference<>();
        Thread t = new Thread(() -> result.set(check.getAsBoolean()), "user-regex");
        t.setDaemon(true);
        t.start();
        t.join(10_000);
        assertThat(t.isAlive()).as("the match is still running").isFalse();
        return result.get();
    }

    @ParameterizedTest(name = "{0} characters")
    @ValueSource(ints = {200, 2_000, UserRegex.MAX_INPUT_CHARS})
    void theCatastrophicPatternAgainstALongValueFinishesAndDoesNotMatch(int length) throws InterruptedException {
        String value = "a".repeat(length);
        assertThat(finishes(() -> MonitorDefinition.Expect.headerMatches(CATASTROPHIC, value)))
                .isFalse();
        assertThat(MonitorDefinition.Expect.headerMatches(CATASTROPHIC, "a".repeat(10) + "b"))
                .isTrue();
    }

    @Test
    void nestedQuantifiersFinishToo() throws InterruptedException {
        String value = "a".repeat(5_000) + "!";
        assertThat(finishes(() -> MonitorDefinition.Expect.headerMatches("re:(a+)+$", value)))
                .isFalse();
        assertThat(finishes(() -> MonitorDefinition.Expect.headerMatches("re:(a|aa)*b", value)))
                .isFalse();
        assertThat(finishes(() -> MonitorDefinition.Expect.headerMatches("re:(.*,){20}x", ",".repeat(4_000))))
                .isFalse();
    }

    @Test
    void aValueLongerThanTheBoundDoesNotMatchEvenByAnAnythingPattern() {
        assertThat(MonitorDefinition.Expect.headerMatches("re:.*", "x".repeat(UserRegex.MAX_INPUT_CHARS)))
                .isTrue();
        assertThat(MonitorDefinition.Expect.headerMatches("re:.*", "x".repeat(UserRegex.MAX_INPUT_CHARS + 1)))
                .isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"re:(a)\\1", "re:foo(?=bar)", "re:(?<!x)y", "re:a*+", "re:(?>a+)b", "re:(2|3"})
    void patternsOnlyABacktrackingEngineRunsAreRefusedWhenTheMonitorIsRead(String pattern) {
        String json =
                "{\"schemaVersion\":1,\"id\":\"api\",\"url\":\"https://api.example.com/\",\"regions\":[\"eu-west\"],"
                        + "\"expect\":{\"headers\":{\"X-Build\":" + Json.string(pattern) + "}}}";
        assertThatThrownBy(() -> Json.read(json, MonitorDefinition.class))
                .hasStackTraceContaining("expect.headers.X-Build")
                .hasStackTraceContaining("is not a regular expression Vigil can run")
                .hasStackTraceContaining("RE2 syntax");
        assertThatThrownBy(() -> new MonitorDefinition.Expect(null, null, null, null, null, Map.of("X-Build", pattern)))
                .isInstanceOfSatisfying(ContractViolation.class, v -> {
                    assertThat(v.field()).isEqualTo("headers.X-Build");
                    assertThat(v.problem()).startsWith("is not a regular expression Vigil can run: ");
                });
    }

    @Test
    void theSyntaxMonitorsUseKeepsItsMeaning() {
        assertThat(MonitorDefinition.Expect.headerMatches("re:application/json(;.*)?", "application/json"))
                .isTrue();
        assertThat(MonitorDefinition.Expect.headerMatches(
                        "re:application/json(;.*)?", "application/json; charset=utf-8"))
                .isTrue();
        assertThat(MonitorDefinition.Expect.headerMatches("re:application/json(;.*)?", "text/html"))
                .isFalse();
        assertThat(MonitorDefinition.Expect.headerMatches("re:W/\"[0-9a-f]{8}\"", "W/\"deadbeef\""))
                .isTrue();
        assertThat(MonitorDefinition.Expect.headerMatches("re:(?i)NGINX/1\\.\\d+\\.\\d+", "nginx/1.25.3"))
                .isTrue();
        assertThat(MonitorDefinition.Expect.headerMatches("re:v(?<major>\\d+)\\..*", "v2.1"))
                .isTrue();
        assertThat(MonitorDefinition.Expect.headerMatches("re:2", "20"))
                .as("the whole value")
                .isFalse();
        assertThat(MonitorDefinition.Expect.headerMatches("re:\\p{L}+", "caf\u00e9"))
                .isTrue();
    }
}
