package dev.vigil.notifier.channel.email;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.notifier.channel.email.EmailSettings.StartTls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class EmailSettingsTest {
    private static final String PATH = "routing.yaml: channels.mail";
    private static final String SECRET = "Tr0ub4dor&3-very-secret";

    private static EmailSettings valid() {
        return EmailSettings.of("smtp.example.test", "Vigil <vigil@example.test>", List.of("oncall@example.test"));
    }

    @Test
    void defaultsAreSubmissionPortRequiredStartTlsAndTheVigilPrefix() {
        EmailSettings s = valid();
        assertThat(s.port()).isEqualTo(587);
        assertThat(s.startTls()).isEqualTo(StartTls.REQUIRED);
        assertThat(s.subjectPrefix()).isEqualTo("[Vigil]");
        assertThat(s.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(s.readTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.sendTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(s.username()).isNull();
        assertThat(s.password()).isNull();
        assertThat(s.authenticates()).isFalse();
        assertThat(s.problems(PATH)).isEmpty();
        assertThat(s.requireValid(PATH)).isSameAs(s);
    }

    @Test
    void startTlsModesReadFromTheirWireNames() {
        assertThat(StartTls.fromWire("required")).isEqualTo(StartTls.REQUIRED);
        assertThat(StartTls.fromWire("none")).isEqualTo(StartTls.NONE);
        assertThat(StartTls.REQUIRED.wire()).isEqualTo("required");
        assertThatThrownBy(() -> StartTls.fromWire("optional"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[required, none]");
    }

    @Test
    void everyProblemIsReportedAtOnceWithItsKeyPath() {
        EmailSettings s = new EmailSettings(
                " ",
                0,
                null,
                null,
                null,
                "not an address",
                List.of(),
                "x".repeat(51),
                Duration.ZERO,
                Duration.ofSeconds(-1),
                Duration.ofMinutes(11));
        assertThat(s.problems(PATH))
                .containsExactly(
                        PATH + ".host: required: the SMTP relay's host name or IP address",
                        PATH + ".port: must be between 1 and 65535 (587 for submission with STARTTLS)",
                        PATH
                                + ".from: must be one e-mail address such as oncall@example.com or \"Vigil <vigil@example.com>\"",
                        PATH + ".to: at least one recipient is required",
                        PATH + ".subjectPrefix: must be at most 50 characters without line breaks, control or invisible"
                                + " characters",
                        PATH + ".connectTimeout: must be positive and at most 10 minutes",
                        PATH + ".readTimeout: must be positive and at most 10 minutes",
                        PATH + ".sendTimeout: must be positive and at most 10 minutes");
        assertThatThrownBy(() -> s.requireValid(PATH))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("invalid e-mail channel settings: " + PATH + ".host: required")
                .hasMessageContaining(PATH + ".sendTimeout: must be positive");
    }

    @Test
    void hostIsANameOrAnIpLiteralNotAUrlOrHostAndPort() {
        for (String ok :
                List.of("smtp.example.test", "localhost", "10.0.0.7", "::1", "[::1]", "mail-relay_1.internal")) {
            assertThat(new EmailSettings(
                                    ok,
                                    null,
                                    null,
                                    null,
                                    null,
                                    "v@example.test",
                                    List.of("o@example.test"),
                                    null,
                                    null,
                                    null,
                                    null)
                            .problems(PATH))
                    .as(ok)
                    .isEmpty();
        }
        for (String bad :
                List.of("smtp://smtp.example.test", "smtp.example.test:25", "smtp example", "relay\r\n", "-relay")) {
            assertThat(new EmailSettings(
                                    bad,
                                    null,
                                    null,
                                    null,
                                    null,
                                    "v@example.test",
                                    List.of("o@example.test"),
                                    null,
                                    null,
                                    null,
                                    null)
                            .problems(PATH))
                    .as(bad)
                    .containsExactly(PATH + ".host: must be a host name or an IP address (no scheme, port, spaces or"
                            + " control characters)");
        }
    }

    @Test
    void addressesAreStrictRfc822AndLineBreaksAnywhereAreRefused() {
        List<String> bad = List.of(
                "oncall@example.test\r\nBcc: evil@example.com", // header injection
                "oncall@example.test\nBcc: evil@example.com",
                "oncall@example.test\r",
                "Vigil\u2028<vigil@example.test>", // line separator
                "oncall\u200B@example.test", // zero-width space
                "oncall", // no domain
                "oncall@",
                "@example.test",
                "a@b.test, c@d.test", // two addresses in one entry
                "group: a@b.test;",
                "oncall@exa mple.test",
                "<>");
        List<String> to = new ArrayList<>(bad);
        EmailSettings s =
                new EmailSettings("smtp.example.test", null, null, null, null, bad.get(0), to, null, null, null, null);
        List<String> problems = s.problems(PATH);
        assertThat(problems).hasSize(bad.size() + 1);
        assertThat(problems.get(0)).startsWith(PATH + ".from: must be one e-mail address");
        for (int i = 0; i < bad.size(); i++) {
            assertThat(problems.get(i + 1))
                    .as(bad.get(i))
                    .startsWith(PATH + ".to[" + i + "]: must be one e-mail address");
        }
        // no problem echoes the value
        assertThat(problems).noneMatch(p -> p.contains("evil") || p.contains("\r") || p.contains("\n"));

        EmailSettings good = new EmailSettings(
                "smtp.example.test",
                null,
                null,
                null,
                null,
                "\"Vigil Alerts\" <vigil@example.test>",
                List.of("oncall@example.test", "SRE Team <sre@example.test>"),
                null,
                null,
                null,
                null);
        assertThat(good.problems(PATH)).isEmpty();
        assertThat(good.fromAddress().getAddress()).isEqualTo("vigil@example.test");
        assertThat(Arrays.stream(good.toAddresses()).map(a -> a.getAddress()))
                .containsExactly("oncall@example.test", "sre@example.test");
    }

    @Test
    void oneToFiftyDistinctRecipients() {
        List<String> fifty =
                IntStream.range(0, 50).mapToObj(i -> "r" + i + "@example.test").toList();
        assertThat(EmailSettings.of("smtp.example.test", "v@example.test", fifty)
                        .problems(PATH))
                .isEmpty();
        List<String> fiftyOne =
                IntStream.range(0, 51).mapToObj(i -> "r" + i + "@example.test").toList();
        assertThat(EmailSettings.of("smtp.example.test", "v@example.test", fiftyOne)
                        .problems(PATH))
                .containsExactly(PATH + ".to: at most 50 recipients (use a distribution list)");
        assertThat(EmailSettings.of("smtp.example.test", "v@example.test", null).problems(PATH))
                .containsExactly(PATH + ".to: at least one recipient is required");
        List<String> withNull = new ArrayList<>();
        withNull.add(null);
        assertThat(EmailSettings.of("smtp.example.test", "v@example.test", withNull)
                        .problems(PATH))
                .containsExactly(PATH + ".to[0]: required: must be one e-mail address such as oncall@example.com or"
                        + " \"Vigil <vigil@example.com>\"");
        assertThat(EmailSettings.of(
                                "smtp.example.test",
                                "v@example.test",
                                List.of("oncall@example.test", "Someone <ONCALL@example.test>"))
                        .problems(PATH))
                .containsExactly(PATH + ".to[1]: the same address is listed twice");
    }

    @Test
    void theRecipientListIsACopy() {
        List<String> to = new ArrayList<>(List.of("oncall@example.test"));
        EmailSettings s = EmailSettings.of("smtp.example.test", "v@example.test", to);
        to.add("late@example.test");
        assertThat(s.to()).containsExactly("oncall@example.test");
        assertThatThrownBy(() -> s.to().add("x@example.test")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void usernameAndPasswordComeTogetherAndNeverInClearTextOverTheNetwork() {
        assertThat(valid().withCredentials("vigil", SECRET).problems(PATH)).isEmpty();
        assertThat(valid().withCredentials("vigil", null).problems(PATH))
                .containsExactly(
                        PATH + ".password: required with a username (name the environment variable holding it)");
        assertThat(valid().withCredentials(null, SECRET).problems(PATH))
                .containsExactly(PATH + ".username: required with a password");
        assertThat(valid().withCredentials("vigil", "").problems(PATH))
                .containsExactly(PATH + ".password: must not be empty or contain line breaks or control characters");
        assertThat(valid().withCredentials("vig\r\nil", SECRET).problems(PATH))
                .containsExactly(
                        PATH + ".username: must be 1-320 characters without line breaks or control characters");

        // startTls: none sends the page (and any AUTH) in clear text: only to a relay on this host, with or without
        // credentials
        String clear = PATH + ".startTls: none sends the page in clear text; it is only for a relay on this host"
                + " (localhost, 127.0.0.0/8 or [::1]): use startTls: required";
        assertThat(valid().withStartTls(StartTls.NONE).problems(PATH)).containsExactly(clear);
        assertThat(valid().withStartTls(StartTls.NONE)
                        .withCredentials("vigil", SECRET)
                        .problems(PATH))
                .containsExactly(clear);
        for (String loopback : List.of("localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]")) {
            assertThat(new EmailSettings(
                                    loopback,
                                    25,
                                    StartTls.NONE,
                                    "vigil",
                                    SECRET,
                                    "v@example.test",
                                    List.of("o@example.test"),
                                    null,
                                    null,
                                    null,
                                    null)
                            .problems(PATH))
                    .as(loopback)
                    .isEmpty();
        }
        assertThat(EmailSettings.isLoopback("127.0.0.1.evil.test")).isFalse();
        assertThat(EmailSettings.isLoopback("localhost.evil.test")).isFalse();
        assertThat(EmailSettings.isLoopback("127.0.0.999")).isFalse();
    }

    @Test
    void thePasswordIsInNoProblemAndNotInToString() {
        EmailSettings s = new EmailSettings(
                "smtp.example.test",
                587,
                StartTls.REQUIRED,
                "vigil",
                SECRET + "\n",
                "v@example.test",
                List.of("oncall@example.test", "sre@example.test"),
                null,
                null,
                null,
                null);
        assertThat(s.problems(PATH)).isNotEmpty().noneMatch(p -> p.contains(SECRET));
        assertThatThrownBy(() -> s.requireValid(PATH))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET));
        String text = valid().withCredentials("vigil", SECRET).toString();
        assertThat(text)
                .doesNotContain(SECRET)
                .contains("password=(set)")
                .contains("username=vigil")
                .contains("to=1 recipient(s)")
                .doesNotContain("oncall@example.test");
        assertThat(valid().toString()).contains("password=(none)");
    }

    @Test
    void subjectPrefixMayBeEmptyButNotMultiLine() {
        assertThat(valid().withSubjectPrefix("").problems(PATH)).isEmpty();
        assertThat(valid().withSubjectPrefix("[Vigil prod]").problems(PATH)).isEmpty();
        for (String bad : List.of("[Vigil]\r\nBcc: evil@example.com", "[Vigil]\u0085", "\u202E[Vigil]")) {
            assertThat(valid().withSubjectPrefix(bad).problems(PATH))
                    .as(bad)
                    .containsExactly(PATH
                            + ".subjectPrefix: must be at most 50 characters without line breaks, control or invisible"
                            + " characters");
        }
    }
}
