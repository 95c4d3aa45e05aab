package dev.vigil.probe.probe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** A loopback TCP server that runs one behaviour per accepted connection, each on its own thread. */
final class TestTcpServer implements AutoCloseable {
    /** What the server does with one connection; the socket is closed afterwards. */
    @FunctionalInterface
    interface Behaviour {
        void serve(Socket socket) throws Exception;
    }

    final AtomicInteger accepted = new AtomicInteger();
    private final ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-tcp-server");
        t.setDaemon(true);
        return t;
    });

    TestTcpServer(Behaviour behaviour) {
        try {
            server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        threads.execute(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    accepted.incrementAndGet();
                    open.add(s);
                    threads.execute(() -> {
                        try (s) {
                            behaviour.serve(s);
                        } catch (Exception ignored) {
                            // the probe may hang up first
                        } finally {
                            open.remove(s);
                        }
                    });
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    /**
     * Keeps the connection open, saying nothing more, until the client hangs up or the server closes: a server that
     * is slow or silent for as long as the probe cares to wait.
     */
    static void holdOpen(Socket socket) throws IOException {
        var in = socket.getInputStream();
        byte[] discard = new byte[256];
        while (in.read(discard) >= 0) {
            // whatever the client still sends is read and dropped
        }
    }

    /**
     * Sends {@code text} on the connection {@code delay} from now, from a timer rather than the connection's own
     * thread, which stays free to {@link #holdOpen} it meanwhile: a peer that answers late, or in two segments.
     */
    static void sendLater(Socket socket, java.time.Duration delay, String text) {
        java.util.concurrent.CompletableFuture.runAsync(
                () -> {
                    try {
                        var out = socket.getOutputStream();
                        out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        out.flush();
                    } catch (IOException closed) {
                        // the probe hung up first
                    }
                },
                java.util.concurrent.CompletableFuture.delayedExecutor(
                        delay.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS));
    }

    int port() {
        return server.getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket s : open) {
            try {
                s.close(); // ends every holdOpen
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        threads.shutdownNow();
    }
}
