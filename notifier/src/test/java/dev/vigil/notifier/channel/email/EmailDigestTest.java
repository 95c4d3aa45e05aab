package dev.vigil.notifier.channel.email;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.vigil.notifier.channel.email.EmailSettings.StartTls;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.digest.DigestComposer;
import dev.vigil.notifier.digest.DigestData;
import dev.vigil.notifier.digest.DigestData.ChannelFailures;
import dev.vigil.notifier.digest.DigestReport;
import dev.vigil.notifier.digest.DigestReports;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.Severity;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class EmailDigestTest {
    @RegisterExtension
    static final GreenMailExtension GREENMAIL = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

    private static EmailSettings smtp() {
        return new EmailSettings(
                "127.0.0.1",
                GREENMAIL.getSmtp().getPort(),
                StartTls.NONE,
                null,
                null,
                "Vigil <vigil@vigil.test>",
                List.of("oncall@example.test"),
                null,
                Duration.ofSeconds(2),
                Duration.ofSeconds(5),
                Duration.ofSeconds(15));
    }

    private static Notification digestEvent() {
        return new Notification(TestEvents.opened("vigil/digest", Severity.INFO), "mail", null);
    }

    @Test
    void sentOverSmtpByTheEmailNotifier() throws Exception {
        DigestReport r = DigestComposer.compose(
                LocalDate.of(2026, 12, 6),
                ZoneId.of("UTC"),
                Instant.parse("2026-12-05T09:00:00Z"),
                Instant.parse("2026-12-06T09:00:00Z"),
                Instant.parse("2026-12-06T09:00:01Z"),
                new DigestData(List.of(), List.of(), List.of()));
        EmailNotifier mail = new EmailNotifier(
                smtp(), Clock.systemUTC(), (n, s, session, date) -> EmailDigest.build(r, s, session, date));

        assertThat(mail.send(digestEvent()).block(Duration.ofSeconds(30)))
                .isEqualTo(new DeliveryOutcome.Delivered(null, null));

        assertThat(GREENMAIL.waitForIncomingEmail(5_000, 1)).isTrue();
        MimeMessage m = GREENMAIL.getReceivedMessages()[0];
        assertThat(m.getSubject())
                .isEqualTo("[Vigil] Digest 2026-12-06: Nothing to report since Sat 09:00: no incident"
                        + " opened, resolved or open, no delivery failure, nothing recorded.");
        assertThat(GreenMailUtil.getBody(m)).contains("Nothing to report since Sat 09:00");
    }

    @Test
    void aDigestThisInstanceDidNotComposeIsNotSent() {
        EmailNotifier mail = new EmailNotifier(smtp(), Clock.systemUTC(), EmailDigest.messages(new DigestReports()));

        DeliveryOutcome o = mail.send(digestEvent()).block(Duration.ofSeconds(30));

        assertThat(o).isInstanceOf(DeliveryOutcome.Permanent.class);
        assertThat(((DeliveryOutcome.Permanent) o).reason()).contains("no digest was composed");
        assertThat(GREENMAIL.getReceivedMessages()).isEmpty();
    }

    @Test
    void plainTextWithTheSummaryInTheSubjectAndAnIdPerDay() throws Exception {
        DigestReport r = DigestComposer.compose(
                LocalDate.of(2026, 12, 6),
                ZoneId.of("Europe/Berlin"),
                Instant.parse("2026-12-05T08:00:00Z"),
                Instant.parse("2026-12-06T08:00:00Z"),
                Instant.parse("2026-12-06T08:00:01Z"),
                new DigestData(List.of(), List.of(new ChannelFailures("pager", 2, 0)), List.of()));
        EmailSettings settings = EmailSettings.of("smtp.example.com", "vigil@example.com", List.of("ops@example.com"));

        MimeMessage m = EmailDigest.build(r, settings, Session.getInstance(new Properties()), r.composedAt());

        assertThat(m.getSubject())
                .isEqualTo("[Vigil] Digest 2026-12-06: Since Sat 09:00: 0 opened, 0 resolved, 0 still open,"
                        + " delivery failures on 1 channel(s).");
        assertThat(m.getContentType()).startsWith("text/plain");
        assertThat((String) m.getContent()).contains("Delivery failures (1)").contains("pager: 2 failed attempt(s)");
        assertThat(m.getMessageID())
                .isEqualTo(EmailDigest.build(r, settings, Session.getInstance(new Properties()), Instant.now())
                        .getMessageID());
        assertThat(m.getHeader("Auto-Submitted")).containsExactly("auto-generated");
    }
}
