package dev.vigil.notifier.selfwatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.notifier.support.RecordingEscalations;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.schemas.contract.Severity;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * The switch on virtual time: a 10 s canary whose windows reach the notifier 12 s after they start, a 40 s bound
 * (three intervals plus the deadline) and a check-in every 10 s.
 */
class DeadMansSwitchTest {
    static final long S = 1000L;
    static final Duration BOUND = Duration.ofSeconds(40);
    static final URI URL = URI.create("https://hc-ping.test/5f1c1e2a-secret");

    private final VirtualTimeScheduler time = VirtualTimeScheduler.create();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final RecordingEscalations escalations = new RecordingEscalations();
    /** The virtual instant (ms) of each ping. */
    private final List<Long> pings = new CopyOnWriteArrayList<>();

    private final AtomicBoolean owner = new AtomicBoolean(true);
    private final CanaryWatch watch =
            new CanaryWatch(BOUND, () -> owner.get() ? OptionalLong.of(0) : OptionalLong.empty());
    private DeadMansSwitch deadMan;

    @AfterEach
    void stop() {
        if (deadMan != null) {
            deadMan.close();
        }
        time.dispose();
    }

    static AlertEvent canary(long windowStart, String status) {
        String incident = "vigil/canary@" + windowStart;
        return new AlertEvent(
                1,
                incident + "/opened/1",
                CanaryWatch.FINGERPRINT,
                incident,
                AlertState.OPENED,
                Severity.INFO,
                "vigil",
                "canary",
                "canary",
                Map.of(),
                Map.of(
                        "canary",
                        "true",
                        "windowStart",
                        "" + windowStart,
                        "decidedAt",
                        "" + (windowStart + 12 * S),
                        "status",
                        status),
                1,
                windowStart,
                windowStart + 12 * S,
                AlertSource.HEARTBEAT,
                false,
                null);
    }

    private DeadMansSwitch started(DeadMansSwitch.Pinger pinger) {
        deadMan = new DeadMansSwitch(
                        watch, URL, Duration.ofSeconds(10), Duration.ofSeconds(5), pinger, escalations, time, registry)
                .start();
        return deadMan;
    }

    private DeadMansSwitch started() {
        return started(url -> Mono.fromSupplier(() -> {
            pings.add(time.now(TimeUnit.MILLISECONDS));
            return 200;
        }));
    }

    /** Windows {@code from} to {@code to} (exclusive), each seen 12 s after it starts, with time advanced to each. */
    private void canaries(long from, long to, String status) {
        for (long w = from; w < to; w += 10 * S) {
            time.advanceTimeTo(java.time.Instant.ofEpochMilli(w + 12 * S));
            assertThat(watch.test(canary(w, status))).isTrue();
        }
    }

    private double count(String result) {
        return registry.get(DeadMansSwitch.PINGS)
                .tag("result", result)
                .counter()
                .count();
    }

    private double age() {
        return registry.get(DeadMansSwitch.AGE).gauge().value();
    }

    @Test
    void pingsOnlyWhileTheCanaryIsFreshStopsWithinTheBoundAndResumes() {
        started();
        time.advanceTime(); // the check-in at 0: no canary seen yet
        assertThat(pings).isEmpty();
        assertThat(count("withheld")).isEqualTo(1);

        canaries(0, 110 * S, "up"); // windows 0..100 s, the last seen at 112 s
        assertThat(pings).isNotEmpty().allMatch(t -> t >= 12 * S);
        time.advanceTimeTo(java.time.Instant.ofEpochMilli(199 * S)); // the canary stalls
        long lastWindow = 100 * S;
        assertThat(pings).allMatch(t -> t <= lastWindow + BOUND.toMillis());
        assertThat(pings.get(pings.size() - 1)).isGreaterThanOrEqualTo(lastWindow + BOUND.toMillis() - 10 * S);
        assertThat(age()).isGreaterThan(BOUND.toSeconds());
        // one stall alert, raised at the first check-in past the bound
        assertThat(escalations.raised).hasSize(1);
        AlertEvent stalled = escalations.raised.get(0);
        assertThat(stalled.fingerprint()).isEqualTo(PipelineStalled.FINGERPRINT);
        assertThat(stalled.state()).isEqualTo(AlertState.OPENED);
        assertThat(stalled.severity()).isEqualTo(Severity.WARNING);
        assertThat(stalled.incidentId()).isEqualTo("vigil/pipeline-stalled@" + (lastWindow + BOUND.toMillis()));
        assertThat(deadMan.stallOpen()).isTrue();
        int before = pings.size();

        canaries(200 * S, 230 * S, "up"); // the pipeline moves again
        time.advanceTimeBy(Duration.ofSeconds(10));
        assertThat(pings.size()).isGreaterThan(before);
        assertThat(pings.subList(before, pings.size())).allMatch(t -> t >= 212 * S);
        assertThat(escalations.raised).hasSize(2);
        AlertEvent resolved = escalations.raised.get(1);
        assertThat(resolved.state()).isEqualTo(AlertState.RESOLVED);
        assertThat(resolved.incidentId()).isEqualTo(stalled.incidentId());
        assertThat(resolved.eventId()).isNotEqualTo(stalled.eventId());
        assertThat(deadMan.stallOpen()).isFalse();
        assertThat(count("sent")).isEqualTo(pings.size());
        assertThat(count("withheld")).isGreaterThanOrEqualTo(1 + 8);
        assertThat(count("failed")).isZero();
    }

    @Test
    void aStoppedNotifierChecksInNoMoreThoughTheCanaryStillLooksFresh() {
        started();
        canaries(0, 60 * S, "up");
        int before = pings.size();
        assertThat(before).isPositive();
        deadMan.close(); // the notifier stops (or dies): the heartbeat service hears nothing more and pages
        long stoppedAt = time.now(TimeUnit.MILLISECONDS);
        canaries(60 * S, 120 * S, "up");
        time.advanceTimeBy(Duration.ofMinutes(5));
        assertThat(pings).hasSize(before).allMatch(t -> t <= stoppedAt);
    }

    @Test
    void aFailingCanaryIsNoPass() {
        started();
        canaries(0, 100 * S, "down");
        time.advanceTimeBy(Duration.ofSeconds(30));
        assertThat(pings).isEmpty();
        assertThat(escalations.raised).extracting(AlertEvent::fingerprint).containsExactly(PipelineStalled.FINGERPRINT);
    }

    @Test
    void anInstanceThatDoesNotReadTheCanaryJudgesNothing() {
        owner.set(false);
        started();
        canaries(0, 100 * S, "up");
        time.advanceTimeBy(Duration.ofMinutes(5));
        assertThat(pings).isEmpty();
        assertThat(escalations.raised).isEmpty();
        assertThat(age()).isNaN();
    }

    @Test
    void aPingThatFailsOrHangsIsCountedAndTheNextCheckInTriesAgain() {
        List<Long> tries = new CopyOnWriteArrayList<>();
        started(url -> {
            tries.add(time.now(TimeUnit.MILLISECONDS));
            return tries.size() == 1
                    ? Mono.never()
                    : tries.size() == 2 ? Mono.just(503) : Mono.error(new java.io.IOException("connection refused"));
        });
        canaries(0, 30 * S, "up"); // seen at 12, 22, 32 s: check-ins at 20 and 30 s are fresh
        time.advanceTimeBy(Duration.ofSeconds(9));
        assertThat(tries).hasSize(3);
        assertThat(count("failed")).isEqualTo(3);
        assertThat(count("sent")).isZero();
    }

    @Test
    void aStallAlertLeftOpenByAPreviousRunIsResolvedWhenTheCanaryPasses() {
        long before = 5 * S;
        deadMan = new DeadMansSwitch(
                        watch,
                        URL,
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(5),
                        url -> Mono.just(200),
                        escalations,
                        time,
                        registry)
                .adoptingOpenStall(Mono.just(OptionalLong.of(before)))
                .start();
        time.advanceTime();
        assertThat(deadMan.stallOpen()).isTrue();
        assertThat(escalations.raised).isEmpty();
        canaries(0, 20 * S, "up");
        time.advanceTimeBy(Duration.ofSeconds(10));
        assertThat(escalations.raised).singleElement().satisfies(e -> {
            assertThat(e.state()).isEqualTo(AlertState.RESOLVED);
            assertThat(e.incidentId()).isEqualTo("vigil/pipeline-stalled@" + before);
        });
        assertThat(deadMan.stallOpen()).isFalse();
    }
}
