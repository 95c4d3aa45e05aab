package dev.vigil.notifier.channel.slack;

import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.with;
import static dev.vigil.notifier.support.TestEvents.withSummary;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One Slack message for the events of a group: a line per event, within Slack's limits, data escaped. */
class SlackGroupMessageTest {
    private static AlertEvent monitor(int i, AlertState state, Severity severity) {
        Map<String, String> links = new LinkedHashMap<>();
        links.put("runbook", "https://runbooks.example.test/checkout");
        links.put("console", "https://vigil.example.test/incidents/" + i);
        AlertEvent e = event("monitor/checkout-" + i, state, severity, 1);
        return withSummary(e, "checkout-" + i + " is down", e.attributes(), links);
    }

    private static List<AlertEvent> monitors(int n) {
        List<AlertEvent> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(monitor(i, AlertState.OPENED, Severity.CRITICAL));
        }
        return out;
    }

    private static JsonNode blocks(ObjectNode p) {
        return p.get("attachments").get(0).get("blocks");
    }

    @Test
    void fiftyEventsAreOneMessageWithALinePerEventAndEveryEventNamed() {
        List<AlertEvent> events = monitors(50);

        ObjectNode p = SlackMessage.group(events, "group-1");

        assertThat(p.get("text").asText()).isEqualTo("[CRITICAL] checkout-api: 50 alerts (50 opened)");
        assertThat(blocks(p).size()).isLessThanOrEqualTo(SlackMessage.BLOCKS_MAX);
        StringBuilder lines = new StringBuilder();
        for (JsonNode b : blocks(p)) {
            if (b.get("type").asText().equals("section")) {
                assertThat(b.get("text").get("text").asText().length()).isLessThanOrEqualTo(SlackMessage.SECTION_MAX);
                lines.append(b.get("text").get("text").asText()).append('\n');
            }
        }
        for (AlertEvent e : events) {
            assertThat(lines.toString())
                    .contains("*CRITICAL* opened · checkout-api: " + e.summary() + " · `" + e.fingerprint() + "`")
                    .contains("<https://vigil.example.test/incidents/"
                            + e.fingerprint().substring("monitor/checkout-".length()) + "|console>");
        }
        String context = blocks(p).get(blocks(p).size() - 1).toString();
        assertThat(context).contains("group-1");
        events.forEach(e -> assertThat(context).contains(e.eventId()));
        assertThat(p.get("attachments").get(0).get("color").asText()).isEqualTo("#E01E5A");
    }

    @Test
    void resolutionsOnlyReadResolvedInGreenAndMixedStatesAreCounted() {
        List<AlertEvent> resolved = List.of(
                monitor(1, AlertState.RESOLVED, Severity.CRITICAL), monitor(2, AlertState.RESOLVED, Severity.WARNING));
        ObjectNode allResolved = SlackMessage.group(resolved, "g");
        assertThat(allResolved.get("text").asText()).isEqualTo("[Resolved] checkout-api: 2 alerts (2 resolved)");
        assertThat(allResolved.get("attachments").get(0).get("color").asText()).isEqualTo("#2EB67D");

        List<AlertEvent> mixed = List.of(
                monitor(1, AlertState.RESOLVED, Severity.CRITICAL),
                monitor(2, AlertState.OPENED, Severity.WARNING),
                with(monitor(3, AlertState.OPENED, Severity.WARNING), "payments", Map.of(), List.of(), false));
        assertThat(SlackMessage.group(mixed, "g").get("text").asText())
                .isEqualTo("[WARNING] 2 services: 3 alerts (2 opened, 1 resolved)");
    }

    @Test
    void dataCanNeitherPingNorFormALinkInAGroupMessage() {
        String hostile = "<!channel> <@U123> <https://evil.test|dashboard>";
        AlertEvent a = monitor(1, AlertState.OPENED, Severity.CRITICAL);
        Map<String, String> badLinks = Map.of("console", "https://evil.test/x|<!here>");
        a = with(withSummary(a, hostile, a.attributes(), badLinks), "api <!everyone>", Map.of(), List.of(), false);
        AlertEvent b = monitor(2, AlertState.OPENED, Severity.CRITICAL);

        String json = Json.mapper()
                .valueToTree(SlackMessage.group(List.of(a, b), "g"))
                .toString();

        assertThat(json)
                .doesNotContain("<!channel>", "<@U123>", "<!everyone>", "<https://evil.test", "<!here>")
                .contains("&lt;!channel&gt;", "api &lt;!everyone&gt;")
                // the other event's safe console link stays a link
                .contains("<https://vigil.example.test/incidents/2|console>");
    }

    @Test
    void linesBeyondTheMessageLimitsAreCountedNotDropped() {
        List<AlertEvent> events = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            AlertEvent e = monitor(i, AlertState.OPENED, Severity.WARNING);
            events.add(withSummary(e, "x".repeat(200), e.attributes(), e.links()));
        }

        ObjectNode p = SlackMessage.group(events, "g");

        assertThat(blocks(p).size()).isLessThanOrEqualTo(SlackMessage.BLOCKS_MAX);
        assertThat(blocks(p).toString()).containsPattern("… and [0-9]+ more");
        for (JsonNode b : blocks(p)) {
            JsonNode text = b.get("text");
            if (text != null) {
                assertThat(text.get("text").asText().length()).isLessThanOrEqualTo(SlackMessage.SECTION_MAX);
            }
        }
    }

    @Test
    void theAdapterRendersGroups() {
        assertThat(new SlackNotifier(java.net.URI.create("https://hooks.slack.test/x"), null, Clock.systemUTC())
                        .rendersGroups())
                .isTrue();
    }
}
