package dev.vigil.notifier.support;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Events for message-template tests: every state, with and without links, attributes and component, hostile text. */
public final class TemplateEvents {
    /** Markup of every vendor at once: mentions, links, HTML, Markdown, an entity, a zero-width space. */
    public static final String HOSTILE = "<!channel> @everyone <@U123> [docs](https://evil.test) <script>x</script>"
            + " *bold* &amp; \\ # www.evil.test z\u200Bw";

    private TemplateEvents() {}

    /** Each state of one incident (the acknowledgement with an end), then bare, hostile and longest events. */
    public static List<AlertEvent> all() {
        List<AlertEvent> events = new ArrayList<>();
        AlertEvent opened = TestEvents.opened("monitor/checkout", Severity.CRITICAL);
        events.add(opened);
        events.add(TestEvents.event("monitor/checkout", AlertState.REMINDER, Severity.CRITICAL, 4));
        events.add(TestEvents.event("monitor/checkout", AlertState.ESCALATED, Severity.WARNING, 2));
        events.add(TestEvents.event("monitor/checkout", AlertState.RESOLVED, Severity.INFO, 5));
        events.add(TestEvents.acknowledged(opened, "alice", TestEvents.T0 + 300_000));
        AlertEvent ack = TestEvents.acknowledged(opened, "bob", TestEvents.T0 + 300_000);
        Map<String, String> until = new LinkedHashMap<>(ack.attributes());
        until.put("acknowledgedUntil", "2026-01-01T04:00:00Z");
        events.add(TestEvents.withSummary(ack, ack.summary(), until, ack.links()));
        for (AlertState state : AlertState.values()) {
            events.add(bare(TestEvents.event("monitor/bare", state, Severity.WARNING, 1)));
        }
        events.add(hostile());
        Map<String, String> links = new LinkedHashMap<>();
        links.put("dashboard", "https://grafana.example.test/d/checkout");
        links.put("unsafe", "javascript:alert(1)");
        links.put("runbook", "https://runbooks.example.test/checkout");
        events.add(TestEvents.withSummary(opened, "x".repeat(300), Map.of("region", "eu-west"), links));
        return events;
    }

    /** No links, no attributes, no component type. */
    public static AlertEvent bare(AlertEvent e) {
        return new AlertEvent(
                1,
                e.eventId(),
                e.fingerprint(),
                e.incidentId(),
                e.state(),
                e.severity(),
                e.service(),
                null,
                e.summary(),
                Map.of(),
                Map.of(),
                e.occurrences(),
                e.firstSeen(),
                e.lastSeen(),
                e.source(),
                false,
                List.of());
    }

    /** {@link #HOSTILE} in the summary, an attribute name and value, a link label and the service. */
    public static AlertEvent hostile() {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("<@U999> [x](https://evil.test)", HOSTILE);
        attributes.put("region", "us-east");
        Map<String, String> links = new LinkedHashMap<>();
        links.put("<!here> [rb](https://e.test)", "https://runbooks.example.test/checkout");
        AlertEvent e = TestEvents.withSummary(
                TestEvents.opened("monitor/checkout", Severity.CRITICAL), "down " + HOSTILE, attributes, links);
        return TestEvents.with(e, "api <!everyone> @here", e.attributes(), List.of(), false);
    }
}
