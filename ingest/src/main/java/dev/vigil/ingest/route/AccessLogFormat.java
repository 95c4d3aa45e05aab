package dev.vigil.ingest.route;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import reactor.netty.ReactorNetty;
import reactor.netty.http.server.logging.AccessLog;
import reactor.netty.http.server.logging.AccessLogFactory;

/**
 * Reactor Netty's access log in its own format, with the request target passed through {@link PathRedaction}: the
 * default format writes the URI as sent, which for BetterStack's webhook holds the token. Ingest installs it in
 * place of the default, on the same switch ({@code -Dreactor.netty.http.server.accessLogEnabled=true}, logger
 * {@code reactor.netty.http.server.AccessLog}), so enabling the access log can never log the token.
 */
public final class AccessLogFormat {
    private static final String FORMAT = "{} - {} [{}] \"{} {} {}\" {} {} {}";

    private AccessLogFormat() {}

    /** Whether the access log was switched on with Reactor Netty's system property (read at each server start). */
    public static boolean enabled() {
        return Boolean.parseBoolean(System.getProperty(ReactorNetty.ACCESS_LOG_ENABLED, "false"));
    }

    /** Reactor Netty's default line, with the URI redacted. */
    public static AccessLogFactory factory() {
        return a -> AccessLog.create(
                FORMAT,
                address(a.remoteAddress()),
                a.user(),
                a.zonedDateTime(),
                a.method(),
                PathRedaction.redact(a.uri() == null ? null : a.uri().toString()),
                a.protocol(),
                a.status(),
                a.contentLength() > -1 ? a.contentLength() : "-",
                a.duration());
    }

    private static String address(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            return inet.getHostString();
        }
        return address == null ? "-" : address.toString();
    }
}
