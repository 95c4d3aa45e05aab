package dev.vigil.probe.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.MonitorDefinition.Expect;
import dev.vigil.schemas.contract.MonitorDefinition.JsonAssertion;
import dev.vigil.schemas.contract.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class SuccessRulesTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static final Expect DEFAULT = new Expect(null, null, null, null);
    private static final Expect HEALTH = new Expect(null, JsonAssertion.HEALTH, null, null);

    @Test
    void statusRangesDecideFirst() {
        assertThat(SuccessRules.evaluate(DEFAULT, 200, 5, b(""), false).outcome())
                .isEqualTo(Outcome.SUCCESS);
        assertThat(SuccessRules.evaluate(DEFAULT, 399, 5, b(""), false).outcome())
                .isEqualTo(Outcome.SUCCESS);
        var v = SuccessRules.evaluate(DEFAULT, 404, 5, b(""), false);
        assertThat(v.outcome()).isEqualTo(Outcome.HTTP_FAILURE);
        assertThat(v.detail()).contains("404").contains("200-399");
        var only204 = new Expect(List.of("204"), null, null, null);
        assertThat(SuccessRules.evaluate(only204, 200, 5, b(""), false).outcome())
                .isEqualTo(Outcome.HTTP_FAILURE);
        assertThat(SuccessRules.evaluate(only204, 204, 5, b(""), false).outcome())
                .isEqualTo(Outcome.SUCCESS);
        // A failing status wins over a failing assertion: the status says more.
        assertThat(SuccessRules.evaluate(HEALTH, 503, 5, b("{\"status\":\"down\"}"), false)
                        .outcome())
                .isEqualTo(Outcome.HTTP_FAILURE);
    }

    @Test
    void jsonAssertion() {
        assertThat(SuccessRules.evaluate(HEALTH, 200, 5, b("{\"status\":\"ok\"}"), false)
                        .outcome())
                .isEqualTo(Outcome.SUCCESS);
        assertThat(SuccessRules.evaluate(HEALTH, 200, 5, b("{\"status\":\"healthy\"}"), false)
                        .outcome())
                .isEqualTo(Outcome.SUCCESS);
        var down = SuccessRules.evaluate(HEALTH, 200, 5, b("{\"status\":\"down\",\"email\":\"a@b.c\"}"), false);
        assertThat(down.outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
        assertThat(down.detail()).doesNotContain("down").doesNotContain("a@b.c");
        assertThat(SuccessRules.evaluate(HEALTH, 200, 5, b("{}"), false).detail())
                .contains("missing");
        assertThat(SuccessRules.evaluate(HEALTH, 200, 5, b("{\"status\":{\"x\":1}}"), false)
                        .outcome())
                .isEqualTo(Outcome.ASSERTION_FAILURE);
        assertThat(SuccessRules.evaluate(HEALTH, 200, 5, b("<html>ok</html>"), false)
                        .detail())
                .contains("not JSON");
        assertThat(SuccessRules.evaluate(HEALTH, 200, 5, b("{\"status\":\"ok\""), true)
                        .detail())
                .contains("larger than");
        var nested = new Expect(null, new JsonAssertion("/checks/db", List.of("up")), null, null);
        assertThat(SuccessRules.evaluate(nested, 200, 5, b("{\"checks\":{\"db\":\"up\"}}"), false)
                        .outcome())
                .isEqualTo(Outcome.SUCCESS);
        var bool = new JsonAssertion("/ok", List.of("true"));
        assertThat(SuccessRules.evaluate(new Expect(null, bool, null, null), 200, 5, b("{\"ok\":true}"), false)
                        .outcome())
                .isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void bodyContainsAndMaxResponseTime() {
        var contains = new Expect(null, null, "Welcome", null);
        assertThat(SuccessRules.evaluate(contains, 200, 5, b("<h1>Welcome</h1>"), false)
                        .outcome())
                .isEqualTo(Outcome.SUCCESS);
        assertThat(SuccessRules.evaluate(contains, 200, 5, b("<h1>Maintenance</h1>"), false)
                        .outcome())
                .isEqualTo(Outcome.ASSERTION_FAILURE);
        var fast = new Expect(null, null, null, 300);
        assertThat(SuccessRules.evaluate(fast, 200, 300, b(""), false).outcome())
                .isEqualTo(Outcome.SUCCESS);
        var slow = SuccessRules.evaluate(fast, 200, 301, b(""), false);
        assertThat(slow.outcome()).isEqualTo(Outcome.ASSERTION_FAILURE);
        assertThat(slow.detail()).contains("maxResponseMs 300");
    }
}
