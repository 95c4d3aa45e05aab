package dev.vigil.notifier.core;

import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.support.MemoryDeliveryLog;
import dev.vigil.notifier.support.RecordingEscalations;
import dev.vigil.notifier.support.Wiring;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.Severity;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * The grouped path's claim step, shared with the single path: members whose claims are ours go out in one message,
 * a member already delivered here is folded, and one another sender holds takes the single path.
 */
class GroupDeliveryTest {
    private final VirtualTimeScheduler vts = VirtualTimeScheduler.create();
    private final Clock clock = new Clock() {
        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(vts.now(TimeUnit.MILLISECONDS));
        }
    };
    private final MemoryDeliveryLog log = new MemoryDeliveryLog();
    private final RecordingEscalations escalations = new RecordingEscalations();
    private final List<Notification> sent = new CopyOnWriteArrayList<>();
    private final Deque<DeliveryOutcome> answers = new ArrayDeque<>();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @AfterEach
    void dispose() {
        vts.dispose();
    }

    private ChannelPipeline pipeline() {
        Notifier chat = new Notifier() {
            @Override
            public Mono<DeliveryOutcome> send(Notification n) {
                sent.add(n);
                DeliveryOutcome o = answers.isEmpty() ? new DeliveryOutcome.Delivered(200, null) : answers.poll();
                return Mono.just(o);
            }

            @Override
            public boolean rendersGroups() {
                return true;
            }
        };
        return new ChannelPipeline(
                "slack",
                new ClaimStage(log, vts),
                new ChannelLane("slack", 0, 4, vts),
                new SendStage(chat, Duration.ofSeconds(10), vts),
                new RecordStage(log, vts),
                new DeadLetterStage(escalations, Wiring.standardRoutes(), log, "vigil.alerts", clock, vts),
                new RetryPolicy(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), Duration.ofHours(1), () -> 0.5),
                clock,
                vts,
                Duration.ofSeconds(1),
                meters);
    }

    private static ChannelPipeline.Member member(AlertEvent e) {
        return new ChannelPipeline.Member(e, List.of("slack"));
    }

    @Test
    void oursGoOutTogetherADeliveredOneFoldsAndABusyOneWaitsForItsHolder() {
        AlertEvent a = opened("monitor/a", Severity.WARNING);
        AlertEvent b = opened("monitor/b", Severity.WARNING);
        AlertEvent delivered = opened("monitor/c", Severity.WARNING);
        AlertEvent held = opened("monitor/d", Severity.WARNING);
        log.settleOther(delivered.eventId(), "slack", "delivered");
        log.holdByOther(held.eventId(), "slack");
        AtomicReference<List<ChannelResult>> results = new AtomicReference<>();

        pipeline()
                .deliverGroup(List.of(member(a), member(b), member(delivered), member(held)))
                .subscribe(results::set);
        vts.advanceTime();

        assertThat(sent).singleElement().satisfies(n -> {
            assertThat(n.isGroup()).isTrue();
            assertThat(n.group()).containsExactly(a, b);
        });
        assertThat(results.get()).as("the held member is still waiting").isNull();

        // its holder delivers it: the busy member folds on its next ask, sending nothing
        log.settleOther(held.eventId(), "slack", "delivered");
        vts.advanceTimeBy(Duration.ofSeconds(1));

        assertThat(results.get())
                .containsExactly(
                        new ChannelResult("slack", FinalOutcome.DELIVERED, 1, null),
                        new ChannelResult("slack", FinalOutcome.DELIVERED, 1, null),
                        new ChannelResult(
                                "slack", FinalOutcome.DEDUPLICATED, 0, "already delivered within the dedupe window"),
                        new ChannelResult(
                                "slack", FinalOutcome.DEDUPLICATED, 0, "already delivered within the dedupe window"));
        assertThat(sent).hasSize(1);
        assertThat(log.attempts).hasSize(2).allSatisfy(at -> assertThat(at.groupId())
                .isEqualTo(sent.get(0).groupId()));
        assertThat(meters.counter(ChannelPipeline.GROUP_EVENTS, "channel", "slack")
                        .count())
                .isEqualTo(2.0);
    }

    @Test
    void aTransientFailureReleasesEveryClaimAndTheGroupIsClaimedAndSentAgain() {
        answers.add(new DeliveryOutcome.Transient("slack answered HTTP 503", null, 503));
        AlertEvent a = opened("monitor/a", Severity.WARNING);
        AlertEvent b = opened("monitor/b", Severity.WARNING);
        AtomicReference<List<ChannelResult>> results = new AtomicReference<>();

        pipeline().deliverGroup(List.of(member(a), member(b))).subscribe(results::set);
        vts.advanceTime();
        assertThat(log.status(a.eventId(), "slack")).isEqualTo("released");
        assertThat(log.status(b.eventId(), "slack")).isEqualTo("released");

        vts.advanceTimeBy(Duration.ofSeconds(1));

        assertThat(sent).hasSize(2).allSatisfy(n -> assertThat(n.group()).containsExactly(a, b));
        assertThat(results.get()).extracting(ChannelResult::attempts).containsExactly(2, 2);
        assertThat(log.status(a.eventId(), "slack")).isEqualTo("delivered");
        assertThat(escalations.deadLetters).isEmpty();
    }
}
