package dev.vigil.notifier.core;

import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.vigil.notifier.support.MemoryDeliveryLog;
import dev.vigil.notifier.support.RecordingEscalations;
import dev.vigil.notifier.support.TestEvents;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * Grouping in the core: the group wait runs on virtual time, so what arrives "within the wait" is exactly what was
 * dispatched before the clock is moved on.
 */
class GroupingTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private final VirtualTimeScheduler waitClock = VirtualTimeScheduler.create();
    private final MemoryDeliveryLog log = new MemoryDeliveryLog();
    private final RecordingEscalations escalations = new RecordingEscalations();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    /** channel → every notification it was asked to send */
    private final Map<String, List<Notification>> sent = new LinkedHashMap<>();
    /** what the chat channel answers next (delivered when empty) */
    private final Queue<DeliveryOutcome> chatAnswers = new ConcurrentLinkedQueue<>();

    @AfterEach
    void dispose() {
        waitClock.dispose();
    }

    private static Routes routes(Grouping group) {
        Map<Severity, List<String>> d = new EnumMap<>(Severity.class);
        d.put(Severity.CRITICAL, List.of("betterstack", "slack"));
        d.put(Severity.WARNING, List.of("slack"));
        d.put(Severity.INFO, List.of("log"));
        Route grouped = new Route(
                "grouped", Set.of(), Set.of(), Map.of(), List.of("betterstack", "slack", "log"), List.of(), group);
        return new Routes(List.of(grouped), d, Set.of("betterstack", "slack", "log"));
    }

    private Dispatcher dispatcher(Routes routes) {
        RetryPolicy policy =
                new RetryPolicy(Duration.ofMillis(1), 2, Duration.ofMillis(10), Duration.ofHours(1), () -> 0.5);
        Map<String, ChannelPipeline> pipelines = new LinkedHashMap<>();
        for (String ch : routes.channels()) {
            List<Notification> mine = new CopyOnWriteArrayList<>();
            sent.put(ch, mine);
            boolean chat = ch.equals("slack");
            Notifier n = new Notifier() {
                @Override
                public Mono<DeliveryOutcome> send(Notification notification) {
                    mine.add(notification);
                    DeliveryOutcome answer = chat ? chatAnswers.poll() : null;
                    return Mono.just(answer != null ? answer : new DeliveryOutcome.Delivered(200, null));
                }

                @Override
                public boolean rendersGroups() {
                    // as the adapters: chat renders groups, incident-keeping vendors and the log do not
                    return chat;
                }
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
                            meters));
        }
        return new Dispatcher(routes, pipelines, log, waitClock, meters);
    }

    private static AlertEvent monitor(int i, AlertState state, String service) {
        AlertEvent e = event("monitor/" + service + "-" + i, state, Severity.CRITICAL, 1);
        return TestEvents.with(e, service, e.attributes(), e.channels(), false);
    }

    private static List<AlertEvent> monitors(int n, AlertState state, String service) {
        List<AlertEvent> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(monitor(i, state, service));
        }
        return out;
    }

    /** Dispatches every event now and returns their results once the wait has been let run out. */
    private List<EventResult> dispatchAndWait(Dispatcher d, Collection<AlertEvent> events) {
        Mono<List<EventResult>> all =
                Flux.fromIterable(events).flatMap(d::dispatch).collectList().cache();
        all.subscribe();
        await().until(() -> d.waitingInGroups() == events.size());
        waitClock.advanceTimeBy(WAIT);
        return all.block(Duration.ofSeconds(10));
    }

    private List<Notification> slack() {
        return sent.get("slack");
    }

    private List<String> ids(Collection<AlertEvent> events) {
        return events.stream().map(AlertEvent::eventId).toList();
    }

    @Test
    void fiftyMonitorsOfOneServiceOpeningWithinTheWaitMakeOneSlackMessageAndFiftyBetterStackIncidents() {
        Dispatcher d = dispatcher(routes(new Grouping(null, WAIT)));
        List<AlertEvent> opened = monitors(50, AlertState.OPENED, "checkout-api");

        List<EventResult> results = dispatchAndWait(d, opened);

        assertThat(slack()).hasSize(1);
        Notification message = slack().get(0);
        assertThat(message.isGroup()).isTrue();
        assertThat(ids(message.group())).containsExactlyInAnyOrderElementsOf(ids(opened));
        // one incident per fingerprint where incidents are kept, and the log line per event too
        assertThat(sent.get("betterstack")).hasSize(50).noneMatch(Notification::isGroup);
        assertThat(ids(sent.get("betterstack").stream().map(Notification::event).toList()))
                .containsExactlyInAnyOrderElementsOf(ids(opened));
        assertThat(sent.get("log")).hasSize(50);
        assertThat(results).allSatisfy(r -> assertThat(r.channels())
                .extracting(ChannelResult::outcome)
                .containsOnly(FinalOutcome.DELIVERED));
        // every event's claim on slack was settled by the one message, which names itself on each attempt
        List<Attempt> slackAttempts =
                log.attempts.stream().filter(a -> a.channel().equals("slack")).toList();
        assertThat(slackAttempts).hasSize(50).extracting(Attempt::groupId).containsOnly(message.groupId());
        assertThat(message.groupId()).isNotNull();
        assertThat(log.attempts.stream().filter(a -> a.channel().equals("betterstack")))
                .hasSize(50)
                .allMatch(a -> a.groupId() == null);
        assertThat(meters.counter(ChannelPipeline.GROUP_MESSAGES, "channel", "slack")
                        .count())
                .isEqualTo(1.0);
        assertThat(meters.counter(ChannelPipeline.GROUP_EVENTS, "channel", "slack")
                        .count())
                .isEqualTo(50.0);
    }

    @Test
    void laterChangesGroupTheSameWayWhileEachIncidentResolvesOnItsOwn() {
        Dispatcher d = dispatcher(routes(new Grouping(null, WAIT)));
        dispatchAndWait(d, monitors(20, AlertState.OPENED, "checkout-api"));
        List<AlertEvent> resolved = monitors(20, AlertState.RESOLVED, "checkout-api");

        dispatchAndWait(d, resolved);

        assertThat(slack()).hasSize(2);
        assertThat(slack().get(1).group())
                .hasSize(20)
                .extracting(AlertEvent::state)
                .containsOnly(AlertState.RESOLVED);
        assertThat(sent.get("betterstack").stream()
                        .filter(n -> n.event().state() == AlertState.RESOLVED)
                        .map(n -> n.event().eventId()))
                .containsExactlyInAnyOrderElementsOf(ids(resolved));
    }

    @Test
    void aGroupOfOneIsTheOrdinaryMessage() {
        Dispatcher d = dispatcher(routes(new Grouping(null, WAIT)));
        AlertEvent only = monitor(1, AlertState.OPENED, "checkout-api");

        dispatchAndWait(d, List.of(only));

        assertThat(slack()).hasSize(1);
        assertThat(slack().get(0).isGroup()).isFalse();
        assertThat(slack().get(0).event().eventId()).isEqualTo(only.eventId());
        assertThat(log.attempts.stream().filter(a -> a.channel().equals("slack")))
                .singleElement()
                .extracting(Attempt::groupId)
                .isNull();
    }

    @Test
    void eachServiceOrLabelValueIsAGroupOfItsOwn() {
        Dispatcher d = dispatcher(routes(new Grouping(List.of("service", "region"), WAIT)));
        List<AlertEvent> events = new ArrayList<>(monitors(3, AlertState.OPENED, "checkout-api"));
        events.addAll(monitors(4, AlertState.OPENED, "payments"));
        AlertEvent elsewhere = monitor(9, AlertState.OPENED, "payments");
        events.add(TestEvents.with(elsewhere, "payments", Map.of("region", "eu-west"), List.of(), false));

        dispatchAndWait(d, events);

        assertThat(slack()).extracting(n -> n.isGroup() ? n.group().size() : 1).containsExactlyInAnyOrder(3, 4, 1);
    }

    @Test
    void aRouteWithoutGroupingSendsOneMessagePerEvent() {
        Dispatcher d = dispatcher(routes(null));
        List<AlertEvent> events = monitors(5, AlertState.OPENED, "checkout-api");

        List<EventResult> results =
                Flux.fromIterable(events).flatMap(d::dispatch).collectList().block(Duration.ofSeconds(10));

        assertThat(results).hasSize(5);
        assertThat(slack()).hasSize(5).noneMatch(Notification::isGroup);
    }

    @Test
    void anAcknowledgementIsNotHeldInTheWait() {
        Dispatcher d = dispatcher(routes(new Grouping(null, WAIT)));
        AlertEvent page = monitor(1, AlertState.OPENED, "checkout-api");
        dispatchAndWait(d, List.of(page));

        EventResult ack = d.dispatch(TestEvents.acknowledged(page, "ana", TestEvents.T0 + 1))
                .block(Duration.ofSeconds(10));

        assertThat(ack.channels()).extracting(ChannelResult::outcome).contains(FinalOutcome.DELIVERED);
        assertThat(slack()).hasSize(2);
    }

    @Test
    void eventsAlreadyDeliveredAreFoldedAndTheRestGoOutTogether() {
        Dispatcher d = dispatcher(routes(new Grouping(null, WAIT)));
        List<AlertEvent> first = monitors(3, AlertState.OPENED, "checkout-api");
        dispatchAndWait(d, first);
        List<AlertEvent> again = new ArrayList<>(first);
        List<AlertEvent> fresh = new ArrayList<>();
        for (int i = 10; i < 12; i++) {
            fresh.add(monitor(i, AlertState.OPENED, "checkout-api"));
        }
        again.addAll(fresh);

        List<EventResult> results = dispatchAndWait(d, again);

        assertThat(slack()).hasSize(2);
        assertThat(ids(slack().get(1).group())).containsExactlyInAnyOrderElementsOf(ids(fresh));
        assertThat(results.stream()
                        .filter(r -> ids(first).contains(r.eventId()))
                        .flatMap(r -> r.channels().stream())
                        .filter(c -> c.channel().equals("slack")))
                .extracting(ChannelResult::outcome)
                .containsOnly(FinalOutcome.DEDUPLICATED);
    }

    @Test
    void aTransientFailureRetriesTheWholeGroupAndDeliversEachEventOnce() {
        Dispatcher d = dispatcher(routes(new Grouping(null, WAIT)));
        chatAnswers.add(new DeliveryOutcome.Transient("503 from slack", null, 503));
        List<AlertEvent> events = monitors(10, AlertState.OPENED, "checkout-api");

        List<EventResult> results = dispatchAndWait(d, events);

        assertThat(slack()).hasSize(2).allMatch(n -> n.group().size() == 10);
        assertThat(results)
                .flatExtracting(EventResult::channels)
                .filteredOn(c -> c.channel().equals("slack"))
                .extracting(ChannelResult::outcome)
                .containsOnly(FinalOutcome.DELIVERED);
        assertThat(log.attempts.stream()
                        .filter(a -> a.channel().equals("slack") && a.outcome().equals("delivered"))
                        .map(Attempt::eventId))
                .containsExactlyInAnyOrderElementsOf(ids(events));
    }

    @Test
    void aPermanentFailureDeadLettersEveryEventOfTheGroup() {
        Dispatcher d = dispatcher(routes(new Grouping(null, WAIT)));
        chatAnswers.add(new DeliveryOutcome.Permanent("404 from slack", 404));
        List<AlertEvent> events = monitors(4, AlertState.OPENED, "checkout-api");

        List<EventResult> results = dispatchAndWait(d, events);

        assertThat(results)
                .flatExtracting(EventResult::channels)
                .filteredOn(c -> c.channel().equals("slack"))
                .extracting(ChannelResult::outcome)
                .containsOnly(FinalOutcome.DEAD_LETTERED)
                .hasSize(4);
        assertThat(slack()).hasSize(1);
    }

    @Test
    void aFullGroupGoesAtOnceAndTheRestOfTheBurstStartsTheNext() {
        Dispatcher d = dispatcher(routes(new Grouping(null, WAIT)));
        List<AlertEvent> burst = monitors(Grouping.MAX_EVENTS + 20, AlertState.OPENED, "checkout-api");
        Mono<List<EventResult>> all =
                Flux.fromIterable(burst).flatMap(d::dispatch).collectList().cache();
        all.subscribe();

        // the first full group does not wait for the clock
        await().until(() -> slack().size() == 1 && d.waitingInGroups() == 20);
        waitClock.advanceTimeBy(WAIT);

        assertThat(all.block(Duration.ofSeconds(10))).hasSize(Grouping.MAX_EVENTS + 20);
        assertThat(slack()).extracting(n -> n.group().size()).containsExactly(Grouping.MAX_EVENTS, 20);
    }

    @Test
    void aStoppingNotifierSendsWhatWaitsAtOnceAndWaitsNoMore() {
        Dispatcher d = dispatcher(routes(new Grouping(null, WAIT)));
        List<AlertEvent> waiting = monitors(5, AlertState.OPENED, "checkout-api");
        Mono<List<EventResult>> all =
                Flux.fromIterable(waiting).flatMap(d::dispatch).collectList().cache();
        all.subscribe();
        await().until(() -> d.waitingInGroups() == 5);

        d.sendWaitingGroups();

        // no time passed on the wait's clock
        assertThat(all.block(Duration.ofSeconds(10))).hasSize(5);
        assertThat(slack()).singleElement().satisfies(n -> assertThat(n.group()).hasSize(5));
        AlertEvent later = monitor(9, AlertState.OPENED, "checkout-api");
        assertThat(d.dispatch(later).block(Duration.ofSeconds(10)).channels())
                .extracting(ChannelResult::outcome)
                .containsOnly(FinalOutcome.DELIVERED);
        assertThat(slack()).hasSize(2);
    }

    @Test
    void aGroupedRouteCarriesItsGroupingIntoTheDecision() {
        // by defaults to the service
        assertThat(routes(new Grouping(null, WAIT))
                        .route(opened("monitor/x", Severity.CRITICAL))
                        .group())
                .isEqualTo(new Grouping(List.of("service"), WAIT));
    }
}
