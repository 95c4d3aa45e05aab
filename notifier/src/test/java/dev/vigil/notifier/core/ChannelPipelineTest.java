package dev.vigil.notifier.core;

import static dev.vigil.notifier.support.TestEvents.event;
import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.ops.SelfHeals;
import dev.vigil.notifier.support.MemoryDeliveryLog;
import dev.vigil.notifier.support.RecordingEscalations;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

class ChannelPipelineTest {
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
    private final Deque<DeliveryOutcome> script = new ArrayDeque<>();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final SelfHeals heals = new SelfHeals(meters);
    private final Routes routes;

    ChannelPipelineTest() {
        Map<Severity, List<String>> d = new EnumMap<>(Severity.class);
        d.put(Severity.CRITICAL, List.of("betterstack", "slack", "discord"));
        d.put(Severity.WARNING, List.of("slack", "discord"));
        d.put(Severity.INFO, List.of("log"));
        routes = new Routes(List.of(), d, Set.of("betterstack", "slack", "discord", "log"));
    }

    @AfterEach
    void dispose() {
        vts.dispose();
    }

    private final Notifier scripted = n -> {
        sent.add(n);
        DeliveryOutcome o = script.isEmpty() ? new DeliveryOutcome.Delivered(200, null) : script.poll();
        return Mono.just(o);
    };

    private ChannelPipeline pipeline(Notifier notifier, Duration deadline) {
        RetryPolicy policy = new RetryPolicy(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), deadline, () -> 0.5);
        return new ChannelPipeline(
                "slack",
                new ClaimStage(log, vts),
                new ChannelLane("slack", 0, 4, vts),
                new SendStage(notifier, Duration.ofSeconds(10), vts),
                new RecordStage(log, vts),
                new DeadLetterStage(escalations, routes, log, "vigil.alerts", clock, vts),
                policy,
                clock,
                vts,
                Duration.ofSeconds(1),
                meters);
    }

    private ChannelResult run(ChannelPipeline p, AlertEvent e, Duration advance) {
        AtomicReference<ChannelResult> r = new AtomicReference<>();
        p.deliver(e, List.of("betterstack", "slack", "discord")).subscribe(r::set);
        vts.advanceTimeBy(advance);
        return r.get();
    }

    @Test
    void deliversOnceAndRecordsTheAttempt() {
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        ChannelResult r = run(pipeline(scripted, Duration.ofHours(1)), e, Duration.ZERO);
        assertThat(r).isEqualTo(new ChannelResult("slack", FinalOutcome.DELIVERED, 1, null));
        assertThat(sent).hasSize(1);
        assertThat(log.status(e.eventId(), "slack")).isEqualTo("delivered");
        assertThat(log.attempts).singleElement().satisfies(a -> {
            assertThat(a.outcome()).isEqualTo("delivered");
            assertThat(a.httpStatus()).isEqualTo(200);
        });
        // a redelivery of the same event is folded, not sent
        assertThat(run(pipeline(scripted, Duration.ofHours(1)), e, Duration.ZERO)
                        .outcome())
                .isEqualTo(FinalOutcome.DEDUPLICATED);
        assertThat(sent).hasSize(1);
    }

    @Test
    void transientFailureReleasesBacksOffHonouringRetryAfterAndRetries() {
        script.add(new DeliveryOutcome.Transient("slack answered HTTP 429", Duration.ofSeconds(2), 429));
        script.add(new DeliveryOutcome.Transient("slack answered HTTP 503", null, 503));
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        AtomicReference<ChannelResult> r = new AtomicReference<>();
        pipeline(scripted, Duration.ofHours(1)).deliver(e, List.of("slack")).subscribe(r::set);
        assertThat(sent).hasSize(1);
        assertThat(log.status(e.eventId(), "slack")).isEqualTo("released");
        vts.advanceTimeBy(Duration.ofMillis(1999));
        assertThat(sent).hasSize(1);
        vts.advanceTimeBy(Duration.ofMillis(1));
        assertThat(sent).hasSize(2);
        vts.advanceTimeBy(Duration.ofSeconds(1)); // attempt 2 → ceiling 2 s × 0.5
        assertThat(sent).hasSize(3);
        assertThat(r.get()).isEqualTo(new ChannelResult("slack", FinalOutcome.DELIVERED, 3, null));
        assertThat(log.attempts).extracting(Attempt::outcome).containsExactly("transient", "transient", "delivered");
        assertThat(escalations.deadLetters).isEmpty();
    }

    @Test
    void anEmptyRateLimitBucketHoldsTheChannelBack() {
        script.add(new DeliveryOutcome.Delivered(200, null, Duration.ofSeconds(3)));
        ChannelPipeline p = pipeline(scripted, Duration.ofHours(1));
        run(p, opened("monitor/a", Severity.CRITICAL), Duration.ZERO);
        AtomicReference<ChannelResult> second = new AtomicReference<>();
        p.deliver(opened("monitor/b", Severity.CRITICAL), List.of("slack")).subscribe(second::set);
        vts.advanceTimeBy(Duration.ofMillis(2999));
        assertThat(sent).hasSize(1);
        vts.advanceTimeBy(Duration.ofMillis(1));
        assertThat(sent).hasSize(2);
        assertThat(second.get().outcome()).isEqualTo(FinalOutcome.DELIVERED);
    }

    @Test
    void permanentFailureDeadLettersAtOnceAndRaisesDeliveryFailingOnTheOtherChannels() {
        script.add(new DeliveryOutcome.Permanent("slack answered HTTP 404: no_service", 404));
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        ChannelResult r = run(pipeline(scripted, Duration.ofHours(1)), e, Duration.ZERO);
        assertThat(r.outcome()).isEqualTo(FinalOutcome.DEAD_LETTERED);
        assertThat(r.reason()).isEqualTo("permanent failure: slack answered HTTP 404: no_service");
        assertThat(log.status(e.eventId(), "slack")).isEqualTo("dead");
        assertThat(escalations.deadLetters).singleElement().satisfies(d -> {
            assertThat(d.reason()).isEqualTo("channel slack: permanent failure: slack answered HTTP 404: no_service");
            assertThat(d.channel()).isEqualTo("slack");
            assertThat(d.eventId()).isEqualTo(e.eventId());
            assertThat(d.payload()).contains(e.fingerprint());
        });
        assertThat(escalations.raised).singleElement().satisfies(a -> {
            assertThat(a.fingerprint()).isEqualTo("notifier/delivery-failing/slack");
            assertThat(a.eventId()).isEqualTo("notifier/delivery-failing/slack/opened");
            assertThat(a.channels()).containsExactly("betterstack", "discord");
            assertThat(a.severity()).isEqualTo(Severity.CRITICAL);
            assertThat(a.summary()).contains("slack").contains("HTTP 404");
        });
    }

    @Test
    void theNotifiersOwnFailureAlertIsDeadLetteredWithoutRaisingAnother() {
        script.add(new DeliveryOutcome.Permanent("gone", 410));
        AlertEvent own = dev.vigil.notifier.core.DeliveryFailing.alert(
                opened("monitor/a", Severity.CRITICAL), "discord", "x", List.of("slack"), 1000);
        assertThat(run(pipeline(scripted, Duration.ofHours(1)), own, Duration.ZERO)
                        .outcome())
                .isEqualTo(FinalOutcome.DEAD_LETTERED);
        assertThat(escalations.deadLetters).hasSize(1);
        assertThat(escalations.raised).isEmpty();
    }

    @Test
    void transientPastTheDeadlineDeadLetters() {
        for (int i = 0; i < 20; i++) {
            script.add(new DeliveryOutcome.Transient("slack answered HTTP 500", null, 500));
        }
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        ChannelResult r = run(pipeline(scripted, Duration.ofSeconds(10)), e, Duration.ofMinutes(1));
        assertThat(r.outcome()).isEqualTo(FinalOutcome.DEAD_LETTERED);
        assertThat(r.reason()).startsWith("delivery deadline of PT10S passed after");
        assertThat(escalations.deadLetters).hasSize(1);
    }

    @Test
    void busyClaimIsAskedAgainUntilTheOtherSenderSettles() {
        AlertEvent e = event("monitor/a", AlertState.REMINDER, Severity.CRITICAL, 2);
        log.holdByOther(e.eventId(), "slack");
        AtomicReference<ChannelResult> r = new AtomicReference<>();
        pipeline(scripted, Duration.ofHours(1)).deliver(e, List.of("slack")).subscribe(r::set);
        vts.advanceTimeBy(Duration.ofSeconds(3));
        assertThat(r.get()).isNull();
        log.settleOther(e.eventId(), "slack", "released");
        vts.advanceTimeBy(Duration.ofSeconds(1));
        assertThat(r.get().outcome()).isEqualTo(FinalOutcome.DELIVERED);
        assertThat(sent).hasSize(1);
    }

    @Test
    void storeOutagePausesDeliveryAndResumesWithoutLossOrDuplicate() {
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        log.down.set(true);
        AtomicReference<ChannelResult> r = new AtomicReference<>();
        pipeline(scripted, Duration.ofHours(1)).deliver(e, List.of("slack")).subscribe(r::set);
        vts.advanceTimeBy(Duration.ofSeconds(20));
        assertThat(sent).isEmpty();
        assertThat(r.get()).isNull();
        log.down.set(false);
        vts.advanceTimeBy(Duration.ofSeconds(6));
        assertThat(r.get().outcome()).isEqualTo(FinalOutcome.DELIVERED);
        assertThat(sent).hasSize(1);
    }

    @Test
    void anAdapterErrorOrSilenceIsTransientAndATimeoutToo() {
        Notifier broken = n -> {
            sent.add(n);
            return sent.size() == 1
                    ? Mono.error(new java.io.IOException("connection reset"))
                    : sent.size() == 2 ? Mono.never() : Mono.just(new DeliveryOutcome.Delivered(200, null));
        };
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        ChannelResult r = run(pipeline(broken, Duration.ofHours(1)), e, Duration.ofSeconds(30));
        assertThat(r.outcome()).isEqualTo(FinalOutcome.DELIVERED);
        assertThat(log.attempts)
                .extracting(Attempt::error)
                .containsExactly("IOException: connection reset", "no answer within the send timeout of PT10S", null);
    }

    @Test
    void vendorRefIsKeptOnOpenAndHandedBackForLaterStates() {
        Notifier vendor = new Notifier() {
            @Override
            public Mono<DeliveryOutcome> send(Notification n) {
                sent.add(n);
                return Mono.just(
                        new DeliveryOutcome.Delivered(201, n.event().state() == AlertState.OPENED ? "inc-42" : null));
            }

            @Override
            public boolean usesVendorRef() {
                return true;
            }
        };
        AlertEvent open = opened("monitor/a", Severity.CRITICAL);
        run(pipeline(vendor, Duration.ofHours(1)), open, Duration.ZERO);
        run(
                pipeline(vendor, Duration.ofHours(1)),
                event("monitor/a", AlertState.RESOLVED, Severity.CRITICAL, 3),
                Duration.ZERO);
        assertThat(sent).extracting(Notification::vendorRef).containsExactly(null, "inc-42");
    }

    @Test
    void aDeliveryThatGotThroughOnARetryIsOneSelfHealAndAFirstTimeDeliveryNone() {
        ChannelPipeline p = pipeline(scripted, Duration.ofHours(1));
        assertThat(run(p, opened("monitor/a", Severity.CRITICAL), Duration.ZERO).attempts())
                .isEqualTo(1);
        assertThat(heals.count(SelfHeals.DELIVERY_RETRY_SUCCEEDED)).isZero();

        script.add(new DeliveryOutcome.Transient("slack answered HTTP 503", null, 503));
        ChannelResult r = run(p, opened("monitor/b", Severity.CRITICAL), Duration.ofSeconds(5));
        assertThat(r).isEqualTo(new ChannelResult("slack", FinalOutcome.DELIVERED, 2, null));
        assertThat(heals.count(SelfHeals.DELIVERY_RETRY_SUCCEEDED)).isEqualTo(1.0);

        // however many retries it took, one delivery is one recovery
        script.add(new DeliveryOutcome.Transient("slack answered HTTP 503", null, 503));
        script.add(new DeliveryOutcome.Transient("slack answered HTTP 502", null, 502));
        assertThat(run(p, opened("monitor/c", Severity.CRITICAL), Duration.ofSeconds(10))
                        .attempts())
                .isEqualTo(3);
        assertThat(heals.count(SelfHeals.DELIVERY_RETRY_SUCCEEDED)).isEqualTo(2.0);
        assertThat(heals.count(SelfHeals.CLAIM_RESENT)).isZero();
    }

    @Test
    void retriesThatEndDeadLetteredOrAFoldedRedeliveryAreNoSelfHeal() {
        for (int i = 0; i < 20; i++) {
            script.add(new DeliveryOutcome.Transient("slack answered HTTP 500", null, 500));
        }
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        assertThat(run(pipeline(scripted, Duration.ofSeconds(10)), e, Duration.ofMinutes(1))
                        .outcome())
                .isEqualTo(FinalOutcome.DEAD_LETTERED);
        assertThat(run(pipeline(scripted, Duration.ofSeconds(10)), e, Duration.ZERO)
                        .outcome())
                .isEqualTo(FinalOutcome.DEDUPLICATED);
        assertThat(heals.count(SelfHeals.DELIVERY_RETRY_SUCCEEDED)).isZero();
    }

    @Test
    void aClaimLeftByASenderThatDiedIsTakenOverResentAndCountedOnce() {
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        log.abandonByOther(e.eventId(), "slack", "notifier-dead");
        ChannelResult r = run(pipeline(scripted, Duration.ofHours(1)), e, Duration.ZERO);
        assertThat(r.outcome()).isEqualTo(FinalOutcome.DELIVERED);
        assertThat(sent).hasSize(1);
        assertThat(heals.count(SelfHeals.CLAIM_RESENT)).isEqualTo(1.0);
        assertThat(heals.count(SelfHeals.DELIVERY_RETRY_SUCCEEDED)).isZero();

        // a claim another sender released after a failed send is an ordinary retry, not a takeover
        AlertEvent other = opened("monitor/b", Severity.CRITICAL);
        log.settleOther(other.eventId(), "slack", "released");
        run(pipeline(scripted, Duration.ofHours(1)), other, Duration.ZERO);
        assertThat(sent).hasSize(2);
        assertThat(heals.count(SelfHeals.CLAIM_RESENT)).isEqualTo(1.0);
    }

    @Test
    void aTakenOverClaimCountsWhenItsSendIsMadeAndItsRetriesNotAgain() {
        script.add(new DeliveryOutcome.Transient("slack answered HTTP 503", null, 503));
        AlertEvent e = opened("monitor/a", Severity.CRITICAL);
        log.abandonByOther(e.eventId(), "slack", "notifier-dead");
        ChannelResult r = run(pipeline(scripted, Duration.ofHours(1)), e, Duration.ofSeconds(5));
        assertThat(r).isEqualTo(new ChannelResult("slack", FinalOutcome.DELIVERED, 2, null));
        assertThat(heals.count(SelfHeals.CLAIM_RESENT)).isEqualTo(1.0);
        assertThat(heals.count(SelfHeals.DELIVERY_RETRY_SUCCEEDED)).isEqualTo(1.0);
    }

    @Test
    void bothKindsAreScrapedAtZeroOnceAPipelineExists() {
        pipeline(scripted, Duration.ofHours(1));
        assertThat(meters.find(SelfHeals.NAME).counters())
                .extracting(c -> c.getId().getTag(SelfHeals.KIND))
                .containsExactlyInAnyOrder(SelfHeals.DELIVERY_RETRY_SUCCEEDED, SelfHeals.CLAIM_RESENT);
    }
}
