package dev.vigil.notifier.config;

import java.util.List;

/**
 * The {@code email:} block of an e-mail channel, as written in YAML. The SMTP password is not here: like every
 * secret it comes from the environment variable the channel's {@code secretEnv} names. Durations are text
 * ({@code 10s}, {@code 1m}); left out, each setting takes the adapter's default (port 587, STARTTLS required,
 * subject prefix {@code [Vigil]}, timeouts 10 s to connect, 30 s per read or write, 60 s for the whole send).
 */
public record EmailSpec(
        String host,
        Integer port,
        String startTls,
        String username,
        String from,
        List<String> to,
        String subjectPrefix,
        String connectTimeout,
        String readTimeout,
        String sendTimeout) {
    public EmailSpec {
        to = to == null ? null : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(to));
    }
}
