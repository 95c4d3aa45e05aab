package dev.vigil.notifier.channel.slack;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.notifier.channel.Presentation;
import dev.vigil.notifier.channel.template.MessageTemplate;
import dev.vigil.notifier.core.Text;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.json.Json;
import java.util.Map;

/**
 * Block Kit payload for an incoming webhook, within Slack's limits: header text 150, section text 3000, at most
 * 10 fields of 2000, button text 75 and URL 3000, top-level fallback text kept short, at most 50 blocks.
 *
 * <p>Every text built from event data, plain_text as well as mrkdwn and the top-level fallback (which Slack
 * shows in notifications and parses as mrkdwn), goes through {@link #escape}: a summary such as
 * {@code <!channel>} or {@code <https://evil|dashboard>} must arrive as inert text, never ping or hide a link.
 * mrkdwn objects are also {@code verbatim}, so Slack does not turn bare names or URLs in the data into mentions or
 * links either. The only links are the buttons for the event's own http(s) links.
 *
 * <p>An {@code acknowledged} event is a short notice: title, who and until when, the incident,
 * the same link buttons, in a neutral colour; the escaping is the same.
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

    /**
     * Today's text of the main section as a template: the summary, or the title on an acknowledgement notice.
     * A channel's {@code template} replaces it; everything else in the message stays.
     */
    public static final String DEFAULT_TEMPLATE =
            "{{#isAcknowledgement}}{{title}}{{/isAcknowledgement}}{{^isAcknowledgement}}{{summary}}{{/isAcknowledgement}}";

    private SlackMessage() {}

    /** {@code source} compiled with Slack's escaper for every value ({@link #escape}). */
    public static MessageTemplate template(String source) {
        return MessageTemplate.compile(source, SlackMessage::escape);
    }

    public static ObjectNode build(AlertEvent event) {
        return build(event, null);
    }

    /** The payload with the main section's text from {@code template} (null: the default text). */
    public static ObjectNode build(AlertEvent event, MessageTemplate template) {
        AlertEvent e = Presentation.clean(event);
        String custom = MessageTemplate.renderOrNull(template, e);
        if (e.state() == AlertState.ACKNOWLEDGED) {
            return notice(e, custom);
        }
        ObjectNode root = Json.mapper().createObjectNode();
        String title = escape(Presentation.title(e));
        root.put("text", Text.truncate(title, FALLBACK_MAX));
        ArrayNode blocks = Json.mapper().createArrayNode();
        ObjectNode header = blocks.addObject().put("type", "header");
        header.set("text", plain(Text.truncate(title, HEADER_MAX)));
        ObjectNode summary = blocks.addObject().put("type", "section");
        summary.set("text", mrkdwn(Text.truncate(custom != null ? custom : escape(e.summary()), SECTION_MAX)));
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
                sb.append("*")
                        .append(escape(a.getKey()))
                        .append("*: ")
                        .append(escape(a.getValue()))
                        .append('\n');
            }
            ObjectNode attrs = blocks.addObject().put("type", "section");
            attrs.set("text", mrkdwn(Text.truncate(sb.toString().strip(), SECTION_MAX)));
        }
        return finish(root, blocks, e);
    }

    /**
     * One message for the events of a group: a title saying what they share and how many of each state, then one
     * line per event (severity, state, service and summary, fingerprint and a link to its console view), in sections within
     * Slack's section and block limits; lines that do not fit are counted ("… and N more"). The context names the
     * group message and every event it carries. Every text is escaped as in {@link #build}.
     */
    public static ObjectNode group(java.util.List<AlertEvent> events, String groupId) {
        java.util.List<AlertEvent> clean =
                events.stream().map(Presentation::clean).toList();
        ObjectNode root = Json.mapper().createObjectNode();
        String title = escape(Presentation.groupTitle(clean));
        root.put("text", Text.truncate(title, FALLBACK_MAX));
        ArrayNode blocks = Json.mapper().createArrayNode();
        blocks.addObject().put("type", "header").set("text", plain(Text.truncate(title, HEADER_MAX)));
        // the header and the context take a block each; the sections fill the rest
        int maxSections = BLOCKS_MAX - 2;
        StringBuilder section = new StringBuilder();
        int sections = 0;
        int shown = 0;
        for (AlertEvent e : clean) {
            String line = line(e);
            if (section.length() + line.length() + 1 > SECTION_MAX - 40) {
                if (sections == maxSections - 1) {
                    break; // the last section keeps room for the count of the lines left out
                }
                blocks.addObject()
                        .put("type", "section")
                        .set("text", mrkdwn(section.toString().strip()));
                sections++;
                section.setLength(0);
            }
            section.append(line).append('\n');
            shown++;
        }
        if (shown < clean.size()) {
            section.append("… and ").append(clean.size() - shown).append(" more");
        }
        if (!section.isEmpty()) {
            blocks.addObject()
                    .put("type", "section")
                    .set("text", mrkdwn(section.toString().strip()));
        }
        StringBuilder ids = new StringBuilder("Vigil · group " + escape(groupId == null ? "-" : groupId) + " · events");
        for (AlertEvent e : clean) {
            ids.append(' ').append(escape(e.eventId()));
        }
        blocks.addObject()
                .put("type", "context")
                .putArray("elements")
                .add(mrkdwn(Text.truncate(ids.toString(), SECTION_MAX)));
        ObjectNode attachment = root.putArray("attachments").addObject();
        attachment.put("color", String.format("#%06X", Presentation.groupColour(clean)));
        attachment.set("blocks", blocks);
        return root;
    }

    /** One event's line of a group message, escaped; at most a few hundred characters. */
    private static String line(AlertEvent e) {
        StringBuilder sb = new StringBuilder()
                .append('*')
                .append(e.severity().wire().toUpperCase(java.util.Locale.ROOT))
                .append("* ")
                .append(e.state().wire())
                .append(" · ")
                .append(escape(Text.truncate(Text.oneLine(e.service() + ": " + e.summary()), 250)))
                .append(" · `")
                .append(escape(Text.truncate(e.fingerprint(), 120)))
                .append('`');
        String link = Presentation.groupLink(e);
        if (link != null && link.length() <= 500) {
            // a safe link has no | < > or whitespace, so it cannot break out of the link form
            sb.append(" · <").append(link).append("|console>");
        }
        return sb.toString();
    }

    /** The acknowledgement notice of an already cleaned event: no severity colour, no occurrence facts. */
    private static ObjectNode notice(AlertEvent e, String custom) {
        ObjectNode root = Json.mapper().createObjectNode();
        String title = escape(Presentation.title(e));
        root.put("text", Text.truncate(title, FALLBACK_MAX));
        ArrayNode blocks = Json.mapper().createArrayNode();
        ObjectNode line = blocks.addObject().put("type", "section");
        line.set("text", mrkdwn(Text.truncate(custom != null ? custom : title, SECTION_MAX)));
        ObjectNode facts = blocks.addObject().put("type", "section");
        ArrayNode fields = facts.putArray("fields");
        field(fields, "Acknowledged by", Presentation.acknowledgedBy(e, "-"));
        String until = Presentation.acknowledgedUntil(e);
        if (until != null) {
            field(fields, "Until", until);
        }
        field(fields, "Service", e.service());
        field(fields, "Severity", e.severity().wire());
        field(fields, "Fingerprint", e.fingerprint());
        field(fields, "Incident", e.incidentId());
        return finish(root, blocks, e);
    }

    /** Link buttons, the context line and the coloured attachment, shared by every payload. */
    private static ObjectNode finish(ObjectNode root, ArrayNode blocks, AlertEvent e) {
        ArrayNode buttons = Json.mapper().createArrayNode();
        for (Map.Entry<String, String> l : e.links().entrySet()) {
            if (Presentation.isSafeLink(l.getValue()) && l.getValue().length() <= URL_MAX) {
                ObjectNode b = buttons.addObject().put("type", "button").put("url", l.getValue());
                b.set("text", plain(Text.truncate(escape(Text.oneLine(l.getKey())), BUTTON_TEXT_MAX)));
            }
        }
        if (!buttons.isEmpty()) {
            blocks.addObject().put("type", "actions").set("elements", buttons);
        }
        ObjectNode context = blocks.addObject().put("type", "context");
        context.putArray("elements").add(mrkdwn(Text.truncate("Vigil · event " + escape(e.eventId()), SECTION_MAX)));
        ObjectNode attachment = root.putArray("attachments").addObject();
        attachment.put("color", Presentation.hexColour(e));
        attachment.set("blocks", blocks);
        return root;
    }

    private static void field(ArrayNode fields, String name, String value) {
        if (fields.size() < FIELDS_MAX) {
            fields.add(mrkdwn(Text.truncate("*" + name + "*\n" + escape(value), FIELD_MAX)));
        }
    }

    private static ObjectNode plain(String escapedText) {
        return Json.mapper().createObjectNode().put("type", "plain_text").put("text", escapedText);
    }

    private static ObjectNode mrkdwn(String escapedText) {
        return Json.mapper()
                .createObjectNode()
                .put("type", "mrkdwn")
                .put("text", escapedText)
                .put("verbatim", true);
    }

    /**
     * Slack's control characters, replaced by the entities Slack decodes for display: with no {@code <} left,
     * data can form no mention ({@code <!here>}, {@code <@U123>}, {@code <#C123>}) and no link
     * ({@code <url|label>}). {@code &} goes first so an entity already in the data is shown, not decoded.
     */
    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
