package dev.vigil.notifier.channel.slack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.notifier.core.Text;
import dev.vigil.notifier.support.TemplateEvents;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SlackTemplateTest {
    private static String mainText(ObjectNode payload) {
        return payload.path("attachments")
                .get(0)
                .path("blocks")
                .get(1)
                .path("text")
                .path("text")
                .asText();
    }

    private static String noticeText(ObjectNode payload) {
        return payload.path("attachments")
                .get(0)
                .path("blocks")
                .get(0)
                .path("text")
                .path("text")
                .asText();
    }

    @Test
    void theDefaultTemplateReproducesTodaysPayloadForEveryEvent() {
        var template = SlackMessage.template(SlackMessage.DEFAULT_TEMPLATE);
        for (AlertEvent e : TemplateEvents.all()) {
            assertThat(SlackMessage.build(e, template)).as(e.eventId()).isEqualTo(SlackMessage.build(e));
        }
    }

    @Test
    void aCustomTemplateReplacesTheMainSectionOnlyWithEveryValueEscaped() {
        var template = SlackMessage.template(
                "*{{severityUpper}}* on {{service}}: {{summary}}{{#links}}\n<{{url}}|{{name}}>{{/links}}");
        AlertEvent e = TemplateEvents.hostile();

        ObjectNode custom = SlackMessage.build(e, template);

        assertThat(mainText(custom))
                .isEqualTo(
                        "*CRITICAL* on api &lt;!everyone&gt; @here: down &lt;!channel&gt; @everyone &lt;@U123&gt;"
                                + " [docs](https://evil.test) &lt;script&gt;x&lt;/script&gt; *bold* &amp;amp; \\ #"
                                + " www.evil.test zw\n<https://runbooks.example.test/checkout|&lt;!here&gt; [rb](https://e.test)>");
        // everything else is today's message: header, facts, buttons, colour
        ObjectNode standard = SlackMessage.build(e);
        ((ObjectNode) custom.path("attachments").get(0).path("blocks").get(1).path("text"))
                .put("text", mainText(standard));
        assertThat(custom).isEqualTo(standard);
    }

    @Test
    void anAcknowledgementNoticeTakesTheTemplateToo() {
        AlertEvent opened = TestEvents.opened("monitor/checkout", Severity.CRITICAL);
        AlertEvent ack = TestEvents.acknowledged(opened, "<!here> alice", TestEvents.T0 + 60_000);
        var template =
                SlackMessage.template("{{#isAcknowledgement}}:eyes: {{acknowledgedBy}} is on it{{/isAcknowledgement}}"
                        + "{{^isAcknowledgement}}{{summary}}{{/isAcknowledgement}}");

        assertThat(noticeText(SlackMessage.build(ack, template))).isEqualTo(":eyes: &lt;!here&gt; alice is on it");
        assertThat(mainText(SlackMessage.build(opened, template))).isEqualTo("checkout-api is down in 2 of 3 regions");
    }

    @Test
    void aTemplateThatSaysNothingForAnEventLeavesTheDefaultText() {
        var template = SlackMessage.template("{{#isResolution}}fixed{{/isResolution}}");
        AlertEvent opened = TestEvents.opened("monitor/checkout", Severity.CRITICAL);

        assertThat(SlackMessage.build(opened, template)).isEqualTo(SlackMessage.build(opened));
    }

    @Test
    void theRenderedTextIsCutToTheSectionLimit() {
        AlertEvent e = TestEvents.withSummary(
                TestEvents.opened("monitor/checkout", Severity.CRITICAL), "<".repeat(300), Map.of(), Map.of());
        var template = SlackMessage.template("{{summary}}".repeat(4));

        ObjectNode p = SlackMessage.build(e, template);

        String text = mainText(p);
        assertThat(text)
                .hasSize(SlackMessage.SECTION_MAX)
                .endsWith(Text.ELLIPSIS)
                .doesNotContain("<");
        for (JsonNode b : p.path("attachments").get(0).path("blocks")) {
            assertThat(b.path("text").path("text").asText().length()).isLessThanOrEqualTo(SlackMessage.SECTION_MAX);
        }
    }
}
