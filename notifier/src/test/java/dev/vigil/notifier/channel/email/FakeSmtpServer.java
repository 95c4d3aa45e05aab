package dev.vigil.notifier.channel.email;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A scripted SMTP server on a loopback port, for the answers GreenMail does not give: refused recipients (550, 451,
 * 552), a refused message, a bad greeting, authentication failures (echoing what it got), STARTTLS with a given
 * certificate, or silence. One connection at a time. Test fixture only; the adapter never speaks SMTP itself.
 */
final class FakeSmtpServer implements AutoCloseable {
    private static final Pattern RCPT = Pattern.compile("RCPT TO:\\s*<([^>]*)>.*", Pattern.CASE_INSENSITIVE);

    /** Greeting; null: accept the connection and never say anything. */
    volatile String greeting = "220 fake.test ESMTP ready";
    /** Offered with STARTTLS when set. */
    volatile SSLContext tls;
    /** Mechanisms offered ("PLAIN LOGIN"); null: no AUTH. */
    volatile String authMechanisms;
    /** The final AUTH reply; {@code {last}} is replaced with the last line the client sent (to test echoes). */
    volatile String authReply = "235 2.7.0 Authentication successful";
    /** Reply to MAIL FROM; null: hang up instead. */
    volatile String mailReply = "250 2.1.0 OK";
    /** Reply to each RCPT, by recipient address. */
    volatile Function<String, String> rcptReply = a -> "250 2.1.5 OK";

    volatile String dataReply = "354 End data with <CR><LF>.<CR><LF>";
    /** Reply after the message; null: hang up instead. */
    volatile String endOfDataReply = "250 2.0.0 Queued";

    final List<String> commands = new CopyOnWriteArrayList<>();
    final List<String> messages = new CopyOnWriteArrayList<>();
    /** Whether TLS was on when the client sent AUTH and MAIL FROM (null: the command never came). */
    volatile Boolean tlsAtAuth;

    volatile Boolean tlsAtMail;
    final CountDownLatch clientGone = new CountDownLatch(1);

    private final ServerSocket server;
    private final Thread thread;
    private volatile Socket current;

    FakeSmtpServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        thread = new Thread(this::serve, "fake-smtp-" + server.getLocalPort());
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return server.getLocalPort();
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                current = s;
                converse(s);
            } catch (IOException e) {
                // closed by the client, the test, or the server: the next connection or the end
            } finally {
                clientGone.countDown();
            }
        }
    }

    private void converse(Socket socket) throws IOException {
        Socket s = socket;
        BufferedReader in = reader(s);
        OutputStream out = s.getOutputStream();
        if (greeting == null) {
            while (in.readLine() != null) {
                // silent: wait until the client gives up
            }
            return;
        }
        say(out, greeting);
        if (!greeting.startsWith("220")) {
            return;
        }
        boolean secure = false;
        String line;
        while ((line = in.readLine()) != null) {
            commands.add(line);
            String upper = line.toUpperCase(Locale.ROOT);
            if (upper.startsWith("EHLO")) {
                List<String> ext = new ArrayList<>(List.of("fake.test", "8BITMIME"));
                if (tls != null && !secure) {
                    ext.add("STARTTLS");
                }
                if (authMechanisms != null) {
                    ext.add("AUTH " + authMechanisms);
                }
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < ext.size(); i++) {
                    sb.append("250")
                            .append(i == ext.size() - 1 ? " " : "-")
                            .append(ext.get(i))
                            .append("\r\n");
                }
                out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } else if (upper.startsWith("HELO")) {
                say(out, "250 fake.test");
            } else if (upper.startsWith("STARTTLS") && tls != null && !secure) {
                say(out, "220 2.0.0 Ready to start TLS");
                SSLSocket ssl = (SSLSocket) tls.getSocketFactory().createSocket(s, "localhost", s.getPort(), true);
                ssl.setUseClientMode(false);
                try {
                    ssl.startHandshake();
                } catch (IOException e) {
                    commands.add("(TLS handshake failed)");
                    throw e;
                }
                s = ssl;
                current = ssl;
                in = reader(s);
                out = s.getOutputStream();
                secure = true;
            } else if (upper.startsWith("AUTH")) {
                tlsAtAuth = secure;
                String last = line;
                if (upper.equals("AUTH PLAIN")) {
                    say(out, "334 ");
                    last = in.readLine();
                } else if (upper.startsWith("AUTH LOGIN")) {
                    say(out, "334 VXNlcm5hbWU6");
                    last = in.readLine();
                    say(out, "334 UGFzc3dvcmQ6");
                    last = in.readLine();
                }
                say(out, authReply.replace("{last}", String.valueOf(last)));
            } else if (upper.startsWith("MAIL FROM")) {
                tlsAtMail = secure;
                if (mailReply == null) {
                    return; // hang up without a reply
                }
                say(out, mailReply);
            } else if (upper.startsWith("RCPT TO")) {
                Matcher m = RCPT.matcher(line);
                say(out, rcptReply.apply(m.matches() ? m.group(1) : line));
            } else if (upper.equals("DATA")) {
                say(out, dataReply);
                if (dataReply.startsWith("354")) {
                    StringBuilder msg = new StringBuilder();
                    String l;
                    while ((l = in.readLine()) != null && !l.equals(".")) {
                        msg.append(l).append("\r\n");
                    }
                    messages.add(msg.toString());
                    if (endOfDataReply == null) {
                        return; // hang up: the client cannot know whether the message was taken
                    }
                    say(out, endOfDataReply);
                }
            } else if (upper.startsWith("RSET") || upper.startsWith("NOOP")) {
                say(out, "250 2.0.0 OK");
            } else if (upper.startsWith("QUIT")) {
                say(out, "221 2.0.0 Bye");
                return;
            } else {
                say(out, "502 5.5.2 Command not recognized");
            }
        }
    }

    private static BufferedReader reader(Socket s) throws IOException {
        return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
    }

    private static void say(OutputStream out, String reply) throws IOException {
        out.write((reply + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        server.close();
        Socket s = current;
        if (s != null) {
            try {
                s.close();
            } catch (SocketException ignored) {
                // already closed
            }
        }
    }
}
