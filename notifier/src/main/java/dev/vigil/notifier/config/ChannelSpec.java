package dev.vigil.notifier.config;

import dev.vigil.kit.config.Problems;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One configured channel as written in YAML. Secrets are never inline: {@code urlEnv} names the environment
 * variable holding a secret URL (Slack and Discord webhooks carry their token in the URL) and {@code secretEnv}
 * the variable holding an API token (BetterStack) or signing secret (webhook). {@code url} is for non-secret
 * endpoints (BetterStack API base, a generic webhook).
 *
 * @param ratePerSecond messages per second this channel may send (0 = unlimited)
 * @param concurrency   sends in flight at once on this channel
 * @param email         the SMTP relay, sender and recipients of an {@code email} channel (its password: {@code secretEnv})
 * @param reach         a {@code betterstack} channel's ways of reaching the on-call person per severity, e.g.
 *                      {@code critical: [call, sms, email, push]}; a severity left out keeps its default
 * @param template      a Mustache template for the main text of this channel's messages (see the notifier README)
 * @param templateFile  the same in a file, relative to the file that configures the channel
 */
public record ChannelSpec(
        ChannelType type,
        String url,
        String urlEnv,
        String secretEnv,
        Double ratePerSecond,
        Integer concurrency,
        EmailSpec email,
        Map<String, List<String>> reach,
        String template,
        String templateFile) {

    public ChannelSpec {
        Problems p = new Problems();
        p.check(
                type != null,
                "type",
                "is required (betterstack, slack, discord, webhook, pagerduty, teams, email, log or digest)");
        if (ratePerSecond == null) {
            // the vendors' documented limits: Slack 1 message/s per webhook, Teams workflows about 4/s but 100 an
            // hour per connector, PagerDuty about 120 events a minute per integration key
            ratePerSecond = type == null
                    ? 0.0
                    : switch (type) {
                        case SLACK, TEAMS -> 1.0;
                        case PAGERDUTY -> 2.0;
                        default -> 0.0;
                    };
        }
        p.check(
                ratePerSecond >= 0 && ratePerSecond <= 100_000,
                "ratePerSecond",
                "must be between 0 (unlimited) and 100000");
        if (concurrency == null) {
            // one message at a time where the vendor orders by arrival; two SMTP sessions, which relays allow
            concurrency = type == null
                    ? 8
                    : switch (type) {
                        case SLACK, TEAMS -> 1;
                        case EMAIL -> 2;
                        default -> 8;
                    };
        }
        p.range("concurrency", concurrency, 8, 1, 1024);
        p.throwIfAny();
        // insertion order kept, so problems are named in the file's order; values are checked by the validator
        reach = reach == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(reach));
    }

    /** A channel with its vendor's default message. */
    public ChannelSpec(
            ChannelType type,
            String url,
            String urlEnv,
            String secretEnv,
            Double ratePerSecond,
            Integer concurrency,
            EmailSpec email,
            Map<String, List<String>> reach) {
        this(type, url, urlEnv, secretEnv, ratePerSecond, concurrency, email, reach, null, null);
    }

    /** A channel without an e-mail block. */
    public ChannelSpec(
            ChannelType type, String url, String urlEnv, String secretEnv, Double ratePerSecond, Integer concurrency) {
        this(type, url, urlEnv, secretEnv, ratePerSecond, concurrency, null, null);
    }

    public static ChannelSpec of(ChannelType type) {
        return new ChannelSpec(type, null, null, null, null, null, null, null, null, null);
    }
}
