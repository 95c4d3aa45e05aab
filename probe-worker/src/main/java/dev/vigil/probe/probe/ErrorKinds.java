package dev.vigil.probe.probe;

import dev.vigil.schemas.contract.ErrorKind;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.ssl.NotSslRecordException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;
import reactor.netty.http.client.PrematureCloseException;

/** Maps a fetch failure to the contract's {@link ErrorKind}. Pure. */
public final class ErrorKinds {
    private ErrorKinds() {}

    /**
     * @param connected whether the TCP connection had been established when the failure happened; a
     *                  deadline before that is a connect timeout
     */
    public static ErrorKind classify(Throwable error, boolean connected) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TimeoutException) {
                return connected ? ErrorKind.TIMEOUT : ErrorKind.CONNECT_TIMEOUT;
            }
            if (t instanceof ConnectTimeoutException) {
                return ErrorKind.CONNECT_TIMEOUT;
            }
            if (t instanceof UnknownHostException) {
                return ErrorKind.DNS;
            }
            if (t instanceof SSLException
                    || t instanceof NotSslRecordException
                    || t instanceof java.security.cert.CertificateException) {
                return ErrorKind.TLS;
            }
            if (t instanceof ConnectException || t instanceof NoRouteToHostException) {
                String m = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
                return m.contains("timed out") ? ErrorKind.CONNECT_TIMEOUT : ErrorKind.CONNECT_REFUSED;
            }
            if (t instanceof PrematureCloseException || t instanceof ClosedChannelException) {
                return ErrorKind.RESET;
            }
            if (t instanceof IOException io) {
                String m = String.valueOf(io.getMessage()).toLowerCase(Locale.ROOT);
                if (m.contains("reset") || m.contains("broken pipe") || m.contains("closed")) {
                    return ErrorKind.RESET;
                }
            }
        }
        return ErrorKind.OTHER;
    }

    /** A short, value-free description of a failure for the result's detail field. */
    public static String describe(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String name = root.getClass().getSimpleName();
        return name.isEmpty() ? "error" : name;
    }
}
