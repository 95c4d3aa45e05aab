package dev.vigil.notifier.core;

import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.vigil.notifier.support.MemoryDeliveryLog;
import dev.vigil.notifier.support.RecordingEscalations;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

class DispatcherTest {
    private final MemoryDeliveryLog log = new MemoryDeliveryLog();
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private final Map<String, Sinks.One<DeliveryOutcome>> holds = new ConcurrentHashMap<>();
    /** "channel:eventId" → what that channel answers for that event (delivered when absent) */
    private final Map<String, DeliveryOutcome> answers = new ConcurrentHashMap<>();

    private final RecordingEscalations escalations = new RecordingEscalations();

    private static Map<Severity, List<String>> standard() {
        Map<Severity, List<String>> d = new EnumMap<>(Severity.class);
        d.put(Severity.CRITICAL, List.of("betterstack", "slack", "discord"));
        d.put(Severity.WARNING, List.of("slack", "discord"));
        d.put(Severity.INFO, List.of("log"));
        return d;
    }

    private Dispatcher dispatcher() {
        return dispatcher(
                new Routes(List.of(), standard(), Set.of("betterstack", "slack", "discord", "log")),
                new SimpleMeterRegistry());
    }

    private Dispatcher dispatcher(Routes routes, MeterRegistry meters) {
        return dispatcher(routes, meters, Muting.none());
    }

    private Dispatcher dispatcher(Routes routes, MeterRegistry meters, Muting muting) {
        return dispatcher(routes, meters, muting, e -> false);
    }

    private Dispatcher dispatcher(
            Routes routes, MeterRegistry meters, Muting muting, java.util.function.Predicate<AlertEvent> selfWatch) {
        return dispatcher(routes, meters, muting, selfWatch, IncidentNotes.none());
    }

    private Dispatcher dispatcher(
            Routes routes,
            MeterRegistry meters,
            Muting muting,
            java.util.function.Predicate<AlertEvent> selfWatch,
            IncidentNotes notes) {
        RetryPolicy policy =
                new RetryPolicy(Duration.ofMillis(1), 2, Duration.ofMillis(10), Duration.ofHours(1), () -> 0.5);
        Map<String, ChannelPipeline> pipelines = new LinkedHashMap<>();
        for (String ch : routes.channels()) {
            Notifier n = notification -> {
                String key = ch + ":" + notification.event().eventId();
                sent.add(key);
                Sinks.One<DeliveryOutcome> hold = holds.get(key);
                return hold != null
                        ? hold.asMono()
                        : Mono.just(answers.getOrDefault(key, new DeliveryOutcome.Delivered(200, null)));
            };
            pipelines.put(
                    ch,
                    new ChannelPipeline(
                            ch,
                            new ClaimStage(log, Schedulers.immediate()),
                            new ChannelLane(ch, 0, 4, Schedulers.parallel()),
                            new SendStage(n, Duration.ofSeconds(10), Schedulers.parallel()),
                            new RecordStage(log, Schedulers.immediate()),
                            new DeadLetterStage(
                                    escalations, routes, log, "vigil.alerts", Clock.systemUTC(), Schedulers.parallel()),
                            policy,
                            Clock.systemUTC(),
                            Schedulers.parallel(),
                            Duration.ofMillis(10),
                            new SimpleMeterRegistry()));
        }
        return new Dispatcher(
                routes,
                pipelines,
                log,
                Schedulers.parallel(),
                meters,
                muting,
                selfWatch,
                TierLog.none(),
                Clock.systemUTC(),
                notes);
    }

    @Test
    void eachEventsOutcomePerChannelIsNotedForItsTimelineWithoutAWebhooksPath() {
        List<dev.vigil.schemas.contract.IncidentNote> notes = new java.util.concurrent.CopyOnWriteArrayList<>();
        Dispatcher d = dispatcher(
                new Routes(List.of(), standard(), Set.of("betterstack", "slack", "discord", "log")),
                new SimpleMeterRegistry(),
                Muting.none(),
                e -> false,
                notes::add);
        AlertEvent page = opened("monitor/api", Severity.CRITICAL);
        answers.put(
                "discord:" + page.eventId(),
                new DeliveryOutcome.Permanent("HTTP 404 from https://discord.com/api/webhooks/123/secret-token", 404));

        d.dispatch(page).block(Duration.ofSeconds(5));

        assertThat(notes).hasSize(1);
        var note = notes.get(0);
        assertThat(note.kind()).isEqualTo("deliveries");
        assertThat(note.eventId()).isEqualTo(page.eventId());
        assertThat(note.incidentId()).isEqualTo(page.incidentId());
        assertThat(note.deliveries())
                .extracting(r -> r.channel() + ":" + r.outcome())
                .containsExactly("betterstack:delivered", "slack:delivered", "discord:dead_lettered");
        String detail = note.deliveries().get(2).detail();
        assertThat(detail).contains("https://discord.com/").doesNotContain("secret-token");
    }

    @Test
    void anEventRoutedNowhereIsNotNoted() {
        List<dev.vigil.schemas.contract.IncidentNote> notes = new java.util.concurrent.CopyOnWriteArrayList<>();
        var watch =
                new dev.vigil.notifier.selfwatch.CanaryWatch(Duration.ofMinutes(4), () -> java.util.OptionalLong.of(0));
        Dispatcher d = dispatcher(
                new Routes(List.of(), standard(), Set.of("betterstack", "slack", "discord", "log")),
                new SimpleMeterRegistry(),
                Muting.none(),
                watch,
                notes::add);
        AlertEvent canary = new AlertEvent(
                1,
                "vigil/canary@60000/opened/1",
                "vigil/canary",
                "vigil/canary@60000",
                AlertState.OPENED,
                Severity.CRITICAL,
                "vigil",
                "canary",
                "canary",
                Map.of(),
                Map.of("canary", "true", "windowStart", "60000", "status", "up"),
                1,
                60_000L,
                60_001L,
                AlertSource.HEARTBEAT,
                false,
                null);

        d.dispatch(canary).block(Duration.ofSeconds(5));

        assertThat(notes).isEmpty();
    }

    @Test
    void canaryEventsAreTakenOutBeforeRoutingAndNeverClaimedDeliveredOrDeadLettered() {
        var watch =
                new dev.vigil.notifier.selfwatch.CanaryWatch(Duration.ofMinutes(4), () -> java.util.OptionalLong.of(0));
        // a canary routed like a page would go to the catch-all critical channels; here it must go nowhere
        Dispatcher d = dispatcher(
                new Routes(List.of(), standard(), Set.of("betterstack", "slack", "discord", "log")),
                new SimpleMeterRegistry(),
                Muting.none(),
                watch);
        for (long w : new long[] {60_000, 120_000}) {
            AlertEvent canary = new AlertEvent(
                    1,
                    "vigil/canary@" + w + "/opened/1",
                    "vigil/canary",
                    "vigil/canary@" + w,
                    AlertState.OPENED,
                    Severity.CRITICAL,
                    "vigil",
                    "canary",
                    "canary",
                    Map.of(),
                    Map.of("canary", "true", "windowStart", "" + w, "status", "up"),
                    1,
                    w,
                    w + 1,
                    AlertSource.HEARTBEAT,
                    false,
                    null);
            EventResult r = d.dispatch(canary).block(Duration.ofSeconds(5));
            assertThat(r.channels()).isEmpty();
            assertThat(r.route().channels()).isEmpty();
        }
        AlertEvent page = opened("monitor/api", Severity.INFO);
        assertThat(d.dispatch(page).block(Duration.ofSeconds(5)).channels()).hasSize(1);
        assertThat(sent).containsExactly("log:" + page.eventId());
        assertThat(log.attempts).allMatch(a -> !a.toString().contains("vigil/canary"));
        assertThat(log.incidents.keySet()).noneMatch(k -> k.contains("vigil/canary"));
        assertThat(log.latest.keySet()).noneMatch(k -> k.contains("vigil/canary"));
        assertThat(escalations.raised).isEmpty();
        assertThat(escalations.deadLetters).isEmpty();
        assertThat(watch.freshestPassingWindow()).hasValue(120_000);
    }

    @Test
    void refusedAppOverridesAreCountedPerChannelAndLoggedWithoutTheEventsText() {
        Routes routes = new Routes(
                List.of(),
                standard(),
                Set.of("betterstack", "slack", "discord", "log"),
                Map.of("checkout", Set.of("slack")));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Dispatcher d = dispatcher(routes, meters);
        AlertEvent base = opened("monitor/a", Severity.WARNING);
        AlertEvent app = new AlertEvent(
                1,
                null,
                "app/checkout/db",
                null,
                AlertState.OPENED,
                Severity.WARNING,
                "checkout",
                null,
                "card 4111 declined for jane@example.test",
                Map.of(),
                Map.of("customer", "jane@example.test"),
                1,
                base.firstSeen(),
                base.lastSeen(),
                AlertSource.APP,
                false,
                List.of("betterstack", "slack", "made-up-1", "made-up-2"));
        Logger logger = (Logger) LoggerFactory.getLogger(Dispatcher.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        EventResult r;
        try {
            r = d.dispatch(app).block(Duration.ofSeconds(10));
        } finally {
            logger.detachAppender(lines);
        }
        assertThat(r.channels()).extracting(ChannelResult::channel).containsExactly("slack");
        assertThat(sent).containsExactly("slack:" + app.eventId());
        assertThat(meters.counter(Dispatcher.OVERRIDE_REFUSED, "channel", "betterstack")
                        .count())
                .isEqualTo(1.0);
        // names that are no channel share one tag value: the app cannot mint meters
        assertThat(meters.counter(Dispatcher.OVERRIDE_REFUSED, "channel", Dispatcher.UNCONFIGURED)
                        .count())
                .isEqualTo(2.0);
        assertThat(meters.find(Dispatcher.OVERRIDE_REFUSED).counters()).hasSize(2);
        assertThat(lines.list).singleElement().satisfies(l -> {
            assertThat(l.getLevel()).isEqualTo(Level.WARN);
            assertThat(l.getFormattedMessage())
                    .contains(app.eventId())
                    .contains("[betterstack, made-up-1, made-up-2]")
                    .doesNotContain("4111")
                    .doesNotContain("jane")
                    .doesNotContain("declined");
        });
    }

    @Test
    void routesAnAppMayNotBorrowAreCountedPerRouteAndThePageStillGoesOut() {
        Routes routes = new Routes(
                List.of(new Route(
                        "payments-critical", Set.of(Severity.CRITICAL), Set.of("payments"), Map.of(), List.of("log"))),
                standard(),
                Set.of("betterstack", "slack", "discord", "log"));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Dispatcher d = dispatcher(routes, meters);
        AlertEvent base = opened("monitor/a", Severity.CRITICAL);
        AlertEvent app = new AlertEvent(
                1,
                null,
                "app/checkout/db",
                null,
                AlertState.OPENED,
                Severity.CRITICAL,
                "payments",
                null,
                "payments down",
                Map.of(),
                Map.of(),
                1,
                base.firstSeen(),
                base.lastSeen(),
                AlertSource.APP,
                false,
                List.of());
        EventResult r = d.dispatch(app).block(Duration.ofSeconds(10));
        assertThat(r.channels()).extracting(ChannelResult::channel).containsExactly("betterstack", "slack", "discord");
        assertThat(r.route().refusedRoutes()).containsExactly("payments-critical");
        assertThat(meters.counter(Dispatcher.ROUTE_REFUSED, "route", "payments-critical")
                        .count())
                .isEqualTo(1.0);
        assertThat(meters.find(Dispatcher.OVERRIDE_REFUSED).counters()).isEmpty();
    }

    @Test
    void eventsWhoseOverrideIsHonouredCountNothing() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Dispatcher d =
                dispatcher(new Routes(List.of(), standard(), Set.of("betterstack", "slack", "discord", "log")), meters);
        AlertEvent probe =
                TestEvents.with(opened("monitor/a", Severity.WARNING), "svc", Map.of(), List.of("log"), false);
        assertThat(d.dispatch(probe).block(Duration.ofSeconds(10)).channels())
                .extracting(ChannelResult::channel)
                .containsExactly("log");
        assertThat(meters.find(Dispatcher.OVERRIDE_REFUSED).counters()).isEmpty();
    }

    @Test
    void criticalFansOutAndTheResultListsEveryChannel() {
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        EventResult r = dispatcher().dispatch(e).block(Duration.ofSeconds(10));
        assertThat(r.channels()).extracting(ChannelResult::channel).containsExactly("betterstack", "slack", "discord");
        assertThat(r.channels()).extracting(ChannelResult::outcome).containsOnly(FinalOutcome.DELIVERED);
        assertThat(sent).hasSize(3);
    }

    @Test
    void silencedIsRecordedAndNotPaged() {
        AlertEvent e = TestEvents.with(opened("monitor/a", Severity.CRITICAL), "svc", Map.of(), List.of(), true);
        EventResult r = dispatcher().dispatch(e).block(Duration.ofSeconds(10));
        assertThat(r.channels()).extracting(ChannelResult::outcome).containsOnly(FinalOutcome.SILENCED);
        assertThat(sent).isEmpty();
        assertThat(log.silenced)
                .containsExactly(e.eventId() + "|betterstack", e.eventId() + "|slack", e.eventId() + "|discord");
    }

    @Test
    void resolvedWaitsForItsOpenedOnEveryChannelWhileOtherIncidentsProceed() {
        Dispatcher d = dispatcher();
        AlertEvent opened = opened("monitor/a", Severity.CRITICAL);
        AlertEvent resolved = event("monitor/a", AlertState.RESOLVED, Severity.CRITICAL, 2);
        AlertEvent other = opened("monitor/b", Severity.WARNING);
        Sinks.One<DeliveryOutcome> slow = Sinks.one();
        holds.put("slack:" + opened.eventId(), slow);
        List<EventResult> results = new CopyOnWriteArrayList<>();
        d.dispatch(opened).subscribe(results::add);
        d.dispatch(resolved).subscribe(results::add);
        d.dispatch(other).subscribe(results::add);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> results.size() == 1);
        assertThat(results.get(0).eventId()).isEqualTo(other.eventId());
        assertThat(sent).noneMatch(s -> s.endsWith(resolved.eventId()));
        slow.tryEmitValue(new DeliveryOutcome.Delivered(200, null));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> results.size() == 3);
        assertThat(results)
                .extracting(EventResult::eventId)
                .containsExactly(other.eventId(), opened.eventId(), resolved.eventId());
    }

    @Test
    void anAppEventTheGateMutesIsRecordedNotPagedAndItsResolutionStillReachesTheChannelsPagedBefore() {
        Routes routes = new Routes(List.of(), standard(), Set.of("betterstack", "slack", "discord", "log"));
        java.util.concurrent.atomic.AtomicBoolean silenceOn = new java.util.concurrent.atomic.AtomicBoolean();
        Muting gate = e -> silenceOn.get() && e.state() != AlertState.RESOLVED
                ? java.util.Optional.of("silence db-work")
                : java.util.Optional.empty();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Dispatcher d = dispatcher(routes, meters, gate);
        AlertEvent opened = app("app/shop/payments", AlertState.OPENED, Severity.WARNING);
        assertThat(run(d, opened).channels()).extracting(ChannelResult::outcome).containsOnly(FinalOutcome.DELIVERED);

        silenceOn.set(true);
        AlertEvent reminder = app("app/shop/payments", AlertState.REMINDER, Severity.CRITICAL);
        EventResult muted = run(d, reminder);
        assertThat(muted.channels()).extracting(ChannelResult::outcome).containsOnly(FinalOutcome.SILENCED);
        assertThat(sent).noneMatch(s -> s.endsWith(":" + reminder.eventId()));
        assertThat(meters.counter(Dispatcher.MUTED, "reason", "silence").count())
                .isEqualTo(1.0);

        AlertEvent resolved = app("app/shop/payments", AlertState.RESOLVED, Severity.WARNING);
        EventResult r = run(d, resolved);
        assertThat(r.channels())
                .extracting(ChannelResult::channel, ChannelResult::outcome)
                .containsExactly(tuple("slack", FinalOutcome.DELIVERED), tuple("discord", FinalOutcome.DELIVERED));
    }

    private static AlertEvent app(String fingerprint, AlertState state, Severity severity) {
        return new AlertEvent(
                1,
                AlertEvent.appEventId(fingerprint, state),
                fingerprint,
                AlertEvent.incidentIdFor(fingerprint, TestEvents.T0),
                state,
                severity,
                "checkout",
                null,
                "payments failing",
                Map.of(),
                Map.of(),
                1,
                TestEvents.T0,
                TestEvents.T0 + 1000,
                AlertSource.APP,
                false,
                List.of());
    }

    /** An app's page of {@code app} that links to {@code monitor} ({@code attributes.monitor}). */
    private static AlertEvent linked(String app, AlertState state, String monitor) {
        String fp = "app/" + app + "/checkout/errors";
        return new AlertEvent(
                1,
                AlertEvent.appEventId(fp, state),
                fp,
                AlertEvent.incidentIdFor(fp, TestEvents.T0),
                state,
                Severity.CRITICAL,
                "checkout",
                null,
                "checkout errors above 5%",
                Map.of(),
                Map.of("app", app, "monitor", monitor),
                1,
                TestEvents.T0,
                TestEvents.T0 + 1000,
                AlertSource.APP,
                false,
                List.of());
    }

    private Dispatcher linking(List<dev.vigil.schemas.contract.IncidentNote> notes) {
        Routes routes = new Routes(
                List.of(),
                standard(),
                Set.of("betterstack", "slack", "discord", "log"),
                Map.of(),
                Map.of("billing", Set.of("checkout-api")),
                Map.of(),
                Map.of("shop", Set.of("api")));
        return dispatcher(routes, new SimpleMeterRegistry(), Muting.none(), e -> false, notes::add);
    }

    @Test
    void anAppsPageLinkedToAMonitorWithAnOpenIncidentFoldsIntoItAndPagesNobody() {
        List<dev.vigil.schemas.contract.IncidentNote> notes = new java.util.concurrent.CopyOnWriteArrayList<>();
        Dispatcher d = linking(notes);
        AlertEvent monitorPage = opened("monitor/api", Severity.CRITICAL);
        run(d, monitorPage);
        sent.clear();
        notes.clear();

        EventResult r = run(d, linked("shop", AlertState.OPENED, "api"));

        assertThat(sent).as("one outage, one page: the monitor's").isEmpty();
        assertThat(r.channels()).allSatisfy(c -> {
            assertThat(c.outcome()).isEqualTo(FinalOutcome.SILENCED);
            assertThat(c.reason()).isEqualTo("folded into monitor/api's open incident");
        });
        assertThat(notes)
                .filteredOn(n -> n.kind().equals("folded"))
                .singleElement()
                .satisfies(n -> {
                    assertThat(n.fingerprint()).isEqualTo("monitor/api");
                    assertThat(n.incidentId()).isEqualTo(monitorPage.incidentId());
                    assertThat(n.summary()).isEqualTo("app shop: checkout errors above 5%");
                });
        // the app's own resolution goes where the app's incident paged, which is nowhere: no channel hears of an
        // incident it was never told of
        EventResult resolved = run(d, linked("shop", AlertState.RESOLVED, "api"));
        assertThat(sent).isEmpty();
        assertThat(resolved.channels()).allSatisfy(c -> assertThat(c.outcome()).isEqualTo(FinalOutcome.SILENCED));
    }

    @Test
    void withoutAnOpenIncidentOrARightToTheMonitorTheAppPagesUnderItsOwnName() {
        Dispatcher d = linking(new java.util.concurrent.CopyOnWriteArrayList<>());
        AlertEvent first = linked("shop", AlertState.OPENED, "api");
        run(d, first);
        assertThat(sent).as("no monitor incident open").contains("betterstack:" + first.eventId());

        AlertEvent monitorPage = opened("monitor/db", Severity.CRITICAL);
        run(d, monitorPage);
        sent.clear();
        AlertEvent foreign = linked("shop", AlertState.REMINDER, "db");
        run(d, foreign);
        assertThat(sent).as("shop does not speak for monitor db").contains("betterstack:" + foreign.eventId());

        sent.clear();
        run(d, event("monitor/api", AlertState.OPENED, Severity.CRITICAL, 1));
        run(d, event("monitor/api", AlertState.RESOLVED, Severity.CRITICAL, 2));
        sent.clear();
        AlertEvent afterEnd = linked("shop", AlertState.ESCALATED, "api");
        run(d, afterEnd);
        assertThat(sent).as("the monitor's incident has ended").contains("betterstack:" + afterEnd.eventId());
    }

    @Test
    void anAppSpeaksForTheMonitorsOfItsServices() {
        List<dev.vigil.schemas.contract.IncidentNote> notes = new java.util.concurrent.CopyOnWriteArrayList<>();
        Dispatcher d = linking(notes);
        // TestEvents' monitor incidents are of service "checkout-api", which billing is granted
        run(d, opened("monitor/payments", Severity.CRITICAL));
        sent.clear();

        run(d, linked("billing", AlertState.OPENED, "payments"));

        assertThat(sent).isEmpty();
        assertThat(notes)
                .anyMatch(n -> n.kind().equals("folded") && n.fingerprint().equals("monitor/payments"));
    }

    private static AlertEvent silenced(AlertEvent e) {
        return TestEvents.with(e, e.service(), e.attributes(), e.channels(), true);
    }

    private EventResult run(Dispatcher d, AlertEvent e) {
        return d.dispatch(e).block(Duration.ofSeconds(10));
    }

    @Test
    void aSilencedResolutionIsDeliveredExactlyWhereItsIncidentWasPaged() {
        Dispatcher d = dispatcher();
        AlertEvent opened = opened("monitor/a", Severity.WARNING);
        assertThat(run(d, opened).channels()).extracting(ChannelResult::channel).containsExactly("slack", "discord");
        // a silence added since: the resolution is routed like a critical event, but owed only where the page went
        AlertEvent resolved = silenced(event("monitor/a", AlertState.RESOLVED, Severity.CRITICAL, 2));
        EventResult r = run(d, resolved);
        assertThat(r.channels())
                .extracting(ChannelResult::channel, ChannelResult::outcome)
                .containsExactly(
                        tuple("slack", FinalOutcome.DELIVERED),
                        tuple("discord", FinalOutcome.DELIVERED),
                        tuple("betterstack", FinalOutcome.SILENCED));
        assertThat(sent)
                .filteredOn(s -> s.endsWith(resolved.eventId()))
                .containsExactlyInAnyOrder("slack:" + resolved.eventId(), "discord:" + resolved.eventId());
        assertThat(log.silenced).containsExactly(resolved.eventId() + "|betterstack");
    }

    @Test
    void aSilencedResolutionOfAnIncidentNeverPagedIsRecordedNotSent() {
        Dispatcher d = dispatcher();
        AlertEvent opened = silenced(opened("monitor/a", Severity.CRITICAL));
        AlertEvent resolved = silenced(event("monitor/a", AlertState.RESOLVED, Severity.CRITICAL, 2));
        run(d, opened);
        EventResult r = run(d, resolved);
        assertThat(r.channels()).extracting(ChannelResult::channel).containsExactly("betterstack", "slack", "discord");
        assertThat(r.channels()).extracting(ChannelResult::outcome).containsOnly(FinalOutcome.SILENCED);
        assertThat(sent).isEmpty();
        assertThat(log.silenced)
                .containsExactly(
                        opened.eventId() + "|betterstack",
                        opened.eventId() + "|slack",
                        opened.eventId() + "|discord",
                        resolved.eventId() + "|betterstack",
                        resolved.eventId() + "|slack",
                        resolved.eventId() + "|discord");
    }

    @Test
    void aSilencedResolutionSkipsAChannelItsOpenedNeverReached() {
        Dispatcher d = dispatcher();
        AlertEvent opened = opened("monitor/a", Severity.CRITICAL);
        answers.put("slack:" + opened.eventId(), new DeliveryOutcome.Permanent("slack answered HTTP 404", 404));
        assertThat(run(d, opened).channels())
                .extracting(ChannelResult::outcome)
                .containsExactly(FinalOutcome.DELIVERED, FinalOutcome.DEAD_LETTERED, FinalOutcome.DELIVERED);
        AlertEvent resolved = silenced(event("monitor/a", AlertState.RESOLVED, Severity.CRITICAL, 2));
        EventResult r = run(d, resolved);
        assertThat(r.channels())
                .extracting(ChannelResult::channel, ChannelResult::outcome)
                .containsExactly(
                        tuple("betterstack", FinalOutcome.DELIVERED),
                        tuple("discord", FinalOutcome.DELIVERED),
                        tuple("slack", FinalOutcome.SILENCED));
        assertThat(sent).doesNotContain("slack:" + resolved.eventId());
    }

    @Test
    void aResolutionAlsoReachesAChannelAnEarlierPageReachedOutsideItsRoute() {
        Dispatcher d = dispatcher();
        run(d, opened("monitor/a", Severity.WARNING));
        AlertEvent escalated = event("monitor/a", AlertState.ESCALATED, Severity.CRITICAL, 2);
        run(d, escalated);
        // the resolution carries the warning severity again, whose route has no betterstack
        AlertEvent resolved = event("monitor/a", AlertState.RESOLVED, Severity.WARNING, 3);
        EventResult r = run(d, resolved);
        assertThat(r.channels())
                .extracting(ChannelResult::channel, ChannelResult::outcome)
                .containsExactly(
                        tuple("slack", FinalOutcome.DELIVERED),
                        tuple("discord", FinalOutcome.DELIVERED),
                        tuple("betterstack", FinalOutcome.DELIVERED));
        assertThat(r.route().reason()).isEqualTo("default:warning + paged [betterstack]");
    }

    @Test
    void aSilencedResolutionNamingAnotherFingerprintsIncidentReachesNone() {
        Dispatcher d = dispatcher();
        AlertEvent opened = opened("monitor/a", Severity.CRITICAL);
        run(d, opened);
        // an app's event claiming monitor/a's incident from its own namespace finds no page of it
        AlertEvent forged = new AlertEvent(
                1,
                null,
                "app/demo/monitor/a",
                opened.incidentId(),
                AlertState.RESOLVED,
                Severity.CRITICAL,
                "demo",
                null,
                "all good",
                Map.of(),
                Map.of(),
                1,
                opened.firstSeen(),
                opened.lastSeen(),
                AlertSource.APP,
                true,
                List.of());
        EventResult r = run(d, forged);
        assertThat(r.channels()).extracting(ChannelResult::outcome).containsOnly(FinalOutcome.SILENCED);
        assertThat(sent).noneMatch(s -> s.endsWith(forged.eventId()));
    }

    @Test
    void aSilencedResolutionWaitsForItsOpenedAndThenGoesWhereItWasDelivered() {
        Dispatcher d = dispatcher();
        AlertEvent opened = opened("monitor/a", Severity.CRITICAL);
        AlertEvent resolved = silenced(event("monitor/a", AlertState.RESOLVED, Severity.CRITICAL, 2));
        Sinks.One<DeliveryOutcome> slow = Sinks.one();
        holds.put("slack:" + opened.eventId(), slow);
        List<EventResult> results = new CopyOnWriteArrayList<>();
        d.dispatch(opened).subscribe(results::add);
        d.dispatch(resolved).subscribe(results::add);
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() ->
                        sent.contains("discord:" + opened.eventId()) && sent.contains("slack:" + opened.eventId()));
        assertThat(results).isEmpty();
        assertThat(sent).noneMatch(s -> s.endsWith(resolved.eventId()));
        slow.tryEmitValue(new DeliveryOutcome.Delivered(200, null));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> results.size() == 2);
        assertThat(results.get(1).channels()).extracting(ChannelResult::outcome).containsOnly(FinalOutcome.DELIVERED);
        assertThat(sent).filteredOn(s -> s.endsWith(resolved.eventId())).hasSize(3);
    }

    @Test
    void anAcknowledgementGoesOnlyWhereAPageOfItsIncidentWasDelivered() {
        Dispatcher d = dispatcher();
        AlertEvent opened = opened("monitor/a", Severity.CRITICAL);
        answers.put("slack:" + opened.eventId(), new DeliveryOutcome.Permanent("slack answered HTTP 404", 404));
        assertThat(run(d, opened).channels())
                .extracting(ChannelResult::outcome)
                .containsExactly(FinalOutcome.DELIVERED, FinalOutcome.DEAD_LETTERED, FinalOutcome.DELIVERED);
        AlertEvent ack = TestEvents.acknowledged(opened, "alice", TestEvents.T0 + 120_000);
        EventResult r = run(d, ack);
        assertThat(r.channels())
                .extracting(ChannelResult::channel, ChannelResult::outcome)
                .containsExactly(
                        tuple("betterstack", FinalOutcome.DELIVERED),
                        tuple("discord", FinalOutcome.DELIVERED),
                        tuple("slack", FinalOutcome.SILENCED));
        assertThat(r.channels().get(2).reason()).isEqualTo(Dispatcher.NOT_PAGED);
        assertThat(sent)
                .filteredOn(s -> s.endsWith(ack.eventId()))
                .containsExactlyInAnyOrder("betterstack:" + ack.eventId(), "discord:" + ack.eventId());
        assertThat(log.silenced).containsExactly(ack.eventId() + "|slack");
        // a notice is no page: the resolution is owed to the same channels, not more
        assertThat(log.pagedChannels(opened.incidentId(), opened.fingerprint()).block())
                .containsExactlyInAnyOrder("betterstack", "discord");
    }

    @Test
    void anAcknowledgementReachesAChannelOnlyAnEscalationPagedAndNoneOutsideThePages() {
        Dispatcher d = dispatcher();
        AlertEvent opened = opened("monitor/a", Severity.WARNING);
        run(d, opened);
        run(d, event("monitor/a", AlertState.ESCALATED, Severity.CRITICAL, 2));
        // routed like an info event (log only), owed to every channel a page reached
        AlertEvent ack = TestEvents.acknowledged(
                event("monitor/a", AlertState.OPENED, Severity.INFO, 1), "bob", TestEvents.T0 + 300_000);
        EventResult r = run(d, ack);
        assertThat(r.channels())
                .extracting(ChannelResult::channel, ChannelResult::outcome)
                .containsExactly(
                        tuple("betterstack", FinalOutcome.DELIVERED), tuple("discord", FinalOutcome.DELIVERED),
                        tuple("slack", FinalOutcome.DELIVERED), tuple("log", FinalOutcome.SILENCED));
        assertThat(r.route().reason()).isEqualTo("acknowledgement: paged [betterstack, discord, slack]");
        assertThat(sent).doesNotContain("log:" + ack.eventId());
    }

    @Test
    void anAcknowledgementOfAnIncidentNeverPagedIsSentNowhere() {
        Dispatcher d = dispatcher();
        AlertEvent opened = silenced(opened("monitor/a", Severity.CRITICAL));
        run(d, opened);
        AlertEvent ack = TestEvents.acknowledged(opened, "alice", TestEvents.T0 + 120_000);
        EventResult r = run(d, ack);
        assertThat(r.channels()).extracting(ChannelResult::channel).containsExactly("betterstack", "slack", "discord");
        assertThat(r.channels()).extracting(ChannelResult::outcome).containsOnly(FinalOutcome.SILENCED);
        assertThat(sent).isEmpty();
        assertThat(log.silenced)
                .contains(ack.eventId() + "|betterstack", ack.eventId() + "|slack", ack.eventId() + "|discord");

        // nor does one pairing another fingerprint with a paged incident's id reach anything
        AlertEvent paged = opened("monitor/b", Severity.CRITICAL);
        run(d, paged);
        AlertEvent forged = new AlertEvent(
                1,
                paged.incidentId() + "/acknowledged/1",
                "app/demo/monitor/b",
                paged.incidentId(),
                AlertState.ACKNOWLEDGED,
                Severity.CRITICAL,
                "demo",
                null,
                "Acknowledged by mallory",
                Map.of(),
                Map.of("acknowledgedBy", "mallory"),
                1,
                paged.firstSeen(),
                paged.lastSeen(),
                AlertSource.APP,
                false,
                List.of());
        assertThat(run(d, forged).channels()).extracting(ChannelResult::outcome).containsOnly(FinalOutcome.SILENCED);
        assertThat(sent).noneMatch(s -> s.endsWith(forged.eventId()));
    }

    @Test
    void anAcknowledgementWaitsForItsOpenedAndTheResolutionWaitsForIt() {
        Dispatcher d = dispatcher();
        AlertEvent opened = opened("monitor/a", Severity.CRITICAL);
        AlertEvent ack = TestEvents.acknowledged(opened, "alice", TestEvents.T0 + 120_000);
        AlertEvent resolved = event("monitor/a", AlertState.RESOLVED, Severity.CRITICAL, 2);
        Sinks.One<DeliveryOutcome> slowOpen = Sinks.one();
        Sinks.One<DeliveryOutcome> slowAck = Sinks.one();
        holds.put("slack:" + opened.eventId(), slowOpen);
        holds.put("discord:" + ack.eventId(), slowAck);
        List<EventResult> results = new CopyOnWriteArrayList<>();
        d.dispatch(opened).subscribe(results::add);
        d.dispatch(ack).subscribe(results::add);
        d.dispatch(resolved).subscribe(results::add);
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() ->
                        sent.contains("discord:" + opened.eventId()) && sent.contains("slack:" + opened.eventId()));
        assertThat(results).isEmpty();
        assertThat(sent).noneMatch(s -> s.endsWith(ack.eventId()) || s.endsWith(resolved.eventId()));

        slowOpen.tryEmitValue(new DeliveryOutcome.Delivered(200, null));
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> sent.contains("discord:" + ack.eventId()));
        assertThat(results).extracting(EventResult::eventId).containsExactly(opened.eventId());
        assertThat(sent).noneMatch(s -> s.endsWith(resolved.eventId()));

        slowAck.tryEmitValue(new DeliveryOutcome.Delivered(200, null));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> results.size() == 3);
        assertThat(results)
                .extracting(EventResult::eventId)
                .containsExactly(opened.eventId(), ack.eventId(), resolved.eventId());
        assertThat(results.get(1).channels()).extracting(ChannelResult::outcome).containsOnly(FinalOutcome.DELIVERED);
        assertThat(results.get(2).channels()).extracting(ChannelResult::outcome).containsOnly(FinalOutcome.DELIVERED);
    }

    private static final String SLACK_FAILING = "notifier/delivery-failing/slack";

    @Test
    void aChannelThatDeliversAgainResolvesItsDeliveryFailingAlertOnTheOthersOnce() {
        Dispatcher d = dispatcher();
        AlertEvent lost = opened("monitor/a", Severity.CRITICAL);
        answers.put("slack:" + lost.eventId(), new DeliveryOutcome.Permanent("slack answered HTTP 404", 404));
        run(d, lost);
        AlertEvent failing = escalations.raised.get(0);
        assertThat(escalations.raised).singleElement().satisfies(a -> {
            assertThat(a.eventId()).isEqualTo(SLACK_FAILING + "/opened");
            assertThat(a.channels()).containsExactly("betterstack", "discord");
        });
        // the alerts topic hands it back to the dispatcher
        assertThat(run(d, failing).channels())
                .extracting(ChannelResult::channel, ChannelResult::outcome)
                .containsExactly(
                        tuple("betterstack", FinalOutcome.DELIVERED), tuple("discord", FinalOutcome.DELIVERED));

        run(d, opened("monitor/b", Severity.WARNING)); // slack delivers again
        assertThat(escalations.raised).hasSize(2);
        AlertEvent resolved = escalations.raised.get(1);
        assertThat(resolved.state()).isEqualTo(AlertState.RESOLVED);
        assertThat(resolved.fingerprint()).isEqualTo(SLACK_FAILING);
        assertThat(resolved.eventId()).isEqualTo(SLACK_FAILING + "/resolved");
        assertThat(resolved.incidentId()).isEqualTo(failing.incidentId());
        assertThat(resolved.firstSeen()).isEqualTo(failing.firstSeen());
        assertThat(resolved.channels()).containsExactly("betterstack", "discord");
        assertThat(resolved.summary()).isEqualTo("Notifications to channel slack are delivered again");
        assertThat(run(d, resolved).channels())
                .extracting(ChannelResult::channel, ChannelResult::outcome)
                .containsExactly(
                        tuple("betterstack", FinalOutcome.DELIVERED), tuple("discord", FinalOutcome.DELIVERED));
        assertThat(log.failing).isEmpty();

        run(d, opened("monitor/c", Severity.WARNING)); // a second success: nothing is open any more
        assertThat(escalations.raised).hasSize(2);
    }

    @Test
    void whileOpenEveryFailureRaisesTheSameAlertAndASuccessBeforeItWasDispatchedWaitsForTheNext() {
        Dispatcher d = dispatcher();
        AlertEvent lost = opened("monitor/a", Severity.CRITICAL);
        AlertEvent lostToo = opened("monitor/b", Severity.WARNING);
        answers.put("slack:" + lost.eventId(), new DeliveryOutcome.Permanent("slack answered HTTP 404", 404));
        answers.put("slack:" + lostToo.eventId(), new DeliveryOutcome.Permanent("slack answered HTTP 404", 404));
        run(d, lost);
        run(d, lostToo);
        assertThat(escalations.raised).hasSize(2).allSatisfy(a -> {
            assertThat(a.eventId()).isEqualTo(SLACK_FAILING + "/opened");
            assertThat(a.incidentId()).isEqualTo(escalations.raised.get(0).incidentId());
            assertThat(a.channels()).containsExactly("betterstack", "discord");
        });
        // its opened is not on the topic's far side yet: a resolution now could overtake it
        run(d, opened("monitor/c", Severity.WARNING));
        assertThat(escalations.raised).hasSize(2);
        run(d, escalations.raised.get(0));
        run(d, opened("monitor/d", Severity.WARNING));
        assertThat(escalations.raised).hasSize(3);
        assertThat(escalations.raised.get(2).eventId()).isEqualTo(SLACK_FAILING + "/resolved");
        assertThat(escalations.raised.get(2).incidentId())
                .isEqualTo(escalations.raised.get(0).incidentId());
    }

    @Test
    void theNotifiersOwnAlertFailingOpensNoFailingAlert() {
        Dispatcher d = dispatcher();
        AlertEvent own = DeliveryFailing.alert(
                opened("monitor/a", Severity.CRITICAL), "discord", "x", List.of("slack"), TestEvents.T0);
        answers.put("slack:" + own.eventId(), new DeliveryOutcome.Permanent("slack answered HTTP 404", 404));
        run(d, own);
        assertThat(escalations.raised).isEmpty();
        assertThat(log.failing).isEmpty();
    }
}
