package dev.vigil.notifier.channel.discord;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.notifier.core.Text;
import dev.vigil.notifier.support.TemplateEvents;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DiscordTemplateTest {
    private static String description(ObjectNode payload) {
        return payload.path("embeds").get(0).path("description").asText();
    }

    @Test
    void theDefaultTemplateReproducesTodaysPayloadForEveryEvent() {
        var template = DiscordMessage.template(DiscordMessage.DEFAULT_TEMPLATE);
        for (AlertEvent e : TemplateEvents.all()) {
            assertThat(DiscordMessage.build(e, template)).as(e.eventId()).isEqualTo(DiscordMessage.build(e));
        }
    }

    @Test
    void aCustomTemplateReplacesTheDescriptionWithMaskedLinksEscapedAndMentionsInert() {
        var template =
                DiscordMessage.template("**{{severityUpper}}** {{summary}}{{#links}}\n[{{name}}]({{url}}){{/links}}");
        AlertEvent e = TemplateEvents.hostile();

        ObjectNode custom = DiscordMessage.build(e, template);

        assertThat(description(custom))
                .isEqualTo("**CRITICAL** down <!channel> @everyone <@U123> \\[docs\\](https://evil.test)"
                        + " <script>x</script> *bold* &amp; \\\\ # www.evil.test zw"
                        + "\n[<!here> \\[rb\\](https://e.test)](https://runbooks.example.test/checkout)");
        // no mention in any text notifies anyone
        assertThat(custom.path("allowed_mentions").path("parse").isArray()).isTrue();
        assertThat(custom.path("allowed_mentions").path("parse")).isEmpty();
        ObjectNode standard = DiscordMessage.build(e);
        ((ObjectNode) custom.path("embeds").get(0)).put("description", description(standard));
        assertThat(custom).isEqualTo(standard);
    }

    @Test
    void theRenderedTextIsCutToTheDescriptionLimitAndTheTotal() {
        AlertEvent e = TestEvents.withSummary(
                TestEvents.opened("monitor/checkout", Severity.CRITICAL), "[".repeat(300), Map.of(), Map.of());
        var template = DiscordMessage.template("{{summary}}".repeat(20));

        ObjectNode p = DiscordMessage.build(e, template);

        assertThat(description(p)).hasSize(DiscordMessage.DESCRIPTION_MAX).endsWith(Text.ELLIPSIS);
        assertThat(DiscordMessage.countedCharacters(p)).isLessThanOrEqualTo(DiscordMessage.TOTAL_MAX);
    }
}
