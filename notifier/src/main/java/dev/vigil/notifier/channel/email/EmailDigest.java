package dev.vigil.notifier.channel.email;

import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.digest.DigestReport;
import dev.vigil.notifier.digest.DigestReports;
import dev.vigil.notifier.digest.DigestText;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.time.Instant;
import java.util.Date;

/**
 * The daily digest as an e-mail: plain text only (every value one clean line, nothing for a mail client to render),
 * the subject {@code <prefix> Digest <day>: <summary>}, a Message-ID derived from the day, so a resend of the same
 * day's digest is recognisably the same message.
 */
public final class EmailDigest {
    private EmailDigest() {}

    /** The digest sender's {@link EmailNotifier.Messages}: the report named by the notification's event. */
    public static EmailNotifier.Messages messages(DigestReports reports) {
        return (n, settings, session, date) -> build(report(reports, n), settings, session, date);
    }

    private static DigestReport report(DigestReports reports, Notification n) throws MessagingException {
        return reports.get(n.event().eventId())
                .orElseThrow(() -> new MessagingException(
                        "no digest was composed for " + n.event().eventId() + " on this instance"));
    }

    public static MimeMessage build(DigestReport r, EmailSettings settings, Session session, Instant date)
            throws MessagingException {
        MimeMessage m = new MimeMessage(session) {
            @Override
            protected void updateMessageID() throws MessagingException {
                setHeader(
                        "Message-ID",
                        "<" + EmailMessage.sha256Hex("digest/" + r.day()) + "@" + EmailMessage.MESSAGE_DOMAIN + ">");
            }
        };
        m.setFrom(settings.fromAddress());
        m.setRecipients(Message.RecipientType.TO, settings.toAddresses());
        m.setSubject(subject(r, settings.subjectPrefix()), "UTF-8");
        m.setSentDate(Date.from(date));
        m.setHeader("Auto-Submitted", "auto-generated");
        m.setHeader("X-Auto-Response-Suppress", "All");
        m.setText(DigestText.plain(r), "UTF-8", "plain");
        m.saveChanges();
        return m;
    }

    public static String subject(DigestReport r, String prefix) {
        String p = prefix == null ? "" : EmailMessage.headerText(prefix);
        String s = (p.isEmpty() ? "" : p + " ") + "Digest " + r.day() + ": " + DigestText.summary(r);
        return dev.vigil.notifier.core.Text.truncate(EmailMessage.headerText(s), EmailMessage.SUBJECT_MAX);
    }
}
