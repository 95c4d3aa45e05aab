package dev.vigil.notifier.channel.slack;

import static dev.vigil.notifier.support.TestEvents.opened;
import static dev.vigil.notifier.support.TestEvents.with;
import static dev.vigil.notifier.support.TestEvents.withSummary;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SlackMessageTest {
    private static final String HOSTILE =
            "<!channel> <!here> <!everyone> <@U123> <#C123> <https://evil.test|dashboard>";

    /** Every text Slack renders, with its JSON path; URLs of buttons are not text. */
    private static List<String[]> texts(JsonNode node, String path, List<String[]> out) {
        if (node.isTextual()) {
            if (!path.endsWith(".url")) {
                out.add(new String[] {path, node.asText()});
            }
        } else if (node.isObject()) {
            node.fields().forEachRemaining(f -> texts(f.getValue(), path + "." + f.getKey(), out));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                texts(node.get(i), path + "[" + i + "]", out);
            }
        }
        return out;
    }

    private static AlertEvent hostile() {
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("<@U999>", HOSTILE);
        attrs.put("region", "us-east");
        Map<String, String> links = new LinkedHashMap<>();
        links.put("<!here> runbook", "https://runbooks.example.test/checkout");
        AlertEvent e = withSummary(opened("monitor/checkout", Severity.CRITICAL), "down " + HOSTILE, attrs, links);
        return with(e, "api <!everyone>", e.attributes(), List.of(), false);
    }

    @Test
    void dataCanNeitherPingNorHideALinkAnywhereInThePayload() {
        ObjectNode p = SlackMessage.build(hostile());
        List<String[]> texts = texts(p, "$", new ArrayList<>());
        assertThat(texts)
                .isNotEmpty()
                .allSatisfy(t -> assertThat(t[1]).as(t[0]).doesNotContain("<").doesNotContain(">"));

        // the fallback is what notifications show (and Slack parses it as mrkdwn)
        assertThat(p.path("text").asText())
                .isEqualTo(
                        "[CRITICAL] api &lt;!everyone&gt;: down &lt;!channel&gt; &lt;!here&gt; &lt;!everyone&gt; &lt;@U123&gt;"
                                + " &lt;#C123&gt; &lt;https://evil.test|dashboard&gt;");
        JsonNode blocks = p.path("attachments").get(0).path("blocks");
        assertThat(blocks.get(0).path("text").path("type").asText()).isEqualTo("plain_text");
        assertThat(blocks.get(0).path("text").path("text").asText())
                .startsWith("[CRITICAL] api &lt;!everyone&gt;: down");
        assertThat(blocks.get(1).path("text").path("text").asText()).isEqualTo("down " + escaped(HOSTILE));
        assertThat(blocks.get(2).path("fields").get(1).path("text").asText())
                .isEqualTo("*Service*\napi &lt;!everyone&gt;");
        assertThat(blocks.get(3).path("text").path("text").asText())
                .contains("*&lt;@U999&gt;*: " + escaped(HOSTILE))
                .contains("*region*: us-east");
        JsonNode button = blocks.get(4).path("elements").get(0);
        assertThat(button.path("text").path("text").asText()).isEqualTo("&lt;!here&gt; runbook");
        assertThat(button.path("url").asText()).isEqualTo("https://runbooks.example.test/checkout");
    }

    @Test
    void mrkdwnFromDataIsVerbatimSoSlackLinksNothingOnItsOwn() {
        ObjectNode p = SlackMessage.build(hostile());
        List<JsonNode> mrkdwn = p.findParents("type").stream()
                .filter(n -> n.path("type").asText().equals("mrkdwn"))
                .toList();
        assertThat(mrkdwn)
                .hasSizeGreaterThan(5)
                .allSatisfy(n -> assertThat(n.path("verbatim").asBoolean()).isTrue());
    }

    @Test
    void ampersandIsEscapedFirstSoEntitiesInTheDataAreShownNotDecoded() {
        assertThat(SlackMessage.escape("a &lt;!channel&gt; & <b>"))
                .isEqualTo("a &amp;lt;!channel&amp;gt; &amp; &lt;b&gt;");
    }

    @Test
    void onlyPlainHttpLinksBecomeButtons() {
        Map<String, String> links = new LinkedHashMap<>();
        links.put("dashboard", "https://grafana.example.test/d/checkout?from=now-1h&to=now");
        links.put("plain", "http://status.example.test/");
        links.put("script", "javascript:alert(1)");
        links.put("pipe", "https://example.test/a|<!channel>");
        links.put("angle", "https://example.test/<x>");
        links.put("space", "https://example.test/a b");
        links.put("ftp", "ftp://example.test/file");
        links.put("userinfo", "https://grafana.example.test@evil.test/");
        AlertEvent e = withSummary(opened("monitor/checkout", Severity.CRITICAL), "down", Map.of(), links);
        JsonNode blocks = SlackMessage.build(e).path("attachments").get(0).path("blocks");
        JsonNode actions = null;
        for (JsonNode b : blocks) {
            if (b.path("type").asText().equals("actions")) {
                actions = b;
            }
        }
        assertThat(actions).isNotNull();
        List<String> urls = new ArrayList<>();
        actions.path("elements").forEach(b -> urls.add(b.path("url").asText()));
        assertThat(urls)
                .containsExactlyInAnyOrder(
                        "https://grafana.example.test/d/checkout?from=now-1h&to=now", "http://status.example.test/");
    }

    @Test
    void anAcknowledgementIsAShortNoticeThatCanNeitherPingNorHideALink() {
        AlertEvent incident = hostile();
        AlertEvent ack = dev.vigil.notifier.support.TestEvents.acknowledged(
                incident, "ops <!channel>", dev.vigil.notifier.support.TestEvents.T0 + 120_000);
        Map<String, String> attrs = new LinkedHashMap<>(ack.attributes());
        attrs.put("acknowledgedUntil", "2026-01-01T02:00:00Z");
        ack = withSummary(
                ack, "Acknowledged by ops <!channel>: on it <@U123> <https://evil.test|see>", attrs, ack.links());
        ObjectNode p = SlackMessage.build(ack);
        List<String[]> texts = texts(p, "$", new ArrayList<>());
        assertThat(texts)
                .isNotEmpty()
                .allSatisfy(t -> assertThat(t[1]).as(t[0]).doesNotContain("<").doesNotContain(">"));
        assertThat(p.path("text").asText())
                .isEqualTo("[Acknowledged] api &lt;!everyone&gt;: Acknowledged by ops"
                        + " &lt;!channel&gt;: on it &lt;@U123&gt; &lt;https://evil.test|see&gt;");
        JsonNode attachment = p.path("attachments").get(0);
        assertThat(attachment.path("color").asText()).isEqualTo("#8D8D8D");
        JsonNode blocks = attachment.path("blocks");
        assertThat(blocks.get(0).path("text").path("text").asText())
                .isEqualTo(p.path("text").asText());
        JsonNode fields = blocks.get(1).path("fields");
        assertThat(fields.get(0).path("text").asText()).isEqualTo("*Acknowledged by*\nops &lt;!channel&gt;");
        assertThat(fields.get(1).path("text").asText()).isEqualTo("*Until*\n2026-01-01T02:00:00Z");
        // short: the incident's hostile attributes are not repeated, no occurrence facts
        assertThat(p.toString()).doesNotContain("U999").doesNotContain("*Occurrences*");
        List<JsonNode> mrkdwn = p.findParents("type").stream()
                .filter(n -> n.path("type").asText().equals("mrkdwn"))
                .toList();
        assertThat(mrkdwn)
                .isNotEmpty()
                .allSatisfy(n -> assertThat(n.path("verbatim").asBoolean()).isTrue());
        // the incident's own links are still its only buttons
        List<String> urls = new ArrayList<>();
        p.findValues("url").forEach(u -> urls.add(u.asText()));
        assertThat(urls).containsExactly("https://runbooks.example.test/checkout");
    }

    private static String escaped(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
