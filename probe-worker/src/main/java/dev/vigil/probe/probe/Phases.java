package dev.vigil.probe.probe;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;

/**
 * Phase timings of one connection (connect started, connected, TLS handshake done) and the peer's leaf
 * certificate, written from the connection's event loop and read by the probe when it writes its result.
 * One instance per connection: add it first in the pipeline at channel init.
 */
final class Phases extends ChannelInboundHandlerAdapter {
    volatile long connectStart;
    volatile long connected;
    volatile long tlsDone;
    volatile X509Certificate certificate;

    /** Called at channel init, just before the connect. */
    void connecting() {
        connectStart = System.nanoTime();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        connected = System.nanoTime();
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        if (ssl != null) {
            ssl.handshakeFuture().addListener(f -> {
                if (f.isSuccess()) {
                    tlsDone = System.nanoTime();
                    certificate = leaf(ssl);
                }
            });
        }
        super.channelActive(ctx);
    }

    Integer connectMs() {
        return connected != 0 && connectStart != 0 ? Results.millis(connected - connectStart) : null;
    }

    Integer tlsMs() {
        return tlsDone != 0 && connected != 0 ? Results.millis(tlsDone - connected) : null;
    }

    static X509Certificate leaf(SslHandler ssl) {
        try {
            Certificate[] chain = ssl.engine().getSession().getPeerCertificates();
            return chain.length > 0 && chain[0] instanceof X509Certificate x ? x : null;
        } catch (javax.net.ssl.SSLPeerUnverifiedException e) {
            return null;
        }
    }
}
