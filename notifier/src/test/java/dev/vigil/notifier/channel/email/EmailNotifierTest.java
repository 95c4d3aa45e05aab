package dev.vigil.notifier.channel.email;

import static dev.vigil.notifier.support.TestEvents.T0;
import static dev.vigil.notifier.support.TestEvents.acknowledged;
import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static dev.vigil.notifier.support.TestEvents.withSummary;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.vigil.notifier.channel.email.EmailSettings.StartTls;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The adapter against GreenMail, a real SMTP server on a loopback port (plain SMTP: it offers no STARTTLS). */
class EmailNotifierTest {
    static final String FP = "monitor/checkout";
    static final String PASSWORD = "gr33n-Mail-s3cret!";
    static final Instant NOW = Instant.ofEpochMilli(T0 + 90_000);

    @RegisterExtension
    static final GreenMailExtension GREENMAIL = new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort())
            .withConfiguration(GreenMailConfiguration.aConfig().withUser("vigil@vigil.test", "vigil", PASSWORD));

    static EmailSettings settings() {
        return new EmailSettings(
                "127.0.0.1",
                GREENMAIL.getSmtp().getPort(),
                StartTls.NONE,
                null,
                null,
                "Vigil <vigil@vigil.test>",
                List.of("oncall@example.test", "sre@example.test"),
                null,
                Duration.ofSeconds(2),
                Duration.ofSeconds(5),
                Duration.ofSeconds(15));
    }

    static DeliveryOutcome send(EmailSettings s, AlertEvent e) {
        EmailNotifier notifier = new EmailNotifier(s, Clock.fixed(NOW, ZoneOffset.UTC));
        return notifier.send(new Notification(e, "mail", null)).block(Duration.ofSeconds(30));
    }

    @Test
    void deliversOneMessageToEveryRecipientWithBothPartsAndTheHeaders() throws Exception {
        AlertEvent e = opened(FP, Severity.CRITICAL);
        assertThat(send(settings(), e)).isEqualTo(new DeliveryOutcome.Delivered(null, null));

        assertThat(GREENMAIL.waitForIncomingEmail(5_000, 2)).isTrue();
        MimeMessage[] all = GREENMAIL.getReceivedMessages();
        assertThat(all).hasSize(2);
        assertThat(GREENMAIL.getReceivedMessagesForDomain("example.test")).hasSize(2);
        for (MimeMessage m : all) {
            assertThat(m.getSubject()).isEqualTo("[Vigil] [CRITICAL] opened: checkout-api is down in 2 of 3 regions");
            assertThat(m.getFrom()).extracting(Object::toString).containsExactly("Vigil <vigil@vigil.test>");
            assertThat(m.getRecipients(jakarta.mail.Message.RecipientType.TO))
                    .extracting(Object::toString)
                    .containsExactly("oncall@example.test", "sre@example.test");
            assertThat(m.getMessageID())
                    .isEqualTo(EmailMessage.messageId(e))
                    .isEqualTo("<" + EmailMessageTest.sha256(e.eventId()) + "@vigil>");
            assertThat(m.getHeader("In-Reply-To")).containsExactly(EmailMessage.threadId(e));
            assertThat(m.getHeader("References")).containsExactly(EmailMessage.threadId(e));
            assertThat(m.getHeader("Auto-Submitted")).containsExactly("auto-generated");
            assertThat(m.getHeader("X-Vigil-Fingerprint")).containsExactly(FP);
            assertThat(m.getSentDate().toInstant()).isEqualTo(NOW);
            assertThat(m.getContentType()).startsWith("multipart/alternative");
            MimeMultipart mp = (MimeMultipart) m.getContent();
            assertThat(mp.getCount()).isEqualTo(2);
            assertThat(mp.getBodyPart(0).isMimeType("text/plain")).isTrue();
            assertThat(mp.getBodyPart(1).isMimeType("text/html")).isTrue();
            assertThat((String) mp.getBodyPart(0).getContent())
                    .contains("checkout-api is down in 2 of 3 regions")
                    .contains("https://grafana.example.test/d/checkout");
            assertThat((String) mp.getBodyPart(1).getContent())
                    .contains("<a href=\"https://grafana.example.test/d/checkout\"");
        }
    }

    @Test
    void openedRemindedAcknowledgedAndResolvedShareOneThread() throws Exception {
        AlertEvent open = opened(FP, Severity.CRITICAL);
        List<AlertEvent> events = List.of(
                open,
                event(FP, AlertState.REMINDER, Severity.CRITICAL, 2),
                acknowledged(open, "alice", T0 + 150_000),
                event(FP, AlertState.RESOLVED, Severity.CRITICAL, 3));
        EmailSettings one = settings();
        one = new EmailSettings(
                one.host(),
                one.port(),
                one.startTls(),
                null,
                null,
                one.from(),
                List.of("oncall@example.test"),
                null,
                one.connectTimeout(),
                one.readTimeout(),
                one.sendTimeout());
        for (AlertEvent e : events) {
            assertThat(send(one, e)).isInstanceOf(DeliveryOutcome.Delivered.class);
        }
        assertThat(GREENMAIL.waitForIncomingEmail(5_000, 4)).isTrue();
        MimeMessage[] got = GREENMAIL.getReceivedMessages();
        assertThat(got).hasSize(4);
        String thread = "<" + EmailMessageTest.sha256(open.incidentId()) + "@vigil.incident>";
        for (int i = 0; i < 4; i++) {
            assertThat(got[i].getMessageID())
                    .isEqualTo("<" + EmailMessageTest.sha256(events.get(i).eventId()) + "@vigil>");
            assertThat(got[i].getHeader("In-Reply-To")).containsExactly(thread);
            assertThat(got[i].getHeader("References")).containsExactly(thread);
        }
        assertThat(Arrays.stream(got).map(m -> {
                    try {
                        return m.getSubject();
                    } catch (Exception ex) {
                        throw new AssertionError(ex);
                    }
                }))
                .containsExactly(
                        "[Vigil] [CRITICAL] opened: checkout-api is down in 2 of 3 regions",
                        "[Vigil] [CRITICAL] reminder: checkout-api is down in 2 of 3 regions",
                        "[Vigil] [CRITICAL] acknowledged: Acknowledged by alice",
                        "[Vigil] [CRITICAL] resolved: checkout-api is down in 2 of 3 regions");
        assertThat(Arrays.stream(got)
                        .map(m -> {
                            try {
                                return m.getMessageID();
                            } catch (Exception ex) {
                                throw new AssertionError(ex);
                            }
                        })
                        .distinct())
                .hasSize(4);
    }

    @Test
    void aHostileSummaryArrivesEscapedAndCanAddNoHeaderOrRecipient() throws Exception {
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("k\r\nBcc: evil@example.com", "<img src=x onerror=\"alert(1)\">");
        AlertEvent e = withSummary(
                opened(FP, Severity.CRITICAL),
                "<script>alert(2)</script> \"quoted\" x\u0085Bcc: evil@example.com\u2028Cc: evil@example.org",
                attrs,
                Map.of("runbook", "javascript:alert(3)"));
        assertThat(send(settings(), e)).isInstanceOf(DeliveryOutcome.Delivered.class);
        assertThat(GREENMAIL.waitForIncomingEmail(5_000, 2)).isTrue();
        assertThat(GREENMAIL.getReceivedMessages()).hasSize(2);
        assertThat(GREENMAIL.getReceivedMessagesForDomain("example.com")).isEmpty();
        assertThat(GREENMAIL.getReceivedMessagesForDomain("example.org")).isEmpty();
        for (MimeMessage m : GREENMAIL.getReceivedMessages()) {
            assertThat(m.getHeader("Bcc")).isNull();
            assertThat(m.getHeader("Cc")).isNull();
            assertThat(m.getSubject())
                    .isEqualTo("[Vigil] [CRITICAL] opened: <script>alert(2)</script> \"quoted\""
                            + " x Bcc: evil@example.com Cc: evil@example.org");
            String html =
                    (String) ((MimeMultipart) m.getContent()).getBodyPart(1).getContent();
            assertThat(html)
                    .doesNotContain("<script")
                    .doesNotContain("<img")
                    .doesNotContain("javascript:")
                    .contains("&lt;script&gt;alert(2)&lt;/script&gt; &quot;quoted&quot;")
                    .contains("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
        }
    }

    @Test
    void startTlsRequiredAgainstARelayWithoutStartTlsSendsNothingAndIsPermanent() {
        DeliveryOutcome o = send(settings().withStartTls(StartTls.REQUIRED), opened(FP, Severity.CRITICAL));
        assertThat(o).isInstanceOf(DeliveryOutcome.Permanent.class);
        assertThat(((DeliveryOutcome.Permanent) o).reason())
                .isEqualTo("smtp 127.0.0.1:" + GREENMAIL.getSmtp().getPort()
                        + ": the relay does not offer STARTTLS, which startTls: required demands; nothing was sent (use a"
                        + " relay with TLS, or startTls: none for a relay on this host only)");
        assertThat(GREENMAIL.getReceivedMessages()).isEmpty();
    }

    @Test
    void theRightCredentialsDeliverAndAWrongPasswordIsPermanentWithoutThePasswordAnywhere() {
        EmailSettings good = settings().withCredentials("vigil", PASSWORD);
        assertThat(send(good, opened(FP, Severity.CRITICAL))).isInstanceOf(DeliveryOutcome.Delivered.class);
        assertThat(GREENMAIL.waitForIncomingEmail(5_000, 2)).isTrue();

        String wrong = "wr0ng-" + PASSWORD;
        EmailSettings bad = settings().withCredentials("vigil", wrong);
        DeliveryOutcome o = send(bad, opened(FP, Severity.CRITICAL));
        assertThat(o).isInstanceOf(DeliveryOutcome.Permanent.class);
        String reason = ((DeliveryOutcome.Permanent) o).reason();
        assertThat(reason)
                .startsWith("smtp 127.0.0.1:" + GREENMAIL.getSmtp().getPort() + ": authentication failed: 535")
                .endsWith("(check the user name and password)")
                .doesNotContain(wrong)
                .doesNotContain(PASSWORD);
        assertThat(GREENMAIL.getReceivedMessages()).hasSize(2);
        assertThat(bad.toString()).doesNotContain(wrong);
        assertThat(new EmailNotifier(bad, Clock.systemUTC()).toString())
                .doesNotContain(wrong)
                .contains("password=(set)");
    }

    @Test
    void aResendOfTheSameEventCarriesTheSameMessageId() throws Exception {
        AlertEvent e = opened(FP, Severity.WARNING);
        EmailSettings s = settings();
        send(s, e);
        send(s, e);
        assertThat(GREENMAIL.waitForIncomingEmail(5_000, 4)).isTrue();
        assertThat(Arrays.stream(GREENMAIL.getReceivedMessages())
                        .map(m -> {
                            try {
                                return m.getMessageID();
                            } catch (Exception ex) {
                                throw new AssertionError(ex);
                            }
                        })
                        .distinct())
                .containsExactly(EmailMessage.messageId(e));
    }
}
