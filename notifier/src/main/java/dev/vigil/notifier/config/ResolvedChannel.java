package dev.vigil.notifier.config;

import dev.vigil.notifier.channel.email.EmailSettings;
import java.net.URI;

/**
 * A channel after validation, with its secrets read from the environment. {@link #toString()} never shows
 * the secret or a secret URL.
 */
public record ResolvedChannel(
        String name,
        ChannelType type,
        URI url,
        String secret,
        double ratePerSecond,
        int concurrency,
        EmailSettings email) {
    /** A channel that is not e-mail. */
    public ResolvedChannel(
            String name, ChannelType type, URI url, String secret, double ratePerSecond, int concurrency) {
        this(name, type, url, secret, ratePerSecond, concurrency, null);
    }

    @Override
    public String toString() {
        return "ResolvedChannel[" + name + ", " + type.wire() + ", rate=" + ratePerSecond + "/s, concurrency="
                + concurrency + "]";
    }
}
