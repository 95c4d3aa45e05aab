package dev.vigil.notifier;

import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.channel.betterstack.BetterStackNotifier;
import dev.vigil.notifier.channel.digest.DigestNotifier;
import dev.vigil.notifier.channel.discord.DiscordNotifier;
import dev.vigil.notifier.channel.email.EmailDigest;
import dev.vigil.notifier.channel.email.EmailNotifier;
import dev.vigil.notifier.channel.log.LogNotifier;
import dev.vigil.notifier.channel.pagerduty.PagerDutyNotifier;
import dev.vigil.notifier.channel.slack.SlackDigestNotifier;
import dev.vigil.notifier.channel.slack.SlackNotifier;
import dev.vigil.notifier.channel.teams.TeamsNotifier;
import dev.vigil.notifier.channel.webhook.WebhookNotifier;
import dev.vigil.notifier.channel.webhook.WebhookSignature;
import dev.vigil.notifier.config.ResolvedChannel;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.notifier.digest.DigestInbox;
import dev.vigil.notifier.digest.DigestReports;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds each configured channel's adapter; owns their HTTP clients. The wiring lives here, beside the service, so
 * the adapters under {@code channel} never depend on configuration.
 */
public final class Channels implements AutoCloseable {
    private final List<HttpSender> senders = new ArrayList<>();
    private final DigestInbox digestInbox;

    /** @param digestInbox where {@code digest} channels record the events routed to them */
    public Channels(DigestInbox digestInbox) {
        this.digestInbox = digestInbox;
    }

    public Notifier build(ResolvedChannel c, Duration sendTimeout, Clock clock) {
        return switch (c.type()) {
            case LOG -> new LogNotifier();
            case SLACK -> new SlackNotifier(c.url(), sender(c, sendTimeout), clock, c.template());
            case DISCORD -> new DiscordNotifier(c.url(), sender(c, sendTimeout), clock, c.template());
            case BETTERSTACK -> new BetterStackNotifier(
                    c.url(), c.secret(), sender(c, sendTimeout), clock, c.reach(), c.template());
            case PAGERDUTY -> new PagerDutyNotifier(c.url(), c.secret(), sender(c, sendTimeout), clock, c.template());
            case TEAMS -> new TeamsNotifier(c.url(), sender(c, sendTimeout), clock, c.template());
            case EMAIL -> new EmailNotifier(c.email(), clock, c.template());
            case WEBHOOK -> new WebhookNotifier(
                    c.url(),
                    new WebhookSignature(c.secret().getBytes(StandardCharsets.UTF_8)),
                    sender(c, sendTimeout),
                    clock);
            case DIGEST -> new DigestNotifier(digestInbox);
        };
    }

    /** The adapter that sends the daily digest to {@code c}, a slack or email channel (checked at start). */
    public Notifier buildDigest(ResolvedChannel c, Duration sendTimeout, Clock clock, DigestReports reports) {
        return switch (c.type()) {
            case SLACK -> new SlackDigestNotifier(c.url(), sender(c, sendTimeout), clock, reports);
            case EMAIL -> new EmailNotifier(c.email(), clock, EmailDigest.messages(reports));
            default -> throw new IllegalArgumentException(
                    "the digest is not sent to " + c.type().wire() + " channels");
        };
    }

    private HttpSender sender(ResolvedChannel c, Duration timeout) {
        HttpSender s = new HttpSender(c.name(), c.concurrency(), timeout);
        senders.add(s);
        return s;
    }

    @Override
    public void close() {
        senders.forEach(HttpSender::close);
    }
}
