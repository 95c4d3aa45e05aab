package dev.vigil.notifier.core;

import static dev.vigil.notifier.support.TestEvents.event;
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
 * One pipeline per route shape: a route to one channel, a fan-out to several, and a grouped chat route. Each is
 * printed as the start-up log prints it and then run through the dispatcher, so the printed stages are the ones
 * that deliver.
 */
class RoutePlansTest {
    private static final String STAGES = "lane \u2192 claim \u2192 send \u2192 retry \u2192 settle \u2192 dead-letter";
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final VirtualTimeScheduler waitClock = VirtualTimeScheduler.create();
    private final MemoryDeliveryLog log = new MemoryDeliveryLog();
    private final RecordingEscalations escalations = new RecordingEscalations();
    private final Map<String, List<Notification>> sent = new LinkedHashMap<>();
    /** What slack answers next (delivered when empty). */
    private final Queue<DeliveryOutcome> slackAnswers = new ConcurrentLinkedQueue<>();

    private final Routes routes = routes();
    private final Map<String, ChannelPipeline> pipelines = pipelines();
    private final Dispatcher dispatcher = new Dispatcher(routes, pipelines, log, waitClock, new SimpleMeterRegistry());

    @AfterEach
    void dispose() {
        waitClock.dispose();
    }

    /** db's pages to the log alone; critical pages to betterstack and slack; warnings grouped on slack and the log. */
    private static Routes routes() {
        Map<Severity, List<String>> d = new EnumMap<>(Severity.class);
        d.put(Severity.CRITICAL, List.of("betterstack", "slack"));
        d.put(Severity.WARNING, List.of("slack"));
        d.put(Severity.INFO, List.of("log"));
        Route db = new Route("db", Set.of(), Set.of("db"), Map.of(), List.of("log"));
        Route critical =
                new Route("critical", Set.of(Severity.CRITICAL), Set.of(), Map.of(), List.of("betterstack", "slack"));
        Route chat = new Route(
                "chat",
                Set.of(Severity.WARNING),
                Set.of(),
                Map.of(),
                List.of("slack", "log"),
                List.of(),
                new Grouping(null, WAIT));
        return new Routes(List.of(db, critical, chat), d, Set.of("betterstack", "slack", "log"));
    }

    private Map<String, ChannelPipeline> pipelines() {
        RetryPolicy policy =
                new RetryPolicy(Duration.ofMillis(1), 2, Duration.ofMillis(10), Duration.ofHours(1), () -> 0.5);
        Map<String, ChannelPipeline> out = new LinkedHashMap<>();
        for (String ch : List.of("betterstack", "slack", "log")) {
            List<Notification> mine = new CopyOnWriteArrayList<>();
            sent.put(ch, mine);
            boolean chat = ch.equals("slack");
            Notifier n = new Notifier() {
                @Override
                public Mono<DeliveryOutcome> send(Notification notification) {
                    mine.add(notification);
                    DeliveryOutcome answer = chat ? slackAnswers.poll() : null;
                    return Mono.just(answer != null ? answer : new DeliveryOutcome.Delivered(200, null));
                }

                @Override
                public boolean rendersGroups() {
                    return chat;
                }
            };
            out.put(
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
        return out;
    }

    private static AlertEvent of(String fingerprint, Severity severity, String service) {
        AlertEvent e = event(fingerprint, AlertState.OPENED, severity, 1);
        return TestEvents.with(e, service, e.attributes(), e.channels(), false);
    }

    private static List<FinalOutcome> outcomes(EventResult r) {
        return r.channels().stream().map(ChannelResult::outcome).toList();
    }

    @Test
    void everyRouteAndSeverityDefaultIsPrintedAsItsStages() {
        assertThat(RoutePlans.describe(routes, pipelines))
                .containsExactly(
                        "route db = fold \u2192 gate \u2192 fanout[log] \u2192 " + STAGES,
                        "route critical = fold \u2192 gate \u2192 fanout[betterstack, slack] \u2192 " + STAGES,
                        "route chat = fold \u2192 gate \u2192 fanout[slack, log] \u2192 group-wait[slack] \u2192 "
                                + STAGES,
                        "route default:critical = fold \u2192 gate \u2192 fanout[betterstack, slack] \u2192 " + STAGES,
                        "route default:warning = fold \u2192 gate \u2192 fanout[slack] \u2192 " + STAGES,
                        "route default:info = fold \u2192 gate \u2192 fanout[log] \u2192 " + STAGES);
        assertThat(pipelines.get("slack").stages().names())
                .containsExactly("lane", "claim", "send", "retry", "settle", "dead-letter");
        assertThat(pipelines.get("slack")).hasToString("slack: " + STAGES);
    }

    @Test
    void aRouteThatEscalatesPrintsItsTiersAfterItsPath() {
        Route oncall = new Route(
                "oncall",
                Set.of(Severity.CRITICAL),
                Set.of(),
                Map.of(),
                List.of("slack"),
                List.of(
                        new Tier(2, Duration.ofMinutes(5), List.of("betterstack")),
                        new Tier(3, Duration.ofMinutes(15), List.of("betterstack", "log"))));
        Routes withClimb = new Routes(
                List.of(oncall),
                Map.of(
                        Severity.CRITICAL,
                        List.of("slack"),
                        Severity.WARNING,
                        List.of("slack"),
                        Severity.INFO,
                        List.of("log")),
                Set.of("betterstack", "slack", "log"));

        assertThat(RoutePlans.describe(withClimb, pipelines).get(0))
                .isEqualTo("route oncall = fold \u2192 gate \u2192 fanout[slack] \u2192 " + STAGES
                        + " \u21e2 unacknowledged: tier 2 after 5m [betterstack], tier 3 after 15m [betterstack, log]");
        // a severity default never climbs
        assertThat(RoutePlans.describe(withClimb, pipelines).get(1)).doesNotContain("unacknowledged");
    }

    @Test
    void aSingleChannelRouteDeliversOnceAndFoldsARedelivery() {
        AlertEvent e = of("monitor/db-1", Severity.CRITICAL, "db");

        EventResult first = dispatcher.dispatch(e).block(Duration.ofSeconds(10));
        EventResult again = dispatcher.dispatch(e).block(Duration.ofSeconds(10));

        assertThat(first.route().channels()).containsExactly("log");
        assertThat(outcomes(first)).containsExactly(FinalOutcome.DELIVERED);
        assertThat(outcomes(again)).containsExactly(FinalOutcome.DEDUPLICATED);
        assertThat(sent.get("log")).hasSize(1);
        assertThat(sent.get("slack")).isEmpty();
        assertThat(log.status(e.eventId(), "log")).isEqualTo("delivered");
    }

    @Test
    void aFanOutDeliversToEveryChannelEachRetryingOnItsOwn() {
        slackAnswers.add(new DeliveryOutcome.Transient("slack answered HTTP 503", null, 503));
        AlertEvent e = of("monitor/web-1", Severity.CRITICAL, "web");

        EventResult r = dispatcher.dispatch(e).block(Duration.ofSeconds(10));

        assertThat(r.channels())
                .containsExactly(
                        new ChannelResult("betterstack", FinalOutcome.DELIVERED, 1, null),
                        new ChannelResult("slack", FinalOutcome.DELIVERED, 2, null));
        assertThat(sent.get("betterstack")).hasSize(1);
        assertThat(sent.get("slack")).hasSize(2);
        assertThat(log.attempts.stream()
                        .filter(a -> a.channel().equals("slack"))
                        .map(Attempt::outcome))
                .containsExactly("transient", "delivered");
        assertThat(escalations.deadLetters).isEmpty();
    }

    @Test
    void aGroupedChatRouteSendsOneChatMessageAndOneLogLinePerEvent() {
        List<AlertEvent> events = List.of(
                of("monitor/api-1", Severity.WARNING, "api"),
                of("monitor/api-2", Severity.WARNING, "api"),
                of("monitor/api-3", Severity.WARNING, "api"));
        Mono<List<EventResult>> all = Flux.fromIterable(events)
                .flatMap(dispatcher::dispatch)
                .collectList()
                .cache();
        all.subscribe();
        await().until(() -> dispatcher.waitingInGroups() == events.size());
        waitClock.advanceTimeBy(WAIT);
        List<EventResult> results = all.block(Duration.ofSeconds(10));

        assertThat(sent.get("slack")).singleElement().satisfies(n -> {
            assertThat(n.isGroup()).isTrue();
            assertThat(n.group()).hasSize(3);
        });
        assertThat(sent.get("log")).hasSize(3).noneMatch(Notification::isGroup);
        assertThat(results).hasSize(3).allSatisfy(r -> assertThat(outcomes(r)).containsOnly(FinalOutcome.DELIVERED));
        assertThat(events)
                .allSatisfy(e -> assertThat(log.status(e.eventId(), "slack")).isEqualTo("delivered"));
        assertThat(pipelines.get("slack").describeGroup())
                .isEqualTo(
                        "lane \u2192 claim each \u2192 send one \u2192 retry \u2192 settle each \u2192 dead-letter each");
    }
}
