package dev.vigil.notifier;

import static dev.vigil.notifier.support.Stack.mentions;
import static dev.vigil.notifier.support.TestEvents.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.notifier.support.Stack;
import dev.vigil.notifier.support.Wiring;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.Severity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** End to end on the embedded broker and PostgreSQL with local fake vendors. */
@WithKafka
@WithPostgres
class NotifierIT {
    EmbeddedKafka kafka;
    PostgresDatabase db;
    Stack stack;

    @BeforeEach
    void up() {
        stack = new Stack(kafka, db);
    }

    @AfterEach
    void down() {
        stack.close();
    }

    private static String fp(String name) {
        return "monitor/" + name + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static double delivered(NotifierService.Running n, String channel) {
        var c = n.registry()
                .find("vigil.notifier.deliveries")
                .tag("channel", channel)
                .tag("outcome", "delivered")
                .counter();
        return c == null ? 0 : c.count();
    }

    private static List<FakeVendor.Request> creates(FakeVendor bs, AlertEvent e) {
        return bs.requests.stream()
                .filter(r -> r.path().equals("/api/v2/incidents") && r.body().contains(e.incidentId()))
                .toList();
    }

    @Test
    void openedReminderResolvedLifecycleWithHealthAndMetrics() throws Exception {
        NotifierService.Running n = stack.start(stack.config("g-" + UUID.randomUUID(), 50));
        String fp = fp("checkout");
        AlertEvent opened = event(fp, AlertState.OPENED, Severity.CRITICAL, 1);
        AlertEvent reminder = event(fp, AlertState.REMINDER, Severity.CRITICAL, 2);
        AlertEvent resolved = event(fp, AlertState.RESOLVED, Severity.CRITICAL, 3);

        stack.produce(opened);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> mentions(stack.slack, opened.eventId()) == 1
                        && mentions(stack.discord, opened.eventId()) == 1
                        && creates(stack.betterstack, opened).size() == 1);

        stack.produce(reminder);
        stack.produce(opened); // a redelivered copy: folded
        await().atMost(Duration.ofSeconds(30))
                .until(() -> mentions(stack.slack, reminder.eventId()) == 1
                        && mentions(stack.discord, reminder.eventId()) == 1);

        stack.produce(resolved);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> mentions(stack.slack, resolved.eventId()) == 1
                        && mentions(stack.discord, resolved.eventId()) == 1
                        && !stack.betterstack.requests("/api/v2/incidents/").isEmpty());
        await().atMost(Duration.ofSeconds(30)).until(() -> n.inFlight() == 0);

        assertThat(creates(stack.betterstack, opened)).hasSize(1);
        String incidentId = stack.betterstackId(1);
        assertThat(stack.betterstack.requests("/api/v2/incidents/"))
                .singleElement()
                .satisfies(r -> assertThat(r.path()).isEqualTo("/api/v2/incidents/" + incidentId + "/resolve"));
        assertThat(stack.slack.requests).hasSize(3);
        assertThat(stack.discord.requests).hasSize(3);
        assertThat(stack.slack.requests.get(2).body()).contains("[Resolved]").contains("#2EB67D");

        HttpClient client = HttpClient.newHttpClient();
        String base = "http://127.0.0.1:" + n.httpPort();
        assertThat(client.send(
                                HttpRequest.newBuilder(URI.create(base + "/health"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> client.send(
                                        HttpRequest.newBuilder(URI.create(base + "/ready"))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .statusCode()
                        == 200);
        String metrics = client.send(
                        HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        assertThat(metrics)
                .contains("vigil_notifier_deliveries_total{channel=\"slack\",outcome=\"delivered\"} 3.0")
                .contains("vigil_notifier_deliveries_total{channel=\"slack\",outcome=\"deduplicated\"} 1.0")
                .containsPattern("vigil_notifier_send_seconds_count\\{channel=\"slack\",outcome=\"delivered\"} [1-9]")
                .contains("kafka_consumer");
        HttpResponse<String> missing = client.send(
                HttpRequest.newBuilder(URI.create(base + "/nope")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.headers().firstValue("content-type")).contains("application/problem+json");
    }

    @Test
    void warningGoesToChatOnlyInfoToLogAndSilencedIsRecordedNotPaged() {
        NotifierService.Running n = stack.start(stack.config("g-" + UUID.randomUUID(), 50));
        AlertEvent warning = event(fp("latency"), AlertState.OPENED, Severity.WARNING, 1);
        AlertEvent info = event(fp("note"), AlertState.OPENED, Severity.INFO, 1);
        AlertEvent silenced = dev.vigil.notifier.support.TestEvents.with(
                event(fp("quiet"), AlertState.OPENED, Severity.CRITICAL, 1),
                "checkout-api",
                java.util.Map.of(),
                List.of(),
                true);
        stack.produce(warning);
        stack.produce(info);
        stack.produce(silenced);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> mentions(stack.slack, warning.eventId()) == 1
                        && mentions(stack.discord, warning.eventId()) == 1);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> n.inFlight() == 0
                        && n.registry().find("vigil.notifier.deliveries").tag("channel", "log").counters().stream()
                                        .mapToDouble(io.micrometer.core.instrument.Counter::count)
                                        .sum()
                                > 0);
        assertThat(stack.betterstack.requests).isEmpty();
        assertThat(mentions(stack.slack, info.eventId())
                        + mentions(stack.slack, silenced.eventId())
                        + mentions(stack.discord, silenced.eventId()))
                .isZero();
    }

    @Test
    void redeliveryAfterAKillBeforeCommitSendsNothingTwice() {
        // Discord hangs on this event: Slack and BetterStack are sent, the event never becomes final, nothing is
        // committed.
        String fp = fp("crash");
        AlertEvent opened = event(fp, AlertState.OPENED, Severity.CRITICAL, 1);
        stack.discord.respond(r -> null);
        String group = "g-" + UUID.randomUUID();
        NotifierService.Running first = stack.start(stack.config(group, 50));
        stack.produce(opened);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> mentions(stack.slack, opened.eventId()) == 1
                        && creates(stack.betterstack, opened).size() == 1
                        && mentions(stack.discord, opened.eventId()) >= 1);
        first.close(); // stops with the event unfinished: its offset stays uncommitted

        stack.discord.respond(r -> FakeVendor.Reply.json(200, "{\"id\":\"m\"}"));
        NotifierService.Running second = stack.start(stack.config(group, 50));
        // redelivered: Slack and BetterStack are folded; Discord, never confirmed, is sent once its claim lease ends
        await().atMost(Duration.ofSeconds(60)).until(() -> delivered(second, "discord") == 1 && second.inFlight() == 0);
        assertThat(delivered(second, "slack") + delivered(second, "betterstack"))
                .isZero();
        assertThat(mentions(stack.slack, opened.eventId())).isEqualTo(1);
        assertThat(creates(stack.betterstack, opened)).hasSize(1);

        // a notifier that saw none of this (a fresh group re-reads the whole topic, as after a crash before any
        // commit) sends nothing at all
        int slackBefore = stack.slack.requests.size();
        int discordBefore = stack.discord.requests.size();
        int bsBefore = stack.betterstack.requests.size();
        NotifierService.Running replay = stack.start(stack.config("g-" + UUID.randomUUID(), 50));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> replay.registry()
                                        .find("vigil.notifier.deliveries")
                                        .tag("channel", "slack")
                                        .tag("outcome", "deduplicated")
                                        .counter()
                                        .count()
                                >= 1
                        && replay.inFlight() == 0);
        assertThat(stack.slack.requests).hasSize(slackBefore);
        assertThat(stack.discord.requests).hasSize(discordBefore);
        assertThat(stack.betterstack.requests).hasSize(bsBefore);
    }

    @Test
    void twoInstancesConsumingTheSameEventsSendEachOnce() {
        List<AlertEvent> events = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String fp = fp("twin" + i);
            events.add(event(fp, AlertState.OPENED, Severity.CRITICAL, 1));
            events.add(event(fp, AlertState.RESOLVED, Severity.CRITICAL, 2));
        }
        NotifierService.Running a = stack.start(stack.config("g-a-" + UUID.randomUUID(), 0));
        NotifierService.Running b = stack.start(stack.config("g-b-" + UUID.randomUUID(), 0));
        events.forEach(stack::produce);
        await().atMost(Duration.ofSeconds(60)).until(() -> events.stream()
                .allMatch(e -> mentions(stack.slack, e.eventId()) >= 1 && mentions(stack.discord, e.eventId()) >= 1));
        await().atMost(Duration.ofSeconds(30)).until(() -> a.inFlight() == 0 && b.inFlight() == 0);
        for (AlertEvent e : events) {
            assertThat(mentions(stack.slack, e.eventId()))
                    .as("slack %s", e.eventId())
                    .isEqualTo(1);
            assertThat(mentions(stack.discord, e.eventId()))
                    .as("discord %s", e.eventId())
                    .isEqualTo(1);
        }
        assertThat(stack.betterstack.requests.stream().filter(r -> r.path().equals("/api/v2/incidents")))
                .hasSize(30);
        assertThat(stack.betterstack.requests("/api/v2/incidents/")).hasSize(30);
    }

    @Test
    void slack429DelaysOnlySlackAndLosesNothing() {
        AtomicInteger limited = new AtomicInteger();
        stack.slack.respond(r -> limited.incrementAndGet() <= 3
                ? FakeVendor.Reply.of(429).withHeader("Retry-After", "2")
                : FakeVendor.Reply.of(200));
        NotifierService.Running n = stack.start(stack.config("g-" + UUID.randomUUID(), 50));
        List<AlertEvent> events = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            events.add(event(fp("limited" + i), AlertState.OPENED, Severity.CRITICAL, 1));
        }
        events.forEach(stack::produce);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> events.stream()
                                .allMatch(e -> stack.slack.requests.stream()
                                                .filter(r -> r.body().contains(e.eventId()))
                                                .count()
                                        >= 1)
                        && stack.slack.requests.size() >= 8);
        await().atMost(Duration.ofSeconds(30)).until(() -> n.inFlight() == 0);
        // none lost: every event reached Slack in a request answered 200 (the 4th request onwards)
        List<FakeVendor.Request> ok = stack.slack.requests.subList(3, stack.slack.requests.size());
        for (AlertEvent e : events) {
            assertThat(ok.stream().filter(r -> r.body().contains(e.eventId())))
                    .as(e.eventId())
                    .hasSize(1);
        }
        // Discord and BetterStack were not held back: all their deliveries happened before Slack's first success
        long firstSlackSuccess = ok.get(0).receivedAtNanos();
        assertThat(stack.discord.requests).hasSize(5).allSatisfy(r -> assertThat(r.receivedAtNanos())
                .isLessThan(firstSlackSuccess));
        assertThat(stack.betterstack.requests).hasSize(5).allSatisfy(r -> assertThat(r.receivedAtNanos())
                .isLessThan(firstSlackSuccess));
    }

    @Test
    void a404DeadLettersAtOnceRaisesDeliveryFailingOnTheOtherChannelsAndSlacksNextDeliveryResolvesIt() {
        stack.slack.respond(r -> FakeVendor.Reply.of(404).withHeader("Content-Type", "text/plain"));
        NotifierService.Running n = stack.start(stack.config("g-" + UUID.randomUUID(), 50));
        AlertEvent opened = event(fp("gone"), AlertState.OPENED, Severity.CRITICAL, 1);
        AlertEvent second = event(fp("gone-too"), AlertState.OPENED, Severity.CRITICAL, 1);
        stack.produce(opened);
        stack.produce(second);
        // the failure alert travels through vigil.alerts like any event, to BetterStack and Discord only
        await().atMost(Duration.ofSeconds(30)).until(() -> stack.discord.requests.stream()
                .anyMatch(r -> r.body().contains("notifier/delivery-failing/slack")));
        await().atMost(Duration.ofSeconds(30)).until(() -> stack.deadLetters().size() == 2 && n.inFlight() == 0);
        assertThat(stack.slack.requests.stream().filter(r -> r.body().contains(opened.eventId())))
                .hasSize(1);
        assertThat(stack.slack.requests.stream().filter(r -> r.body().contains("delivery-failing")))
                .isEmpty();
        // two undeliverable events, one failure page per channel within the dedupe window
        assertThat(stack.betterstack.requests.stream().filter(r -> r.body().contains("delivery-failing")))
                .hasSize(1);
        assertThat(stack.discord.requests.stream().filter(r -> r.body().contains("delivery-failing")))
                .hasSize(1);
        List<DeadLetter> dl = stack.deadLetters().stream()
                .filter(d -> d.eventId().equals(opened.eventId()))
                .toList();
        assertThat(stack.deadLetters()).hasSize(2);
        assertThat(dl).singleElement().satisfies(d -> {
            assertThat(d.channel()).isEqualTo("slack");
            assertThat(d.eventId()).isEqualTo(opened.eventId());
            assertThat(d.reason()).isEqualTo("channel slack: permanent failure: slack answered HTTP 404");
            assertThat(d.attempts()).isEqualTo(1);
            assertThat(d.topic()).isEqualTo(stack.alertsTopic);
        });

        // slack answers again: its next delivery resolves the failure alert where it went, back through vigil.alerts
        stack.slack.respond(r -> FakeVendor.Reply.of(200));
        AlertEvent back = event(fp("back"), AlertState.OPENED, Severity.WARNING, 1);
        stack.produce(back);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> mentions(stack.discord, "notifier/delivery-failing/slack/resolved") == 1
                        && !stack.betterstack.requests("/api/v2/incidents/").isEmpty());
        await().atMost(Duration.ofSeconds(30)).until(() -> n.inFlight() == 0);
        assertThat(mentions(stack.slack, back.eventId())).isEqualTo(1);
        assertThat(stack.slack.requests.stream().filter(r -> r.body().contains("delivery-failing")))
                .isEmpty();
        String failingIncident = (String) Wiring.rows(
                        db.connectionFactory(),
                        "SELECT vendor_ids ->> 'betterstack' AS id"
                                + " FROM incidents WHERE fingerprint = 'notifier/delivery-failing/slack'")
                .get(0)
                .get("id");
        assertThat(stack.betterstack.requests("/api/v2/incidents/"))
                .singleElement()
                .satisfies(r -> assertThat(r.path()).isEqualTo("/api/v2/incidents/" + failingIncident + "/resolve"));
        assertThat(Wiring.rows(db.connectionFactory(), "SELECT channel FROM failing_channels"))
                .isEmpty();
    }

    @Test
    void aPoisonRecordIsDeadLetteredAndConsumptionGoesOn() {
        NotifierService.Running n = stack.start(stack.config("g-" + UUID.randomUUID(), 50));
        stack.send(stack.alertsTopic, "monitor/x", "{\"schemaVersion\":1,\"fingerprint\":\"no slash\"}".getBytes());
        AlertEvent after = event(fp("after-poison"), AlertState.OPENED, Severity.WARNING, 1);
        stack.produce(after);
        await().atMost(Duration.ofSeconds(30)).until(() -> mentions(stack.discord, after.eventId()) == 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> n.inFlight() == 0);
        assertThat(stack.deadLetters()).singleElement().satisfies(d -> {
            assertThat(d.reason()).contains("invalid AlertEvent").contains("fingerprint");
            assertThat(d.payload()).contains("no slash");
            assertThat(d.key()).isEqualTo("monitor/x");
        });
    }
}
