package dev.vigil.notifier.channel.email;

import static dev.vigil.notifier.support.TestEvents.T0;
import static dev.vigil.notifier.support.TestEvents.acknowledged;
import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static dev.vigil.notifier.support.TestEvents.with;
import static dev.vigil.notifier.support.TestEvents.withSummary;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.Severity;
import jakarta.mail.BodyPart;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class EmailMessageTest {
    static final String FP = "monitor/checkout";
    static final Session SESSION = Session.getInstance(new Properties());
    static final EmailSettings SETTINGS = EmailSettings.of(
            "smtp.example.test", "Vigil <vigil@vigil.test>", List.of("oncall@example.test", "sre@example.test"));
    static final Instant NOW = Instant.ofEpochMilli(T0 + 120_000);
    /** Every element the HTML part may contain. */
    static final Set<String> TAGS = Set.of(
            "!doctype", "html", "head", "meta", "title", "body", "div", "h2", "h3", "p", "table", "tr", "td", "a");

    static String sha256(String s) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    /** The message as it goes on the wire, parsed back: what a mail client sees. */
    static MimeMessage wire(AlertEvent e, EmailSettings s) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        EmailMessage.build(e, s, SESSION, NOW).writeTo(out);
        return new MimeMessage(SESSION, new ByteArrayInputStream(out.toByteArray()));
    }

    static String part(MimeMessage m, String type) throws Exception {
        MimeMultipart mp = (MimeMultipart) m.getContent();
        for (int i = 0; i < mp.getCount(); i++) {
            BodyPart p = mp.getBodyPart(i);
            if (p.isMimeType(type)) {
                return ((String) p.getContent()).replace("\r\n", "\n"); // CRLF on the wire
            }
        }
        throw new AssertionError("no " + type + " part");
    }

    static List<String> headerNames(MimeMessage m) throws Exception {
        List<String> names = new ArrayList<>();
        Collections.list(m.getAllHeaders()).forEach(h -> names.add(h.getName()));
        return names;
    }

    @Test
    void subjectIsPrefixSeverityStateAndSummary() {
        AlertEvent e = opened(FP, Severity.CRITICAL);
        assertThat(EmailMessage.subject(e, "[Vigil]"))
                .isEqualTo("[Vigil] [CRITICAL] opened: checkout-api is down in 2 of 3 regions");
        assertThat(EmailMessage.subject(event(FP, AlertState.RESOLVED, Severity.WARNING, 3), "[Vigil]"))
                .isEqualTo("[Vigil] [WARNING] resolved: checkout-api is down in 2 of 3 regions");
        assertThat(EmailMessage.subject(event(FP, AlertState.REMINDER, Severity.INFO, 2), ""))
                .isEqualTo("[INFO] reminder: checkout-api is down in 2 of 3 regions");
        assertThat(EmailMessage.subject(acknowledged(e, "alice", T0 + 5), "[Vigil]"))
                .isEqualTo("[Vigil] [CRITICAL] acknowledged: Acknowledged by alice");
    }

    @Test
    void subjectIsOneLineOfAtMost200CharactersWithoutInvisibleCharacters() {
        String longSummary =
                "\u202Edown\u200B " + "\uD83D\uDD25".repeat(145); // RLO, ZWSP, then 290 UTF-16 units of emoji
        AlertEvent e = withSummary(opened(FP, Severity.CRITICAL), longSummary, Map.of(), Map.of());
        String subject = EmailMessage.subject(e, "[Vigil]");
        assertThat(subject.length()).isLessThanOrEqualTo(EmailMessage.SUBJECT_MAX);
        assertThat(subject)
                .startsWith("[Vigil] [CRITICAL] opened: down \uD83D\uDD25")
                .endsWith("…")
                .doesNotContain("\u202E")
                .doesNotContain("\u200B");
        assertThat(Character.isHighSurrogate(subject.charAt(subject.length() - 2)))
                .isFalse(); // no half emoji
    }

    @Test
    void headerTextTurnsEveryLineBreakIntoASpace() {
        assertThat(EmailMessage.headerText("x\r\nBcc: evil@example.com")).isEqualTo("x Bcc: evil@example.com");
        assertThat(EmailMessage.headerText("x\rBcc: a\nTo: b\u0085Cc: c\u2028Reply-To: d\u2029e\u000Bf\u000Cg\tend"))
                .isEqualTo("x Bcc: a To: b Cc: c Reply-To: d e f g end");
        assertThat(EmailMessage.headerText("  \r\n  ")).isEmpty();
        assertThat(EmailMessage.headerText("a\u202Eb\u2066c\uFEFF")).isEqualTo("abc");
    }

    @Test
    void theContractRefusesALineBreakInTheSummaryAndWhatItAllowsStaysInOneHeader() throws Exception {
        assertThatThrownBy(() ->
                        withSummary(opened(FP, Severity.CRITICAL), "x\r\nBcc: evil@example.com", Map.of(), Map.of()))
                .isInstanceOf(ContractViolation.class);
        // C1 "next line", the Unicode line separator and an attribute name with CR LF pass the contract
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("k\r\nBcc: evil@example.com", "v");
        AlertEvent e = withSummary(
                opened(FP, Severity.CRITICAL),
                "x\u0085Bcc: evil@example.com\u2028To: evil@example.org",
                attrs,
                Map.of());
        MimeMessage m = wire(e, SETTINGS);
        assertThat(m.getHeader("Bcc")).isNull();
        assertThat(m.getHeader("Cc")).isNull();
        assertThat(m.getHeader("To")).containsExactly("oncall@example.test, sre@example.test");
        assertThat(m.getAllRecipients())
                .extracting(Object::toString)
                .containsExactly("oncall@example.test", "sre@example.test");
        assertThat(m.getSubject()).isEqualTo("[Vigil] [CRITICAL] opened: x Bcc: evil@example.com To: evil@example.org");
        assertThat(headerNames(m))
                .containsExactlyInAnyOrder(
                        "Date",
                        "From",
                        "To",
                        "Message-ID",
                        "Subject",
                        "In-Reply-To",
                        "References",
                        "Auto-Submitted",
                        "X-Auto-Response-Suppress",
                        "X-Vigil-Fingerprint",
                        "X-Vigil-Severity",
                        "X-Vigil-State",
                        "MIME-Version",
                        "Content-Type");
        // in the text part the attribute name stays on its line
        assertThat(part(m, "text/plain")).contains("  k  Bcc: evil@example.com: v\n");
    }

    @Test
    void messageIdIsTheHashOfTheEventIdAndEveryMessageOfTheIncidentRefersToItsThread() throws Exception {
        AlertEvent open = opened(FP, Severity.CRITICAL);
        AlertEvent reminder = event(FP, AlertState.REMINDER, Severity.CRITICAL, 2);
        AlertEvent ack = acknowledged(open, "alice", T0 + 3_000);
        AlertEvent resolved = event(FP, AlertState.RESOLVED, Severity.CRITICAL, 3);
        String thread = "<" + sha256(open.incidentId()) + "@vigil.incident>";
        Set<String> ids = new java.util.HashSet<>();
        for (AlertEvent e : List.of(open, reminder, ack, resolved)) {
            MimeMessage m = wire(e, SETTINGS);
            assertThat(m.getMessageID()).isEqualTo("<" + sha256(e.eventId()) + "@vigil>");
            assertThat(m.getHeader("In-Reply-To")).containsExactly(thread);
            assertThat(m.getHeader("References")).containsExactly(thread);
            ids.add(m.getMessageID());
        }
        assertThat(ids).hasSize(4);
        // the same event again: the same id, recognisable as a resend
        assertThat(wire(open, SETTINGS).getMessageID()).isEqualTo(EmailMessage.messageId(open));
        assertThat(EmailMessage.threadId(open)).isEqualTo(thread);
        // another incident of the same fingerprint is another thread
        AlertEvent later = new AlertEvent(
                1,
                "x/opened/1",
                FP,
                AlertEvent.incidentIdFor(FP, T0 + 1),
                AlertState.OPENED,
                Severity.CRITICAL,
                "checkout-api",
                null,
                "down again",
                null,
                null,
                1,
                T0 + 1,
                T0 + 1,
                open.source(),
                false,
                null);
        assertThat(EmailMessage.threadId(later)).isNotEqualTo(thread);
    }

    @Test
    void multipartAlternativeWithPlainThenHtmlInUtf8AndTheAutomationHeaders() throws Exception {
        MimeMessage m = wire(opened(FP, Severity.CRITICAL), SETTINGS);
        assertThat(m.getContentType()).startsWith("multipart/alternative");
        MimeMultipart mp = (MimeMultipart) m.getContent();
        assertThat(mp.getCount()).isEqualTo(2);
        assertThat(mp.getBodyPart(0).getContentType()).isEqualToIgnoringCase("text/plain; charset=UTF-8");
        assertThat(mp.getBodyPart(1).getContentType()).isEqualToIgnoringCase("text/html; charset=UTF-8");
        assertThat(m.getHeader("Auto-Submitted")).containsExactly("auto-generated");
        assertThat(m.getHeader("X-Auto-Response-Suppress")).containsExactly("All");
        assertThat(m.getHeader("X-Vigil-Fingerprint")).containsExactly(FP);
        assertThat(m.getHeader("X-Vigil-Severity")).containsExactly("critical");
        assertThat(m.getHeader("X-Vigil-State")).containsExactly("opened");
        assertThat(m.getFrom()).extracting(Object::toString).containsExactly("Vigil <vigil@vigil.test>");
        assertThat(m.getSentDate().toInstant()).isEqualTo(NOW);

        String text = part(m, "text/plain");
        assertThat(text)
                .startsWith("[CRITICAL] checkout-api: checkout-api is down in 2 of 3 regions\n\n"
                        + "checkout-api is down in 2 of 3 regions\n\n"
                        + "State: opened\nSeverity: critical\nService: checkout-api\nComponent: service\nOccurrences: 1\n"
                        + "First seen: 2026-01-01T00:00:00Z\nLast seen: 2026-01-01T00:01:00Z\nFingerprint: monitor/checkout\n"
                        + "Incident: monitor/checkout@" + T0 + "\n")
                .contains("\nAttributes\n  region: us-east\n")
                .contains("\nLinks\n  dashboard: https://grafana.example.test/d/checkout\n")
                .endsWith("\n-- \nVigil · event monitor/checkout@" + T0 + "/opened/1\n");
        String html = part(m, "text/html");
        assertThat(html)
                .contains("<a href=\"https://grafana.example.test/d/checkout\" target=\"_blank\""
                        + " rel=\"noopener noreferrer\">dashboard</a>")
                .contains("border-left:6px solid #E01E5A");
    }

    @Test
    void everyValueIsEscapedInTheHtmlPartAndNothingExecutesOrLoads() throws Exception {
        String hostile =
                "<script>alert(1)</script> <img src=x onerror=\"alert(2)\"> 'single' & <a href=\"https://evil.test\">x</a>";
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("<b onmouseover=alert(3)>", "<iframe src=\"https://evil.test\"></iframe>");
        Map<String, String> links = new LinkedHashMap<>();
        links.put("\"><script>alert(4)</script>", "https://grafana.example.test/d/x?a=1&b=2");
        links.put("js", "javascript:alert(5)");
        links.put("data", "data:text/html,<script>alert(6)</script>");
        links.put("userinfo", "https://grafana.example.test@evil.test/");
        links.put("ftp", "ftp://files.example.test/x");
        AlertEvent e = withSummary(opened(FP, Severity.CRITICAL), hostile, attrs, links);
        MimeMessage m = wire(e, SETTINGS);
        String html = part(m, "text/html");

        // every real tag (data has no '<' left) is a known element with known attributes, and only <a> links
        Matcher tags = Pattern.compile("<([^<>]*)>").matcher(html);
        Pattern attribute = Pattern.compile("\\s([A-Za-z-]+)=\"[^\"]*\"");
        int count = 0;
        while (tags.find()) {
            count++;
            String tag = tags.group(1);
            String name = tag.split("[\\s>]", 2)[0].replace("/", "").toLowerCase(java.util.Locale.ROOT);
            assertThat(TAGS).as("element in <%s>", tag).contains(name);
            Matcher a = attribute.matcher(tag);
            while (a.find()) {
                assertThat(Set.of("charset", "name", "content", "style", "href", "target", "rel"))
                        .as(tag)
                        .contains(a.group(1));
                if (a.group(1).equals("href")) {
                    assertThat(name).isEqualTo("a");
                }
            }
            assertThat(tag)
                    .as(tag)
                    .doesNotContainIgnoringCase("url(")
                    .doesNotContainIgnoringCase("javascript:")
                    .doesNotContainIgnoringCase("expression(");
        }
        assertThat(count).isGreaterThan(20);
        assertThat(html)
                .doesNotContainIgnoringCase("<script")
                .doesNotContainIgnoringCase("<img")
                .doesNotContainIgnoringCase("<iframe")
                .doesNotContainIgnoringCase("<b ")
                .doesNotContainIgnoringCase("javascript:")
                .doesNotContainIgnoringCase("data:text")
                .doesNotContain("@evil.test")
                .doesNotContain("ftp://");
        assertThat(html)
                .contains("&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=&quot;alert(2)&quot;&gt;"
                        + " &#39;single&#39; &amp; &lt;a href=&quot;https://evil.test&quot;&gt;x&lt;/a&gt;");
        assertThat(html)
                .contains("&lt;b onmouseover=alert(3)&gt;")
                .contains("&lt;iframe src=&quot;https://evil.test&quot;&gt;&lt;/iframe&gt;");
        // the one safe link, its URL attribute-escaped, its label text-escaped
        assertThat(html)
                .containsOnlyOnce("<a href=")
                .contains("<a href=\"https://grafana.example.test/d/x?a=1&amp;b=2\" target=\"_blank\""
                        + " rel=\"noopener noreferrer\">&quot;&gt;&lt;script&gt;alert(4)&lt;/script&gt;</a>");
        // the text part lists only that link too, and data stays text
        String text = part(m, "text/plain");
        assertThat(text)
                .contains("https://grafana.example.test/d/x?a=1&b=2")
                .doesNotContain("javascript:")
                .doesNotContain("data:text")
                .doesNotContain("ftp://")
                .doesNotContain("@evil.test")
                .contains(hostile);
    }

    @Test
    void bidiAndZeroWidthCharactersAreRemovedEverywhere() throws Exception {
        Map<String, String> attrs = Map.of("re\u200Bgion", "us\u202E-east");
        AlertEvent e = withSummary(
                opened(FP, Severity.CRITICAL),
                "pay\u200Bpal \u2066down\u2069",
                attrs,
                Map.of("dash\u200Dboard", "https://grafana.example.test/d/\u200Bcheckout"));
        MimeMessage m = wire(e, SETTINGS);
        for (String s : List.of(m.getSubject(), part(m, "text/plain"), part(m, "text/html"))) {
            assertThat(s)
                    .doesNotContain("\u200B", "\u200D", "\u202E", "\u2066", "\u2069")
                    .contains("paypal down");
        }
        assertThat(part(m, "text/html")).contains("href=\"https://grafana.example.test/d/checkout\"");
    }

    @Test
    void anAcknowledgementIsAShortNotice() throws Exception {
        AlertEvent ack = acknowledged(opened(FP, Severity.CRITICAL), "alice <ops>", T0 + 5_000);
        MimeMessage m = wire(ack, SETTINGS);
        assertThat(m.getSubject()).isEqualTo("[Vigil] [CRITICAL] acknowledged: Acknowledged by alice <ops>");
        assertThat(m.getHeader("X-Vigil-State")).containsExactly("acknowledged");
        String text = part(m, "text/plain");
        assertThat(text)
                .startsWith(
                        "[Acknowledged] checkout-api: Acknowledged by alice <ops>\n\nAcknowledged by: alice <ops>\n")
                .doesNotContain("Occurrences")
                .doesNotContain("Attributes");
        assertThat(part(m, "text/html")).contains("alice &lt;ops&gt;").contains("#8D8D8D");
    }

    @Test
    void nonAsciiSubjectsAreEncodedAndReadBackIntact() throws Exception {
        AlertEvent e = withSummary(opened(FP, Severity.WARNING), "Zahlungsdienst gestört — 支付", Map.of(), Map.of());
        MimeMessage m = wire(e, SETTINGS.withSubjectPrefix("[Vigil ✓]"));
        assertThat(m.getHeader("Subject")[0]).startsWith("=?UTF-8?");
        assertThat(m.getSubject()).isEqualTo("[Vigil ✓] [WARNING] opened: Zahlungsdienst gestört — 支付");
        assertThat(part(m, "text/plain")).contains("Zahlungsdienst gestört — 支付");
    }

    @Test
    void hostileSummaryServiceAndLinkLabelComeOutEscapedFromTheHtmlTemplate() throws Exception {
        String summary = "<script>alert(\"x\")</script> & 'quoted'";
        String service = "pay<b>\"api\"</b>&co's";
        AlertEvent e = withSummary(
                with(opened(FP, Severity.CRITICAL), service, Map.of("r&d", "<i>x</i>"), List.of(), false),
                summary,
                Map.of("r&d", "<i>x</i>"),
                Map.of("<script>\"dash\" & co", "https://grafana.example.test/d/a"));
        MimeMessage m = wire(e, SETTINGS);
        String html = part(m, "text/html");
        assertThat(html)
                .doesNotContain("<script")
                .doesNotContain("<b>")
                .doesNotContain("<i>")
                .contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;")
                .contains(">pay&lt;b&gt;&quot;api&quot;&lt;/b&gt;&amp;co&#39;s</td>")
                .contains(">r&amp;d</td>")
                .contains(">&lt;i&gt;x&lt;/i&gt;</td>")
                .contains("rel=\"noopener noreferrer\">&lt;script&gt;&quot;dash&quot; &amp; co</a>");
        // the title (service and summary) is escaped in both places it appears
        assertThat(html)
                .contains("<title>[CRITICAL] pay&lt;b&gt;&quot;api&quot;&lt;/b&gt;&amp;co&#39;s: &lt;script&gt;");
        // the plain-text part is plain: the same values, unescaped
        assertThat(part(m, "text/plain"))
                .contains(summary)
                .contains("Service: " + service)
                .contains("  <script>\"dash\" & co: https://grafana.example.test/d/a")
                .doesNotContain("&amp;");
    }

    @Test
    void escapeCoversTextAndBothQuoteStyles() {
        assertThat(EmailMessage.escape("a&b<c>d\"e'f")).isEqualTo("a&amp;b&lt;c&gt;d&quot;e&#39;f");
        assertThat(EmailMessage.escape("&amp;")).isEqualTo("&amp;amp;");
    }
}
