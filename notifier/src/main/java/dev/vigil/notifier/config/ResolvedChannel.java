package dev.vigil.notifier.config;

import dev.vigil.notifier.channel.betterstack.OnCallReach;
import dev.vigil.notifier.channel.email.EmailSettings;
import java.net.URI;

/**
 * A channel after validation, with its secrets read from the environment. {@link #toString()} never shows
 * the secret or a secret URL.
 *
 * @param reach how a {@code betterstack} channel's incidents reach the on-call person per severity (the defaults on
 *              every other channel, which ignores it)
 * @param template the channel's validated message template (its text), or null for the vendor's default message
 */
public record ResolvedChannel(
        String name,
        ChannelType type,
        URI url,
        String secret,
        double ratePerSecond,
        int concurrency,
        EmailSettings email,
        OnCallReach reach,
        String template) {
    public ResolvedChannel {
        reach = reach == null ? OnCallReach.defaults() : reach;
    }

    /** A channel with its vendor's default message. */
    public ResolvedChannel(
            String name,
            ChannelType type,
            URI url,
            String secret,
            double ratePerSecond,
            int concurrency,
            EmailSettings email,
            OnCallReach reach) {
        this(name, type, url, secret, ratePerSecond, concurrency, email, reach, null);
    }

    @Override
    public String toString() {
        return "ResolvedChannel[" + name + ", " + type.wire() + ", rate=" + ratePerSecond + "/s, concurrency="
                + concurrency + "]";
    }
}
