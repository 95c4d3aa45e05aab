package dev.vigil.notifier;

import static dev.vigil.notifier.support.Stack.mentions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.consume.VendorUpdateConsumer;
import dev.vigil.notifier.core.Dispatcher;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.notifier.support.Stack;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.AuditRecord;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.schemas.contract.VendorIncidentUpdate;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.silence.Silence;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Silences and acknowledgements reach the events the topology never sees, and an acknowledgement made in BetterStack
 * comes back as a Vigil one: a real broker, a real PostgreSQL, the whole notifier as {@link NotifierService} starts it,
 * fake vendors.
 */
@WithKafka
@WithPostgres
class MutingAndVendorAcksIT {
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

    private static AlertEvent app(String fingerprint, AlertState state, Severity severity, long firstSeen) {
        return new AlertEvent(
                1,
                AlertEvent.appEventId(fingerprint, state),
                fingerprint,
                AlertEvent.incidentIdFor(fingerprint, firstSeen),
                state,
                severity,
                "checkout",
                null,
                "payments failing",
                Map.of(),
                Map.of("region", "eu-west"),
                1,
                firstSeen,
                System.currentTimeMillis(),
                AlertSource.APP,
                false,
                List.of());
    }

    private void silence(String id, String fingerprintGlob, long from, long to) {
        Silence s = new Silence(1, id, fingerprintGlob, null, Map.of(), from, to, "ops", "database upgrade", from);
        stack.send(stack.silencesTopic, id, Json.bytes(s));
    }

    private static double counter(NotifierService.Running n, String name, String tag, String value) {
        var c = n.registry().find(name).tag(tag, value).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void aSilenceWrittenBeforeTheStartMutesTheFirstAppEventAndTheResolutionStillReachesWhatWasPaged() {
        long now = System.currentTimeMillis();
        String paged = "app/shop/paged-" + UUID.randomUUID().toString().substring(0, 8);
        String quiet = "app/shop/quiet-" + UUID.randomUUID().toString().substring(0, 8);
        // the silence is on the topic before the notifier starts: the first event after the start must see it
        silence("db-work", "app/shop/quiet-*", now - 60_000, now + 3_600_000);
        NotifierService.Running n = stack.start(stack.config("g-" + UUID.randomUUID(), 50));

        AlertEvent quietOpened = app(quiet, AlertState.OPENED, Severity.CRITICAL, now - 1000);
        AlertEvent pagedOpened = app(paged, AlertState.OPENED, Severity.WARNING, now - 1000);
        stack.produce(quietOpened);
        stack.produce(pagedOpened);
        await().atMost(Duration.ofSeconds(30)).until(() -> mentions(stack.slack, pagedOpened.eventId()) == 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> counter(n, Dispatcher.MUTED, "reason", "silence") == 1);
        assertThat(mentions(stack.slack, quietOpened.eventId())).isZero();
        assertThat(stack.betterstack.requests).noneMatch(r -> r.body().contains(quiet));

        // a silence added after the page: the app's re-sent reminder is muted, its resolution still goes to Slack
        silence("late", paged, now - 1000, now + 3_600_000);
        AlertEvent reminder = app(paged, AlertState.REMINDER, Severity.WARNING, now - 1000);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            stack.produce(reminder);
            return counter(n, Dispatcher.MUTED, "reason", "silence") >= 2;
        });
        AlertEvent resolved = app(paged, AlertState.RESOLVED, Severity.WARNING, now - 1000);
        stack.produce(resolved);
        await().atMost(Duration.ofSeconds(30)).until(() -> mentions(stack.slack, resolved.eventId()) == 1);
        assertThat(mentions(stack.slack, reminder.eventId())).isZero();
        assertThat(mentions(stack.discord, resolved.eventId())).isEqualTo(1);
    }

    @Test
    void anAcknowledgementInBetterStackAcknowledgesInVigilNotifiesThePagedChannelsAndHoldsAppReminders() {
        NotifierService.Running n = stack.start(stack.config("g-" + UUID.randomUUID(), 50));
        long now = System.currentTimeMillis();
        String fp = "app/shop/payments-" + UUID.randomUUID().toString().substring(0, 8);
        AlertEvent opened = app(fp, AlertState.OPENED, Severity.CRITICAL, now - 1000);
        stack.produce(opened);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> mentions(stack.slack, opened.eventId()) == 1
                        && stack.betterstack.requests("/api/v2/incidents").size() == 1);
        // the fake BetterStack gave the incident its first id, which the notifier keeps
        String body = stack.betterstack.requests("/api/v2/incidents").get(0).body();
        assertThat(body).contains(opened.incidentId());

        VendorIncidentUpdate update = new VendorIncidentUpdate(
                1,
                "betterstack",
                stack.betterstackId(1),
                VendorIncidentUpdate.Action.ACKNOWLEDGED,
                "Alice Example",
                now,
                now);
        stack.send(stack.vendorUpdatesTopic, update.key(), Json.bytes(update));

        List<Ack> acks = stack.read(stack.acksTopic, Ack.class, 1);
        assertThat(acks).singleElement().satisfies(a -> {
            assertThat(a.fingerprint()).isEqualTo(fp);
            assertThat(a.incidentId()).isEqualTo(opened.incidentId());
            assertThat(a.by()).isEqualTo("Alice Example via BetterStack");
        });
        String noticeId = opened.incidentId() + "/acknowledged/" + now;
        await().atMost(Duration.ofSeconds(30)).until(() -> mentions(stack.slack, noticeId) == 1);
        // BetterStack is told too (its incident is already acknowledged there: 409 or 200 both settle it)
        await().atMost(Duration.ofSeconds(30)).until(() -> stack.betterstack.requests.stream()
                .anyMatch(r -> r.path().equals("/api/v2/incidents/" + stack.betterstackId(1) + "/acknowledge")));
        List<AuditRecord> audit = stack.read(stack.auditTopic, AuditRecord.class, 1);
        assertThat(audit).singleElement().satisfies(a -> {
            assertThat(a.actor()).isEqualTo("betterstack-webhook");
            assertThat(a.target()).isEqualTo("alert/" + fp);
        });

        // BetterStack's echo of that acknowledgement (or a redelivery) writes nothing more
        stack.send(stack.vendorUpdatesTopic, update.key(), Json.bytes(update));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> counter(n, VendorUpdateConsumer.UPDATES, "outcome", "already-acknowledged") == 1);
        assertThat(stack.read(stack.acksTopic, Ack.class, 2)).hasSize(1);

        // the app re-sends its firing alert after the dedupe window: held by the acknowledgement
        AlertEvent reminder = app(fp, AlertState.REMINDER, Severity.CRITICAL, now - 1000);
        stack.produce(reminder);
        await().atMost(Duration.ofSeconds(30)).until(() -> counter(n, Dispatcher.MUTED, "reason", "acknowledged") == 1);
        assertThat(mentions(stack.slack, reminder.eventId())).isZero();

        // an update naming no incident of ours is counted and dropped
        VendorIncidentUpdate stranger = new VendorIncidentUpdate(
                1, "betterstack", "bs-999", VendorIncidentUpdate.Action.RESOLVED, null, now, now);
        stack.send(stack.vendorUpdatesTopic, stranger.key(), Json.bytes(stranger));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> counter(n, VendorUpdateConsumer.UPDATES, "outcome", "unknown-incident") == 1);
        assertThat(stack.read(stack.acksTopic, Ack.class, 2)).hasSize(1);
    }

    @Test
    void aTopologyIncidentAcknowledgedInBetterStackGetsAVigilAckTheTopologyReads() {
        stack.start(stack.config("g-" + UUID.randomUUID(), 50));
        String fp = "monitor/checkout-" + UUID.randomUUID().toString().substring(0, 8);
        AlertEvent opened = TestEvents.opened(fp, Severity.CRITICAL);
        stack.produce(opened);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> stack.betterstack.requests("/api/v2/incidents").size() == 1);
        VendorIncidentUpdate resolvedByAPerson = new VendorIncidentUpdate(
                1,
                "betterstack",
                stack.betterstackId(1),
                VendorIncidentUpdate.Action.RESOLVED,
                "Bob",
                TestEvents.T0 + 120_000,
                System.currentTimeMillis());
        stack.send(stack.vendorUpdatesTopic, resolvedByAPerson.key(), Json.bytes(resolvedByAPerson));
        Ack ack = stack.read(stack.acksTopic, Ack.class, 1).get(0);
        assertThat(ack.incidentId()).isEqualTo(opened.incidentId());
        assertThat(ack.severity()).isEqualTo(Severity.CRITICAL);
        assertThat(ack.comment()).contains("resolved in BetterStack");
        List<FakeVendor.Request> resolves = stack.betterstack.requests.stream()
                .filter(r -> r.path().endsWith("/resolve"))
                .toList();
        assertThat(resolves)
                .as("Vigil resolves from its own checks, not from BetterStack")
                .isEmpty();
    }
}
