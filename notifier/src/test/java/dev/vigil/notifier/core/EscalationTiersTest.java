package dev.vigil.notifier.core;

import static dev.vigil.notifier.support.TestEvents.T0;
import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.support.MemoryDeliveryLog;
import dev.vigil.notifier.support.MemoryTierLog;
import dev.vigil.notifier.support.RecordingEscalations;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.EscalationStatus;
import dev.vigil.schemas.contract.Severity;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The escalation climb on the notifier's core, in a time line the test moves (an adjustable clock; the tier clock
 * is ticked by hand): a critical page goes to the route's channels at once, to PagerDuty when nobody acknowledged it
 * within 10 minutes and to the lead's mail after 30. Each case checks what every channel received.
 */
class EscalationTiersTest {
    private static final String FP = "monitor/payments-api";
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final List<String> CHANNELS = List.of("slack", "betterstack", "pagerduty", "lead-mail", "log");

    private final MemoryDeliveryLog log = new MemoryDeliveryLog();
    private final MemoryTierLog.Table table = new MemoryTierLog.Table();
    /** "channel:eventId", in sending order, for every instance. */
    private final List<String> sent = new CopyOnWriteArrayList<>();
    /** Summaries by event id, as the channels received them. */
    private final Map<String, AlertEvent> received = new java.util.concurrent.ConcurrentHashMap<>();

    private final MovableClock clock = new MovableClock(Instant.ofEpochMilli(T0 + 60_000));
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    /** A clock the test moves. */
    static final class MovableClock extends Clock {
        private volatile Instant now;

        MovableClock(Instant start) {
            this.now = start;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private static Routes routes() {
        Map<Severity, List<String>> defaults = new EnumMap<>(Severity.class);
        defaults.put(Severity.CRITICAL, List.of("slack"));
        defaults.put(Severity.WARNING, List.of("slack"));
        defaults.put(Severity.INFO, List.of("log"));
        Route payments = new Route(
                "payments",
                Set.of(Severity.CRITICAL),
                Set.of(),
                Map.of(),
                List.of("slack", "betterstack"),
                List.of(
                        new Tier(2, Duration.ofMinutes(10), List.of("pagerduty")),
                        new Tier(3, Duration.ofMinutes(30), List.of("lead-mail"))));
        return new Routes(List.of(payments), defaults, Set.copyOf(CHANNELS));
    }

    /** One notifier instance over the shared stores: its dispatcher and its tier clock. */
    private record Instance(Dispatcher dispatcher, TierClock tiers) {
        long tick() {
            return tiers.fireDue().block(Duration.ofSeconds(10));
        }

        EventResult dispatch(AlertEvent e) {
            return dispatcher.dispatch(e).block(Duration.ofSeconds(10));
        }
    }

    private Instance instance(String name) {
        return instance(name, Muting.none());
    }

    private Instance instance(String name, Muting muting) {
        return instance(name, muting, null);
    }

    /** @param board where the climb is shown, or null for none */
    private Instance instance(String name, Muting muting, TierBoard board) {
        Routes routes = routes();
        RetryPolicy policy =
                new RetryPolicy(Duration.ofMillis(1), 2, Duration.ofMillis(10), Duration.ofHours(1), () -> 0.5);
        Map<String, ChannelPipeline> pipelines = new LinkedHashMap<>();
        for (String ch : CHANNELS) {
            Notifier n = notification -> {
                sent.add(ch + ":" + notification.event().eventId());
                received.put(notification.event().eventId(), notification.event());
                return Mono.just(new DeliveryOutcome.Delivered(200, null));
            };
            ChannelLane lane = new ChannelLane(ch, 0, 4, Schedulers.parallel());
            closeables.add(lane);
            pipelines.put(
                    ch,
                    new ChannelPipeline(
                            ch,
                            new ClaimStage(log, Schedulers.immediate()),
                            lane,
                            new SendStage(n, Duration.ofSeconds(10), Schedulers.parallel()),
                            new RecordStage(log, Schedulers.immediate()),
                            new DeadLetterStage(
                                    new RecordingEscalations(),
                                    routes,
                                    log,
                                    "vigil.alerts",
                                    clock,
                                    Schedulers.parallel()),
                            policy,
                            clock,
                            Schedulers.parallel(),
                            Duration.ofMillis(10),
                            new SimpleMeterRegistry()));
        }
        TierLog tiers = board == null
                ? new MemoryTierLog(table, name)
                : new ShownTiers(new MemoryTierLog(table, name), board, clock);
        Dispatcher d =
                new Dispatcher(routes, pipelines, log, Schedulers.parallel(), meters, muting, e -> false, tiers, clock);
        TierClock c = new TierClock(tiers, d, fp -> true, clock, Schedulers.parallel(), TierClock.EVERY, LEASE);
        closeables.add(c);
        return new Instance(d, c);
    }

    private List<String> sentTo(String channel) {
        return sent.stream()
                .filter(s -> s.startsWith(channel + ":"))
                .map(s -> s.substring(channel.length() + 1))
                .toList();
    }

    private static String tierId(AlertEvent page, int tier) {
        return page.incidentId() + "/tier/" + tier;
    }

    private List<String> statuses() {
        return table.rows().stream().map(r -> r.tier + ":" + r.status).toList();
    }

    @Test
    void anUnacknowledgedPageClimbsEachTierOnceAtItsTime() {
        Instance a = instance("a");
        AlertEvent page = opened(FP, Severity.CRITICAL);
        a.dispatch(page);
        assertThat(sent).containsExactlyInAnyOrder("slack:" + page.eventId(), "betterstack:" + page.eventId());
        assertThat(statuses()).containsExactly("2:pending", "3:pending");

        clock.advance(Duration.ofMinutes(10).minusSeconds(1));
        assertThat(a.tick()).isZero();
        assertThat(sentTo("pagerduty")).isEmpty();

        clock.advance(Duration.ofSeconds(1));
        assertThat(a.tick()).isEqualTo(1);
        assertThat(sentTo("pagerduty")).containsExactly(tierId(page, 2));
        assertThat(received.get(tierId(page, 2)).summary())
                .isEqualTo("Unacknowledged for 10m, tier 2: " + page.summary());
        assertThat(received.get(tierId(page, 2)).state()).isEqualTo(AlertState.OPENED);
        assertThat(sentTo("lead-mail")).isEmpty();

        clock.advance(Duration.ofMinutes(5));
        assertThat(a.tick()).isZero();
        clock.advance(Duration.ofMinutes(15));
        assertThat(a.tick()).isEqualTo(1);
        assertThat(sentTo("lead-mail")).containsExactly(tierId(page, 3));
        clock.advance(Duration.ofHours(2));
        assertThat(a.tick()).isZero();
        assertThat(sent).hasSize(4);
        assertThat(statuses()).containsExactly("2:fired", "3:fired");
        assertThat(meters.counter(Dispatcher.TIER_FIRED, "tier", "2").count()).isEqualTo(1);
        assertThat(meters.counter(Dispatcher.TIER_FIRED, "tier", "3").count()).isEqualTo(1);
    }

    @Test
    void anAcknowledgementBetweenTiersStopsTheClimbAndReachesEveryTierPaged() {
        Instance a = instance("a");
        AlertEvent page = opened(FP, Severity.CRITICAL);
        a.dispatch(page);
        clock.advance(Duration.ofMinutes(10));
        a.tick();
        assertThat(sentTo("pagerduty")).containsExactly(tierId(page, 2));

        clock.advance(Duration.ofMinutes(2));
        AlertEvent ack = TestEvents.acknowledged(page, "carol", clock.millis());
        a.dispatch(ack);
        assertThat(sentTo("slack")).contains(ack.eventId());
        assertThat(sentTo("betterstack")).contains(ack.eventId());
        assertThat(sentTo("pagerduty")).containsExactly(tierId(page, 2), ack.eventId());
        assertThat(statuses()).containsExactly("2:fired", "3:cancelled");

        clock.advance(Duration.ofHours(1));
        assertThat(a.tick()).isZero();
        assertThat(sentTo("lead-mail")).isEmpty();
        assertThat(meters.counter(Dispatcher.TIER_CANCELLED, "reason", "acknowledged")
                        .count())
                .isEqualTo(1);
    }

    @Test
    void anAcknowledgementBeforeTheFirstTierMeansNoTierEverPages() {
        Instance a = instance("a");
        AlertEvent page = opened(FP, Severity.CRITICAL);
        a.dispatch(page);
        clock.advance(Duration.ofMinutes(3));
        a.dispatch(TestEvents.acknowledged(page, "carol", clock.millis()));
        clock.advance(Duration.ofHours(1));
        assertThat(a.tick()).isZero();
        assertThat(sentTo("pagerduty")).isEmpty();
        assertThat(sentTo("lead-mail")).isEmpty();
        assertThat(statuses()).containsExactly("2:cancelled", "3:cancelled");
    }

    @Test
    void anAcknowledgementKnownOnlyFromTheAcksTopicCancelsTheTierWhenItComesDue() {
        // the acknowledgement's event has not reached this instance yet; its copy of the acks topic has it
        Muting acked = new Muting() {
            @Override
            public Optional<String> mutedBecause(AlertEvent event) {
                return Optional.empty();
            }

            @Override
            public Optional<String> tierMutedBecause(AlertEvent tierPage) {
                return Optional.of(SilenceGate.ACKNOWLEDGED + "carol");
            }
        };
        Instance a = instance("a", acked);
        AlertEvent page = opened(FP, Severity.CRITICAL);
        a.dispatch(page);
        clock.advance(Duration.ofMinutes(10));
        assertThat(a.tick()).isEqualTo(1);
        assertThat(sentTo("pagerduty")).isEmpty();
        assertThat(statuses()).containsExactly("2:cancelled", "3:cancelled");
    }

    @Test
    void aSilencedTierIsRecordedNotPagedAndTheClimbGoesOn() {
        Muting silenced = new Muting() {
            @Override
            public Optional<String> mutedBecause(AlertEvent event) {
                return Optional.empty();
            }

            @Override
            public Optional<String> tierMutedBecause(AlertEvent tierPage) {
                return Optional.of("silence s-1");
            }
        };
        Instance a = instance("a", silenced);
        AlertEvent page = opened(FP, Severity.CRITICAL);
        a.dispatch(page);
        clock.advance(Duration.ofMinutes(10));
        a.tick();
        assertThat(sentTo("pagerduty")).isEmpty();
        assertThat(log.silenced).anySatisfy(s -> assertThat(s).contains(tierId(page, 2)));
        assertThat(statuses()).containsExactly("2:fired", "3:pending");
    }

    @Test
    void aResolutionAfterTierTwoReachesTheRouteAndTierTwoAndCancelsTierThree() {
        Instance a = instance("a");
        AlertEvent page = opened(FP, Severity.CRITICAL);
        a.dispatch(page);
        clock.advance(Duration.ofMinutes(11));
        a.tick();
        clock.advance(Duration.ofMinutes(4));
        AlertEvent resolved = event(FP, AlertState.RESOLVED, Severity.CRITICAL, 16);
        a.dispatch(resolved);
        assertThat(sentTo("slack")).contains(resolved.eventId());
        assertThat(sentTo("betterstack")).contains(resolved.eventId());
        assertThat(sentTo("pagerduty")).containsExactly(tierId(page, 2), resolved.eventId());
        assertThat(sentTo("lead-mail")).isEmpty();
        assertThat(statuses()).containsExactly("2:fired", "3:cancelled");
        clock.advance(Duration.ofHours(1));
        assertThat(a.tick()).isZero();
        assertThat(sentTo("lead-mail")).isEmpty();
    }

    @Test
    void aReminderAfterTierTwoReachesTierTwoToo() {
        Instance a = instance("a");
        AlertEvent page = opened(FP, Severity.CRITICAL);
        a.dispatch(page);
        AlertEvent early = event(FP, AlertState.REMINDER, Severity.CRITICAL, 2);
        a.dispatch(early);
        assertThat(sentTo("pagerduty")).isEmpty();
        clock.advance(Duration.ofMinutes(10));
        a.tick();
        AlertEvent reminder = event(FP, AlertState.REMINDER, Severity.CRITICAL, 3);
        a.dispatch(reminder);
        assertThat(sentTo("pagerduty")).containsExactly(tierId(page, 2), reminder.eventId());
        assertThat(sentTo("slack")).containsExactly(page.eventId(), early.eventId(), reminder.eventId());
    }

    @Test
    void aRestartBetweenTiersFiresTheNextTierOnceFromTheStore() {
        Instance before = instance("before");
        AlertEvent page = opened(FP, Severity.CRITICAL);
        before.dispatch(page);
        clock.advance(Duration.ofMinutes(10));
        before.tick();
        // the process dies; a new one starts over the same database, and Kafka redelivers the uncommitted page
        Instance after = instance("after");
        after.dispatch(page);
        assertThat(statuses()).containsExactly("2:fired", "3:pending");
        clock.advance(Duration.ofMinutes(20));
        assertThat(after.tick()).isEqualTo(1);
        assertThat(sentTo("pagerduty")).containsExactly(tierId(page, 2));
        assertThat(sentTo("lead-mail")).containsExactly(tierId(page, 3));
        assertThat(sentTo("slack")).containsExactly(page.eventId());
    }

    @Test
    void aTierClaimedByAnInstanceThatDiedIsFiredByAnotherAfterItsLeaseAndOnlyOnce() {
        Instance a = instance("a");
        Instance b = instance("b");
        AlertEvent page = opened(FP, Severity.CRITICAL);
        a.dispatch(page);
        clock.advance(Duration.ofMinutes(10));
        // a claims tier 2 and dies before paging it
        MemoryTierLog aLog = new MemoryTierLog(table, "a");
        assertThat(aLog.claimDue(clock.instant(), LEASE, 10, fp -> true)
                        .collectList()
                        .block())
                .hasSize(1);
        assertThat(b.tick()).as("leased to a").isZero();
        clock.advance(LEASE);
        assertThat(b.tick()).isEqualTo(1);
        assertThat(sentTo("pagerduty")).containsExactly(tierId(page, 2));
    }

    @Test
    void twoInstancesTickingTogetherPageEachTierOnce() throws Exception {
        Instance a = instance("a");
        Instance b = instance("b");
        for (int i = 0; i < 20; i++) {
            a.dispatch(opened("monitor/svc-" + i, Severity.CRITICAL));
        }
        for (Duration step : List.of(Duration.ofMinutes(10), Duration.ofMinutes(20))) {
            clock.advance(step);
            var both = reactor.core.publisher.Flux.merge(
                            a.tiers().fireDue().subscribeOn(Schedulers.parallel()),
                            b.tiers().fireDue().subscribeOn(Schedulers.parallel()))
                    .reduce(0L, Long::sum)
                    .block(Duration.ofSeconds(30));
            assertThat(both).as("tiers taken by the two instances together").isEqualTo(20);
        }
        assertThat(sentTo("pagerduty")).hasSize(20).doesNotHaveDuplicates();
        assertThat(sentTo("lead-mail")).hasSize(20).doesNotHaveDuplicates();
        assertThat(table.rows()).allSatisfy(r -> assertThat(r.status).isEqualTo("fired"));
    }

    @Test
    void theClimbIsShownAfterEachChangeAndABoardThatFailsHoldsNoPage() {
        List<EscalationStatus> shown = new CopyOnWriteArrayList<>();
        Instance a = instance("a", Muting.none(), status -> Mono.fromRunnable(() -> shown.add(status)));
        AlertEvent page = opened(FP, Severity.CRITICAL);
        a.dispatch(page);
        clock.advance(Duration.ofMinutes(10));
        a.tick();
        a.dispatch(TestEvents.acknowledged(page, "carol", clock.millis()));
        assertThat(shown)
                .extracting(s ->
                        s.tiers().stream().map(t -> t.tier() + ":" + t.state()).toList())
                .containsExactly(
                        List.of("2:pending", "3:pending"),
                        List.of("2:fired", "3:pending"),
                        List.of("2:fired", "3:cancelled"));
        assertThat(shown.get(1).tiers().get(0).firedAt()).isEqualTo(clock.millis());
        assertThat(shown.get(2).tiers().get(1).cancelledBy()).isEqualTo("acknowledged");
        assertThat(shown).allSatisfy(s -> {
            assertThat(s.fingerprint()).isEqualTo(FP);
            assertThat(s.incidentId()).isEqualTo(page.incidentId());
        });

        Instance broken = instance("b", Muting.none(), status -> Mono.error(new IllegalStateException("broker away")));
        AlertEvent other = opened("monitor/other-api", Severity.CRITICAL);
        broken.dispatch(other);
        clock.advance(Duration.ofMinutes(10));
        assertThat(broken.tick()).isEqualTo(1);
        assertThat(sentTo("pagerduty")).contains(tierId(other, 2));
    }

    @Test
    void eventsOfRoutesWithoutEscalationScheduleNothing() {
        Instance a = instance("a");
        a.dispatch(opened("monitor/other", Severity.WARNING));
        clock.advance(Duration.ofHours(2));
        assertThat(a.tick()).isZero();
        assertThat(table.rows()).isEmpty();
    }

    @Test
    void aTierPageOfAnIncidentIdNotDerivedFromItsFingerprintHasAnIdOfItsOwn() {
        AlertEvent page = opened(FP, Severity.CRITICAL);
        AlertEvent foreign = TestEvents.withSource(
                new AlertEvent(
                        1,
                        "app/x/e",
                        "app/x/monitor/payments-api",
                        page.incidentId(),
                        AlertState.OPENED,
                        Severity.CRITICAL,
                        "svc",
                        null,
                        "s",
                        Map.of(),
                        Map.of(),
                        1,
                        T0,
                        T0,
                        dev.vigil.schemas.contract.AlertSource.APP,
                        false,
                        List.of()),
                dev.vigil.schemas.contract.AlertSource.APP);
        DueTier own = new DueTier(page.incidentId(), FP, 2, 3, List.of("pagerduty"), clock.instant(), page);
        DueTier borrowed = new DueTier(
                foreign.incidentId(), foreign.fingerprint(), 2, 3, List.of("pagerduty"), clock.instant(), foreign);
        assertThat(Dispatcher.tierPage(own).eventId()).isEqualTo(page.incidentId() + "/tier/2");
        assertThat(Dispatcher.tierPage(borrowed).eventId())
                .startsWith("tier/2/")
                .isNotEqualTo(Dispatcher.tierPage(own).eventId());
    }
}
