package dev.vigil.notifier.channel.email;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.core.Text;
import dev.vigil.notifier.support.TemplateEvents;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmailTemplateTest {
    private static MimeMessage wire(AlertEvent e, String template) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EmailMessage.build(
                        e,
                        EmailMessageTest.SETTINGS,
                        EmailMessageTest.SESSION,
                        EmailMessageTest.NOW,
                        template == null ? null : EmailMessage.template(template))
                .writeTo(out);
        return new MimeMessage(EmailMessageTest.SESSION, new ByteArrayInputStream(out.toByteArray()));
    }

    @Test
    void theDefaultTemplateReproducesTodaysSubjectForEveryEvent() {
        var template = EmailMessage.template(EmailMessage.DEFAULT_TEMPLATE);
        for (AlertEvent e : TemplateEvents.all()) {
            for (String prefix : new String[] {"[Vigil]", "", null}) {
                assertThat(EmailMessage.subject(e, prefix, template))
                        .as(e.eventId())
                        .isEqualTo(EmailMessage.subject(e, prefix));
            }
        }
    }

    @Test
    void aCustomTemplateIsTheSubjectAfterThePrefixOnOneLineWhileTheBodiesStay() throws Exception {
        String template = "{{service}} {{state}} ({{occurrences}}x){{#attributes}}\n{{name}}={{value}}{{/attributes}}";
        AlertEvent e = TemplateEvents.hostile();

        MimeMessage custom = wire(e, template);
        MimeMessage standard = wire(e, null);

        assertThat(custom.getSubject())
                .isEqualTo(EmailMessageTest.SETTINGS.subjectPrefix() + " api <!everyone> @here opened (1x)"
                        + " <@U999> [x](https://evil.test)=<!channel> @everyone <@U123> [docs](https://evil.test)"
                        + " <script>x</script> *bold* &amp; \\ # www.evil.test zw region=us-east");
        assertThat(EmailMessageTest.part(custom, "text/html")).isEqualTo(EmailMessageTest.part(standard, "text/html"));
        assertThat(EmailMessageTest.part(custom, "text/plain"))
                .isEqualTo(EmailMessageTest.part(standard, "text/plain"));
    }

    @Test
    void theRenderedSubjectIsCutToItsLimit() {
        AlertEvent e = TestEvents.withSummary(
                TestEvents.opened("monitor/checkout", Severity.CRITICAL), "x".repeat(300), Map.of(), Map.of());

        String subject = EmailMessage.subject(e, "[Vigil]", EmailMessage.template("{{summary}}"));

        assertThat(subject)
                .hasSize(EmailMessage.SUBJECT_MAX)
                .startsWith("[Vigil] xxx")
                .endsWith(Text.ELLIPSIS);
    }
}
