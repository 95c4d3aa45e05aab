package dev.vigil.notifier.channel.discord;

import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.withSummary;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One Discord embed for the events of a group: a line per event, within the embed limits, nothing pings. */
class DiscordGroupMessageTest {
    private static List<AlertEvent> monitors(int n, String summary) {
        List<AlertEvent> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, String> links = new LinkedHashMap<>();
            links.put("console", "https://v.test/i/" + i);
            AlertEvent e = event("monitor/checkout-" + i, AlertState.OPENED, Severity.CRITICAL, 1);
            out.add(withSummary(e, summary == null ? "down " + i : summary, e.attributes(), links));
        }
        return out;
    }

    @Test
    void fiftyEventsAreOneEmbedWithALinePerEvent() {
        List<AlertEvent> events = monitors(50, null);

        ObjectNode p = DiscordMessage.group(events, "group-1");

        assertThat(p.get("embeds")).hasSize(1);
        var embed = p.get("embeds").get(0);
        assertThat(embed.get("title").asText()).isEqualTo("[CRITICAL] checkout-api: 50 alerts (50 opened)");
        String description = embed.get("description").asText();
        for (AlertEvent e : events) {
            String n = e.summary().substring("down ".length());
            assertThat(description)
                    .contains("**CRITICAL** opened · checkout-api: " + e.summary() + " · [console](https://v.test/i/"
                            + n + ")");
        }
        assertThat(embed.get("footer").get("text").asText()).isEqualTo("Vigil · group group-1 · 50 events");
        assertThat(DiscordMessage.countedCharacters(p)).isLessThanOrEqualTo(DiscordMessage.TOTAL_MAX);
        assertThat(p.get("allowed_mentions").get("parse")).isEmpty();
    }

    @Test
    void linesBeyondTheLimitsAreCountedAndDataFormsNoLink() {
        List<AlertEvent> events = monitors(100, "[dashboard](https://evil.test) @everyone " + "x".repeat(150));
        events.set(0, withSummary(events.get(0), "no link", events.get(0).attributes(), Map.of()));

        ObjectNode p = DiscordMessage.group(events, "g");

        String description = p.get("embeds").get(0).get("description").asText();
        assertThat(description.length()).isLessThanOrEqualTo(DiscordMessage.DESCRIPTION_MAX);
        assertThat(DiscordMessage.countedCharacters(p)).isLessThanOrEqualTo(DiscordMessage.TOTAL_MAX);
        assertThat(description).containsPattern("… and [0-9]+ more").doesNotContain("[dashboard](");
        assertThat(description).contains("\\[dashboard\\](https://evil.test)");
        // without a link, the fingerprint says which monitor it is
        assertThat(description).startsWith("**CRITICAL** opened · checkout-api: no link · `monitor/checkout-0`");
    }

    @Test
    void theAdapterPostsAGroupMessageAsOneEmbed() throws Exception {
        try (FakeVendor discord = new FakeVendor();
                HttpSender http = new HttpSender("discord-group", 2, Duration.ofSeconds(5))) {
            discord.respond(r -> FakeVendor.Reply.of(204));
            DiscordNotifier notifier =
                    new DiscordNotifier(discord.uri("/api/webhooks/1/secret"), http, Clock.systemUTC());
            List<AlertEvent> events = monitors(3, null);

            DeliveryOutcome o = notifier.send(Notification.group(events, "discord", "group-9"))
                    .block(Duration.ofSeconds(10));

            assertThat(notifier.rendersGroups()).isTrue();
            assertThat(o).isInstanceOf(DeliveryOutcome.Delivered.class);
            assertThat(discord.requests).singleElement().satisfies(r -> assertThat(r.body())
                    .contains("3 alerts (3 opened)", "Vigil · group group-9 · 3 events"));
        }
    }
}
