package dev.vigil.notifier.channel.discord;

import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static dev.vigil.notifier.support.TestEvents.withSummary;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DiscordMessageTest {
    private static JsonNode field(JsonNode embed, String name) {
        for (JsonNode f : embed.path("fields")) {
            if (f.path("name").asText().equals(name)) {
                return f.path("value");
            }
        }
        throw new AssertionError("no field " + name + " in " + embed);
    }

    @ParameterizedTest
    @EnumSource(AlertState.class)
    void everyPayloadParsesNoMentions(AlertState state) {
        AlertEvent e = withSummary(
                event("monitor/checkout", state, Severity.CRITICAL, 1),
                "@everyone @here <@123456789012345678> <@&987654321098765432>",
                Map.of(),
                Map.of());
        ObjectNode p = DiscordMessage.build(e);
        JsonNode parse = p.path("allowed_mentions").path("parse");
        assertThat(parse.isArray())
                .as("allowed_mentions.parse present as an array")
                .isTrue();
        assertThat(parse).isEmpty();
        assertThat(p.path("allowed_mentions").size())
                .as("no users or roles allowed either")
                .isEqualTo(1);
    }

    @Test
    void anAcknowledgementIsAShortNeutralNoticeWithEscapedData() {
        AlertEvent incident = withSummary(
                opened("monitor/checkout", Severity.CRITICAL),
                "down",
                Map.of("note", "[x](https://evil.test)"),
                Map.of("dashboard", "https://grafana.example.test/d/x"));
        AlertEvent ack = dev.vigil.notifier.support.TestEvents.acknowledged(
                incident, "@everyone [ops](https://evil.test)", dev.vigil.notifier.support.TestEvents.T0 + 120_000);
        ack = withSummary(ack, "Acknowledged by @everyone [ops](https://evil.test)", ack.attributes(), ack.links());
        ObjectNode p = DiscordMessage.build(ack);
        JsonNode embed = p.path("embeds").get(0);
        assertThat(embed.path("title").asText()).startsWith("[Acknowledged] checkout-api: Acknowledged by @everyone");
        assertThat(embed.path("color").asInt()).isEqualTo(0x8D8D8D);
        assertThat(embed.path("description").asText())
                .isEqualTo("Acknowledged by @everyone \\[ops\\](https://evil.test)");
        assertThat(field(embed, "Acknowledged by").asText()).isEqualTo("@everyone \\[ops\\](https://evil.test)");
        assertThat(field(embed, "Links").asText()).isEqualTo("[dashboard](https://grafana.example.test/d/x)");
        assertThat(embed.path("fields"))
                .extracting(f -> f.path("name").asText())
                .containsExactly("Acknowledged by", "Service", "Links");
        assertThat(p.path("allowed_mentions").path("parse")).isEmpty();
    }

    @Test
    void maskedLinkSyntaxFromDataIsEscaped() {
        Map<String, String> attrs = Map.of("note", "see [the dashboard](https://evil.test/login)");
        AlertEvent e = withSummary(
                opened("monitor/checkout", Severity.CRITICAL),
                "down: [status page](https://evil.test) \\[x\\](https://evil.test)",
                attrs,
                Map.of());
        JsonNode embed = DiscordMessage.build(e).path("embeds").get(0);
        assertThat(embed.path("description").asText())
                .isEqualTo("down: \\[status page\\](https://evil.test) \\\\\\[x\\\\\\](https://evil.test)");
        assertThat(field(embed, "note").asText()).isEqualTo("see \\[the dashboard\\](https://evil.test/login)");
    }

    @Test
    void vigilsOwnLinksStayLinksWithEscapedLabelsAndOnlySafeTargets() {
        Map<String, String> links = new LinkedHashMap<>();
        links.put("dash]board", "https://grafana.example.test/d/x");
        links.put("wiki", "https://wiki.example.test/Outage_(2026)");
        links.put("script", "javascript:alert(1)");
        links.put("pipe", "https://example.test/a|b");
        links.put("angle", "https://example.test/<@123>");
        AlertEvent e = withSummary(opened("monitor/checkout", Severity.CRITICAL), "down", Map.of(), links);
        JsonNode embed = DiscordMessage.build(e).path("embeds").get(0);
        assertThat(field(embed, "Links").asText())
                .isEqualTo(
                        "[dash\\]board](https://grafana.example.test/d/x)\n[wiki](https://wiki.example.test/Outage_%282026%29)");
    }
}
