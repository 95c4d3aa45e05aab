package dev.vigil.notifier.channel.email;

import dev.vigil.notifier.channel.Presentation;
import dev.vigil.notifier.channel.Text;
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
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
 * <p>What data can do: nothing but be read. Every text starts from {@link Presentation#clean}; in the HTML part
 * every value is escaped ({@code & < > " '}); the only links are the event's own links that pass
 * {@link Presentation#isSafeLink} (absolute http/https with a host, no user-info, no markup characters), and only
 * those are listed in the text part. No scripts, no styles from data, no remote images or other resources: the
 * HTML uses inline styles and nothing else loads.
 */
public final class EmailMessage {
    public static final int SUBJECT_MAX = 200;
    static final String THREAD_DOMAIN = "vigil.incident";
    static final String MESSAGE_DOMAIN = "vigil";

    private EmailMessage() {
    }

    /** The message ready to send (after {@code saveChanges}, which keeps our Message-ID). */
    public static MimeMessage build(AlertEvent event, EmailSettings settings, Session session, Instant date)
            throws MessagingException {
        AlertEvent e = Presentation.clean(event);
        MimeMessage m = new FixedIdMessage(session, messageId(event));
        m.setFrom(settings.fromAddress());
        m.setRecipients(Message.RecipientType.TO, settings.toAddresses());
        m.setSubject(subject(e, settings.subjectPrefix()), "UTF-8");
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

    /** {@code <prefix> [SEVERITY] <state>: <summary>}, one clean line of at most {@value #SUBJECT_MAX} characters. */
    public static String subject(AlertEvent event, String prefix) {
        String p = prefix == null ? "" : headerText(prefix);
        String s = (p.isEmpty() ? "" : p + " ") + "[" + event.severity().wire().toUpperCase(Locale.ROOT) + "] "
                + event.state().wire() + ": " + event.summary();
        return Text.truncate(headerText(s), SUBJECT_MAX);
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
     * The text/plain body of an already cleaned event. Every value is put on one line of its own ({@link #line}),
     * so data (an attribute name may hold a line break) cannot fake a section such as the links.
     */
    static String text(AlertEvent e) {
        StringBuilder sb = new StringBuilder();
        sb.append(line(Presentation.title(e))).append("\n\n");
        if (e.state() != AlertState.ACKNOWLEDGED) {
            sb.append(line(e.summary())).append("\n\n");
        }
        for (String[] f : facts(e)) {
            sb.append(f[0]).append(": ").append(line(f[1])).append('\n');
        }
        if (e.state() != AlertState.ACKNOWLEDGED && !e.attributes().isEmpty()) {
            sb.append("\nAttributes\n");
            e.attributes().forEach((k, v) -> sb.append("  ").append(line(k)).append(": ").append(line(v)).append('\n'));
        }
        List<Map.Entry<String, String>> links = safeLinks(e);
        if (!links.isEmpty()) {
            sb.append("\nLinks\n");
            links.forEach(l -> sb.append("  ").append(line(l.getKey())).append(": ").append(l.getValue())
                    .append('\n'));
        }
        sb.append("\n-- \nVigil · event ").append(line(e.eventId())).append('\n');
        return sb.toString();
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

    /** The text/html body of an already cleaned event: every value escaped, inline styles, nothing remote. */
    static String html(AlertEvent e) {
        StringBuilder sb = new StringBuilder(2048);
        String title = escape(Presentation.title(e));
        sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width\"><title>").append(title)
                .append("</title></head>\n")
                .append("<body style=\"margin:0;padding:16px;font-family:-apple-system,'Segoe UI',Helvetica,Arial,")
                .append("sans-serif;font-size:14px;color:#1d1c1d;\">\n")
                // the colour is one of Presentation's constants, never data
                .append("<div style=\"border-left:6px solid ").append(Presentation.hexColour(e))
                .append(";padding:4px 16px;\">\n")
                .append("<h2 style=\"margin:0 0 8px 0;font-size:18px;\">").append(title).append("</h2>\n");
        if (e.state() != AlertState.ACKNOWLEDGED) {
            sb.append("<p style=\"margin:0 0 12px 0;\">").append(escape(e.summary())).append("</p>\n");
        }
        sb.append("<table style=\"border-collapse:collapse;\">\n");
        for (String[] f : facts(e)) {
            row(sb, f[0], f[1]);
        }
        sb.append("</table>\n");
        if (e.state() != AlertState.ACKNOWLEDGED && !e.attributes().isEmpty()) {
            sb.append("<h3 style=\"margin:12px 0 4px 0;font-size:14px;\">Attributes</h3>\n")
                    .append("<table style=\"border-collapse:collapse;\">\n");
            e.attributes().forEach((k, v) -> row(sb, k, v));
            sb.append("</table>\n");
        }
        List<Map.Entry<String, String>> links = safeLinks(e);
        if (!links.isEmpty()) {
            sb.append("<p style=\"margin:12px 0 0 0;\">");
            for (int i = 0; i < links.size(); i++) {
                Map.Entry<String, String> l = links.get(i);
                if (i > 0) {
                    sb.append(" &middot; ");
                }
                sb.append("<a href=\"").append(escape(l.getValue()))
                        .append("\" target=\"_blank\" rel=\"noopener noreferrer\">")
                        .append(escape(line(l.getKey()))).append("</a>");
            }
            sb.append("</p>\n");
        }
        sb.append("</div>\n<p style=\"margin:16px 0 0 0;font-size:12px;color:#616061;\">Vigil &middot; event ")
                .append(escape(e.eventId())).append("</p>\n</body></html>\n");
        return sb.toString();
    }

    private static void row(StringBuilder sb, String name, String value) {
        sb.append("<tr><td style=\"padding:2px 12px 2px 0;color:#616061;vertical-align:top;\">").append(escape(name))
                .append("</td><td style=\"padding:2px 0;\">").append(escape(value)).append("</td></tr>\n");
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
        return e.links().entrySet().stream().filter(l -> Presentation.isSafeLink(l.getValue())).toList();
    }

    /** HTML-escapes text for element content and double- or single-quoted attribute values. */
    static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    static String sha256Hex(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
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
