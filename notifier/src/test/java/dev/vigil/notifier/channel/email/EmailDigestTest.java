package dev.vigil.notifier.channel.email;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.digest.DigestComposer;
import dev.vigil.notifier.digest.DigestData;
import dev.vigil.notifier.digest.DigestData.ChannelFailures;
import dev.vigil.notifier.digest.DigestReport;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class EmailDigestTest {
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
