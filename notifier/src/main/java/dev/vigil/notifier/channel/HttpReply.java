package dev.vigil.notifier.channel;

import java.util.Map;

/** A vendor's answer: status, the headers we care about (lower-case names), and at most 64 KiB of body. */
public record HttpReply(int status, Map<String, String> headers, String body) {
    public String header(String name) {
        return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }
}
