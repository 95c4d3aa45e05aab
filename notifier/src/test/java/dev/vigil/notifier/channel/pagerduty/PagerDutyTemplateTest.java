package dev.vigil.notifier.channel.pagerduty;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.notifier.core.Text;
import dev.vigil.notifier.support.TemplateEvents;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PagerDutyTemplateTest {
    private static final String KEY = "0123456789abcdef0123456789abcdef";

    @Test
    void theDefaultTemplateReproducesTodaysBodyForEveryEvent() {
        var template = PagerDutyEvent.template(PagerDutyEvent.DEFAULT_TEMPLATE);
        for (AlertEvent e : TemplateEvents.all()) {
            assertThat(PagerDutyEvent.build(e, KEY, template)).as(e.eventId()).isEqualTo(PagerDutyEvent.build(e, KEY));
        }
    }

    @Test
    void aCustomTemplateReplacesTheSummaryAsOneLine() {
        var template =
                PagerDutyEvent.template("{{severityUpper}} {{service}}\n{{summary}}{{#links}}\n{{url}}{{/links}}");

        ObjectNode body = PagerDutyEvent.build(TemplateEvents.hostile(), KEY, template);

        assertThat(body.path("payload").path("summary").asText())
                .isEqualTo("CRITICAL api <!everyone> @here down <!channel> @everyone <@U123>"
                        + " [docs](https://evil.test) <script>x</script> *bold* &amp; \\ # www.evil.test zw"
                        + " https://runbooks.example.test/checkout");
        ObjectNode standard = PagerDutyEvent.build(TemplateEvents.hostile(), KEY);
        ((ObjectNode) body.path("payload"))
                .put("summary", standard.path("payload").path("summary").asText());
        assertThat(body).isEqualTo(standard);
    }

    @Test
    void theRenderedSummaryIsCutToPagerDutysLimit() {
        AlertEvent e = TestEvents.withSummary(
                TestEvents.opened("monitor/checkout", Severity.CRITICAL), "x".repeat(300), Map.of(), Map.of());
        var template = PagerDutyEvent.template("{{summary}}".repeat(4));

        String summary = PagerDutyEvent.build(e, KEY, template)
                .path("payload")
                .path("summary")
                .asText();

        assertThat(summary).hasSize(PagerDutyEvent.SUMMARY_MAX).endsWith(Text.ELLIPSIS);
    }
}
