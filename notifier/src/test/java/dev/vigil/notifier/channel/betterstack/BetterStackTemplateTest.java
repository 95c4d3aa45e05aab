package dev.vigil.notifier.channel.betterstack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.Text;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.notifier.support.TemplateEvents;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BetterStackTemplateTest {
    private final FakeVendor vendor = new FakeVendor();
    private final HttpSender http = new HttpSender("test", 4, Duration.ofSeconds(5));

    @AfterEach
    void close() {
        http.close();
        vendor.close();
    }

    private BetterStackNotifier notifier(String template) {
        return new BetterStackNotifier(
                vendor.uri("/"), "tok", http, Clock.systemUTC(), OnCallReach.defaults(), template);
    }

    @Test
    void theDefaultTemplateReproducesTodaysIncidentForEveryEvent() {
        BetterStackNotifier standard = notifier(null);
        BetterStackNotifier templated = notifier(BetterStackNotifier.DEFAULT_TEMPLATE);
        for (AlertEvent e : TemplateEvents.all()) {
            if (e.links().values().stream().allMatch(dev.vigil.notifier.channel.Presentation::isSafeLink)) {
                assertThat(templated.incident(e)).as(e.eventId()).isEqualTo(standard.incident(e));
            }
        }
    }

    @Test
    void aCustomTemplateIsTheDescriptionPostedToBetterStackAsPlainText() {
        vendor.respond(r -> FakeVendor.Reply.json(201, "{\"data\":{\"id\":\"42\"}}"));
        BetterStackNotifier n = notifier("{{title}}\n\nRunbook: {{#links}}{{url}} {{/links}}\nSeen {{occurrences}}x");

        DeliveryOutcome o = n.send(new Notification(TemplateEvents.hostile(), "betterstack", null))
                .block(Duration.ofSeconds(10));

        assertThat(o).isInstanceOf(DeliveryOutcome.Delivered.class);
        JsonNode body = Json.tree(vendor.requests.get(0).body().getBytes(StandardCharsets.UTF_8));
        assertThat(body.path("description").asText())
                .isEqualTo("[CRITICAL] api <!everyone> @here: down <!channel> @everyone <@U123>"
                        + " [docs](https://evil.test) <script>x</script> *bold* &amp; \\ # www.evil.test zw"
                        + "\n\nRunbook: https://runbooks.example.test/checkout \nSeen 1x");
        assertThat(body.path("summary").asText()).startsWith("[CRITICAL] api <!everyone> @here: down");
    }

    @Test
    void theRenderedDescriptionIsCutToItsLimit() {
        AlertEvent e = TestEvents.withSummary(
                TestEvents.opened("monitor/checkout", Severity.CRITICAL), "x".repeat(300), Map.of(), Map.of());

        String description = notifier("{{summary}}".repeat(40))
                .incident(e)
                .path("description")
                .asText();

        assertThat(description).hasSize(BetterStackNotifier.DESCRIPTION_MAX).endsWith(Text.ELLIPSIS);
    }
}
