package dev.vigil.notifier.channel.email;

import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.channel.email.EmailSettings.StartTls;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.schemas.contract.Severity;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SMTP answers GreenMail does not give, from {@link FakeSmtpServer}: how each maps to an outcome, that a refused
 * recipient stops the whole message, that timeouts free the attempt, that STARTTLS checks the certificate and its
 * name before any credential is sent, and that no reason shows the password or the recipient list.
 */
class EmailSmtpFailuresTest {
    static final String FP = "monitor/checkout";
    static final String USER = "vigil";
    static final String PASSWORD = "f4ke-Relay-p@ssword";
    static final List<String> TO = List.of("oncall@example.test", "sre@example.test", "bad@example.test");

    @TempDir
    static Path keys;

    static KeyStore relayCert;
    static KeyStore wrongNameCert;

    FakeSmtpServer fake;
    final List<String> reasons = new ArrayList<>();

    @BeforeAll
    static void certificates() throws Exception {
        relayCert = keyStore("relay", "ip:127.0.0.1");
        wrongNameCert = keyStore("other", "dns:relay.example.test");
    }

    /** A self-signed certificate for {@code san}, made by the JDK's keytool. */
    static KeyStore keyStore(String alias, String san) throws Exception {
        Path file = keys.resolve(alias + ".p12");
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        alias,
                        "-keyalg",
                        "EC",
                        "-groupname",
                        "secp256r1",
                        "-validity",
                        "2",
                        "-dname",
                        "CN=" + alias,
                        "-ext",
                        "SAN=" + san,
                        "-keystore",
                        file.toString(),
                        "-storetype",
                        "PKCS12",
                        "-storepass",
                        "changeit",
                        "-keypass",
                        "changeit")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, "changeit".toCharArray());
        }
        return ks;
    }

    static SSLContext serverTls(KeyStore ks) throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "changeit".toCharArray());
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        return ctx;
    }

    static SSLSocketFactory clientTrusting(KeyStore ks) throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx.getSocketFactory();
    }

    @BeforeEach
    void start() throws IOException {
        fake = new FakeSmtpServer();
    }

    @AfterEach
    void stop() throws IOException {
        fake.close();
        // no reason of any test shows the password, a form of it AUTH sends, or the whole recipient list
        String plain = Base64.getEncoder()
                .encodeToString((USER + "\0" + USER + "\0" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        String login = Base64.getEncoder().encodeToString(PASSWORD.getBytes(StandardCharsets.UTF_8));
        assertThat(reasons).allSatisfy(r -> assertThat(r)
                .doesNotContain(PASSWORD)
                .doesNotContain(plain)
                .doesNotContain(login)
                .doesNotContain("oncall@example.test")
                .doesNotContain("sre@example.test"));
    }

    EmailSettings settings() {
        return new EmailSettings(
                "127.0.0.1",
                fake.port(),
                StartTls.NONE,
                null,
                null,
                "vigil@vigil.test",
                TO,
                null,
                Duration.ofSeconds(2),
                Duration.ofSeconds(5),
                Duration.ofSeconds(15));
    }

    DeliveryOutcome send(EmailSettings s) {
        return send(new EmailNotifier(s, Clock.systemUTC()));
    }

    DeliveryOutcome send(EmailNotifier notifier) {
        DeliveryOutcome o = notifier.send(new Notification(opened(FP, Severity.CRITICAL), "mail", null))
                .block(Duration.ofSeconds(30));
        if (o instanceof DeliveryOutcome.Transient t) {
            reasons.add(t.reason());
        } else if (o instanceof DeliveryOutcome.Permanent p) {
            reasons.add(p.reason());
        }
        return o;
    }

    static String reason(DeliveryOutcome o) {
        if (o instanceof DeliveryOutcome.Transient t) {
            assertThat(t.httpStatus()).isNull();
            return t.reason();
        }
        if (o instanceof DeliveryOutcome.Permanent p) {
            assertThat(p.httpStatus()).isNull();
            return p.reason();
        }
        throw new AssertionError("delivered: " + o);
    }

    String where() {
        return "smtp 127.0.0.1:" + fake.port();
    }

    boolean dataSent() {
        return fake.commands.stream().anyMatch(c -> c.equalsIgnoreCase("DATA"));
    }

    @Test
    void everythingAcceptedIsDelivered() {
        assertThat(send(settings())).isEqualTo(new DeliveryOutcome.Delivered(null, null));
        assertThat(fake.messages).hasSize(1);
        assertThat(fake.commands)
                .contains(
                        "MAIL FROM:<vigil@vigil.test>",
                        "RCPT TO:<oncall@example.test>",
                        "RCPT TO:<sre@example.test>",
                        "RCPT TO:<bad@example.test>",
                        "DATA");
    }

    @Test
    void aRecipientRefusedWith550IsPermanentAndNobodyGetsTheMessage() {
        fake.rcptReply = a -> a.startsWith("bad@")
                ? "550 5.1.1 <" + a + ">: Recipient address rejected: User unknown"
                : "250 2.1.5 OK";
        DeliveryOutcome o = send(settings());
        assertThat(o).isInstanceOf(DeliveryOutcome.Permanent.class);
        assertThat(reason(o))
                .isEqualTo(where() + ": the relay refused 1 of 3 recipient(s); nothing was sent (e.g. 550"
                        + " 5.1.1 <bad@example.test>: Recipient address rejected: User unknown)");
        assertThat(dataSent()).isFalse();
        assertThat(fake.messages).isEmpty();
        assertThat(fake.commands).contains("RSET");
    }

    @Test
    void aRecipientDeferredWith451IsTransientAndNobodyGetsTheMessage() {
        fake.rcptReply = a -> a.startsWith("sre@") ? "451 4.7.1 Greylisted, try again later" : "250 2.1.5 OK";
        DeliveryOutcome o = send(settings());
        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(reason(o))
                .isEqualTo(where() + ": the relay refused 1 of 3 recipient(s); nothing was sent (e.g. 451"
                        + " 4.7.1 Greylisted, try again later)");
        assertThat(((DeliveryOutcome.Transient) o).retryAfter()).isNull();
        assertThat(dataSent()).isFalse();
    }

    @Test
    void rcptCodesMapByClassWith552TreatedAs452() {
        for (String reply :
                List.of("450 4.2.0 Mailbox busy", "452 4.5.3 Too many recipients", "552 5.2.2 Mailbox full")) {
            fake.rcptReply = a -> reply;
            assertThat(send(settings())).as(reply).isInstanceOf(DeliveryOutcome.Transient.class);
        }
        for (String reply : List.of(
                "550 5.1.1 Mailbox unavailable",
                "553 5.1.3 Bad destination mailbox address syntax",
                "554 5.7.1 Relay access denied",
                "551 5.1.6 User not local")) {
            fake.rcptReply = a -> reply;
            assertThat(send(settings())).as(reply).isInstanceOf(DeliveryOutcome.Permanent.class);
        }
        assertThat(fake.messages).isEmpty();
    }

    @Test
    void a5xxAmongDeferredRecipientsMakesItPermanent() {
        fake.rcptReply = a -> a.startsWith("oncall@")
                ? "451 4.3.0 Try later"
                : a.startsWith("bad@") ? "550 5.1.1 No such user" : "250 OK";
        DeliveryOutcome o = send(settings());
        assertThat(o).isInstanceOf(DeliveryOutcome.Permanent.class);
        assertThat(reason(o)).contains("refused 2 of 3 recipient(s)").contains("550 5.1.1 No such user");
    }

    @Test
    void theSenderOrTheMessageRefusedMapsByReplyClass() {
        fake.mailReply = "550 5.7.1 Sender rejected";
        DeliveryOutcome sender = send(settings());
        assertThat(sender).isInstanceOf(DeliveryOutcome.Permanent.class);
        assertThat(reason(sender)).isEqualTo(where() + ": the relay refused the sender: 550 5.7.1 Sender rejected");

        fake.mailReply = "421 4.3.2 Service shutting down";
        assertThat(send(settings())).isInstanceOf(DeliveryOutcome.Transient.class);

        fake.mailReply = "250 OK";
        fake.dataReply = "452 4.3.1 Insufficient system storage";
        assertThat(send(settings())).isInstanceOf(DeliveryOutcome.Transient.class);

        fake.dataReply = "354 go ahead";
        fake.endOfDataReply = "554 5.6.0 Message content rejected";
        DeliveryOutcome content = send(settings());
        assertThat(content).isInstanceOf(DeliveryOutcome.Permanent.class);
        assertThat(reason(content))
                .isEqualTo(where() + ": the relay refused the message: 554 5.6.0 Message content rejected");

        fake.endOfDataReply = "451 4.3.0 Queue full, try later";
        assertThat(send(settings())).isInstanceOf(DeliveryOutcome.Transient.class);
    }

    @Test
    void aRelayHangingUpMidTransactionIsTransient() {
        fake.mailReply = null;
        DeliveryOutcome o = send(settings());
        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(fake.messages).isEmpty();

        // after the data the outcome is unknown: sent again (at least once), never dropped
        fake.mailReply = "250 OK";
        fake.endOfDataReply = null;
        assertThat(send(settings())).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(fake.messages).hasSize(1);
    }

    @Test
    void aBadGreetingMapsByReplyClass() {
        fake.greeting = "421 4.3.2 Too busy, try later";
        DeliveryOutcome busy = send(settings());
        assertThat(busy).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(reason(busy)).contains("421 4.3.2 Too busy");

        fake.greeting = "554 5.7.1 Your address is not welcome";
        assertThat(send(settings())).isInstanceOf(DeliveryOutcome.Permanent.class);
    }

    @Test
    void authenticationFailureIsPermanentAndAnEchoedSecretIsScrubbed() {
        fake.authMechanisms = "PLAIN";
        fake.authReply = "535 5.7.8 Authentication credentials invalid for {last}";
        DeliveryOutcome plain = send(settings().withCredentials(USER, PASSWORD));
        assertThat(plain).isInstanceOf(DeliveryOutcome.Permanent.class);
        assertThat(reason(plain))
                .isEqualTo(where() + ": authentication failed: 535 5.7.8 Authentication credentials"
                        + " invalid for AUTH PLAIN *** (check the user name and password)");

        fake.authMechanisms = "LOGIN";
        DeliveryOutcome login = send(settings().withCredentials(USER, PASSWORD));
        assertThat(reason(login))
                .isEqualTo(where() + ": authentication failed: 535 5.7.8 Authentication credentials"
                        + " invalid for *** (check the user name and password)");

        fake.authMechanisms = "PLAIN LOGIN";
        fake.authReply = "535 5.7.8 wrong password '" + PASSWORD + "' for " + USER;
        DeliveryOutcome clear = send(settings().withCredentials(USER, PASSWORD));
        assertThat(reason(clear)).contains("wrong password '***' for vigil");
        assertThat(dataSent()).isFalse();
    }

    @Test
    void aTemporaryAuthenticationFailureIsTransient() {
        fake.authMechanisms = "PLAIN LOGIN";
        fake.authReply = "454 4.7.0 Temporary authentication failure";
        DeliveryOutcome o = send(settings().withCredentials(USER, PASSWORD));
        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(reason(o))
                .isEqualTo(where() + ": temporary authentication failure: 454 4.7.0 Temporary"
                        + " authentication failure");
    }

    @Test
    void connectionRefusedIsTransient() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        DeliveryOutcome o = send(settings().withPort(port));
        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(reason(o))
                .startsWith("smtp 127.0.0.1:" + port + ": could not talk to the relay (")
                .contains("Connection refused");
    }

    @Test
    void anUnknownHostIsTransient() {
        EmailSettings s = settings();
        DeliveryOutcome o = send(new EmailSettings(
                "no-such-host.invalid",
                s.port(),
                StartTls.REQUIRED,
                null,
                null,
                s.from(),
                s.to(),
                null,
                s.connectTimeout(),
                s.readTimeout(),
                s.sendTimeout()));
        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(reason(o)).contains("unknown host");
    }

    @Test
    void aSilentRelayTimesOutOnTheReadTimeout() {
        fake.greeting = null;
        EmailSettings s =
                settings().withTimeouts(Duration.ofSeconds(2), Duration.ofMillis(300), Duration.ofSeconds(15));
        DeliveryOutcome o = send(s);
        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(reason(o)).contains("timed out");
    }

    @Test
    void theSendTimeoutAbandonsTheAttemptAndClosesItsConnection() throws InterruptedException {
        fake.greeting = null;
        EmailSettings s =
                settings().withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(20), Duration.ofMillis(500));
        long start = System.nanoTime();
        DeliveryOutcome o = send(s);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(reason(o))
                .isEqualTo(where() + ": no answer within the send timeout of PT0.5S; the attempt was" + " abandoned");
        // the blocked read was ended by closing the socket, long before its 20 s read timeout
        assertThat(fake.clientGone.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aCancelledSendClosesItsConnection() throws InterruptedException {
        fake.greeting = null;
        EmailNotifier n = new EmailNotifier(
                settings().withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(20), Duration.ofSeconds(60)),
                Clock.systemUTC());
        // the pipeline's own send timeout cancels the adapter's Mono
        DeliveryOutcome o = n.send(new Notification(opened(FP, Severity.CRITICAL), "mail", null))
                .timeout(Duration.ofMillis(400))
                .onErrorReturn(new DeliveryOutcome.Transient("cancelled", null, null))
                .block(Duration.ofSeconds(10));
        assertThat(o).isEqualTo(new DeliveryOutcome.Transient("cancelled", null, null));
        assertThat(fake.clientGone.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void startTlsRequiredUpgradesBeforeTheCredentialsAndTheMessage() throws Exception {
        fake.tls = serverTls(relayCert);
        fake.authMechanisms = "PLAIN LOGIN";
        EmailSettings s = settings().withStartTls(StartTls.REQUIRED).withCredentials(USER, PASSWORD);
        DeliveryOutcome o = send(new EmailNotifier(s, Clock.systemUTC(), clientTrusting(relayCert)));
        assertThat(o).isEqualTo(new DeliveryOutcome.Delivered(null, null));
        assertThat(fake.commands.get(1)).isEqualTo("STARTTLS");
        assertThat(fake.tlsAtAuth).isTrue();
        assertThat(fake.tlsAtMail).isTrue();
        assertThat(fake.messages).hasSize(1);
        assertThat(fake.messages.get(0)).contains("Subject: [Vigil] [CRITICAL] opened: checkout-api is down");
    }

    @Test
    void anUntrustedCertificateIsPermanentAndNoCredentialIsSent() throws Exception {
        fake.tls = serverTls(relayCert);
        fake.authMechanisms = "PLAIN LOGIN";
        // the JVM's default trust store does not know the relay's self-signed certificate
        DeliveryOutcome o = send(settings().withStartTls(StartTls.REQUIRED).withCredentials(USER, PASSWORD));
        assertThat(o).isInstanceOf(DeliveryOutcome.Permanent.class);
        assertThat(reason(o))
                .startsWith(where() + ": the relay's TLS certificate is not trusted for 127.0.0.1;"
                        + " nothing was sent (");
        assertThat(fake.tlsAtAuth).isNull();
        assertThat(fake.tlsAtMail).isNull();
        assertThat(fake.messages).isEmpty();
    }

    @Test
    void aTrustedCertificateForAnotherNameIsPermanentAndNoCredentialIsSent() throws Exception {
        fake.tls = serverTls(wrongNameCert);
        fake.authMechanisms = "PLAIN LOGIN";
        EmailSettings s = settings().withStartTls(StartTls.REQUIRED).withCredentials(USER, PASSWORD);
        DeliveryOutcome o = send(new EmailNotifier(s, Clock.systemUTC(), clientTrusting(wrongNameCert)));
        assertThat(o).isInstanceOf(DeliveryOutcome.Permanent.class);
        assertThat(reason(o)).startsWith(where() + ": the relay's TLS certificate is not trusted for 127.0.0.1");
        assertThat(fake.tlsAtAuth).isNull();
        assertThat(fake.messages).isEmpty();
    }

    @Test
    void startTlsRequiredAgainstARelayWithoutItSendsNoCredential() {
        fake.authMechanisms = "PLAIN LOGIN";
        DeliveryOutcome o = send(settings().withStartTls(StartTls.REQUIRED).withCredentials(USER, PASSWORD));
        assertThat(o).isInstanceOf(DeliveryOutcome.Permanent.class);
        assertThat(reason(o)).contains("does not offer STARTTLS");
        assertThat(fake.tlsAtAuth).isNull();
        assertThat(fake.commands)
                .noneMatch(c -> c.toUpperCase(java.util.Locale.ROOT).startsWith("AUTH"));
    }

    @Test
    void invalidSettingsAreRefusedAtConstruction() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new EmailNotifier(
                        EmailSettings.of("smtp.example.test", "vigil@vigil.test", List.of()), Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid e-mail channel settings: email.to: at least one recipient is required");
    }
}
