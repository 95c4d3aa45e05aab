package dev.vigil.notifier.channel.email;

import com.samskivert.mustache.Template;
import dev.vigil.kit.template.Templates;
import dev.vigil.notifier.channel.Presentation;
import dev.vigil.notifier.channel.template.MessageTemplate;
import dev.vigil.notifier.core.Text;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The e-mail for one alert event, built without any I/O: a {@code multipart/alternative} with a {@code text/plain}
 * and a {@code text/html} part, both UTF-8.
 *
 * <ul>
 *   <li>Subject: {@code <prefix> [<SEVERITY>] <state>: <summary>}, e.g. {@code [Vigil] [CRITICAL] opened: checkout-api
 *       is down}: one line (line breaks and every other control character become spaces), bidi controls and
 *       zero-width characters removed, at most {@value #SUBJECT_MAX} characters; non-ASCII is RFC 2047 encoded.</li>
 *   <li>{@code Message-ID: <sha-256-hex(eventId)@vigil>}: the same event always has the same id, so a resend after a
 *       crash is recognisable (and folded by clients that deduplicate on it).</li>
 *   <li>Threading per incident: every message of an incident ({@code opened}, reminders, escalations, the
 *       acknowledgement notice, {@code resolved}) carries {@code In-Reply-To} and {@code References} with the
 *       incident's thread id {@code <sha-256-hex(incidentId)@vigil.incident>}, so clients that thread on
 *       References group them, whatever order they arrive in.</li>
 *   <li>{@code Auto-Submitted: auto-generated} (RFC 3834: no vacation or out-of-office answers),
 *       {@code X-Auto-Response-Suppress: All} (the same for Exchange), {@code X-Vigil-Fingerprint},
 *       {@code X-Vigil-Severity}, {@code X-Vigil-State} for mail filters.</li>
 * </ul>
 *
 * <p>Both bodies come from Mustache templates under {@code templates/email/} (JMustache). What data can do: nothing
 * but be read. Every text starts from {@link Presentation#clean}; in the HTML part the template engine escapes every
 * value ({@code & < > " '}); the only links are the event's own links that pass
 * {@link Presentation#isSafeLink} (absolute http/https with a host, no user-info, no markup characters), and only
 * those are listed in the text part. No scripts, no styles from data, no remote images or other resources: the
 * HTML uses inline styles and nothing else loads.
 */
public final class EmailMessage {
    public static final int SUBJECT_MAX = 200;
    static final String THREAD_DOMAIN = "vigil.incident";
    static final String MESSAGE_DOMAIN = "vigil";

    /** The HTML part: every value escaped by default (no template uses triple braces). */
    private static final Template HTML = Templates.html("templates/email/alert.html.mustache");
    /** The plain-text part: no HTML escaping; values arrive as single lines (see {@link #line}). */
    private static final Template TEXT = Templates.text("templates/email/alert.txt.mustache");

    private static final Template GROUP_HTML = Templates.html("templates/email/group.html.mustache");
    private static final Template GROUP_TEXT = Templates.text("templates/email/group.txt.mustache");
    /** Lines of a group e-mail: more would make a mail nobody reads to the end; the rest are counted. */
    static final int GROUP_LINES_MAX = 100;

    /**
     * Today's subject after the prefix as a template. A channel's {@code template} replaces it; the prefix, the
     * bodies and the headers stay.
     */
    public static final String DEFAULT_TEMPLATE = "[{{severityUpper}}] {{state}}: {{summary}}";

    private EmailMessage() {}

    /** {@code source} compiled with the header escaper for every value ({@link #headerText}: one line, no controls). */
    public static MessageTemplate template(String source) {
        return MessageTemplate.compile(source, EmailMessage::headerText);
    }

    /** The message ready to send (after {@code saveChanges}, which keeps our Message-ID). */
    public static MimeMessage build(AlertEvent event, EmailSettings settings, Session session, Instant date)
            throws MessagingException {
        return build(event, settings, session, date, null);
    }

    /** The message with its subject (after the prefix) from {@code subject} (null: the default subject). */
    public static MimeMessage build(
            AlertEvent event, EmailSettings settings, Session session, Instant date, MessageTemplate subject)
            throws MessagingException {
        AlertEvent e = Presentation.clean(event);
        MimeMessage m = new FixedIdMessage(session, messageId(event));
        m.setFrom(settings.fromAddress());
        m.setRecipients(Message.RecipientType.TO, settings.toAddresses());
        m.setSubject(subject(e, settings.subjectPrefix(), subject), "UTF-8");
        m.setSentDate(Date.from(date));
        String thread = threadId(event);
        m.setHeader("In-Reply-To", thread);
        m.setHeader("References", thread);
        m.setHeader("Auto-Submitted", "auto-generated");
        m.setHeader("X-Auto-Response-Suppress", "All");
        // the contract's fingerprint pattern is ASCII without spaces; severity and state are enum wire names
        m.setHeader("X-Vigil-Fingerprint", headerText(e.fingerprint()));
        m.setHeader("X-Vigil-Severity", e.severity().wire());
        m.setHeader("X-Vigil-State", e.state().wire());

        MimeBodyPart plain = new MimeBodyPart();
        plain.setText(text(e), "UTF-8", "plain");
        MimeBodyPart html = new MimeBodyPart();
        html.setText(html(e), "UTF-8", "html");
        MimeMultipart alternative = new MimeMultipart("alternative");
        alternative.addBodyPart(plain); // least preferred first (RFC 2046)
        alternative.addBodyPart(html);
        m.setContent(alternative);
        m.saveChanges();
        return m;
    }

    /**
     * One message for the events of a group: subject {@code <prefix> <group title>}, a line per event (severity,
     * state, service and summary, fingerprint, its console link when safe) in both parts, Message-ID derived from
     * the group message's id (a resend of the same group has the same one). It threads under no incident: it
     * speaks of several.
     */
    public static MimeMessage group(
            List<AlertEvent> events, String groupId, EmailSettings settings, Session session, Instant date)
            throws MessagingException {
        List<AlertEvent> clean = events.stream().map(Presentation::clean).toList();
        MimeMessage m = new FixedIdMessage(session, "<" + sha256Hex(groupId) + "@" + MESSAGE_DOMAIN + ">");
        m.setFrom(settings.fromAddress());
        m.setRecipients(Message.RecipientType.TO, settings.toAddresses());
        String prefix = settings.subjectPrefix() == null ? "" : headerText(settings.subjectPrefix());
        m.setSubject(
                Text.truncate(
                        headerText((prefix.isEmpty() ? "" : prefix + " ") + Presentation.groupTitle(clean)),
                        SUBJECT_MAX),
                "UTF-8");
        m.setSentDate(Date.from(date));
        m.setHeader("Auto-Submitted", "auto-generated");
        m.setHeader("X-Auto-Response-Suppress", "All");
        m.setHeader("X-Vigil-Group", headerText(groupId));
        MimeBodyPart plain = new MimeBodyPart();
        plain.setText(GROUP_TEXT.execute(groupModel(clean, groupId, EmailMessage::line)), "UTF-8", "plain");
        MimeBodyPart html = new MimeBodyPart();
        html.setText(GROUP_HTML.execute(groupModel(clean, groupId, s -> s)), "UTF-8", "html");
        MimeMultipart alternative = new MimeMultipart("alternative");
        alternative.addBodyPart(plain);
        alternative.addBodyPart(html);
        m.setContent(alternative);
        m.saveChanges();
        return m;
    }

    private static Map<String, Object> groupModel(
            List<AlertEvent> events, String groupId, UnaryOperator<String> value) {
        Map<String, Object> m = new HashMap<>();
        m.put("title", value.apply(Presentation.groupTitle(events)));
        m.put("colour", String.format("#%06X", Presentation.groupColour(events)));
        List<Map<String, Object>> lines = new ArrayList<>();
        for (AlertEvent e : events.subList(0, Math.min(events.size(), GROUP_LINES_MAX))) {
            Map<String, Object> line = new HashMap<>();
            line.put("severity", e.severity().wire().toUpperCase(Locale.ROOT));
            line.put("state", e.state().wire());
            line.put("service", value.apply(orEmpty(e.service())));
            line.put("summary", value.apply(orEmpty(e.summary())));
            line.put("fingerprint", value.apply(orEmpty(e.fingerprint())));
            String link = Presentation.groupLink(e);
            line.put("link", link == null ? false : link);
            lines.add(line);
        }
        m.put("events", lines);
        int more = events.size() - lines.size();
        m.put("more", more > 0 ? more : false);
        m.put("groupId", value.apply(orEmpty(groupId)));
        m.put("count", events.size());
        return m;
    }

    /** {@code <prefix> [SEVERITY] <state>: <summary>}, one clean line of at most {@value #SUBJECT_MAX} characters. */
    public static String subject(AlertEvent event, String prefix) {
        return subject(event, prefix, null);
    }

    /** The subject with the text after the prefix from {@code template} (null: the default text). */
    public static String subject(AlertEvent event, String prefix, MessageTemplate template) {
        String p = prefix == null ? "" : headerText(prefix);
        String custom = MessageTemplate.renderOrNull(template, event);
        String text = custom != null
                ? custom
                : "[" + event.severity().wire().toUpperCase(Locale.ROOT) + "] "
                        + event.state().wire() + ": " + event.summary();
        return Text.truncate(headerText((p.isEmpty() ? "" : p + " ") + text), SUBJECT_MAX);
    }

    /**
     * A value for a header: CR, LF and every other control character (C0, DEL, C1 such as NEL), the line and
     * paragraph separators become spaces, bidi controls and zero-width characters go, runs of spaces become one.
     * No data can start a header line of its own.
     */
    static String headerText(String s) {
        if (s == null) {
            return "";
        }
        String t = Text.stripInvisible(s);
        StringBuilder sb = new StringBuilder(t.length());
        boolean space = false;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || Character.isWhitespace(c)) {
                if (!space && sb.length() > 0) {
                    sb.append(' ');
                }
                space = true;
            } else {
                sb.append(c);
                space = false;
            }
        }
        return sb.toString().strip();
    }

    /** {@code <sha-256-hex(eventId)@vigil>}: deterministic, so a resend of the same event has the same id. */
    public static String messageId(AlertEvent event) {
        return "<" + sha256Hex(event.eventId()) + "@" + MESSAGE_DOMAIN + ">";
    }

    /** {@code <sha-256-hex(incidentId)@vigil.incident>}: the thread every message of the incident refers to. */
    public static String threadId(AlertEvent event) {
        return "<" + sha256Hex(event.incidentId()) + "@" + THREAD_DOMAIN + ">";
    }

    /**
     * The text/plain body of an already cleaned event, from {@code templates/email/alert.txt.mustache}. Every value
     * is put on one line of its own ({@link #line}), so data (an attribute name may hold a line break) cannot fake a
     * section such as the links.
     */
    static String text(AlertEvent e) {
        return TEXT.execute(model(e, EmailMessage::line));
    }

    /**
     * The text/html body of an already cleaned event, from {@code templates/email/alert.html.mustache}: every value
     * escaped by the template engine, inline styles, nothing remote.
     */
    static String html(AlertEvent e) {
        return HTML.execute(model(e, s -> s));
    }

    /** What both templates show; {@code value} prepares each data value for its part (one line for the text). */
    private static Map<String, Object> model(AlertEvent e, UnaryOperator<String> value) {
        Map<String, Object> m = new HashMap<>();
        m.put("title", value.apply(orEmpty(Presentation.title(e))));
        // one of Presentation's constants, never data
        m.put("colour", Presentation.hexColour(e));
        boolean full = e.state() != AlertState.ACKNOWLEDGED;
        m.put("showSummary", full);
        m.put("summary", value.apply(orEmpty(e.summary())));
        m.put(
                "facts",
                facts(e).stream()
                        .map(f -> pair(f[0], value.apply(orEmpty(f[1]))))
                        .toList());
        List<Map<String, String>> attributes = new ArrayList<>();
        if (full) {
            e.attributes().forEach((k, v) -> attributes.add(pair(value.apply(orEmpty(k)), value.apply(orEmpty(v)))));
        }
        m.put("showAttributes", !attributes.isEmpty());
        m.put("attributes", attributes);
        List<Map<String, String>> links = safeLinks(e).stream()
                .map(l -> Map.of("label", line(orEmpty(l.getKey())), "url", l.getValue()))
                .toList();
        m.put("showLinks", !links.isEmpty());
        m.put("links", links);
        m.put("eventId", value.apply(orEmpty(e.eventId())));
        return m;
    }

    private static Map<String, String> pair(String name, String value) {
        return Map.of("name", name, "value", value);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    /** One line: control characters (C0, DEL, C1) and the line and paragraph separators become spaces. */
    static String line(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                if (sb == null) {
                    sb = new StringBuilder(s);
                }
                sb.setCharAt(i, ' ');
            }
        }
        return sb == null ? s : sb.toString();
    }

    /** Name/value facts of an already cleaned event; an acknowledgement is a short notice. */
    private static List<String[]> facts(AlertEvent e) {
        List<String[]> f = new ArrayList<>();
        if (e.state() == AlertState.ACKNOWLEDGED) {
            f.add(new String[] {"Acknowledged by", Presentation.acknowledgedBy(e, "-")});
            String until = Presentation.acknowledgedUntil(e);
            if (until != null) {
                f.add(new String[] {"Until", until});
            }
            f.add(new String[] {"Service", e.service()});
            f.add(new String[] {"Severity", e.severity().wire()});
            f.add(new String[] {"Fingerprint", e.fingerprint()});
            f.add(new String[] {"Incident", e.incidentId()});
            return f;
        }
        f.add(new String[] {"State", e.state().wire()});
        f.add(new String[] {"Severity", e.severity().wire()});
        f.add(new String[] {"Service", e.service()});
        if (e.componentType() != null && !e.componentType().isBlank()) {
            f.add(new String[] {"Component", e.componentType()});
        }
        f.add(new String[] {"Occurrences", String.valueOf(e.occurrences())});
        f.add(new String[] {"First seen", Presentation.time(e.firstSeen())});
        f.add(new String[] {"Last seen", Presentation.time(e.lastSeen())});
        f.add(new String[] {"Fingerprint", e.fingerprint()});
        f.add(new String[] {"Incident", e.incidentId()});
        return f;
    }

    /** The event's links that may be rendered as links (absolute http/https, see {@link Presentation#isSafeLink}). */
    private static List<Map.Entry<String, String>> safeLinks(AlertEvent e) {
        return e.links().entrySet().stream()
                .filter(l -> Presentation.isSafeLink(l.getValue()))
                .toList();
    }

    /** HTML-escapes text for element content and double- or single-quoted attribute values. */
    static String escape(String s) {
        return Templates.escape(s);
    }

    static String sha256Hex(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("every JVM has SHA-256", ex);
        }
    }

    /** A MimeMessage whose Message-ID is ours: {@code saveChanges} would otherwise replace it with a random one. */
    private static final class FixedIdMessage extends MimeMessage {
        private final String id;

        FixedIdMessage(Session session, String id) {
            super(session);
            this.id = id;
        }

        @Override
        protected void updateMessageID() throws MessagingException {
            setHeader("Message-ID", id);
        }
    }
}
