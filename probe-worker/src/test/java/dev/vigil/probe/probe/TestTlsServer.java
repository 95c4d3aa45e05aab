package dev.vigil.probe.probe;

import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import reactor.netty.DisposableServer;
import reactor.netty.tcp.TcpServer;

/** A loopback TLS server (Reactor Netty) that records the SNI names clients ask for, then holds the connection. */
final class TestTlsServer implements AutoCloseable {
    final List<String> serverNames = new CopyOnWriteArrayList<>();
    /** Connections whose handshake completed. */
    final java.util.concurrent.atomic.AtomicInteger connections = new java.util.concurrent.atomic.AtomicInteger();

    private final DisposableServer server;

    TestTlsServer(KeyManagerFactory kmf) throws Exception {
        var ctx = SslContextBuilder.forServer(kmf).build();
        server = TcpServer.create()
                .host("127.0.0.1")
                .port(0)
                .secure(spec -> spec.sslContext(ctx))
                .doOnConnection(conn -> {
                    // Emitted once the handshake is done.
                    SslHandler ssl = conn.channel().pipeline().get(SslHandler.class);
                    if (ssl != null && ssl.engine().getSession() instanceof ExtendedSSLSession session) {
                        session.getRequestedServerNames()
                                .forEach(n ->
                                        serverNames.add(n instanceof SNIHostName h ? h.getAsciiName() : n.toString()));
                    }
                    connections.incrementAndGet();
                })
                .handle((in, out) -> out.neverComplete())
                .bindNow();
    }

    int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.disposeNow(Duration.ofSeconds(5));
    }
}
