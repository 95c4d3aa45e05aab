package dev.vigil.notifier.channel.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.notifier.support.TemplateEvents;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class MessageTemplateTest {
    /**
     * Brackets around every value, so a test sees exactly which text went through the escaper; an empty value stays
     * empty, as with every vendor's escaper (JMustache tests emptiness after formatting).
     */
    private static final UnaryOperator<String> MARK = v -> v.isEmpty() ? v : "«" + v + "»";

    @Test
    void theModelShowsTheCleanedEventWithTheRunbookFirstAndOnlySafeLinks() {
        Map<String, String> links = new LinkedHashMap<>();
        links.put("dashboard", "https://grafana.example.test/d/checkout");
        links.put("unsafe", "javascript:alert(1)");
        links.put("runbook", "https://runbooks.example.test/checkout");
        AlertEvent e = TestEvents.withSummary(
                TestEvents.event("monitor/checkout", AlertState.REMINDER, Severity.WARNING, 3),
                "slow\u200B checkout",
                Map.of("region", "eu-west"),
                links);

        MessageModel m = MessageModel.of(e);

        assertThat(m.title()).isEqualTo("[Still firing] checkout-api: slow checkout");
        assertThat(m.summary()).isEqualTo("slow checkout");
        assertThat(m.severity()).isEqualTo("warning");
        assertThat(m.severityUpper()).isEqualTo("WARNING");
        assertThat(m.state()).isEqualTo("reminder");
        assertThat(m.source()).isEqualTo("probe");
        assertThat(m.component()).isEqualTo("service");
        assertThat(m.occurrences()).isEqualTo(3);
        assertThat(m.firstSeen()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(m.lastSeen()).isEqualTo("2026-01-01T00:03:00Z");
        assertThat(m.links()).extracting(MessageModel.Link::name).containsExactly("runbook", "dashboard");
        assertThat(m.attributes()).containsExactly(new MessageModel.Attribute("region", "eu-west"));
        assertThat(m.isReminder()).isTrue();
        assertThat(m.isOpened() || m.isEscalated() || m.isResolution() || m.isAcknowledgement())
                .isFalse();
        assertThat(m.hasLinks()).isTrue();
        assertThat(m.acknowledgedBy()).isEmpty();
    }

    @Test
    void anAcknowledgementNamesWhoAndUntilWhen() {
        AlertEvent opened = TestEvents.opened("monitor/checkout", Severity.CRITICAL);
        AlertEvent ack = TestEvents.acknowledged(opened, "alice", TestEvents.T0 + 60_000);
        Map<String, String> attributes = new LinkedHashMap<>(ack.attributes());
        attributes.put("acknowledgedUntil", "2026-01-01T02:00:00Z");

        MessageModel m = MessageModel.of(TestEvents.withSummary(ack, ack.summary(), attributes, ack.links()));

        assertThat(m.isAcknowledgement()).isTrue();
        assertThat(m.acknowledgedBy()).isEqualTo("alice");
        assertThat(m.acknowledgedUntil()).isEqualTo("2026-01-01T02:00:00Z");
    }

    @Test
    void everyValueGoesThroughTheEscaperWhateverTheBraces() {
        MessageTemplate t =
                MessageTemplate.compile("{{service}} {{{service}}} {{& service}} {{=<% %>=}}<%& service%>", MARK);

        String text = t.render(MessageModel.of(TemplateEvents.hostile()));

        String escaped = "«api <!everyone> @here»";
        assertThat(text).isEqualTo(String.join(" ", escaped, escaped, escaped, escaped));
    }

    @Test
    void theTemplatesOwnTextIsWrittenAsItIsAndSectionsFollowTheModel() {
        MessageTemplate t = MessageTemplate.compile(
                "*{{severityUpper}}*{{#isResolution}} fixed{{/isResolution}}{{^isResolution}} broken{{/isResolution}}"
                        + "{{#links}} <{{url}}|{{name}}>{{/links}}{{#component}} ({{component}}){{/component}}",
                MARK);

        assertThat(t.render(MessageModel.of(TestEvents.opened("monitor/checkout", Severity.CRITICAL))))
                .isEqualTo("*«CRITICAL»* broken <«https://grafana.example.test/d/checkout»|«dashboard»> («service»)");
        assertThat(t.render(MessageModel.of(TemplateEvents.bare(
                        TestEvents.event("monitor/checkout", AlertState.RESOLVED, Severity.INFO, 2)))))
                .isEqualTo("*«INFO»* fixed");
    }

    @Test
    void aTemplateThatRendersOnlyWhitespaceLeavesTheDefault() {
        MessageTemplate t = MessageTemplate.compile("{{#isResolution}}fixed: {{summary}}{{/isResolution}}\n", MARK);
        AlertEvent opened = TestEvents.opened("monitor/checkout", Severity.CRITICAL);
        AlertEvent resolved = TestEvents.event("monitor/checkout", AlertState.RESOLVED, Severity.CRITICAL, 2);

        assertThat(MessageTemplate.renderOrNull(t, opened)).isNull();
        assertThat(MessageTemplate.renderOrNull(t, resolved))
                .isEqualTo("fixed: «checkout-api is down in 2 of 3 regions»");
        assertThat(MessageTemplate.renderOrNull(null, resolved)).isNull();
    }

    @Test
    void aTemplateThatFailsWhileRenderingLeavesTheDefaultTextInsteadOfLosingThePage() {
        MessageTemplate t = MessageTemplate.compile("{{summary}}", v -> {
            if (v.contains("boom")) {
                throw new IllegalStateException("escaper failed");
            }
            return v;
        });
        AlertEvent opened = TestEvents.opened("monitor/checkout", Severity.CRITICAL);

        assertThat(MessageTemplate.renderOrNull(t, opened)).isEqualTo(opened.summary());
        assertThat(MessageTemplate.renderOrNull(
                        t, TestEvents.withSummary(opened, "boom", opened.attributes(), opened.links())))
                .isNull();
    }

    @Test
    void problemsNameTheLineAndTheUnknownName() {
        assertThat(MessageTemplate.problem("{{title}}\n{{sumary}}")).contains("line 2: unknown variable 'sumary'");
        // found although only a resolution, or an event without links, enters the section
        assertThat(MessageTemplate.problem("{{#isResolution}}\n\n{{resolvedAt}}{{/isResolution}}"))
                .contains("line 3: unknown variable 'resolvedAt'");
        assertThat(MessageTemplate.problem("{{^hasLinks}}{{nolinks}}{{/hasLinks}}"))
                .contains("line 1: unknown variable 'nolinks'");
        assertThat(MessageTemplate.problem("{{#links}}{{label}}{{/links}}"))
                .contains("line 1: unknown variable 'label'");
        assertThat(MessageTemplate.problem("{{#isResolved}}x{{/isResolved}}"))
                .contains("line 1: unknown variable 'isResolved'");
        assertThat(MessageTemplate.problem("a\n{{#links}}{{url}}")).hasValueSatisfying(p -> assertThat(p)
                .startsWith("not a valid template: ")
                .contains("links")
                .contains("line 2"));
        assertThat(MessageTemplate.problem("{{> header}}"))
                .hasValueSatisfying(p -> assertThat(p).contains("partials"));
        assertThat(MessageTemplate.problem("  \n"))
                .hasValueSatisfying(p -> assertThat(p).startsWith("is empty"));
        assertThat(MessageTemplate.problem("{{title}} {{#links}}{{name}} {{url}}{{/links}}"))
                .isEmpty();
        assertThatThrownBy(() -> MessageTemplate.compile("{{sumary}}", MARK))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("line 1: unknown variable 'sumary'");
    }

    @Test
    void everyTemplateOfTheSampleSetRendersEachEventOfTheTestSet() {
        String all = Arrays.stream(MessageModel.class.getRecordComponents())
                .map(c -> c.getType() == List.class
                        ? "{{#" + c.getName() + "}}{{name}}{{/" + c.getName() + "}}"
                        : "{{" + c.getName() + "}}")
                .reduce("", String::concat);
        assertThat(MessageTemplate.problem(all)).isEmpty();
        MessageTemplate t = MessageTemplate.compile(all, MARK);
        for (AlertEvent e : TemplateEvents.all()) {
            assertThat(t.render(MessageModel.of(e))).contains("«" + e.state().wire() + "»");
        }
    }

    @Test
    void theModuleReadmeDocumentsEveryFieldOfTheModel() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        for (var c : MessageModel.class.getRecordComponents()) {
            assertThat(readme).as(c.getName()).contains("`" + c.getName() + "`");
        }
        for (var c : MessageModel.Link.class.getRecordComponents()) {
            assertThat(readme).contains("`" + c.getName() + "`");
        }
    }
}
