package dev.vigil.probe.probe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
                    threads.execute(() -> {
                        try (s) {
                            behaviour.serve(s);
                        } catch (Exception ignored) {
                            // the probe may hang up first
                        }
                    });
                } catch (IOException closed) {
                    return;
                }
            }
        });
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
        threads.shutdownNow();
    }
}
