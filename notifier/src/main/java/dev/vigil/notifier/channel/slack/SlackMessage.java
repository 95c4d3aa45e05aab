package dev.vigil.notifier.channel.slack;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.notifier.channel.Presentation;
import dev.vigil.notifier.channel.Text;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.json.Json;
import java.util.Map;

/**
 * Block Kit payload for an incoming webhook, within Slack's limits: header text 150, section text 3000, at most
 * 10 fields of 2000, button text 75 and URL 3000, top-level fallback text kept short, at most 50 blocks.
 */
public final class SlackMessage {
    public static final int HEADER_MAX = 150;
    public static final int SECTION_MAX = 3000;
    public static final int FIELD_MAX = 2000;
    public static final int FIELDS_MAX = 10;
    public static final int BUTTON_TEXT_MAX = 75;
    public static final int URL_MAX = 3000;
    public static final int BLOCKS_MAX = 50;
    public static final int FALLBACK_MAX = 3000;

    private SlackMessage() {
    }

    public static ObjectNode build(AlertEvent e) {
        ObjectNode root = Json.mapper().createObjectNode();
        String title = Presentation.title(e);
        root.put("text", Text.truncate(title, FALLBACK_MAX));
        ArrayNode blocks = Json.mapper().createArrayNode();
        ObjectNode header = blocks.addObject().put("type", "header");
        header.putObject("text").put("type", "plain_text").put("text", Text.truncate(title, HEADER_MAX));
        ObjectNode summary = blocks.addObject().put("type", "section");
        summary.putObject("text").put("type", "mrkdwn").put("text", Text.truncate(escape(e.summary()), SECTION_MAX));
        ObjectNode facts = blocks.addObject().put("type", "section");
        ArrayNode fields = facts.putArray("fields");
        field(fields, "Severity", e.severity().wire());
        field(fields, "Service", e.service());
        field(fields, "State", e.state().wire());
        field(fields, "Occurrences", String.valueOf(e.occurrences()));
        field(fields, "First seen", Presentation.time(e.firstSeen()));
        field(fields, "Last seen", Presentation.time(e.lastSeen()));
        field(fields, "Fingerprint", e.fingerprint());
        if (!e.attributes().isEmpty()) {
            StringBuilder sb = new StringBuilder();
            for (Map.Entry<String, String> a : e.attributes().entrySet()) {
                sb.append("*").append(escape(a.getKey())).append("*: ").append(escape(a.getValue())).append('\n');
            }
            ObjectNode attrs = blocks.addObject().put("type", "section");
            attrs.putObject("text").put("type", "mrkdwn").put("text", Text.truncate(sb.toString().strip(), SECTION_MAX));
        }
        ArrayNode buttons = Json.mapper().createArrayNode();
        for (Map.Entry<String, String> l : e.links().entrySet()) {
            if (Presentation.isHttpLink(l.getValue()) && l.getValue().length() <= URL_MAX) {
                ObjectNode b = buttons.addObject().put("type", "button").put("url", l.getValue());
                b.putObject("text").put("type", "plain_text").put("text", Text.truncate(l.getKey(), BUTTON_TEXT_MAX));
            }
        }
        if (!buttons.isEmpty()) {
            blocks.addObject().put("type", "actions").set("elements", buttons);
        }
        ObjectNode context = blocks.addObject().put("type", "context");
        context.putArray("elements").addObject().put("type", "mrkdwn")
                .put("text", Text.truncate("Vigil · event " + escape(e.eventId()), SECTION_MAX));
        ObjectNode attachment = root.putArray("attachments").addObject();
        attachment.put("color", Presentation.hexColour(e));
        attachment.set("blocks", blocks);
        return root;
    }

    private static void field(ArrayNode fields, String name, String value) {
        if (fields.size() < FIELDS_MAX) {
            fields.addObject().put("type", "mrkdwn").put("text", Text.truncate("*" + name + "*\n" + escape(value), FIELD_MAX));
        }
    }

    /** Slack mrkdwn control characters. */
    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
