package dev.vigil.notifier.core;

import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

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

    private static Map<Severity, List<String>> standard() {
        Map<Severity, List<String>> d = new EnumMap<>(Severity.class);
        d.put(Severity.CRITICAL, List.of("betterstack", "slack", "discord"));
        d.put(Severity.WARNING, List.of("slack", "discord"));
        d.put(Severity.INFO, List.of("log"));
        return d;
    }

    private Dispatcher dispatcher() {
        return dispatcher(new Routes(List.of(), standard(), Set.of("betterstack", "slack", "discord", "log")),
                new SimpleMeterRegistry());
    }

    private Dispatcher dispatcher(Routes routes, MeterRegistry meters) {
        RetryPolicy policy = new RetryPolicy(Duration.ofMillis(1), 2, Duration.ofMillis(10), Duration.ofHours(1), () -> 0.5);
        Map<String, ChannelPipeline> pipelines = new LinkedHashMap<>();
        for (String ch : routes.channels()) {
            Notifier n = notification -> {
                String key = ch + ":" + notification.event().eventId();
                sent.add(key);
                Sinks.One<DeliveryOutcome> hold = holds.get(key);
                return hold == null ? Mono.just(new DeliveryOutcome.Delivered(200, null)) : hold.asMono();
            };
            pipelines.put(ch, new ChannelPipeline(ch, new ClaimStage(log, Schedulers.immediate()),
                    new ChannelLane(ch, 0, 4, Schedulers.parallel()), new SendStage(n, Duration.ofSeconds(10), Schedulers.parallel()),
                    new RecordStage(log, Schedulers.immediate()), new DeadLetterStage(new RecordingEscalations(), routes,
                    "vigil.alerts", Clock.systemUTC(), Schedulers.parallel()), policy, Clock.systemUTC(), Schedulers.parallel(),
                    Duration.ofMillis(10), new SimpleMeterRegistry()));
        }
        return new Dispatcher(routes, pipelines, log, Schedulers.parallel(), meters);
    }

    @Test
    void refusedAppOverridesAreCountedPerChannelAndLoggedWithoutTheEventsText() {
        Routes routes = new Routes(List.of(), standard(), Set.of("betterstack", "slack", "discord", "log"),
                Map.of("checkout", Set.of("slack")));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Dispatcher d = dispatcher(routes, meters);
        AlertEvent base = opened("monitor/a", Severity.WARNING);
        AlertEvent app = new AlertEvent(1, null, "app/checkout/db", null, AlertState.OPENED, Severity.WARNING, "checkout",
                null, "card 4111 declined for jane@example.test", Map.of(), Map.of("customer", "jane@example.test"), 1,
                base.firstSeen(), base.lastSeen(), AlertSource.APP, false,
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
        assertThat(meters.counter(Dispatcher.OVERRIDE_REFUSED, "channel", "betterstack").count()).isEqualTo(1.0);
        // names that are no channel share one tag value: the app cannot mint meters
        assertThat(meters.counter(Dispatcher.OVERRIDE_REFUSED, "channel", Dispatcher.UNCONFIGURED).count()).isEqualTo(2.0);
        assertThat(meters.find(Dispatcher.OVERRIDE_REFUSED).counters()).hasSize(2);
        assertThat(lines.list).singleElement().satisfies(l -> {
            assertThat(l.getLevel()).isEqualTo(Level.WARN);
            assertThat(l.getFormattedMessage()).contains(app.eventId()).contains("[betterstack, made-up-1, made-up-2]")
                    .doesNotContain("4111").doesNotContain("jane").doesNotContain("declined");
        });
    }

    @Test
    void eventsWhoseOverrideIsHonouredCountNothing() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Dispatcher d = dispatcher(new Routes(List.of(), standard(), Set.of("betterstack", "slack", "discord", "log")), meters);
        AlertEvent probe = TestEvents.with(opened("monitor/a", Severity.WARNING), "svc", Map.of(), List.of("log"), false);
        assertThat(d.dispatch(probe).block(Duration.ofSeconds(10)).channels()).extracting(ChannelResult::channel)
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
        assertThat(log.silenced).containsExactly(e.eventId() + "|betterstack", e.eventId() + "|slack", e.eventId() + "|discord");
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
        assertThat(results).extracting(EventResult::eventId).containsExactly(other.eventId(), opened.eventId(), resolved.eventId());
    }
}
