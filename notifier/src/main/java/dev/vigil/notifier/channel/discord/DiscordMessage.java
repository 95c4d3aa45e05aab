package dev.vigil.notifier.channel.discord;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.notifier.channel.Presentation;
import dev.vigil.notifier.channel.template.MessageTemplate;
import dev.vigil.notifier.core.Text;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One embed within Discord's limits: title 256, description 4096, at most 25 fields (name 256, value 1024),
 * footer 2048, and at most 6000 characters across them all. Fields are dropped from the end, then the
 * description shortened, until the total fits.
 *
 * <p>Nothing in the data may ping or hide a link: every payload carries {@code allowed_mentions: {"parse": []}}
 * (so {@code @everyone}, {@code @here}, {@code <@id>} and {@code <@&role>} render without notifying anyone), and
 * data shown where Discord renders markdown (description, field values) has its masked-link syntax escaped
 * ({@link #escapeMarkdown}), so {@code [dashboard](https://evil)} shows as typed. The Links field is the only
 * markup Vigil writes itself, from the event's http(s) links.
 *
 * <p>An {@code acknowledged} event is a short notice: the title, the summary ("Acknowledged by …"), who and until
 * when, the service and the links, in a neutral colour, under the same escaping and {@code allowed_mentions}.
 */
public final class DiscordMessage {
    public static final int TITLE_MAX = 256;
    public static final int DESCRIPTION_MAX = 4096;
    public static final int FIELDS_MAX = 25;
    public static final int FIELD_NAME_MAX = 256;
    public static final int FIELD_VALUE_MAX = 1024;
    public static final int FOOTER_MAX = 2048;
    public static final int TOTAL_MAX = 6000;
    public static final int USERNAME_MAX = 80;

    /** Today's embed description as a template. A channel's {@code template} replaces it; the rest stays. */
    public static final String DEFAULT_TEMPLATE = "{{summary}}";

    private DiscordMessage() {}

    /** {@code source} compiled with Discord's markdown escaper for every value ({@link #escapeMarkdown}). */
    public static MessageTemplate template(String source) {
        return MessageTemplate.compile(source, DiscordMessage::escapeMarkdown);
    }

    public static ObjectNode build(AlertEvent event) {
        return build(event, null);
    }

    /** The payload with the embed description from {@code template} (null: the default text). */
    public static ObjectNode build(AlertEvent event, MessageTemplate template) {
        AlertEvent e = Presentation.clean(event);
        String custom = MessageTemplate.renderOrNull(template, e);
        String title = Text.truncate(Presentation.title(e), TITLE_MAX);
        String footer = Text.truncate("Vigil · " + e.fingerprint() + " · event " + e.eventId(), FOOTER_MAX);
        List<String[]> fields = new ArrayList<>();
        boolean notice = e.state() == AlertState.ACKNOWLEDGED;
        if (notice) {
            add(fields, "Acknowledged by", escapeMarkdown(Presentation.acknowledgedBy(e, "-")), true);
            String until = Presentation.acknowledgedUntil(e);
            if (until != null) {
                add(fields, "Until", escapeMarkdown(until), true);
            }
            add(fields, "Service", escapeMarkdown(e.service()), true);
        } else {
            add(fields, "Severity", e.severity().wire(), true);
            add(fields, "Service", escapeMarkdown(e.service()), true);
            add(fields, "Occurrences", String.valueOf(e.occurrences()), true);
            add(fields, "First seen", Presentation.time(e.firstSeen()), true);
            add(fields, "Last seen", Presentation.time(e.lastSeen()), true);
        }
        StringBuilder links = new StringBuilder();
        for (Map.Entry<String, String> l : e.links().entrySet()) {
            if (Presentation.isSafeLink(l.getValue())) {
                links.append('[')
                        .append(escapeMarkdown(Text.oneLine(l.getKey())))
                        .append("](")
                        .append(linkTarget(l.getValue()))
                        .append(")\n");
            }
        }
        if (links.length() > 0 && links.length() <= FIELD_VALUE_MAX) {
            add(fields, "Links", links.toString().strip(), false);
        }
        if (!notice) {
            for (Map.Entry<String, String> a : e.attributes().entrySet()) {
                add(fields, a.getKey(), escapeMarkdown(a.getValue()), true);
            }
        }
        while (fields.size() > FIELDS_MAX) {
            fields.remove(fields.size() - 1);
        }
        int fixed = title.length() + footer.length();
        int fieldChars =
                fields.stream().mapToInt(f -> f[0].length() + f[1].length()).sum();
        while (fixed + fieldChars > TOTAL_MAX - 64 && !fields.isEmpty()) {
            String[] last = fields.remove(fields.size() - 1);
            fieldChars -= last[0].length() + last[1].length();
        }
        int room = Math.max(0, Math.min(DESCRIPTION_MAX, TOTAL_MAX - fixed - fieldChars));
        String description = Text.truncate(custom != null ? custom : escapeMarkdown(e.summary()), room);

        ObjectNode root = Json.mapper().createObjectNode();
        root.put("username", "Vigil");
        ObjectNode embed = root.putArray("embeds").addObject();
        embed.put("title", title);
        embed.put("description", description);
        embed.put("color", Presentation.colour(e));
        embed.put("timestamp", Presentation.time(e.lastSeen()));
        ArrayNode fs = embed.putArray("fields");
        for (String[] f : fields) {
            fs.addObject().put("name", f[0]).put("value", f[1]).put("inline", Boolean.parseBoolean(f[2]));
        }
        embed.putObject("footer").put("text", footer);
        // an empty parse list: no mention in the text notifies anyone, whatever the data says
        root.putObject("allowed_mentions").putArray("parse");
        return root;
    }

    /**
     * One embed for the events of a group: the group's title, then a line per event in the description (severity,
     * state, service and summary, a masked link to its console view when it has a safe one, else the fingerprint), within
     * the description and total limits; lines that do not fit are counted ("… and N more"). The footer names the
     * group message and how many events it carries. Same escaping and {@code allowed_mentions} as {@link #build}.
     */
    public static ObjectNode group(List<AlertEvent> events, String groupId) {
        List<AlertEvent> clean = events.stream().map(Presentation::clean).toList();
        String title = Text.truncate(Presentation.groupTitle(clean), TITLE_MAX);
        String footer = Text.truncate("Vigil · group " + groupId + " · " + clean.size() + " events", FOOTER_MAX);
        int room = Math.min(DESCRIPTION_MAX, TOTAL_MAX - title.length() - footer.length()) - 40;
        StringBuilder description = new StringBuilder();
        int shown = 0;
        for (AlertEvent e : clean) {
            String line = line(e);
            if (description.length() + line.length() + 1 > room) {
                break;
            }
            description.append(line).append('\n');
            shown++;
        }
        if (shown < clean.size()) {
            description.append("… and ").append(clean.size() - shown).append(" more");
        }
        ObjectNode root = Json.mapper().createObjectNode();
        root.put("username", "Vigil");
        ObjectNode embed = root.putArray("embeds").addObject();
        embed.put("title", title);
        embed.put("description", description.toString().strip());
        embed.put("color", Presentation.groupColour(clean));
        embed.put(
                "timestamp",
                Presentation.time(
                        clean.stream().mapToLong(AlertEvent::lastSeen).max().orElse(0)));
        embed.putObject("footer").put("text", footer);
        root.putObject("allowed_mentions").putArray("parse");
        return root;
    }

    /** One event's line of a group message, escaped. */
    private static String line(AlertEvent e) {
        StringBuilder sb = new StringBuilder()
                .append("**")
                .append(e.severity().wire().toUpperCase(java.util.Locale.ROOT))
                .append("** ")
                .append(e.state().wire())
                .append(" · ")
                .append(escapeMarkdown(Text.truncate(Text.oneLine(e.service() + ": " + e.summary()), 250)));
        String link = Presentation.groupLink(e);
        if (link != null && link.length() <= 300) {
            // the console view names the monitor; the fingerprint would only eat into the embed's total limit
            sb.append(" · [console](").append(linkTarget(link)).append(')');
        } else {
            sb.append(" · `")
                    .append(Text.truncate(e.fingerprint(), 120).replace("`", "'"))
                    .append('`');
        }
        return sb.toString();
    }

    /**
     * Backslash-escapes what builds a masked link ({@code [label](url)}), and the backslash itself so data cannot
     * undo the escape. Bare URLs stay visible as typed, so they hide nothing.
     */
    static String escapeMarkdown(String s) {
        if (s.indexOf('[') < 0 && s.indexOf(']') < 0 && s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[' || c == ']' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }

    /** Parentheses would end the link target early; percent-encoded they mean the same to the server. */
    private static String linkTarget(String url) {
        return url.replace("(", "%28").replace(")", "%29");
    }

    private static void add(List<String[]> fields, String name, String value, boolean inline) {
        String v = value == null || value.isBlank() ? "-" : value;
        fields.add(new String[] {
            Text.truncate(Text.oneLine(name), FIELD_NAME_MAX), Text.truncate(v, FIELD_VALUE_MAX), String.valueOf(inline)
        });
    }

    /** Characters Discord counts towards the 6000 limit. */
    public static int countedCharacters(ObjectNode payload) {
        int n = 0;
        for (var embed : payload.path("embeds")) {
            n += embed.path("title").asText().length()
                    + embed.path("description").asText().length()
                    + embed.path("footer").path("text").asText().length()
                    + embed.path("author").path("name").asText().length();
            for (var f : embed.path("fields")) {
                n += f.path("name").asText().length() + f.path("value").asText().length();
            }
        }
        return n;
    }
}
