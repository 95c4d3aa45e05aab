package dev.vigil.embedded.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One HTTP/1.1 keep-alive connection over a plain socket, for tests that need what JDK and Reactor Netty clients
 * do not expose: several requests written in one go (pipelined), then answers read in order. Answers must carry
 * a Content-Length (every Vigil server sets one).
 */
public final class RawHttpConnection implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    /** An answer: status code, headers (lower-case names) and body. */
    public record Response(int status, Map<String, String> headers, String body) {}

    public RawHttpConnection(int port, int readTimeoutMs) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(readTimeoutMs);
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    /** A bodyless GET. */
    public static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    }

    /** A POST with a body and extra header lines (each {@code "Name: value"}). */
    public static String post(String path, String contentType, String body, String... headerLines) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder("POST ")
                .append(path)
                .append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .append("Content-Type: ")
                .append(contentType)
                .append("\r\nContent-Length: ")
                .append(bytes.length)
                .append("\r\n");
        for (String h : headerLines) {
            sb.append(h).append("\r\n");
        }
        return sb.append("\r\n").append(body).toString();
    }

    /** Writes the requests back to back in one flush. */
    public void send(String... requests) throws IOException {
        out.write(String.join("", requests).getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Reads the next answer; fails with a clear message when none comes within the read timeout. */
    public Response read() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        try {
            while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("the server closed the connection before answering");
                }
                head.write(b);
            }
        } catch (SocketTimeoutException e) {
            throw new SocketTimeoutException(
                    "no answer within the read timeout: the server stopped reading this connection");
        }
        String[] lines = head.toString(StandardCharsets.US_ASCII).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(
                        lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        String length = headers.get("content-length");
        if (length == null) {
            throw new IOException("answer without Content-Length: " + lines[0]);
        }
        return new Response(
                status, headers, new String(in.readNBytes(Integer.parseInt(length)), StandardCharsets.UTF_8));
    }

    /** Writes raw bytes (e.g. half a request head) and flushes. */
    public void sendPartial(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** True once the server has closed the connection (end of stream), false when it is still open at the read timeout. */
    public boolean closedByServer() throws IOException {
        try {
            while (in.read() >= 0) {
                // drain whatever the server still sends before closing
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (java.net.SocketException e) {
            return true; // reset by the server
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
