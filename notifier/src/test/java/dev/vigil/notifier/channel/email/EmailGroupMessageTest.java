package dev.vigil.notifier.channel.email;

import static dev.vigil.notifier.channel.email.EmailMessageTest.NOW;
import static dev.vigil.notifier.channel.email.EmailMessageTest.SESSION;
import static dev.vigil.notifier.channel.email.EmailMessageTest.SETTINGS;
import static dev.vigil.notifier.channel.email.EmailMessageTest.part;
import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.withSummary;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One e-mail for the events of a group: a line per event in both parts, every value escaped in the HTML. */
class EmailGroupMessageTest {
    private static List<AlertEvent> monitors(int n, String summary) {
        List<AlertEvent> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            AlertEvent e = event("monitor/checkout-" + i, AlertState.RESOLVED, Severity.CRITICAL, 2);
            out.add(withSummary(
                    e,
                    summary == null ? "checkout-" + i + " is up" : summary,
                    e.attributes(),
                    Map.of("console", "https://vigil.example.test/incidents/" + i)));
        }
        return out;
    }

    private static MimeMessage wire(List<AlertEvent> events, String groupId) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EmailMessage.group(events, groupId, SETTINGS, SESSION, NOW).writeTo(out);
        return new MimeMessage(SESSION, new ByteArrayInputStream(out.toByteArray()));
    }

    @Test
    void fiftyEventsAreOneMailWithALinePerEvent() throws Exception {
        List<AlertEvent> events = monitors(50, null);

        MimeMessage m = wire(events, "group-1");

        assertThat(m.getSubject()).isEqualTo("[Vigil] [Resolved] checkout-api: 50 alerts (50 resolved)");
        assertThat(m.getHeader("Message-ID")[0]).isEqualTo("<" + EmailMessageTest.sha256("group-1") + "@vigil>");
        assertThat(m.getHeader("X-Vigil-Group")[0]).isEqualTo("group-1");
        String text = part(m, "text/plain");
        String html = part(m, "text/html");
        for (AlertEvent e : events) {
            assertThat(text)
                    .contains("- [CRITICAL] resolved · checkout-api: " + e.summary() + "\n  " + e.fingerprint());
            assertThat(html).contains(e.summary());
        }
        assertThat(html).contains("<a href=\"https://vigil.example.test/incidents/7\"");
        assertThat(text).contains("Vigil · group group-1 · 50 events");
    }

    @Test
    void dataIsEscapedInTheHtml() throws Exception {
        MimeMessage m = wire(monitors(2, "<script>alert(1)</script> <a href=\"https://evil.test\">x</a>"), "g");

        assertThat(part(m, "text/html"))
                .doesNotContain("<script>", "https://evil.test\">")
                .contains("&lt;script&gt;");
    }

    @Test
    void aVeryLargeGroupIsCounted() throws Exception {
        String text = part(wire(monitors(EmailMessage.GROUP_LINES_MAX + 5, null), "g"), "text/plain");

        assertThat(text).contains("… and 5 more");
    }

    @Test
    void alertMailRendersGroupsAndTheDigestSenderIsGivenNone() {
        assertThat(new EmailNotifier(SETTINGS, Clock.systemUTC()).rendersGroups())
                .isTrue();
        assertThat(new EmailNotifier(SETTINGS, Clock.systemUTC(), (n, s, session, date) -> null).rendersGroups())
                .isFalse();
    }
}
