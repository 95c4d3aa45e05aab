package dev.vigil.notifier.channel;

import java.net.URI;
import java.util.Locale;

/**
 * When a channel may send in clear text: only to a stand-in on this host's loopback interface ({@code localhost},
 * 127.0.0.0/8, {@code [::1]}, written literally; no name is resolved, so {@code 127.0.0.1.example} is not one). Every
 * page carries a secret (a webhook URL's token, an API key, a signature, an SMTP password) or what is down, so every
 * channel kind and the dead man's switch follow this one rule: https (or STARTTLS) everywhere else.
 */
public final class PlainTransport {
    /** The hosts the rule allows, as a message names them. */
    public static final String LOOPBACK_HOSTS = "localhost, 127.0.0.0/8 or [::1]";
    /** The problem a plain-http URL to any other host is refused with. */
    public static final String HTTPS_RULE =
            "must be https (plain http only to a loopback stand-in: " + LOOPBACK_HOSTS + ")";

    private PlainTransport() {}

    /** {@code localhost}, 127.0.0.0/8 or ::1 (bracketed or not) written literally. */
    public static boolean isLoopback(String host) {
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.equals("localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")) {
            return true;
        }
        if (!h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}")) {
            return false;
        }
        for (String octet : h.split("\\.")) {
            if (Integer.parseInt(octet) > 255) {
                return false;
            }
        }
        return true;
    }

    /** Whether a page may go to {@code url}: https, or http to a loopback stand-in. */
    public static boolean allows(URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        return scheme.equals("https") || (scheme.equals("http") && isLoopback(url.getHost()));
    }
}
