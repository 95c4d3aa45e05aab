package dev.vigil.notifier;

import static dev.vigil.notifier.support.TestEvents.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.embedded.junit.WithPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.notifier.channel.HttpSender;
import dev.vigil.notifier.channel.betterstack.BetterStackNotifier;
import dev.vigil.notifier.channel.slack.SlackNotifier;
import dev.vigil.notifier.claim.ClaimStore;
import dev.vigil.notifier.claim.Migrations;
import dev.vigil.notifier.core.Dispatcher;
import dev.vigil.notifier.core.EventResult;
import dev.vigil.notifier.core.Grouping;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.notifier.core.Route;
import dev.vigil.notifier.core.Routes;
import dev.vigil.notifier.support.FakeVendor;
import dev.vigil.notifier.support.RecordingEscalations;
import dev.vigil.notifier.support.Stack;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.notifier.support.Wiring;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import io.r2dbc.spi.ConnectionFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * A notifier killed while a group waits loses and duplicates nothing: the first instance is abandoned mid-wait (its
 * subscriptions cancelled and its timer gone, nothing settled or committed), a fresh one is started against the same
 * PostgreSQL and given the same uncommitted events again, and across both every event reaches Slack exactly once (in
 * one group message or another) and BetterStack exactly once. Real claim store, Slack and BetterStack adapters
 * against local fakes; the group waits run on virtual time, so "within the wait" is exact.
 */
@WithPostgres
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GroupingCrashIT {
    private static final Duration WAIT = Duration.ofSeconds(5);
    ConnectionFactory db;
    PostgresDatabase pg;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private FakeVendor slack;
    private FakeVendor betterstack;
    private HttpSender http;
    /** This test's services: the tests of the class share one database. */
    private String service;

    @BeforeAll
    void migrate() {
        Migrations.run(pg.jdbcUrl(), pg.user(), pg.password()).block(Duration.ofSeconds(60));
    }

    @BeforeEach
    void vendors() {
        slack = new FakeVendor();
        int[] seq = {0};
        betterstack = new FakeVendor()
                .respond(r -> FakeVendor.Reply.json(
                        201, "{\"data\":{\"id\":\"bs-" + UUID.randomUUID() + "-" + (++seq[0]) + "\"}}"));
        http = new HttpSender("grouping-it", 8, Duration.ofSeconds(5));
        closeables.add(http);
        service = "svc-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        closeables.clear();
        slack.close();
        betterstack.close();
    }

    /** One notifier process: its own claim store owner, lanes and group-wait timer. */
    private final class Instance {
        final VirtualTimeScheduler timer = VirtualTimeScheduler.create();
        final Dispatcher dispatcher;
        final List<Disposable> inFlight = new ArrayList<>();

        Instance(String owner) {
            this(owner, Duration.ofMinutes(1), false);
        }

        /**
         * @param lease     how long this instance's claims hold unsettled
         * @param slackHangs whether its Slack sends never reach Slack nor answer (killed before the request left)
         */
        Instance(String owner, Duration lease, boolean slackHangs) {
            Map<Severity, List<String>> d = new EnumMap<>(Severity.class);
            for (Severity s : Severity.values()) {
                d.put(s, List.of("betterstack", "slack"));
            }
            Route grouped = new Route(
                    "grouped",
                    Set.of(),
                    Set.of(),
                    Map.of(),
                    List.of("betterstack", "slack"),
                    List.of(),
                    new Grouping(List.of("service"), WAIT));
            Routes routes = new Routes(List.of(grouped), d, Set.of("betterstack", "slack"));
            ClaimStore store = new ClaimStore(db, Duration.ofHours(1), lease, owner, 64, 2);
            Clock clock = Clock.systemUTC();
            Map<String, Notifier> notifiers = new LinkedHashMap<>();
            notifiers.put("betterstack", new BetterStackNotifier(betterstack.uri("/"), "tok", http, clock));
            SlackNotifier toSlack = new SlackNotifier(slack.uri("/services/T0/B0/secret"), http, clock);
            notifiers.put(
                    "slack",
                    !slackHangs
                            ? toSlack
                            : new Notifier() {
                                @Override
                                public reactor.core.publisher.Mono<dev.vigil.notifier.core.DeliveryOutcome> send(
                                        dev.vigil.notifier.core.Notification n) {
                                    return reactor.core.publisher.Mono.never();
                                }

                                @Override
                                public boolean rendersGroups() {
                                    return true;
                                }
                            });
            dispatcher = Wiring.dispatcher(routes, store, new RecordingEscalations(), notifiers, closeables, timer);
        }

        /** What the consumer does with each record it reads: dispatch it, committing only once it is final. */
        void consume(List<AlertEvent> events) {
            for (AlertEvent e : events) {
                inFlight.add(dispatcher.dispatch(e).subscribe());
            }
        }

        List<EventResult> consumeAndWait(List<AlertEvent> events) {
            List<EventResult> results = new ArrayList<>();
            var all = Flux.fromIterable(events)
                    .flatMap(dispatcher::dispatch)
                    .collectList()
                    .cache();
            all.subscribe();
            await().until(() -> dispatcher.waitingInGroups() == events.size());
            timer.advanceTimeBy(WAIT);
            results.addAll(all.block(Duration.ofSeconds(30)));
            return results;
        }

        /** kill -9: nothing settles, nothing commits, whatever waits is gone with the process. */
        void kill() {
            inFlight.forEach(Disposable::dispose);
            timer.dispose();
        }
    }

    private List<AlertEvent> monitors(int from, int to) {
        List<AlertEvent> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            AlertEvent e = event("monitor/" + service + "-" + i, AlertState.OPENED, Severity.CRITICAL, 1);
            out.add(TestEvents.with(e, service, e.attributes(), e.channels(), false));
        }
        return out;
    }

    private long betterstackCreates(AlertEvent e) {
        // the incident id (fingerprint@first breach) is in the body; the '@' keeps monitor x-1 apart from x-10
        return betterstack.requests.stream()
                .filter(r -> r.body().contains(e.fingerprint() + "@"))
                .count();
    }

    private long rows(String sql, Object... binds) {
        return ((Number) Wiring.rows(db, sql, binds).get(0).get("n")).longValue();
    }

    /**
     * BetterStack's deliveries of this test settled. A kill between a claim and its settlement is the claim lease's
     * case (the claim is taken over when its lease runs out), not the group wait's: the tests kill once they settled.
     */
    private long betterstackSettled() {
        return rows(
                "SELECT count(*) AS n FROM claims WHERE channel = 'betterstack' AND status = 'delivered'"
                        + " AND event_id LIKE $1",
                "monitor/" + service + "-%");
    }

    private void assertEachExactlyOnce(List<AlertEvent> events) {
        for (AlertEvent e : events) {
            assertThat(Stack.mentions(slack, e.eventId()))
                    .as("slack messages carrying %s", e.eventId())
                    .isEqualTo(1);
            assertThat(betterstackCreates(e))
                    .as("betterstack incidents of %s", e.fingerprint())
                    .isEqualTo(1);
        }
        assertThat(rows(
                        "SELECT count(*) AS n FROM delivery_attempts WHERE channel = 'slack'"
                                + " AND outcome = 'delivered' AND fingerprint LIKE $1",
                        "monitor/" + service + "-%"))
                .isEqualTo(events.size());
    }

    @Test
    void killedDuringTheGroupWaitNothingIsLostAndNothingDuplicated() {
        List<AlertEvent> events = monitors(0, 50);
        Instance a = new Instance("notifier-a");
        a.consume(events);
        // BetterStack does not wait: its fifty incidents are opened and settled while Slack's group still gathers
        await().until(() -> a.dispatcher.waitingInGroups() == 50);
        await().until(() -> betterstackSettled() == 50);
        // nothing of the group is claimed or sent while it waits
        assertThat(slack.requests).isEmpty();
        assertThat(rows(
                        "SELECT count(*) AS n FROM claims WHERE channel = 'slack' AND event_id LIKE $1",
                        "monitor/" + service + "-%"))
                .isZero();

        a.kill();
        Instance b = new Instance("notifier-b");
        List<EventResult> results = b.consumeAndWait(events);

        assertThat(results).hasSize(50);
        assertEachExactlyOnce(events);
        assertThat(slack.requests).hasSize(1);
        assertThat(rows(
                        "SELECT count(DISTINCT group_id) AS n FROM claims WHERE channel = 'slack' AND event_id LIKE $1",
                        "monitor/" + service + "-%"))
                .isEqualTo(1);
    }

    @Test
    void killedWithOneGroupSentAndTheNextWaitingEachEventReachesSlackOnceAcrossBoth() {
        List<AlertEvent> sentBefore = monitors(0, 20);
        List<AlertEvent> waiting = monitors(20, 50);
        Instance a = new Instance("notifier-a");
        a.consumeAndWait(sentBefore);
        a.consume(waiting);
        await().until(() -> a.dispatcher.waitingInGroups() == 30);
        await().until(() -> betterstackSettled() == 50);

        a.kill();
        // the worst case: nothing was committed, so the restarted consumer reads all fifty again
        List<AlertEvent> all = new ArrayList<>(sentBefore);
        all.addAll(waiting);
        Instance b = new Instance("notifier-b");
        b.consumeAndWait(all);

        assertEachExactlyOnce(all);
        assertThat(slack.requests).hasSize(2);
    }

    @Test
    void killedAfterTheWaitWithTheGroupClaimedButNotSentEachEventIsSentOnceAfterTheLease() {
        List<AlertEvent> events = monitors(0, 10);
        Instance a = new Instance("notifier-a", Duration.ofSeconds(2), true);
        a.consume(events);
        await().until(() -> a.dispatcher.waitingInGroups() == 10);
        await().until(() -> betterstackSettled() == 10);
        a.timer.advanceTimeBy(WAIT);
        // the group's claims are A's; its send never leaves
        await().until(() -> rows(
                        "SELECT count(*) AS n FROM claims WHERE channel = 'slack' AND status = 'claimed'"
                                + " AND event_id LIKE $1",
                        "monitor/" + service + "-%")
                == 10);

        a.kill();
        Instance b = new Instance("notifier-b");
        List<EventResult> results = b.consumeAndWait(events);

        // B found them held, waited out A's lease, then sent each on the claim it took over
        assertThat(results).hasSize(10);
        assertEachExactlyOnce(events);
        assertThat(rows(
                        "SELECT count(*) AS n FROM claims WHERE channel = 'slack' AND taken_over_from = 'notifier-a'"
                                + " AND event_id LIKE $1",
                        "monitor/" + service + "-%"))
                .isEqualTo(10);
    }
}
