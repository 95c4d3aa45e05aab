package dev.vigil.notifier.channel;

import static dev.vigil.notifier.support.TestEvents.opened;
import static dev.vigil.notifier.support.TestEvents.withSummary;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.notifier.channel.discord.DiscordMessage;
import dev.vigil.notifier.channel.slack.SlackMessage;
import dev.vigil.notifier.core.Text;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessageLimitsTest {
    /** The largest event the contract allows: 300-char summary, 16 attributes of 64+256, 8 links of 2048, emoji. */
    private static AlertEvent largest() {
        Map<String, String> attrs = new LinkedHashMap<>();
        for (int i = 0; i < 16; i++) {
            attrs.put(("attribute-" + i + "-").repeat(6).substring(0, 64), "😀<&>".repeat(51));
        }
        Map<String, String> links = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            links.put("link-" + i + "-" + "x".repeat(20), "https://example.test/" + "p".repeat(2000) + i);
        }
        return withSummary(
                opened("monitor/checkout", Severity.CRITICAL),
                "😀 outage ".repeat(30).substring(0, 300),
                attrs,
                links);
    }

    @Test
    void textTruncationNeverSplitsASurrogatePair() {
        assertThat(Text.truncate("abc", 3)).isEqualTo("abc");
        assertThat(Text.truncate("abcdef", 4)).isEqualTo("abc…");
        String t = Text.truncate("a😀b", 3);
        assertThat(t).isEqualTo("a…");
        assertThat(Text.truncate("😀😀😀", 4)).isEqualTo("😀…");
    }

    @Test
    void slackPayloadStaysWithinBlockKitLimits() {
        ObjectNode p = SlackMessage.build(largest());
        assertThat(p.path("text").asText().length()).isLessThanOrEqualTo(SlackMessage.FALLBACK_MAX);
        JsonNode blocks = p.path("attachments").get(0).path("blocks");
        assertThat(blocks.size()).isLessThanOrEqualTo(SlackMessage.BLOCKS_MAX);
        for (JsonNode b : blocks) {
            switch (b.path("type").asText()) {
                case "header" -> assertThat(b.path("text").path("text").asText().length())
                        .isLessThanOrEqualTo(SlackMessage.HEADER_MAX);
                case "section" -> {
                    assertThat(b.path("text").path("text").asText().length())
                            .isLessThanOrEqualTo(SlackMessage.SECTION_MAX);
                    assertThat(b.path("fields").size()).isLessThanOrEqualTo(SlackMessage.FIELDS_MAX);
                    for (JsonNode f : b.path("fields")) {
                        assertThat(f.path("text").asText().length()).isLessThanOrEqualTo(SlackMessage.FIELD_MAX);
                    }
                }
                case "actions" -> {
                    assertThat(b.path("elements").size()).isLessThanOrEqualTo(25);
                    for (JsonNode e : b.path("elements")) {
                        assertThat(e.path("text").path("text").asText().length())
                                .isLessThanOrEqualTo(SlackMessage.BUTTON_TEXT_MAX);
                        assertThat(e.path("url").asText().length()).isLessThanOrEqualTo(SlackMessage.URL_MAX);
                    }
                }
                case "context" -> assertThat(
                                b.path("elements").get(0).path("text").asText().length())
                        .isLessThanOrEqualTo(SlackMessage.SECTION_MAX);
                default -> throw new AssertionError("unexpected block " + b);
            }
        }
        // attributes were too long for one section: truncated with an ellipsis, escaped for mrkdwn
        String attrs = blocks.get(3).path("text").path("text").asText();
        assertThat(attrs).endsWith(Text.ELLIPSIS).contains("&lt;&amp;&gt;").doesNotContain("<&>");
    }

    @Test
    void discordEmbedStaysWithinDiscordLimits() {
        ObjectNode p = DiscordMessage.build(largest());
        JsonNode embed = p.path("embeds").get(0);
        assertThat(embed.path("title").asText().length()).isLessThanOrEqualTo(DiscordMessage.TITLE_MAX);
        assertThat(embed.path("description").asText().length()).isLessThanOrEqualTo(DiscordMessage.DESCRIPTION_MAX);
        assertThat(embed.path("fields").size()).isLessThanOrEqualTo(DiscordMessage.FIELDS_MAX);
        for (JsonNode f : embed.path("fields")) {
            assertThat(f.path("name").asText().length()).isLessThanOrEqualTo(DiscordMessage.FIELD_NAME_MAX);
            assertThat(f.path("value").asText().length()).isLessThanOrEqualTo(DiscordMessage.FIELD_VALUE_MAX);
            assertThat(f.path("value").asText()).isNotBlank();
        }
        assertThat(embed.path("footer").path("text").asText().length()).isLessThanOrEqualTo(DiscordMessage.FOOTER_MAX);
        assertThat(DiscordMessage.countedCharacters(p)).isLessThanOrEqualTo(DiscordMessage.TOTAL_MAX);
        assertThat(embed.path("description").asText()).startsWith("😀 outage");
        assertThat(p.path("allowed_mentions").path("parse").size()).isZero();
    }

    @Test
    void smallEventKeepsEveryDetail() {
        ObjectNode p = DiscordMessage.build(opened("monitor/checkout", Severity.WARNING));
        JsonNode embed = p.path("embeds").get(0);
        assertThat(embed.path("color").asInt()).isEqualTo(0xECB22E);
        assertThat(embed.path("description").asText()).isEqualTo("checkout-api is down in 2 of 3 regions");
        assertThat(embed.toString())
                .contains("Occurrences")
                .contains("First seen")
                .contains("region")
                .contains("Links");
    }
}
