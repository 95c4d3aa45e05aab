package dev.vigil.notifier.channel.teams;

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
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The message a Teams Workflows webhook ("When a Teams webhook request is received", then "Post card in a chat or
 * channel") turns into a channel post: {@code {"type":"message","attachments":[{"contentType":
 * "application/vnd.microsoft.card.adaptive","contentUrl":null,"content":<Adaptive Card 1.4>}]}}.
 *
 * <p>The card: a title {@code [CRITICAL] opened: <service>} in a styled container, the summary, a FactSet
 * (severity, state, service, fingerprint, first and last seen, occurrences, component), the attributes as a second
 * FactSet, a subtle footer with the event id, and one {@code Action.OpenUrl} per event link that passes
 * {@link Presentation#isSafeLink}. Severity is shown by the words in the title and the Severity fact, and also by
 * the container style and title colour ({@code attention} critical, {@code warning} warning, {@code accent} info,
 * {@code good} resolved, {@code emphasis}/default acknowledged), never by colour alone. {@code resolved} and
 * {@code acknowledged} are short notices: no attributes, fewer facts (who acknowledged and until when, for the
 * latter).
 *
 * <p>Data cannot format: TextBlock, {@code Fact.title} and {@code Fact.value} render a Markdown subset (bold,
 * italic, lists, links), so every text built from data goes through {@link #escape}: one line; the Markdown
 * punctuation that acts inside a line, {@code \ * _ [ ] ( ) ! ` ~ &}, backslash-escaped everywhere, and the block
 * markers {@code # + -} and the dot of {@code 1.} (heading, bullet and ordered-list markers) where the text starts,
 * the only place a one-line text can start a block (escaping them mid-text would change nothing but the clients
 * that show escapes literally, e.g. every hyphen of a timestamp); {@code <} and {@code >} replaced by their full-width forms {@code ＜ ＞}, so no tag such as
 * {@code <at>…</at>} or autolink {@code <https://…>} can form (the card also carries no {@code msteams.entities},
 * without which Teams resolves no mention); and {@code ://} and {@code www.} defanged to {@code [:]//} and
 * {@code www[.]}, so Teams does not turn a bare URL in the data into a link. The only links are the validated
 * actions. Action titles are plain text (not Markdown) and are only made one line with {@code < >} replaced.
 * Bidi controls and zero-width characters are removed first ({@link Presentation#clean}). Teams mobile clients
 * have rendered some backslash escapes literally (microsoft/AdaptiveCards#5590): a reader may see an extra
 * {@code \}, never a link or formatting the data chose.
 *
 * <p>Size: Teams refuses a posted message above about 28 KB ("Request Entity Too Large"). The payload is kept
 * within {@value #MAX_BYTES} bytes of UTF-8 JSON: if the full card is larger, attribute values are cut to
 * {@value #SHORT_ATTRIBUTE} characters, then attributes dropped, then links beyond the first
 * {@value #FEW_ACTIONS}, then the summary cut, each step noted on the card.
 *
 * <p>References: <a href="https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using">Create
 * and send messages</a> (Workflows webhooks, the message/attachments envelope, Adaptive Cards only),
 * <a href="https://learn.microsoft.com/en-us/connectors/teams/">Microsoft Teams connector: known issues and
 * limitations</a> (message size about 28 KB), <a href="https://learn.microsoft.com/en-us/microsoftteams/platform/task-modules-and-cards/cards/cards-format">Format
 * cards in Teams</a> (Markdown in TextBlock, Fact.Title and Fact.Value; no HTML), <a href="https://learn.microsoft.com/en-us/adaptive-cards/authoring-cards/text-features">Adaptive
 * Cards text features</a>, <a href="https://learn.microsoft.com/en-us/adaptive-cards/schema-explorer/action-open-url">Action.OpenUrl</a>.
 */
public final class TeamsMessage {
    public static final String CONTENT_TYPE = "application/vnd.microsoft.card.adaptive";
    public static final String SCHEMA = "http://adaptivecards.io/schemas/adaptive-card.json";
    public static final String VERSION = "1.4";
    /** Below Teams' "about 28 KB" message limit, with room for what Teams wraps around the card. */
    public static final int MAX_BYTES = 26 * 1024;

    public static final int TITLE_MAX = 200;
    public static final int SUMMARY_MAX = 1000;
    public static final int FACT_MAX = 300;
    public static final int SHORT_ATTRIBUTE = 64;
    public static final int SHORT_SUMMARY = 150;
    public static final int FEW_ACTIONS = 2;
    public static final int ACTION_TITLE_MAX = 60;
    public static final int URL_MAX = 2048;

    /** How much of the event one rendering shows. */
    private record Budget(int attributeValueMax, int attributesMax, int actionsMax, int summaryMax) {}

    private static final List<Budget> BUDGETS = List.of(
            new Budget(FACT_MAX, Integer.MAX_VALUE, Integer.MAX_VALUE, SUMMARY_MAX),
            new Budget(SHORT_ATTRIBUTE, Integer.MAX_VALUE, Integer.MAX_VALUE, SUMMARY_MAX),
            new Budget(SHORT_ATTRIBUTE, 4, Integer.MAX_VALUE, SUMMARY_MAX),
            new Budget(SHORT_ATTRIBUTE, 0, Integer.MAX_VALUE, SUMMARY_MAX),
            new Budget(SHORT_ATTRIBUTE, 0, FEW_ACTIONS, SUMMARY_MAX),
            new Budget(SHORT_ATTRIBUTE, 0, 0, SHORT_SUMMARY));

    private static final Pattern LINE_BREAKING = Pattern.compile("[\\p{Cc}\\u2028\\u2029]+");
    private static final Pattern SCHEME_SEPARATOR = Pattern.compile("://");
    private static final Pattern WWW = Pattern.compile("(?i)\\b(www)\\.");
    /** Inline Markdown: emphasis, strike-through, code, links, images, entities, escapes. Escaped everywhere. */
    private static final String INLINE = "\\*_[]()!`~&";
    /** Block markers (heading, bullet): meaningful only where a line starts, so escaped there. */
    private static final String LEADING = "#+-*";

    /** Today's summary TextBlock as a template. A channel's {@code template} replaces it; the rest of the card stays. */
    public static final String DEFAULT_TEMPLATE = "{{summary}}";

    private TeamsMessage() {}

    /**
     * {@code source} compiled with the card's Markdown escaper for every value ({@link #escape} of the value as one
     * stripped line). The template's own text may hold line breaks and Markdown.
     */
    public static MessageTemplate template(String source) {
        return MessageTemplate.compile(source, v -> escape(oneLine(v).strip()));
    }

    public static ObjectNode build(AlertEvent event) {
        return build(event, null);
    }

    /** The payload with the summary TextBlock from {@code template} (null: the default text). */
    public static ObjectNode build(AlertEvent event, MessageTemplate template) {
        AlertEvent e = Presentation.clean(event);
        String custom = MessageTemplate.renderOrNull(template, e);
        ObjectNode message = null;
        for (Budget b : BUDGETS) {
            message = render(e, b, custom);
            if (Json.bytes(message).length <= MAX_BYTES) {
                return message;
            }
        }
        return message;
    }

    /** Bytes of the JSON Vigil posts for this payload. */
    public static int size(ObjectNode message) {
        return Json.bytes(message).length;
    }

    private static ObjectNode render(AlertEvent e, Budget b, String custom) {
        ObjectNode message = Json.mapper().createObjectNode();
        message.put("type", "message");
        ObjectNode attachment = message.putArray("attachments").addObject();
        attachment.put("contentType", CONTENT_TYPE);
        attachment.putNull("contentUrl");
        ObjectNode card = attachment.putObject("content");
        card.put("$schema", SCHEMA);
        card.put("type", "AdaptiveCard");
        card.put("version", VERSION);
        ArrayNode body = card.putArray("body");
        boolean notice = e.state() == AlertState.ACKNOWLEDGED || e.state() == AlertState.RESOLVED;
        boolean cut = false;

        ObjectNode header = body.addObject()
                .put("type", "Container")
                .put("style", containerStyle(e))
                .put("bleed", true);
        header.putArray("items")
                .addObject()
                .put("type", "TextBlock")
                .put("text", escape(Text.truncate(title(e), TITLE_MAX)))
                .put("weight", "Bolder")
                .put("size", "Medium")
                .put("color", colour(e))
                .put("wrap", true);

        String summary = custom != null ? custom : oneLine(e.summary()).strip();
        if (summary.length() > b.summaryMax()) {
            cut = true;
        }
        body.addObject()
                .put("type", "TextBlock")
                .put(
                        "text",
                        custom != null
                                ? truncateEscaped(custom, b.summaryMax())
                                : escape(Text.truncate(summary, b.summaryMax())))
                .put("wrap", true);

        List<String[]> facts = new ArrayList<>();
        switch (e.state()) {
            case ACKNOWLEDGED -> {
                facts.add(new String[] {"Acknowledged by", Presentation.acknowledgedBy(e, "-")});
                String until = Presentation.acknowledgedUntil(e);
                if (until != null) {
                    facts.add(new String[] {"Until", until});
                }
                facts.add(new String[] {"Service", e.service()});
                facts.add(new String[] {"Severity", e.severity().wire()});
                facts.add(new String[] {"Fingerprint", e.fingerprint()});
                facts.add(new String[] {"Incident", e.incidentId()});
            }
            case RESOLVED -> {
                facts.add(new String[] {"State", e.state().wire()});
                facts.add(new String[] {"Service", e.service()});
                facts.add(new String[] {"Severity", e.severity().wire()});
                facts.add(new String[] {"Fingerprint", e.fingerprint()});
                facts.add(new String[] {"First seen", Presentation.time(e.firstSeen())});
                facts.add(new String[] {"Resolved", Presentation.time(e.lastSeen())});
            }
            default -> {
                facts.add(new String[] {"Severity", e.severity().wire()});
                facts.add(new String[] {"State", e.state().wire()});
                facts.add(new String[] {"Service", e.service()});
                facts.add(new String[] {"Fingerprint", e.fingerprint()});
                facts.add(new String[] {"First seen", Presentation.time(e.firstSeen())});
                facts.add(new String[] {"Last seen", Presentation.time(e.lastSeen())});
                facts.add(new String[] {"Occurrences", String.valueOf(e.occurrences())});
                if (e.componentType() != null && !e.componentType().isBlank()) {
                    facts.add(new String[] {"Component", e.componentType()});
                }
            }
        }
        body.add(factSet(facts, FACT_MAX));

        if (!notice && !e.attributes().isEmpty()) {
            List<String[]> attrs = new ArrayList<>();
            for (Map.Entry<String, String> a : e.attributes().entrySet()) {
                if (attrs.size() >= b.attributesMax()) {
                    cut = true;
                    break;
                }
                String value = oneLine(a.getValue()).strip();
                if (value.length() > b.attributeValueMax()) {
                    cut = true;
                }
                attrs.add(new String[] {a.getKey(), Text.truncate(value, b.attributeValueMax())});
            }
            if (!attrs.isEmpty()) {
                body.addObject()
                        .put("type", "TextBlock")
                        .put("text", "Attributes")
                        .put("weight", "Bolder")
                        .put("spacing", "Medium")
                        .put("wrap", true);
                body.add(factSet(attrs, b.attributeValueMax()));
            }
        }

        ArrayNode actions = Json.mapper().createArrayNode();
        for (Map.Entry<String, String> l : e.links().entrySet()) {
            String url = l.getValue();
            if (!Presentation.isSafeLink(url) || url.length() > URL_MAX) {
                continue;
            }
            if (actions.size() >= b.actionsMax()) {
                cut = true;
                break;
            }
            actions.addObject()
                    .put("type", "Action.OpenUrl")
                    .put("title", Text.truncate(plain(l.getKey()), ACTION_TITLE_MAX))
                    .put("url", url);
        }

        if (cut) {
            body.addObject()
                    .put("type", "TextBlock")
                    .put("text", "Shortened to fit the Teams message size limit: the full event is in Vigil.")
                    .put("isSubtle", true)
                    .put("size", "Small")
                    .put("wrap", true);
        }
        body.addObject()
                .put("type", "TextBlock")
                .put("text", escape(Text.truncate("Vigil · event " + e.eventId(), FACT_MAX)))
                .put("isSubtle", true)
                .put("size", "Small")
                .put("wrap", true);
        if (!actions.isEmpty()) {
            card.set("actions", actions);
        }
        return message;
    }

    /**
     * One card for the events of a group: the group's title in the style of its worst event still firing, then a
     * line per event (severity and state in words, service and summary, fingerprint), each escaped as every card
     * text; lines that would take the message past {@value #MAX_BYTES} bytes are counted ("… and N more"). No
     * buttons: a card cannot hold one per event usefully; each event's links are in Vigil. The footer names the
     * group message and how many events it carries.
     */
    public static ObjectNode group(List<AlertEvent> events, String groupId) {
        List<AlertEvent> clean = events.stream().map(Presentation::clean).toList();
        AlertEvent worst = clean.stream()
                .filter(e -> e.state() != AlertState.RESOLVED)
                .min(java.util.Comparator.comparingInt(e -> e.severity().ordinal()))
                .orElse(clean.get(0));
        ObjectNode message = Json.mapper().createObjectNode();
        message.put("type", "message");
        ObjectNode attachment = message.putArray("attachments").addObject();
        attachment.put("contentType", CONTENT_TYPE);
        attachment.putNull("contentUrl");
        ObjectNode card = attachment.putObject("content");
        card.put("$schema", SCHEMA);
        card.put("type", "AdaptiveCard");
        card.put("version", VERSION);
        ArrayNode body = card.putArray("body");
        body.addObject()
                .put("type", "Container")
                .put("style", containerStyle(worst))
                .put("bleed", true)
                .putArray("items")
                .addObject()
                .put("type", "TextBlock")
                .put("text", escape(Text.truncate(Presentation.groupTitle(clean), TITLE_MAX)))
                .put("weight", "Bolder")
                .put("size", "Medium")
                .put("color", colour(worst))
                .put("wrap", true);
        String footer = escape(Text.truncate("Vigil · group " + groupId + " · " + clean.size() + " events", FACT_MAX));
        // room for the footer, the count of lines left out and the JSON around them
        int budget = MAX_BYTES - Json.bytes(message).length - footer.length() - 512;
        int shown = 0;
        for (AlertEvent e : clean) {
            String line = escape(Text.truncate(
                    e.severity().wire().toUpperCase(Locale.ROOT) + " "
                            + e.state().wire() + " · "
                            + oneLine(e.service() + ": " + e.summary()).strip() + " · " + e.fingerprint(),
                    SUMMARY_MAX / 2));
            int cost = line.getBytes(java.nio.charset.StandardCharsets.UTF_8).length * 2 + 80;
            if (cost > budget) {
                break;
            }
            budget -= cost;
            body.addObject()
                    .put("type", "TextBlock")
                    .put("text", line)
                    .put("spacing", "Small")
                    .put("wrap", true);
            shown++;
        }
        if (shown < clean.size()) {
            body.addObject()
                    .put("type", "TextBlock")
                    .put("text", "… and " + (clean.size() - shown) + " more")
                    .put("wrap", true);
        }
        body.addObject()
                .put("type", "TextBlock")
                .put("text", footer)
                .put("isSubtle", true)
                .put("size", "Small")
                .put("wrap", true);
        return message;
    }

    /** {@code [CRITICAL] opened: <service>}: severity and state in words, unescaped. */
    static String title(AlertEvent e) {
        String state =
                switch (e.state()) {
                    case OPENED -> "opened";
                    case REMINDER -> "still firing";
                    case ESCALATED -> "escalated";
                    case RESOLVED -> "resolved";
                    case ACKNOWLEDGED -> "acknowledged";
                };
        return "[" + e.severity().wire().toUpperCase(Locale.ROOT) + "] " + state + ": "
                + oneLine(e.service()).strip();
    }

    static String containerStyle(AlertEvent e) {
        if (e.state() == AlertState.RESOLVED) {
            return "good";
        }
        if (e.state() == AlertState.ACKNOWLEDGED) {
            return "emphasis";
        }
        return switch (e.severity()) {
            case CRITICAL -> "attention";
            case WARNING -> "warning";
            case INFO -> "accent";
        };
    }

    static String colour(AlertEvent e) {
        if (e.state() == AlertState.RESOLVED) {
            return "good";
        }
        if (e.state() == AlertState.ACKNOWLEDGED) {
            return "default";
        }
        return switch (e.severity()) {
            case CRITICAL -> "attention";
            case WARNING -> "warning";
            case INFO -> "accent";
        };
    }

    private static ObjectNode factSet(List<String[]> facts, int valueMax) {
        ObjectNode set = Json.mapper().createObjectNode().put("type", "FactSet");
        ArrayNode fs = set.putArray("facts");
        for (String[] f : facts) {
            String value = oneLine(f[1]).strip();
            fs.addObject()
                    .put("title", escape(Text.truncate(oneLine(f[0]).strip(), 64)))
                    .put("value", escape(Text.truncate(value.isEmpty() ? "-" : value, valueMax)));
        }
        return set;
    }

    /**
     * Data made inert for a Markdown-rendering TextBlock or Fact: one line, URLs defanged, {@code < >} replaced by
     * {@code ＜ ＞}, Markdown punctuation (and a leading ordered-list dot) backslash-escaped. Cut text to length
     * before escaping it, so a cut never separates a backslash from what it escapes.
     */
    static String escape(String s) {
        String t = oneLine(Text.stripInvisible(s == null ? "" : s));
        t = SCHEME_SEPARATOR.matcher(t).replaceAll("[:]//");
        t = WWW.matcher(t).replaceAll("$1[.]");
        int start = 0;
        while (start < t.length() && t.charAt(start) == ' ') {
            start++;
        }
        int listDot = orderedListDot(t, start);
        StringBuilder sb = new StringBuilder(t.length() + 16);
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '<') {
                sb.append('\uFF1C');
            } else if (c == '>') {
                sb.append('\uFF1E');
            } else {
                if (INLINE.indexOf(c) >= 0 || (i == start && LEADING.indexOf(c) >= 0) || i == listDot) {
                    sb.append('\\');
                }
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * Already escaped text cut to {@code max}: a backslash the cut separated from what it escaped is dropped, so the
     * cut cannot escape the ellipsis.
     */
    static String truncateEscaped(String escaped, int max) {
        String t = Text.truncate(escaped, max);
        if (t.length() == escaped.length() || !t.endsWith(Text.ELLIPSIS)) {
            return t;
        }
        String head = t.substring(0, t.length() - Text.ELLIPSIS.length());
        int backslashes = 0;
        while (backslashes < head.length() && head.charAt(head.length() - 1 - backslashes) == '\\') {
            backslashes++;
        }
        return backslashes % 2 == 1 ? head.substring(0, head.length() - 1) + Text.ELLIPSIS : t;
    }

    /** The index of the dot in a leading {@code 12.} (an ordered-list marker), else -1. */
    private static int orderedListDot(String t, int start) {
        int i = start;
        int digits = i;
        while (i < t.length() && t.charAt(i) >= '0' && t.charAt(i) <= '9') {
            i++;
        }
        return i > digits && i < t.length() && t.charAt(i) == '.' ? i : -1;
    }

    /** Plain text (action titles are not Markdown): one line, no {@code < >}. */
    static String plain(String s) {
        return oneLine(Text.stripInvisible(s == null ? "" : s))
                .strip()
                .replace('<', '\uFF1C')
                .replace('>', '\uFF1E');
    }

    static String oneLine(String s) {
        return s == null ? "" : LINE_BREAKING.matcher(s).replaceAll(" ");
    }
}
