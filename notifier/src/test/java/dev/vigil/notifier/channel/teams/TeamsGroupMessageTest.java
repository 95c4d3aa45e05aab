package dev.vigil.notifier.channel.teams;

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
import java.util.List;
import org.junit.jupiter.api.Test;

/** One Teams card for the events of a group: a line per event, escaped, within the message size. */
class TeamsGroupMessageTest {
    private static List<AlertEvent> monitors(int n, String summary) {
        List<AlertEvent> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            AlertEvent e = event("monitor/checkout-" + i, AlertState.OPENED, Severity.WARNING, 1);
            out.add(withSummary(
                    e, summary == null ? "checkout-" + i + " is slow" : summary, e.attributes(), e.links()));
        }
        return out;
    }

    @Test
    void fiftyEventsAreOneCardWithALinePerEvent() {
        ObjectNode m = TeamsMessage.group(monitors(50, null), "group-1");

        var body = m.get("attachments").get(0).get("content").get("body");
        assertThat(body.get(0).get("style").asText()).isEqualTo("warning");
        assertThat(body.get(0).get("items").get(0).get("text").asText())
                .isEqualTo("\\[WARNING\\] checkout-api: 50 alerts \\(50 opened\\)");
        // title, fifty lines, footer
        assertThat(body).hasSize(52);
        assertThat(body.get(1).get("text").asText())
                .isEqualTo("WARNING opened · checkout-api: checkout-0 is slow · monitor/checkout-0");
        assertThat(body.get(51).get("text").asText()).isEqualTo("Vigil · group group-1 · 50 events");
        assertThat(TeamsMessage.size(m)).isLessThanOrEqualTo(TeamsMessage.MAX_BYTES);
    }

    @Test
    void aHugeGroupStaysWithinTheSizeLimitAndDataCannotFormat() {
        ObjectNode m =
                TeamsMessage.group(monitors(100, "<at>boss</at> [x](https://evil.test) " + "y".repeat(200)), "g");

        assertThat(TeamsMessage.size(m)).isLessThanOrEqualTo(TeamsMessage.MAX_BYTES);
        String json = m.toString();
        assertThat(json).containsPattern("… and [0-9]+ more").doesNotContain("<at>", "](https://evil.test)");
    }

    @Test
    void theAdapterPostsAGroupMessageAsOneCard() throws Exception {
        try (FakeVendor teams = new FakeVendor();
                HttpSender http = new HttpSender("teams-group", 2, Duration.ofSeconds(5))) {
            teams.respond(r -> FakeVendor.Reply.of(202));
            TeamsNotifier notifier = new TeamsNotifier(teams.uri("/workflows/secret"), http, Clock.systemUTC());

            DeliveryOutcome o = notifier.send(Notification.group(monitors(3, null), "teams", "group-9"))
                    .block(Duration.ofSeconds(10));

            assertThat(notifier.rendersGroups()).isTrue();
            assertThat(o).isInstanceOf(DeliveryOutcome.Delivered.class);
            assertThat(teams.requests).singleElement().satisfies(r -> assertThat(r.body())
                    .contains("3 alerts", "Vigil · group group-9 · 3 events"));
        }
    }
}
