package dev.vigil.notifier.channel.teams;

import static dev.vigil.notifier.support.TestEvents.T0;
import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static dev.vigil.notifier.support.TestEvents.with;
import static dev.vigil.notifier.support.TestEvents.withSummary;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TeamsMessageTest {
    private static final String HOSTILE = "[click](https://evil.example) **bold** __under__ <at>everyone</at> ~~gone~~"
            + " `code` &#91;x&#93;&#40;https://evil.example&#41; ![img](https://evil.example/i.png) www.evil.example"
            + " \\*not\\* 1) ok";

    private static JsonNode json(String s) {
        return Json.tree(s.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode card(ObjectNode message) {
        return message.path("attachments").get(0).path("content");
    }

    /** Every text Teams renders as Markdown (TextBlock text, Fact title and value), with its JSON path. */
    private static List<String[]> markdownTexts(JsonNode node, String path, List<String[]> out) {
        if (node.isObject()) {
            String type = node.path("type").asText();
            if (type.equals("TextBlock")) {
                out.add(new String[] {path + ".text", node.path("text").asText()});
            }
            if (node.has("title") && node.has("value")) {
                out.add(new String[] {path + ".title", node.path("title").asText()});
                out.add(new String[] {path + ".value", node.path("value").asText()});
            }
            node.properties().forEach(f -> markdownTexts(f.getValue(), path + "." + f.getKey(), out));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                markdownTexts(node.get(i), path + "[" + i + "]", out);
            }
        }
        return out;
    }

    /** True when every Markdown-active character in {@code s} is escaped and nothing can be a tag or bare URL. */
    private static void assertInert(String what, String s) {
        assertThat(s)
                .as(what)
                .doesNotContain("<")
                .doesNotContain(">")
                .doesNotContain("://")
                .doesNotContainIgnoringCase("www.")
                .doesNotContain("\n")
                .doesNotContain("\r");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ("*_[]()`~&!".indexOf(c) >= 0) {
                int backslashes = 0;
                for (int j = i - 1; j >= 0 && s.charAt(j) == '\\'; j--) {
                    backslashes++;
                }
                assertThat(backslashes % 2)
                        .as("%s: '%s' at %d is escaped in %s", what, c, i, s)
                        .isEqualTo(1);
            }
        }
    }

    @Test
    void anOpenedPageIsAnAdaptiveCardMessageInTheWorkflowsShape() {
        AlertEvent e = opened("monitor/checkout", Severity.CRITICAL);
        assertThat(TeamsMessage.build(e))
                .isEqualTo(
                        json(
                                """
                {"type":"message","attachments":[{"contentType":"application/vnd.microsoft.card.adaptive","contentUrl":null,
                 "content":{"$schema":"http://adaptivecards.io/schemas/adaptive-card.json","type":"AdaptiveCard","version":"1.4",
                  "body":[
                   {"type":"Container","style":"attention","bleed":true,"items":[
                     {"type":"TextBlock","text":"\\\\[CRITICAL\\\\] opened: checkout-api","weight":"Bolder","size":"Medium",
                      "color":"attention","wrap":true}]},
                   {"type":"TextBlock","text":"checkout-api is down in 2 of 3 regions","wrap":true},
                   {"type":"FactSet","facts":[
                     {"title":"Severity","value":"critical"},
                     {"title":"State","value":"opened"},
                     {"title":"Service","value":"checkout-api"},
                     {"title":"Fingerprint","value":"monitor/checkout"},
                     {"title":"First seen","value":"2026-01-01T00:00:00Z"},
                     {"title":"Last seen","value":"2026-01-01T00:01:00Z"},
                     {"title":"Occurrences","value":"1"},
                     {"title":"Component","value":"service"}]},
                   {"type":"TextBlock","text":"Attributes","weight":"Bolder","spacing":"Medium","wrap":true},
                   {"type":"FactSet","facts":[{"title":"region","value":"us-east"}]},
                   {"type":"TextBlock","text":"Vigil · event monitor/checkout@1767225600000/opened/1","isSubtle":true,
                    "size":"Small","wrap":true}],
                  "actions":[{"type":"Action.OpenUrl","title":"dashboard","url":"https://grafana.example.test/d/checkout"}]}}]}
                """));
    }

    @Test
    void severityIsInWordsAndInStyle() {
        assertThat(header(opened("monitor/checkout", Severity.WARNING)))
                .isEqualTo(new String[] {"warning", "warning", "\\[WARNING\\] opened: checkout-api"});
        assertThat(header(opened("monitor/checkout", Severity.INFO)))
                .isEqualTo(new String[] {"accent", "accent", "\\[INFO\\] opened: checkout-api"});
        assertThat(header(event("monitor/checkout", AlertState.REMINDER, Severity.CRITICAL, 2)))
                .isEqualTo(new String[] {"attention", "attention", "\\[CRITICAL\\] still firing: checkout-api"});
        assertThat(header(event("monitor/checkout", AlertState.ESCALATED, Severity.CRITICAL, 3)))
                .isEqualTo(new String[] {"attention", "attention", "\\[CRITICAL\\] escalated: checkout-api"});
        assertThat(header(event("monitor/checkout", AlertState.RESOLVED, Severity.CRITICAL, 4)))
                .isEqualTo(new String[] {"good", "good", "\\[CRITICAL\\] resolved: checkout-api"});
    }

    private static String[] header(AlertEvent e) {
        JsonNode container = card(TeamsMessage.build(e)).path("body").get(0);
        JsonNode title = container.path("items").get(0);
        return new String[] {
            container.path("style").asText(),
            title.path("color").asText(),
            title.path("text").asText()
        };
    }

    @Test
    void aResolutionIsShortWithoutAttributes() {
        AlertEvent resolved = event("monitor/checkout", AlertState.RESOLVED, Severity.CRITICAL, 4);
        JsonNode card = card(TeamsMessage.build(resolved));
        JsonNode body = card.path("body");
        assertThat(body).hasSize(4);
        List<String> facts = new ArrayList<>();
        body.get(2)
                .path("facts")
                .forEach(f -> facts.add(
                        f.path("title").asText() + "=" + f.path("value").asText()));
        assertThat(facts)
                .containsExactly(
                        "State=resolved",
                        "Service=checkout-api",
                        "Severity=critical",
                        "Fingerprint=monitor/checkout",
                        "First seen=2026-01-01T00:00:00Z",
                        "Resolved=2026-01-01T00:04:00Z");
        assertThat(card.toString()).doesNotContain("us-east").doesNotContain("Attributes");
        assertThat(card.path("actions").get(0).path("url").asText())
                .isEqualTo("https://grafana.example.test/d/checkout");
    }

    @Test
    void anAcknowledgementIsAShortNeutralNoticeWhoseDataIsInertToo() {
        AlertEvent ack = TestEvents.acknowledged(
                opened("monitor/checkout", Severity.CRITICAL), "ops <at>everyone</at>", T0 + 120_000);
        Map<String, String> attrs = new LinkedHashMap<>(ack.attributes());
        attrs.put("acknowledgedUntil", "2026-01-01T02:00:00Z");
        ack = withSummary(ack, "Acknowledged by ops: on it " + HOSTILE, attrs, ack.links());
        JsonNode card = card(TeamsMessage.build(ack));
        JsonNode body = card.path("body");
        assertThat(body.get(0).path("style").asText()).isEqualTo("emphasis");
        assertThat(body.get(0).path("items").get(0).path("color").asText()).isEqualTo("default");
        assertThat(body.get(0).path("items").get(0).path("text").asText())
                .isEqualTo("\\[CRITICAL\\] acknowledged: checkout-api");
        List<String> facts = new ArrayList<>();
        body.get(2)
                .path("facts")
                .forEach(f -> facts.add(
                        f.path("title").asText() + "=" + f.path("value").asText()));
        assertThat(facts)
                .containsExactly(
                        "Acknowledged by=ops ＜at＞everyone＜/at＞",
                        "Until=2026-01-01T02:00:00Z",
                        "Service=checkout-api",
                        "Severity=critical",
                        "Fingerprint=monitor/checkout",
                        "Incident=monitor/checkout@1767225600000");
        assertThat(card.toString()).doesNotContain("us-east").doesNotContain("Occurrences");
        markdownTexts(card, "$", new ArrayList<>()).forEach(t -> assertInert(t[0], t[1]));
    }

    @Test
    void aHostileSummaryCanFormNoLinkEmphasisListOrMention() {
        AlertEvent e = withSummary(
                opened("monitor/checkout", Severity.CRITICAL), HOSTILE + " \u202Eevil\u200B", Map.of(), Map.of());
        JsonNode summary = card(TeamsMessage.build(e)).path("body").get(1);
        String expected =
                ("\\[click\\]\\(https[:]//evil.example\\) \\*\\*bold\\*\\* \\_\\_under\\_\\_ ＜at＞everyone＜/at＞"
                                + " \\~\\~gone\\~\\~ \\`code\\` \\&#91;x\\&#93;\\&#40;https[:]//evil.example\\&#41;"
                                + " \\!\\[img\\]\\(https[:]//evil.example/i.png\\) www[.]evil.example \\\\\\*not\\\\\\* 1\\) ok evil")
                        .replace("[:]", "\\[:\\]")
                        .replace("[.]", "\\[.\\]");
        assertThat(summary.path("text").asText()).isEqualTo(expected);
        assertInert("summary", summary.path("text").asText());
        assertThat(card(TeamsMessage.build(e)).has("actions"))
                .as("no link from data becomes an action")
                .isFalse();
        assertThat(card(TeamsMessage.build(e)).has("msteams"))
                .as("no mention entities")
                .isFalse();
    }

    @Test
    void everyMarkdownTextFromDataIsInert() {
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("*key* [x](https://evil.example)", HOSTILE);
        attrs.put("- list", "# heading");
        attrs.put("1. first", "> quote <b>");
        Map<String, String> links = new LinkedHashMap<>();
        links.put("**run**book <at>x</at>", "https://runbooks.example.test/checkout");
        AlertEvent e = withSummary(opened("monitor/checkout", Severity.CRITICAL), HOSTILE, attrs, links);
        e = with(e, "api_[svc](https://evil.example)", e.attributes(), List.of(), false);
        JsonNode card = card(TeamsMessage.build(e));
        List<String[]> texts = markdownTexts(card, "$", new ArrayList<>());
        assertThat(texts).hasSizeGreaterThan(20);
        texts.forEach(t -> assertInert(t[0], t[1]));
        // block markers where a text starts are escaped too
        List<String> attributeFacts = new ArrayList<>();
        card.path("body")
                .get(4)
                .path("facts")
                .forEach(f -> attributeFacts.add(
                        f.path("title").asText() + "=" + f.path("value").asText()));
        assertThat(attributeFacts).contains("\\- list=\\# heading", "1\\. first=＞ quote ＜b＞");
        // the action title is plain text: shown as typed, no tags
        JsonNode action = card.path("actions").get(0);
        assertThat(action.path("title").asText()).isEqualTo("**run**book ＜at＞x＜/at＞");
        assertThat(action.path("url").asText()).isEqualTo("https://runbooks.example.test/checkout");
    }

    @Test
    void escapeHandlesLeadingBlockMarkersAndBackslashes() {
        assertThat(TeamsMessage.escape("- item")).isEqualTo("\\- item");
        assertThat(TeamsMessage.escape("  + item")).isEqualTo("  \\+ item");
        assertThat(TeamsMessage.escape("* item")).isEqualTo("\\* item");
        assertThat(TeamsMessage.escape("## title")).isEqualTo("\\## title");
        assertThat(TeamsMessage.escape("12. item")).isEqualTo("12\\. item");
        assertThat(TeamsMessage.escape("3) item")).isEqualTo("3\\) item");
        assertThat(TeamsMessage.escape("v1.2 and 2026-01-01 - fine")).isEqualTo("v1.2 and 2026-01-01 - fine");
        assertThat(TeamsMessage.escape("a\\b")).isEqualTo("a\\\\b");
        assertThat(TeamsMessage.escape("line\nbreak\u2028here\r\nand\u0085there"))
                .isEqualTo("line break here and there");
        assertThat(TeamsMessage.escape("bi\u202Edi\u200Bzw")).isEqualTo("bidizw");
        assertThat(TeamsMessage.escape("HTTP://X.test WWW.Y.test")).isEqualTo("HTTP\\[:\\]//X.test WWW\\[.\\]Y.test");
    }

    @Test
    void onlySafeHttpLinksBecomeActions() {
        Map<String, String> links = new LinkedHashMap<>();
        links.put("dashboard", "https://grafana.example.test/d/checkout?from=now-1h&to=now");
        links.put("plain", "http://status.example.test/");
        links.put("script", "javascript:alert(1)");
        links.put("pipe", "https://example.test/a|b");
        links.put("angle", "https://example.test/<x>");
        links.put("space", "https://example.test/a b");
        links.put("ftp", "ftp://example.test/file");
        links.put("userinfo", "https://grafana.example.test@evil.test/");
        AlertEvent e = withSummary(opened("monitor/checkout", Severity.CRITICAL), "down", Map.of(), links);
        List<String> urls = new ArrayList<>();
        card(TeamsMessage.build(e)).path("actions").forEach(a -> {
            assertThat(a.path("type").asText()).isEqualTo("Action.OpenUrl");
            urls.add(a.path("url").asText());
        });
        assertThat(urls)
                .containsExactlyInAnyOrder(
                        "https://grafana.example.test/d/checkout?from=now-1h&to=now", "http://status.example.test/");
    }

    /** The largest event the contract allows, every character of it worst-case for escaping and UTF-8. */
    private static AlertEvent largest() {
        Map<String, String> attrs = new LinkedHashMap<>();
        for (int i = 0; i < 16; i++) {
            attrs.put(("*attr-" + i + "-").repeat(8).substring(0, 64), "😀<*>".repeat(51));
        }
        Map<String, String> links = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            links.put("link-" + i + "-" + "[x]".repeat(8), "https://example.test/" + "p".repeat(2000) + i);
        }
        AlertEvent e = withSummary(opened("monitor/checkout", Severity.CRITICAL), "*_<".repeat(100), attrs, links);
        return with(e, "[svc]".repeat(20), e.attributes(), List.of(), false);
    }

    @Test
    void theLargestEventFitsTheCardSizeLimitAndSaysItWasShortened() {
        ObjectNode m = TeamsMessage.build(largest());
        assertThat(TeamsMessage.size(m))
                .isLessThanOrEqualTo(TeamsMessage.MAX_BYTES)
                .isLessThan(28 * 1024);
        JsonNode card = card(m);
        assertThat(card.toString()).contains("Shortened to fit the Teams message size limit");
        assertThat(card.path("body").get(0).path("items").get(0).path("text").asText())
                .startsWith("\\[CRITICAL\\] opened: ");
        assertThat(card.path("body").get(1).path("text").asText()).isNotBlank();
        markdownTexts(card, "$", new ArrayList<>()).forEach(t -> assertInert(t[0], t[1]));
    }

    @Test
    void largeAttributesAreCutBeforeAnythingElse() {
        Map<String, String> attrs = new LinkedHashMap<>();
        for (int i = 0; i < 16; i++) {
            attrs.put("attribute-" + i, "<*>".repeat(85));
        }
        Map<String, String> links = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            links.put("link-" + i, "https://example.test/" + "p".repeat(1900) + i);
        }
        AlertEvent e = withSummary(opened("monitor/checkout", Severity.CRITICAL), "checkout is down", attrs, links);
        ObjectNode m = TeamsMessage.build(e);
        assertThat(TeamsMessage.size(m)).isLessThanOrEqualTo(TeamsMessage.MAX_BYTES);
        JsonNode card = card(m);
        assertThat(card.path("actions")).hasSize(8);
        assertThat(card.path("body").get(1).path("text").asText()).isEqualTo("checkout is down");
        JsonNode attrFacts = card.path("body").get(4).path("facts");
        assertThat(attrFacts).hasSize(16);
        attrFacts.forEach(f -> assertThat(f.path("value").asText()).endsWith("…"));
        assertThat(card.toString()).contains("Shortened to fit");
    }

    @Test
    void aTypicalEventIsNotShortened() {
        ObjectNode m = TeamsMessage.build(opened("monitor/checkout", Severity.CRITICAL));
        assertThat(TeamsMessage.size(m)).isLessThan(2048);
        assertThat(m.toString()).doesNotContain("Shortened");
    }
}
