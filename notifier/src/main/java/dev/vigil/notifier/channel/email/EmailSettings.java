package dev.vigil.notifier.channel.email;

import com.fasterxml.jackson.annotation.JsonCreator;
import dev.vigil.notifier.channel.PlainTransport;
import dev.vigil.notifier.core.Text;
import dev.vigil.schemas.contract.WireEnum;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One e-mail channel: the SMTP relay, how to talk to it, who the mail is from and who gets it.
 *
 * <p>Components left null take their defaults in the constructor: {@code port} 587 (submission),
 * {@code startTls} {@link StartTls#REQUIRED}, {@code subjectPrefix} {@value #DEFAULT_SUBJECT_PREFIX} (an empty
 * prefix means none), {@code connectTimeout} 10 s, {@code readTimeout} 30 s (every socket read and write),
 * {@code sendTimeout} 60 s (the whole send: connect, TLS, authentication, the message). Nothing is checked in the
 * constructor: {@link #problems(String)} lists every problem at once with its key path, the way the routing
 * validator reports a channel; {@link #requireValid(String)} throws them.
 *
 * <p>{@code password} is a secret (read by the wiring from an environment variable): it never appears in
 * {@link #toString()} or in a problem. Nothing crosses the network in clear text: {@code startTls: none} is refused
 * unless the relay is on the loopback interface.
 *
 * @param host           SMTP relay host name or IP literal (required)
 * @param port           SMTP port (default 587)
 * @param startTls       {@code required} (default): the session must be upgraded with STARTTLS to a certificate
 *                       the JVM trusts for {@code host}, else nothing is sent; {@code none}: plain SMTP, only
 *                       for a relay on this host's loopback interface (refused for any other host)
 * @param username       SMTP AUTH user name (optional; given together with the password)
 * @param password       SMTP AUTH password (secret; optional; given together with the user name)
 * @param from           the From address (RFC 822, optionally with a display name: {@code Vigil <vigil@example.com>});
 *                       its address is also the envelope sender
 * @param to             the recipients, 1 to {@value #MAX_RECIPIENTS}, each one address
 * @param subjectPrefix  put before every subject (default {@value #DEFAULT_SUBJECT_PREFIX}; "" for none)
 * @param connectTimeout TCP connect timeout (default 10 s)
 * @param readTimeout    timeout of every socket read and write (default 30 s)
 * @param sendTimeout    the whole send; past it the attempt is abandoned (its socket closed) and counts as transient
 *                       (default 60 s). The pipeline's own {@code delivery.sendTimeout} still applies on top.
 */
public record EmailSettings(
        String host,
        Integer port,
        StartTls startTls,
        String username,
        String password,
        String from,
        List<String> to,
        String subjectPrefix,
        Duration connectTimeout,
        Duration readTimeout,
        Duration sendTimeout) {

    public static final int DEFAULT_PORT = 587;
    public static final String DEFAULT_SUBJECT_PREFIX = "[Vigil]";
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_SEND_TIMEOUT = Duration.ofSeconds(60);
    public static final int MAX_RECIPIENTS = 50;
    public static final int SUBJECT_PREFIX_MAX = 50;
    static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);
    private static final int HOST_MAX = 253;
    private static final int TEXT_MAX = 320;
    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?");
    private static final Pattern IP_V6 = Pattern.compile("\\[?[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*]?");

    /** Whether the SMTP session must be upgraded to TLS before anything (credentials, the message) is sent. */
    public enum StartTls implements WireEnum {
        /** STARTTLS is mandatory; a relay that does not offer it gets nothing. */
        REQUIRED,
        /** Plain SMTP: only for a relay on this host's loopback interface (a sidecar in the same pod). */
        NONE;

        @JsonCreator
        public static StartTls fromWire(String value) {
            return WireEnum.parse(StartTls.class, value);
        }
    }

    public EmailSettings {
        port = port == null ? DEFAULT_PORT : port;
        startTls = startTls == null ? StartTls.REQUIRED : startTls;
        subjectPrefix = subjectPrefix == null ? DEFAULT_SUBJECT_PREFIX : subjectPrefix;
        connectTimeout = connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout;
        readTimeout = readTimeout == null ? DEFAULT_READ_TIMEOUT : readTimeout;
        sendTimeout = sendTimeout == null ? DEFAULT_SEND_TIMEOUT : sendTimeout;
        // an unmodifiable copy that keeps null elements, so problems() can name them instead of a constructor NPE
        to = to == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(to));
    }

    /** The settings with every default and only the required parts: relay, sender, recipients. */
    public static EmailSettings of(String host, String from, List<String> to) {
        return new EmailSettings(host, null, null, null, null, from, to, null, null, null, null);
    }

    public EmailSettings withStartTls(StartTls mode) {
        return new EmailSettings(
                host,
                port,
                mode,
                username,
                password,
                from,
                to,
                subjectPrefix,
                connectTimeout,
                readTimeout,
                sendTimeout);
    }

    public EmailSettings withPort(int p) {
        return new EmailSettings(
                host,
                p,
                startTls,
                username,
                password,
                from,
                to,
                subjectPrefix,
                connectTimeout,
                readTimeout,
                sendTimeout);
    }

    public EmailSettings withCredentials(String user, String secret) {
        return new EmailSettings(
                host, port, startTls, user, secret, from, to, subjectPrefix, connectTimeout, readTimeout, sendTimeout);
    }

    public EmailSettings withSubjectPrefix(String prefix) {
        return new EmailSettings(
                host, port, startTls, username, password, from, to, prefix, connectTimeout, readTimeout, sendTimeout);
    }

    public EmailSettings withTimeouts(Duration connect, Duration read, Duration send) {
        return new EmailSettings(
                host, port, startTls, username, password, from, to, subjectPrefix, connect, read, send);
    }

    /** True when SMTP AUTH is configured. */
    public boolean authenticates() {
        return username != null;
    }

    /**
     * Every problem, one line each, prefixed with {@code keyPath} (e.g. {@code "routing.yaml: channels.mail"} gives
     * {@code "routing.yaml: channels.mail.to[2]: must be one e-mail address …"}). Empty when the settings are
     * usable. No message echoes a value: the password is secret, and addresses need not be repeated in logs.
     */
    public List<String> problems(String keyPath) {
        List<String> problems = new ArrayList<>();
        String path = keyPath == null || keyPath.isEmpty() ? "" : keyPath + ".";
        if (host == null || host.isBlank()) {
            problems.add(path + "host: required: the SMTP relay's host name or IP address");
        } else if (host.length() > HOST_MAX
                || !(HOST_NAME.matcher(host).matches() || IP_V6.matcher(host).matches())) {
            problems.add(path + "host: must be a host name or an IP address (no scheme, port, spaces or control"
                    + " characters)");
        }
        if (port < 1 || port > 65_535) {
            problems.add(path + "port: must be between 1 and 65535 (587 for submission with STARTTLS)");
        }
        boolean hasUser = username != null;
        boolean hasPassword = password != null;
        if (hasUser) {
            if (username.isBlank() || username.length() > TEXT_MAX || hasControlOrInvisible(username)) {
                problems.add(path + "username: must be 1-" + TEXT_MAX + " characters without line breaks or control"
                        + " characters");
            }
            if (!hasPassword) {
                problems.add(path + "password: required with a username (name the environment variable holding it)");
            }
        }
        if (hasPassword) {
            if (password.isEmpty() || hasControlOrInvisible(password)) {
                problems.add(path + "password: must not be empty or contain line breaks or control characters");
            }
            if (!hasUser) {
                problems.add(path + "username: required with a password");
            }
        }
        if (startTls == StartTls.NONE && host != null && !isLoopback(host)) {
            // the page (what is down, links, who is on call) and any credentials would cross the network in clear
            problems.add(path + "startTls: none sends the page in clear text; it is only for a relay on this host ("
                    + PlainTransport.LOOPBACK_HOSTS + "): use startTls: required");
        }
        checkAddress(path + "from", from, problems);
        if (to.isEmpty()) {
            problems.add(path + "to: at least one recipient is required");
        } else if (to.size() > MAX_RECIPIENTS) {
            problems.add(path + "to: at most " + MAX_RECIPIENTS + " recipients (use a distribution list)");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < Math.min(to.size(), MAX_RECIPIENTS + 1); i++) {
            InternetAddress a = checkAddress(path + "to[" + i + "]", to.get(i), problems);
            if (a != null && !seen.add(a.getAddress().toLowerCase(Locale.ROOT))) {
                problems.add(path + "to[" + i + "]: the same address is listed twice");
            }
        }
        if (subjectPrefix.length() > SUBJECT_PREFIX_MAX || hasControlOrInvisible(subjectPrefix)) {
            problems.add(path + "subjectPrefix: must be at most " + SUBJECT_PREFIX_MAX + " characters without line"
                    + " breaks, control or invisible characters");
        }
        checkTimeout(path + "connectTimeout", connectTimeout, problems);
        checkTimeout(path + "readTimeout", readTimeout, problems);
        checkTimeout(path + "sendTimeout", sendTimeout, problems);
        return problems;
    }

    /** These settings, or an {@link IllegalArgumentException} listing every problem with its key path. */
    public EmailSettings requireValid(String keyPath) {
        List<String> problems = problems(keyPath);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid e-mail channel settings: " + String.join("; ", problems));
        }
        return this;
    }

    /** The From address, parsed (call on valid settings). */
    InternetAddress fromAddress() {
        return parse(from);
    }

    /** The recipients, parsed (call on valid settings). */
    InternetAddress[] toAddresses() {
        return to.stream().map(EmailSettings::parse).toArray(InternetAddress[]::new);
    }

    private static InternetAddress parse(String address) {
        try {
            return new InternetAddress(address, true);
        } catch (AddressException e) {
            throw new IllegalStateException("address was validated", e);
        }
    }

    /** The parsed address, or null after adding a problem. Refuses CR/LF (header injection) before parsing. */
    private static InternetAddress checkAddress(String path, String value, List<String> problems) {
        String rule = ": must be one e-mail address such as oncall@example.com or \"Vigil <vigil@example.com>\"";
        if (value == null || value.isBlank()) {
            problems.add(path + ": required" + rule);
            return null;
        }
        if (value.length() > TEXT_MAX || hasControlOrInvisible(value)) {
            problems.add(path + rule + ", at most " + TEXT_MAX + " characters, without line breaks or control"
                    + " characters");
            return null;
        }
        try {
            InternetAddress a = new InternetAddress(value, true);
            String addr = a.getAddress();
            if (a.isGroup() || addr == null || addr.indexOf('@') <= 0 || addr.endsWith("@")) {
                problems.add(path + rule);
                return null;
            }
            return a;
        } catch (AddressException e) {
            problems.add(path + rule);
            return null;
        }
    }

    private static void checkTimeout(String path, Duration d, List<String> problems) {
        if (d.isNegative() || d.isZero() || d.compareTo(MAX_TIMEOUT) > 0) {
            problems.add(path + ": must be positive and at most " + MAX_TIMEOUT.toMinutes() + " minutes");
        }
    }

    /** CR, LF and every other control character (C0, DEL, C1), line and paragraph separators, bidi and zero-width. */
    static boolean hasControlOrInvisible(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                return true;
            }
        }
        return Text.hasInvisible(s);
    }

    /** {@code localhost}, 127.0.0.0/8 or ::1 written literally: no name is resolved. */
    static boolean isLoopback(String host) {
        return PlainTransport.isLoopback(host);
    }

    /** Never the password; the recipients only as a count. */
    @Override
    public String toString() {
        return "EmailSettings[host=" + host + ", port=" + port + ", startTls=" + startTls.wire()
                + ", username=" + (username == null ? "(none)" : username)
                + ", password=" + (password == null ? "(none)" : "(set)")
                + ", from=" + from + ", to=" + to.size() + " recipient(s), subjectPrefix=" + subjectPrefix
                + ", connectTimeout=" + connectTimeout + ", readTimeout=" + readTimeout
                + ", sendTimeout=" + sendTimeout + "]";
    }
}
