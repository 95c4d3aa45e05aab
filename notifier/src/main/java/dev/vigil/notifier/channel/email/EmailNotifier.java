package dev.vigil.notifier.channel.email;

import dev.vigil.notifier.channel.template.MessageTemplate;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.notifier.core.Text;
import jakarta.mail.AuthenticationFailedException;
import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.SocketFactory;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSocketFactory;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;
import org.eclipse.angus.mail.smtp.SMTPSenderFailedException;
import org.eclipse.angus.mail.smtp.SMTPTransport;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * E-mail over SMTP (Jakarta Mail): one message per alert event ({@link EmailMessage}) to every configured recipient,
 * on a connection of its own. SMTP is blocking, so each send runs on {@link Schedulers#boundedElastic()}, never on an
 * event loop, bounded by the connect, read and write timeouts and by {@link EmailSettings#sendTimeout()} overall;
 * when that passes (or the pipeline cancels the send) the attempt's socket is closed, so no thread stays blocked.
 *
 * <p>Security: with {@code startTls: required} (the default) the session is upgraded with STARTTLS before the
 * credentials or the message are sent, to a certificate the JVM trusts whose name matches the host
 * ({@code mail.smtp.ssl.checkserveridentity}); a relay that does not offer STARTTLS gets nothing. AUTH uses PLAIN or
 * LOGIN. The password never appears in a reason (it is also scrubbed from anything a server echoes).
 *
 * <p>All or nothing: a message is handed over only when the relay accepts every recipient
 * ({@code mail.smtp.sendpartial=false}); otherwise the transaction is reset, nobody gets it, and the outcome says
 * why. A retry therefore never mails a recipient twice, and one bad address is not hidden by the others'
 * success: it dead-letters and raises the delivery-failing alert on the other channels.
 *
 * <p>Outcomes:
 * <ul>
 *   <li>accepted by the relay: {@code Delivered(null, null)};</li>
 *   <li>a 4xx reply (421 service unavailable, 450/451/452 at RCPT or after the data, 454 temporary authentication
 *       failure), and 552 at RCPT (RFC 5321 4.5.3.1.10: treated as 452): transient;</li>
 *   <li>a 5xx reply (550 mailbox unavailable, 553, 554, 530, 535 authentication failed, 5xx to MAIL FROM or to the
 *       data): permanent; when recipients were refused with both, permanent (a retry cannot reach the 5xx one);</li>
 *   <li>connection refused, unknown host, timeout, any other I/O error: transient;</li>
 *   <li>no STARTTLS offered while it is required, or a TLS certificate that is not trusted for the host: permanent
 *       (a configuration or security problem, which retrying would only hide; it must page someone through the
 *       delivery-failing alert);</li>
 *   <li>{@link EmailSettings#sendTimeout()} passed: transient.</li>
 * </ul>
 * The SMTP reply code is in the reason (the outcome's status is for HTTP statuses and stays null).
 */
public final class EmailNotifier implements Notifier {
    static final String STARTTLS_MISSING = "STARTTLS is required but host does not support STARTTLS";
    private static final int REPLY_MAX = 200;

    private final EmailSettings settings;
    private final Clock clock;
    private final List<String> secrets;
    private final SSLSocketFactory tlsSockets;
    private final Messages messages;
    private final boolean groups;

    /** Builds the message one send hands to the relay. */
    @FunctionalInterface
    public interface Messages {
        MimeMessage build(Notification n, EmailSettings settings, Session session, Instant date)
                throws MessagingException;
    }

    /**
     * @throws IllegalArgumentException when the settings have a problem ({@link EmailSettings#problems}); the
     *                                  wiring should have reported those with their key paths already
     */
    public EmailNotifier(EmailSettings settings, Clock clock) {
        this(settings, clock, (String) null);
    }

    /**
     * @param template the subject's template after the prefix (see {@link EmailMessage#DEFAULT_TEMPLATE}), or null
     *                 for today's subject
     */
    public EmailNotifier(EmailSettings settings, Clock clock, String template) {
        this(settings, clock, null, alerts(template));
    }

    /**
     * With the TLS sockets for STARTTLS made by {@code tlsSockets} (trusting a test certificate) instead of the JVM's
     * default; the host name is checked either way. Tests only.
     */
    EmailNotifier(EmailSettings settings, Clock clock, SSLSocketFactory tlsSockets) {
        this(settings, clock, tlsSockets, alerts(null));
    }

    /** Sends the messages {@code messages} builds (the daily digest's) over the same SMTP path as alerts. */
    public EmailNotifier(EmailSettings settings, Clock clock, Messages messages) {
        this(settings, clock, null, messages);
    }

    EmailNotifier(EmailSettings settings, Clock clock, SSLSocketFactory tlsSockets, Messages messages) {
        this.settings = settings.requireValid("email");
        this.clock = clock;
        this.secrets = secretForms(settings);
        this.tlsSockets = tlsSockets;
        this.messages = messages;
        this.groups = messages instanceof AlertMessages;
    }

    /** The messages of alerts (not the digest's): these show group messages. */
    private interface AlertMessages extends Messages {}

    /** An alert's message ({@link EmailMessage}), its subject from {@code template} when one is given. */
    private static Messages alerts(String template) {
        MessageTemplate subject = template == null ? null : EmailMessage.template(template);
        return (AlertMessages) (n, s, session, date) -> n.isGroup()
                ? EmailMessage.group(n.group(), n.groupId(), s, session, date)
                : EmailMessage.build(n.event(), s, session, date, subject);
    }

    @Override
    public boolean rendersGroups() {
        // alert mail shows a group message; the digest's sender is given none
        return groups;
    }

    @Override
    public Mono<DeliveryOutcome> send(Notification n) {
        return Mono.defer(() -> {
            Attempt attempt = new Attempt();
            return Mono.fromCallable(() -> attempt.run(n))
                    .subscribeOn(Schedulers.boundedElastic())
                    .doOnCancel(attempt::abort)
                    .timeout(
                            settings.sendTimeout(),
                            Mono.fromSupplier(() -> new DeliveryOutcome.Transient(
                                    where() + ": no answer within the send timeout of " + settings.sendTimeout()
                                            + "; the attempt was abandoned",
                                    null,
                                    null)))
                    .onErrorResume(e ->
                            Mono.just(new DeliveryOutcome.Transient(scrub(where() + ": " + describe(e)), null, null)));
        });
    }

    @Override
    public String toString() {
        return "EmailNotifier[" + settings + "]";
    }

    /** The Jakarta Mail session properties (without the per-send socket factory). */
    Properties properties() {
        Properties p = new Properties();
        p.setProperty("mail.transport.protocol", "smtp");
        p.setProperty("mail.smtp.host", settings.host());
        p.setProperty("mail.smtp.port", String.valueOf(settings.port()));
        p.setProperty("mail.smtp.from", settings.fromAddress().getAddress()); // envelope sender
        boolean tls = settings.startTls() == EmailSettings.StartTls.REQUIRED;
        p.setProperty("mail.smtp.starttls.enable", String.valueOf(tls));
        p.setProperty("mail.smtp.starttls.required", String.valueOf(tls));
        p.setProperty("mail.smtp.ssl.checkserveridentity", "true");
        p.setProperty("mail.smtp.ssl.protocols", "TLSv1.3 TLSv1.2");
        p.setProperty("mail.smtp.auth", String.valueOf(settings.authenticates()));
        p.setProperty("mail.smtp.auth.mechanisms", "PLAIN LOGIN");
        p.setProperty(
                "mail.smtp.connectiontimeout",
                String.valueOf(settings.connectTimeout().toMillis()));
        p.setProperty("mail.smtp.timeout", String.valueOf(settings.readTimeout().toMillis()));
        p.setProperty(
                "mail.smtp.writetimeout", String.valueOf(settings.readTimeout().toMillis()));
        p.setProperty("mail.smtp.sendpartial", "false");
        p.setProperty("mail.smtp.quitwait", "false");
        return p;
    }

    private String where() {
        return "smtp " + settings.host() + ":" + settings.port();
    }

    /** One send: its own session, transport and socket, so it can be aborted from another thread. */
    private final class Attempt {
        private final CapturingSocketFactory sockets = new CapturingSocketFactory();

        DeliveryOutcome run(Notification n) {
            Properties p = properties();
            p.put("mail.smtp.socketFactory", sockets);
            p.setProperty("mail.smtp.socketFactory.fallback", "false");
            if (tlsSockets != null) {
                p.put("mail.smtp.ssl.socketFactory", tlsSockets);
            }
            Session session = Session.getInstance(p);
            MimeMessage message;
            try {
                message = messages.build(n, settings, session, clock.instant());
            } catch (MessagingException | RuntimeException ex) {
                return new DeliveryOutcome.Permanent(
                        scrub(where() + ": could not build the message: " + describe(ex)), null);
            }
            Transport transport = null;
            try {
                transport = session.getTransport("smtp");
                transport.connect(settings.host(), settings.port(), settings.username(), settings.password());
                transport.sendMessage(message, message.getAllRecipients());
                return new DeliveryOutcome.Delivered(null, null);
            } catch (MessagingException | RuntimeException ex) {
                int last = transport instanceof SMTPTransport t ? t.getLastReturnCode() : -1;
                return classify(ex, last);
            } finally {
                closeQuietly(transport);
                sockets.close();
            }
        }

        void abort() {
            sockets.abort();
        }
    }

    private static void closeQuietly(Transport t) {
        if (t != null) {
            try {
                t.close();
            } catch (MessagingException | RuntimeException ignored) {
                // the outcome is already decided; the socket is closed below either way
            }
        }
    }

    /** What an SMTP failure means for the delivery. {@code lastReplyCode}: the transport's last reply (-1: none). */
    DeliveryOutcome classify(Exception ex, int lastReplyCode) {
        List<Throwable> chain = chain(ex);
        String w = where();
        if (chain.stream()
                .anyMatch(t -> t instanceof CertificateException
                        || t instanceof SSLPeerUnverifiedException
                        || String.valueOf(t.getMessage()).startsWith("Server identity does not match"))) {
            return permanent(w + ": the relay's TLS certificate is not trusted for " + settings.host()
                    + "; nothing was sent (" + describe(rootCause(ex)) + ")");
        }
        if (settings.startTls() == EmailSettings.StartTls.REQUIRED
                && chain.stream().anyMatch(t -> String.valueOf(t.getMessage()).startsWith(STARTTLS_MISSING))) {
            return permanent(w + ": the relay does not offer STARTTLS, which startTls: required demands; nothing was"
                    + " sent (use a relay with TLS, or startTls: none for a relay on this host only)");
        }
        if (ex instanceof AuthenticationFailedException) {
            String reply = reply(ex.getMessage());
            if (is4xx(lastReplyCode) || reply.startsWith("4")) {
                return transientOutcome(w + ": temporary authentication failure: " + reply);
            }
            return permanent(w + ": authentication failed" + (reply.isEmpty() ? "" : ": " + reply)
                    + " (check the user name and password)");
        }
        List<SMTPAddressFailedException> refused = new ArrayList<>();
        SendFailedException command = null;
        for (Throwable t : chain) {
            if (t instanceof SMTPAddressFailedException a) {
                refused.add(a);
            } else if ((t instanceof SMTPSendFailedException || t instanceof SMTPSenderFailedException)
                    && command == null) {
                command = (SendFailedException) t;
            }
        }
        if (!refused.isEmpty()) {
            return recipientsRefused(refused);
        }
        if (command != null) {
            int code = command instanceof SMTPSendFailedException s
                    ? s.getReturnCode()
                    : ((SMTPSenderFailedException) command).getReturnCode();
            String cmd = command instanceof SMTPSendFailedException s
                    ? s.getCommand()
                    : ((SMTPSenderFailedException) command).getCommand();
            String what = cmd != null && cmd.regionMatches(true, 0, "MAIL FROM", 0, 9) ? "the sender" : "the message";
            return byCode(code, w + ": the relay refused " + what + ": " + reply(command.getMessage()));
        }
        IOException io = (IOException)
                chain.stream().filter(t -> t instanceof IOException).findFirst().orElse(null);
        if (io != null) {
            String what = io instanceof UnknownHostException
                    ? "unknown host"
                    : io instanceof SocketTimeoutException ? "timed out" : "could not talk to the relay";
            return transientOutcome(w + ": " + what + " (" + describe(rootCause(ex)) + ")");
        }
        if (is4xx(lastReplyCode) || is5xx(lastReplyCode)) {
            return byCode(lastReplyCode, w + ": " + reply(ex.getMessage()));
        }
        return transientOutcome(w + ": " + describe(ex));
    }

    /** Every recipient refused with a code: permanent if any 5xx (but 552, a full mailbox: RFC 5321 says 452). */
    private DeliveryOutcome recipientsRefused(List<SMTPAddressFailedException> refused) {
        SMTPAddressFailedException permanent = null;
        SMTPAddressFailedException first = refused.get(0);
        for (SMTPAddressFailedException a : refused) {
            if (is5xx(a.getReturnCode()) && a.getReturnCode() != 552) {
                permanent = a;
                break;
            }
        }
        SMTPAddressFailedException shown = permanent != null ? permanent : first;
        String reason = where() + ": the relay refused " + refused.size() + " of "
                + settings.to().size() + " recipient(s); nothing was sent (e.g. " + reply(shown.getMessage()) + ")";
        if (permanent != null) {
            return permanent(reason);
        }
        return transientOutcome(reason);
    }

    /** 5xx: permanent; 4xx, and -1 (the relay hung up without a reply): transient. */
    private DeliveryOutcome byCode(int code, String reason) {
        return is5xx(code) ? permanent(reason) : transientOutcome(reason);
    }

    private DeliveryOutcome.Permanent permanent(String reason) {
        return new DeliveryOutcome.Permanent(scrub(reason), null);
    }

    private DeliveryOutcome.Transient transientOutcome(String reason) {
        return new DeliveryOutcome.Transient(scrub(reason), null, null);
    }

    private static boolean is4xx(int code) {
        return code >= 400 && code < 500;
    }

    private static boolean is5xx(int code) {
        return code >= 500 && code < 600;
    }

    /** A server reply (or exception message) on one short line; secrets go before it is shortened. */
    private String reply(String s) {
        return s == null ? "" : Text.truncate(EmailMessage.headerText(scrub(s)), REPLY_MAX);
    }

    private String describe(Throwable e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + reply(m));
    }

    /** The exception, its causes and Jakarta Mail's next exceptions, each once. */
    private static List<Throwable> chain(Throwable ex) {
        List<Throwable> out = new ArrayList<>();
        Set<Throwable> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> todo = new ArrayList<>(List.of(ex));
        while (!todo.isEmpty() && out.size() < 64) {
            Throwable t = todo.remove(0);
            if (t == null || !seen.add(t)) {
                continue;
            }
            out.add(t);
            if (t instanceof MessagingException m) {
                todo.add(m.getNextException());
            }
            todo.add(t.getCause());
        }
        return out;
    }

    /** The deepest cause (Jakarta Mail's next exception is its cause). */
    private static Throwable rootCause(Throwable ex) {
        Throwable t = ex;
        for (int i = 0; i < 32 && t.getCause() != null && t.getCause() != t; i++) {
            t = t.getCause();
        }
        return t;
    }

    /** The password and the forms AUTH sends it in, never to be shown. */
    private static List<String> secretForms(EmailSettings s) {
        List<String> forms = new ArrayList<>();
        if (s.password() != null && !s.password().isEmpty()) {
            Base64.Encoder b64 = Base64.getEncoder();
            forms.add(b64.encodeToString(("\0" + s.username() + "\0" + s.password()).getBytes(StandardCharsets.UTF_8)));
            forms.add(b64.encodeToString(
                    (s.username() + "\0" + s.username() + "\0" + s.password()).getBytes(StandardCharsets.UTF_8)));
            forms.add(b64.encodeToString(s.password().getBytes(StandardCharsets.UTF_8)));
            forms.add(s.password());
        }
        return forms;
    }

    /** Removes the password (and its AUTH encodings) from a reason, whatever a server or a library put in it. */
    String scrub(String reason) {
        String r = reason;
        for (String secret : secrets) {
            r = r.replace(secret, "***");
        }
        return r;
    }

    /**
     * Creates the attempt's plain socket and keeps it, so that a timeout or a cancellation can close it from another
     * thread: a thread blocked reading or writing it (STARTTLS layers TLS on top of it) then fails at once.
     */
    private static final class CapturingSocketFactory extends SocketFactory {
        private final AtomicReference<Socket> socket = new AtomicReference<>();
        private volatile boolean aborted;

        @Override
        public Socket createSocket() throws IOException {
            Socket s = new Socket();
            socket.set(s);
            if (aborted) {
                s.close();
            }
            return s;
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            Socket s = createSocket();
            s.connect(new InetSocketAddress(host, port));
            return s;
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
            Socket s = createSocket();
            s.bind(new InetSocketAddress(localHost, localPort));
            s.connect(new InetSocketAddress(host, port));
            return s;
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            Socket s = createSocket();
            s.connect(new InetSocketAddress(host, port));
            return s;
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
                throws IOException {
            Socket s = createSocket();
            s.bind(new InetSocketAddress(localAddress, localPort));
            s.connect(new InetSocketAddress(address, port));
            return s;
        }

        void abort() {
            aborted = true;
            close();
        }

        void close() {
            Socket s = socket.get();
            if (s != null) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing is all we wanted
                }
            }
        }
    }
}
