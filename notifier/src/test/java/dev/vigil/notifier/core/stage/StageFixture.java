package dev.vigil.notifier.core.stage;

import dev.vigil.notifier.core.ChannelLane;
import dev.vigil.notifier.core.Claim;
import dev.vigil.notifier.core.ClaimStage;
import dev.vigil.notifier.core.DeadLetterStage;
import dev.vigil.notifier.core.DeliveryOutcome;
import dev.vigil.notifier.core.Notification;
import dev.vigil.notifier.core.Notifier;
import dev.vigil.notifier.core.RecordStage;
import dev.vigil.notifier.core.RetryPolicy;
import dev.vigil.notifier.core.Routes;
import dev.vigil.notifier.core.SendStage;
import dev.vigil.notifier.support.MemoryDeliveryLog;
import dev.vigil.notifier.support.RecordingEscalations;
import dev.vigil.notifier.support.Wiring;
import dev.vigil.schemas.contract.AlertEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

/** The ports a stage talks to, faked in memory over virtual time, and a chain that records what reached it. */
final class StageFixture implements AutoCloseable {
    final VirtualTimeScheduler vts = VirtualTimeScheduler.create();
    final Clock clock = new Clock() {
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
    final MemoryDeliveryLog log = new MemoryDeliveryLog();
    final RecordingEscalations escalations = new RecordingEscalations();
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    final Routes routes = Wiring.standardRoutes();
    final List<Notification> sent = new CopyOnWriteArrayList<>();
    /** What the vendor answers next (delivered when empty). */
    final Deque<DeliveryOutcome> answers = new ArrayDeque<>();
    /** Whether the fake vendor keeps incidents of its own (and so takes a vendor id). */
    boolean usesVendorRef;
    /** Every delivery the recording chain was handed. */
    final List<Delivery> reached = new ArrayList<>();

    final Notifier vendor = new Notifier() {
        @Override
        public Mono<DeliveryOutcome> send(Notification n) {
            sent.add(n);
            DeliveryOutcome o = answers.isEmpty() ? new DeliveryOutcome.Delivered(200, null) : answers.poll();
            return Mono.just(o);
        }

        @Override
        public boolean usesVendorRef() {
            return usesVendorRef;
        }
    };

    final DeliveryStage.Chain recording = d -> {
        reached.add(d);
        return Mono.just(d);
    };

    ClaimStage claims() {
        return new ClaimStage(log, vts);
    }

    RecordStage records() {
        return new RecordStage(log, vts);
    }

    SendStage sender() {
        return new SendStage(vendor, Duration.ofSeconds(10), vts);
    }

    DeadLetterStage deadLetters() {
        return new DeadLetterStage(escalations, routes, log, "vigil.alerts", clock, vts);
    }

    RetryPolicy policy(Duration deadline) {
        return new RetryPolicy(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), deadline, () -> 0.5);
    }

    ChannelLane lane(int concurrency) {
        return new ChannelLane("slack", 0, concurrency, vts);
    }

    Delivery delivery(AlertEvent e) {
        return Delivery.first(e, "slack", List.of("slack", "discord"), clock.instant(), Mono.empty());
    }

    /** {@code d} holding a claim of its own on slack, as the claim stage hands it on. */
    Delivery claimed(AlertEvent e) {
        Claim c = log.claim(e.eventId(), "slack").block();
        return delivery(e).withClaim(c);
    }

    /** Runs a stage's Mono to its end on virtual time. */
    Delivery run(Mono<Delivery> m) {
        List<Delivery> out = new ArrayList<>();
        m.subscribe(out::add);
        vts.advanceTime();
        return out.isEmpty() ? null : out.get(0);
    }

    @Override
    public void close() {
        vts.dispose();
    }
}
