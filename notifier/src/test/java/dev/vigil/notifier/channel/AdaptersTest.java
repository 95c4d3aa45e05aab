package dev.vigil.notifier.channel;

import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.notifier.channel.betterstack.BetterStackNotifier;
import dev.vigil.notifier.channel.discord.DiscordNotifier;
import dev.vigil.notifier.channel.slack.SlackNotifier;
import dev.vigil.notifier.channel.webhook.WebhookNotifier;
import dev.vigil.notifier.channel.webhook.WebhookSignature;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.SendStage;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.notifier.support.FakeVendor.Reply;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.scheduler.Schedulers;

class AdaptersTest {
    private final FakeVendor vendor = new FakeVendor();
    private final HttpSender http = new HttpSender("test", 4, Duration.ofSeconds(5));
    private final Clock clock = Clock.systemUTC();
    private final AlertEvent open = opened("monitor/checkout", Severity.CRITICAL);

    @AfterEach
    void close() {
        http.close();
        vendor.close();
    }

    private DeliveryOutcome slack(int status) {
        vendor.respond(r -> Reply.of(status).withHeader("Retry-After", "2"));
        return new SlackNotifier(vendor.uri("/services/T/B/X"), http, clock)
                .send(new Notification(open, "slack", null))
                .block(Duration.ofSeconds(10));
    }

    @Test
    void slackPostsBlockKitAndMapsSuccess() {
        assertThat(slack(200)).isEqualTo(new DeliveryOutcome.Delivered(200, null));
        FakeVendor.Request r = vendor.requests.get(0);
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.path()).isEqualTo("/services/T/B/X");
        assertThat(r.header("content-type")).startsWith("application/json");
        JsonNode body = Json.tree(r.body().getBytes(StandardCharsets.UTF_8));
        assertThat(body.path("text").asText())
                .isEqualTo("[CRITICAL] checkout-api: checkout-api is down in 2 of 3 regions");
        JsonNode att = body.path("attachments").get(0);
        assertThat(att.path("color").asText()).isEqualTo("#E01E5A");
        assertThat(att.path("blocks").get(0).path("type").asText()).isEqualTo("header");
        assertThat(r.body())
                .contains("*Service*")
                .contains("*First seen*")
                .contains("*Occurrences*")
                .contains("https://grafana.example.test/d/checkout");
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 403, 404, 410})
    void slackRejectionsArePermanent(int status) {
        DeliveryOutcome o = slack(status);
        assertThat(o).isInstanceOf(DeliveryOutcome.Permanent.class);
        assertThat(o.httpStatus()).isEqualTo(status);
        assertThat(((DeliveryOutcome.Permanent) o).reason()).startsWith("slack answered HTTP " + status);
    }

    @Test
    void slack429And5xxAreTransientWithRetryAfter() {
        assertThat(slack(429))
                .isEqualTo(new DeliveryOutcome.Transient("slack answered HTTP 429", Duration.ofSeconds(2), 429));
        assertThat(slack(503)).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(slack(408)).isInstanceOf(DeliveryOutcome.Transient.class);
    }

    @Test
    void discordWaitsAndReadsRetryAfterFromTheBody() {
        vendor.respond(r -> Reply.json(
                        429, "{\"message\":\"You are being rate limited.\",\"retry_after\":1.25,\"global\":false}")
                .withHeader("Retry-After", "9"));
        DiscordNotifier d = new DiscordNotifier(vendor.uri("/api/webhooks/1/tok"), http, clock);
        DeliveryOutcome o = d.send(new Notification(open, "discord", null)).block(Duration.ofSeconds(10));
        assertThat(o).isInstanceOf(DeliveryOutcome.Transient.class);
        assertThat(((DeliveryOutcome.Transient) o).retryAfter()).isEqualTo(Duration.ofMillis(1250));
        assertThat(vendor.requests.get(0).query()).isEqualTo("wait=true");
        JsonNode embed = Json.tree(vendor.requests.get(0).body().getBytes(StandardCharsets.UTF_8))
                .path("embeds")
                .get(0);
        assertThat(embed.path("color").asInt()).isEqualTo(0xE01E5A);
        vendor.respond(r -> Reply.json(200, "{\"id\":\"1\"}"));
        assertThat(d.send(new Notification(open, "discord", null)).block(Duration.ofSeconds(10)))
                .isEqualTo(new DeliveryOutcome.Delivered(200, null));
        vendor.respond(r -> Reply.json(200, "{\"id\":\"2\"}")
                .withHeader("X-RateLimit-Remaining", "0")
                .withHeader("X-RateLimit-Reset-After", "0.8"));
        assertThat(d.send(new Notification(open, "discord", null)).block(Duration.ofSeconds(10)))
                .isEqualTo(new DeliveryOutcome.Delivered(200, null, Duration.ofMillis(800)));
        vendor.respond(r -> Reply.json(404, "{\"message\":\"Unknown Webhook\",\"code\":10015}"));
        assertThat(d.send(new Notification(open, "discord", null)).block(Duration.ofSeconds(10)))
                .isInstanceOf(DeliveryOutcome.Permanent.class);
    }

    @Test
    void betterStackCreatesResolvesAndIgnoresReminders() {
        vendor.respond(r -> r.path().endsWith("/resolve")
                ? Reply.json(409, "{\"errors\":\"already resolved\"}")
                : Reply.json(201, "{\"data\":{\"id\":\"777\",\"type\":\"incident\"}}"));
        BetterStackNotifier bs = new BetterStackNotifier(vendor.uri("/"), "tok-123", http, clock);
        assertThat(bs.send(new Notification(open, "betterstack", null)).block(Duration.ofSeconds(10)))
                .isEqualTo(new DeliveryOutcome.Delivered(201, "777"));
        FakeVendor.Request create = vendor.requests.get(0);
        assertThat(create.path()).isEqualTo("/api/v2/incidents");
        assertThat(create.header("authorization")).isEqualTo("Bearer tok-123");
        assertThat(Json.tree(create.body().getBytes(StandardCharsets.UTF_8))
                        .path("summary")
                        .asText())
                .contains("checkout-api");

        AlertEvent reminder = event("monitor/checkout", AlertState.REMINDER, Severity.CRITICAL, 2);
        assertThat(bs.send(new Notification(reminder, "betterstack", "777")).block(Duration.ofSeconds(10)))
                .isInstanceOf(DeliveryOutcome.Delivered.class);
        assertThat(vendor.requests).hasSize(1);

        AlertEvent resolved = event("monitor/checkout", AlertState.RESOLVED, Severity.CRITICAL, 3);
        assertThat(bs.send(new Notification(resolved, "betterstack", "777")).block(Duration.ofSeconds(10)))
                .isEqualTo(new DeliveryOutcome.Delivered(409, null));
        assertThat(vendor.requests.get(1).path()).isEqualTo("/api/v2/incidents/777/resolve");

        vendor.respond(r -> Reply.json(401, "{\"errors\":\"Invalid Team API token\"}"));
        assertThat(bs.send(new Notification(open, "betterstack", null)).block(Duration.ofSeconds(10)))
                .isInstanceOf(DeliveryOutcome.Permanent.class);
        vendor.respond(r -> Reply.json(201, "{\"data\":{}}"));
        assertThat(bs.send(new Notification(open, "betterstack", null)).block(Duration.ofSeconds(10)))
                .isInstanceOf(DeliveryOutcome.Permanent.class);
    }

    @Test
    void webhookSignsTheExactBody() {
        byte[] secret = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
        vendor.respond(r -> Reply.of(202));
        WebhookNotifier w = new WebhookNotifier(vendor.uri("/hook"), new WebhookSignature(secret), http, clock);
        assertThat(w.send(new Notification(open, "hook", null)).block(Duration.ofSeconds(10)))
                .isInstanceOf(DeliveryOutcome.Delivered.class);
        FakeVendor.Request r = vendor.requests.get(0);
        byte[] body = r.body().getBytes(StandardCharsets.UTF_8);
        assertThat(WebhookReceiver.verify(
                        secret,
                        r.header(WebhookSignature.HEADER),
                        body,
                        clock.instant().getEpochSecond()))
                .isTrue();
        assertThat(r.header(WebhookNotifier.HEADER_EVENT_ID)).isEqualTo(open.eventId());
        assertThat(Json.read(r.body(), AlertEvent.class)).isEqualTo(open);
    }

    @Test
    void webhookSignatureCoversTheTimestampSoAReplayWithAnotherTFails() {
        byte[] secret = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
        Instant sentAt = Instant.parse("2026-01-01T00:00:00Z");
        vendor.respond(r -> Reply.of(200));
        WebhookNotifier w = new WebhookNotifier(
                vendor.uri("/hook"), new WebhookSignature(secret), http, Clock.fixed(sentAt, ZoneOffset.UTC));
        w.send(new Notification(open, "hook", null)).block(Duration.ofSeconds(10));
        FakeVendor.Request r = vendor.requests.get(0);
        byte[] body = r.body().getBytes(StandardCharsets.UTF_8);
        String header = r.header(WebhookSignature.HEADER);
        long t = sentAt.getEpochSecond();
        assertThat(header).matches("t=" + t + ",v1=[0-9a-f]{64}");
        assertThat(r.header("X-Vigil-Timestamp"))
                .as("the time is signed inside the signature header now")
                .isNull();

        // a receiver a few seconds later accepts it
        assertThat(WebhookReceiver.verify(secret, header, body, t + 3)).isTrue();
        // replayed later with a fresh t but the captured v1: the MAC no longer matches
        String replayed = header.replace("t=" + t, "t=" + (t + 3600));
        assertThat(WebhookReceiver.verify(secret, replayed, body, t + 3600)).isFalse();
        // replayed later as captured: outside the tolerance
        assertThat(WebhookReceiver.verify(secret, header, body, t + WebhookSignature.TOLERANCE_SECONDS + 1))
                .isFalse();
        // body, key and header shape are all bound
        byte[] tampered = r.body().replace("checkout-api", "checkout-apx").getBytes(StandardCharsets.UTF_8);
        assertThat(WebhookReceiver.verify(secret, header, tampered, t)).isFalse();
        assertThat(WebhookReceiver.verify(
                        "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.UTF_8), header, body, t))
                .isFalse();
        assertThat(WebhookReceiver.verify(secret, header.substring(header.indexOf(',') + 1), body, t))
                .isFalse();
        assertThat(WebhookReceiver.verify(secret, null, body, t)).isFalse();
    }

    @Test
    void webhookSignatureMatchesAKnownAnswer() {
        // printf '1767225600.{"eventId":"e-1"}' | openssl dgst -sha256 -hmac 0123456789abcdef0123456789abcdef
        WebhookSignature sig =
                new WebhookSignature("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8));
        assertThat(sig.header(1_767_225_600L, "{\"eventId\":\"e-1\"}".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("t=1767225600,v1=04488e9e9e1627eb7b3c39ac0ca790aa92993ef1f033a8b4eade5aafcb13fccb");
    }

    /**
     * What a receiver does with a delivery, written out independently of the notifier's signing code (it is the
     * README's recipe): parse {@code t} and {@code v1}, recompute HMAC-SHA-256 over {@code t + "." + body},
     * compare in constant time, refuse a {@code t} more than 300 s from its own clock.
     */
    static final class WebhookReceiver {
        static boolean verify(byte[] secret, String header, byte[] body, long nowSeconds) {
            if (header == null) {
                return false;
            }
            String t = null;
            String v1 = null;
            for (String part : header.split(",")) {
                int eq = part.indexOf('=');
                if (eq > 0) {
                    String k = part.substring(0, eq).trim();
                    String v = part.substring(eq + 1).trim();
                    if (k.equals("t")) {
                        t = v;
                    } else if (k.equals("v1")) {
                        v1 = v;
                    }
                }
            }
            if (t == null || v1 == null || !t.matches("[0-9]{1,12}")) {
                return false;
            }
            if (Math.abs(nowSeconds - Long.parseLong(t)) > 300) {
                return false;
            }
            try {
                javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
                mac.init(new javax.crypto.spec.SecretKeySpec(secret, "HmacSHA256"));
                mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
                byte[] expected = mac.doFinal(body);
                byte[] presented = java.util.HexFormat.of().parseHex(v1);
                return java.security.MessageDigest.isEqual(expected, presented);
            } catch (IllegalArgumentException e) {
                return false;
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void betterStackResolvedWithoutAnIncidentItOpenedCallsNothing() {
        vendor.respond(r -> Reply.json(200, "{}"));
        BetterStackNotifier bs = new BetterStackNotifier(vendor.uri("/"), "tok-123", http, clock);
        AlertEvent resolved = event("monitor/checkout", AlertState.RESOLVED, Severity.CRITICAL, 3);
        assertThat(bs.send(new Notification(resolved, "betterstack", null)).block(Duration.ofSeconds(10)))
                .isEqualTo(new DeliveryOutcome.Delivered(null, null));
        assertThat(vendor.requests).isEmpty();
    }

    private final AlertEvent ack = dev.vigil.notifier.support.TestEvents.acknowledged(
            open, "alice", dev.vigil.notifier.support.TestEvents.T0 + 120_000);

    @Test
    void betterStackAcknowledgesTheIncidentItOpenedWithWhoAcknowledged() {
        vendor.respond(r -> Reply.json(200, "{\"data\":{\"id\":\"777\",\"type\":\"incident\"}}"));
        BetterStackNotifier bs = new BetterStackNotifier(vendor.uri("/"), "tok-123", http, clock);
        assertThat(bs.send(new Notification(ack, "betterstack", "777")).block(Duration.ofSeconds(10)))
                .isEqualTo(new DeliveryOutcome.Delivered(200, null));
        FakeVendor.Request r = vendor.requests.get(0);
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.path()).isEqualTo("/api/v2/incidents/777/acknowledge");
        assertThat(r.header("authorization")).isEqualTo("Bearer tok-123");
        assertThat(r.header("content-type")).startsWith("application/json");
        assertThat(Json.tree(r.body().getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(Json.tree("{\"acknowledged_by\":\"alice\"}".getBytes(StandardCharsets.UTF_8)));

        // already acknowledged (in BetterStack itself): nothing left to do
        vendor.respond(r2 -> Reply.json(409, "{\"errors\":\"already acknowledged\"}"));
        assertThat(bs.send(new Notification(ack, "betterstack", "777")).block(Duration.ofSeconds(10)))
                .isEqualTo(new DeliveryOutcome.Delivered(409, null));
        // the other statuses map as everywhere
        vendor.respond(r2 -> Reply.json(503, "{}"));
        assertThat(bs.send(new Notification(ack, "betterstack", "777")).block(Duration.ofSeconds(10)))
                .isInstanceOf(DeliveryOutcome.Transient.class);
        vendor.respond(r2 -> Reply.json(404, "{\"errors\":\"not found\"}"));
        assertThat(bs.send(new Notification(ack, "betterstack", "777")).block(Duration.ofSeconds(10)))
                .isInstanceOf(DeliveryOutcome.Permanent.class);
    }

    @Test
    void betterStackAcknowledgementNamesVigilWhenTheEventNamesNobody() {
        vendor.respond(r -> Reply.json(200, "{}"));
        BetterStackNotifier bs = new BetterStackNotifier(vendor.uri("/"), "tok-123", http, clock);
        AlertEvent nobody = dev.vigil.notifier.support.TestEvents.withSummary(
                ack, ack.summary(), java.util.Map.of("region", "us-east"), ack.links());
        bs.send(new Notification(nobody, "betterstack", "777")).block(Duration.ofSeconds(10));
        assertThat(Json.tree(vendor.requests.get(0).body().getBytes(StandardCharsets.UTF_8))
                        .path("acknowledged_by")
                        .asText())
                .isEqualTo("vigil");
    }

    @Test
    void betterStackAcknowledgementWithoutAnIncidentItOpenedCallsNothing() {
        vendor.respond(r -> Reply.json(200, "{}"));
        BetterStackNotifier bs = new BetterStackNotifier(vendor.uri("/"), "tok-123", http, clock);
        assertThat(bs.send(new Notification(ack, "betterstack", null)).block(Duration.ofSeconds(10)))
                .isEqualTo(new DeliveryOutcome.Delivered(null, null));
        assertThat(vendor.requests).isEmpty();
    }

    @Test
    void slackAndDiscordPostAShortNeutralAcknowledgementNotice() {
        vendor.respond(r -> Reply.json(200, "{\"id\":\"1\"}"));
        assertThat(new SlackNotifier(vendor.uri("/services/T/B/X"), http, clock)
                        .send(new Notification(ack, "slack", null))
                        .block(Duration.ofSeconds(10)))
                .isEqualTo(new DeliveryOutcome.Delivered(200, null));
        JsonNode slack = Json.tree(vendor.requests.get(0).body().getBytes(StandardCharsets.UTF_8));
        assertThat(slack.path("text").asText()).isEqualTo("[Acknowledged] checkout-api: Acknowledged by alice");
        assertThat(slack.path("attachments").get(0).path("color").asText()).isEqualTo("#8D8D8D");
        assertThat(vendor.requests.get(0).body())
                .contains("*Acknowledged by*\\nalice")
                .contains("https://grafana.example.test/d/checkout")
                .doesNotContain("*Occurrences*");

        assertThat(new DiscordNotifier(vendor.uri("/api/webhooks/1/tok"), http, clock)
                        .send(new Notification(ack, "discord", null))
                        .block(Duration.ofSeconds(10)))
                .isEqualTo(new DeliveryOutcome.Delivered(200, null));
        JsonNode discord = Json.tree(vendor.requests.get(1).body().getBytes(StandardCharsets.UTF_8));
        JsonNode embed = discord.path("embeds").get(0);
        assertThat(embed.path("title").asText()).isEqualTo("[Acknowledged] checkout-api: Acknowledged by alice");
        assertThat(embed.path("color").asInt()).isEqualTo(0x8D8D8D);
        assertThat(discord.path("allowed_mentions").path("parse")).isEmpty();
    }

    @Test
    void webhookCarriesTheAcknowledgementAsAnAlertEvent() {
        byte[] secret = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
        vendor.respond(r -> Reply.of(204));
        WebhookNotifier w = new WebhookNotifier(vendor.uri("/hook"), new WebhookSignature(secret), http, clock);
        assertThat(w.send(new Notification(ack, "hook", null)).block(Duration.ofSeconds(10)))
                .isInstanceOf(DeliveryOutcome.Delivered.class);
        FakeVendor.Request r = vendor.requests.get(0);
        assertThat(WebhookReceiver.verify(
                        secret,
                        r.header(WebhookSignature.HEADER),
                        r.body().getBytes(StandardCharsets.UTF_8),
                        clock.instant().getEpochSecond()))
                .isTrue();
        assertThat(r.header(WebhookNotifier.HEADER_EVENT_ID)).isEqualTo(ack.eventId());
        assertThat(Json.tree(r.body().getBytes(StandardCharsets.UTF_8))
                        .path("state")
                        .asText())
                .isEqualTo("acknowledged");
        assertThat(Json.read(r.body(), AlertEvent.class)).isEqualTo(ack);
    }

    @Test
    void logWritesTheAcknowledgementAsOneLine() {
        ch.qos.logback.classic.Logger logger =
                (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("vigil.notifications");
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
                new ch.qos.logback.core.read.ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        try {
            new dev.vigil.notifier.channel.log.LogNotifier()
                    .send(new Notification(ack, "log", null))
                    .block(Duration.ofSeconds(5));
        } finally {
            logger.detachAppender(lines);
        }
        assertThat(lines.list).singleElement().satisfies(l -> assertThat(l.getFormattedMessage())
                .startsWith("[Acknowledged] checkout-api: Acknowledged by alice fingerprint=monitor/checkout")
                .contains("eventId=" + ack.eventId())
                .doesNotContain("\n"));
    }

    @Test
    void aVendorThatNeverAnswersIsTransientAfterTheSendTimeout() {
        vendor.respond(r -> null);
        SendStage stage = new SendStage(
                new SlackNotifier(vendor.uri("/slow"), http, clock), Duration.ofMillis(300), Schedulers.parallel());
        SendStage.Sent s = stage.send(new Notification(open, "slack", null)).block(Duration.ofSeconds(10));
        assertThat(s.outcome())
                .isEqualTo(new DeliveryOutcome.Transient("no answer within the send timeout of PT0.3S", null, null));
    }

    @Test
    void connectionRefusedIsTransient() {
        java.net.URI closed = vendor.uri("/x");
        vendor.close();
        SendStage stage =
                new SendStage(new SlackNotifier(closed, http, clock), Duration.ofSeconds(5), Schedulers.parallel());
        assertThat(stage.send(new Notification(open, "slack", null))
                        .block(Duration.ofSeconds(10))
                        .outcome())
                .isInstanceOf(DeliveryOutcome.Transient.class);
    }
}
