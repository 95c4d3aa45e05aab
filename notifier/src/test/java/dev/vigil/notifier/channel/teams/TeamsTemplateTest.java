package dev.vigil.notifier.channel.teams;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.notifier.core.Text;
import dev.vigil.notifier.support.TemplateEvents;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TeamsTemplateTest {
    private static ObjectNode summaryBlock(ObjectNode payload) {
        return (ObjectNode)
                payload.path("attachments").get(0).path("content").path("body").get(1);
    }

    @Test
    void theDefaultTemplateReproducesTodaysPayloadForEveryEvent() {
        var template = TeamsMessage.template(TeamsMessage.DEFAULT_TEMPLATE);
        for (AlertEvent e : TemplateEvents.all()) {
            assertThat(TeamsMessage.build(e, template)).as(e.eventId()).isEqualTo(TeamsMessage.build(e));
        }
    }

    @Test
    void aCustomTemplateReplacesTheSummaryBlockWithEveryValueEscaped() {
        var template = TeamsMessage.template("**{{severityUpper}}** {{service}}\n\n{{summary}}");
        AlertEvent e = TemplateEvents.hostile();

        ObjectNode custom = TeamsMessage.build(e, template);

        String text = summaryBlock(custom).path("text").asText();
        assertThat(text)
                .startsWith("**CRITICAL** api ＜\\!everyone＞ @here\n\ndown ＜\\!channel＞")
                .contains("\\[docs\\]\\(https\\[:\\]//evil.test\\)")
                .contains("\\*bold\\*")
                .contains("\\&amp;")
                .contains("www\\[.\\]evil")
                .doesNotContain("<")
                .doesNotContain("://");
        ObjectNode standard = TeamsMessage.build(e);
        summaryBlock(custom).put("text", summaryBlock(standard).path("text").asText());
        assertThat(custom).isEqualTo(standard);
    }

    @Test
    void theRenderedTextIsCutWithoutLeavingAHalfEscape() {
        AlertEvent e = TestEvents.withSummary(
                TestEvents.opened("monitor/checkout", Severity.CRITICAL), "*".repeat(300), Map.of(), Map.of());
        var template = TeamsMessage.template("{{summary}}".repeat(4));

        String text = summaryBlock(TeamsMessage.build(e, template)).path("text").asText();

        // 2400 escaped characters cut to 1000: an even run of backslash-star pairs, then the ellipsis
        assertThat(text).hasSizeLessThanOrEqualTo(TeamsMessage.SUMMARY_MAX).endsWith(Text.ELLIPSIS);
        assertThat(text.substring(0, text.length() - 1)).matches("(\\\\\\*)+");
    }

    @Test
    void aHalfEscapeAtTheCutIsDropped() {
        assertThat(TeamsMessage.truncateEscaped("ab\\*cd", 4)).isEqualTo("ab…");
        assertThat(TeamsMessage.truncateEscaped("a\\*cd", 4)).isEqualTo("a\\*…");
        assertThat(TeamsMessage.truncateEscaped("a\\*", 4)).isEqualTo("a\\*");
    }
}
