package dev.vigil.probe.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.window.Windows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

class ProbeSchedulerTest {
    private final VirtualTimeScheduler clock = VirtualTimeScheduler.create();
    private final List<Probe> probes = Collections.synchronizedList(new ArrayList<>());
    private final List<ProbeResult> results = Collections.synchronizedList(new ArrayList<>());
    private final Map<ScheduleListener.SkipReason, Long> skips = new ConcurrentHashMap<>();
    private Function<MonitorDefinition, Duration> duration = m -> Duration.ofMillis(500);

    /** One probe start as the fake prober saw it. */
    record Probe(String id, String url, long windowStart, long startedAt) {
    }

    private ProbeScheduler scheduler(int concurrency) {
        return new ProbeScheduler("us-east", clock, (m, ws) -> {
            long now = clock.now(java.util.concurrent.TimeUnit.MILLISECONDS);
            probes.add(new Probe(m.id(), m.url(), ws, now));
            return Mono.delay(duration.apply(m), clock).map(x -> new ProbeResult(1, m.id(), "us-east", "w-1", ws, now,
                    Outcome.SUCCESS, null, 200, 1, 1, 0L, 0, null, null, null, null, null, null, "r-" + ws));
        }, results::add, concurrency, new ScheduleListener() {
            @Override
            public void skipped(SkipReason reason, long windows) {
                skips.merge(reason, windows, Long::sum);
            }
        });
    }

    static MonitorDefinition monitor(String id, int intervalSeconds, String... regions) {
        return new MonitorDefinition(1, id, null, "https://example.com/" + id, null, intervalSeconds,
                Math.min(5000, intervalSeconds * 1000 - 1), List.of(regions.length == 0 ? new String[]{"us-east"} : regions),
                null, null, null, null, null, null, null);
    }

    @AfterEach
    void tearDown() {
        clock.dispose();
    }

    private void advance(Duration d) {
        clock.advanceTimeBy(d);
    }

    @ParameterizedTest(name = "interval {0} s")
    @ValueSource(ints = {10, 60, 300})
    void probesStartOnWindowBoundaryPlusTheMonitorsOffset(int intervalSeconds) {
        long interval = intervalSeconds * 1000L;
        var s = scheduler(256);
        s.upsert(monitor("api-" + intervalSeconds, intervalSeconds));
        advance(Duration.ofMillis(interval * 20));
        long offset = Windows.offsetMs("api-" + intervalSeconds, interval);
        assertThat(offset).isBetween(0L, Windows.spreadMs(interval) - 1);
        assertThat(probes).hasSize(20);
        for (int i = 0; i < probes.size(); i++) {
            Probe p = probes.get(i);
            assertThat(p.windowStart() % interval).isZero();
            assertThat(p.windowStart()).isEqualTo(i * interval);
            assertThat(p.startedAt()).isEqualTo(p.windowStart() + offset);
        }
        assertThat(results).hasSize(20);
    }

    @Test
    void aWorkerStartingMidWindowJoinsItWhileItsResultsCanStillBeDecidedAndSpreadsTheLateJoiners() {
        long interval = 60_000;
        long joinUntil = ProbeScheduler.lateJoinDeadline(0, interval);
        assertThat(joinUntil).isGreaterThan(Windows.spreadMs(interval));
        // The worker starts after every monitor's offset in window 0 has passed, but before the join deadline.
        long startedAt = Windows.spreadMs(interval) + 500;
        advance(Duration.ofMillis(startedAt));
        var s = scheduler(1024);
        for (int i = 0; i < 200; i++) {
            s.upsert(monitor("late-" + i, 60));
        }
        advance(Duration.ofMillis(joinUntil - startedAt));
        assertThat(probes).hasSize(200).allSatisfy(p -> {
            assertThat(p.windowStart()).isZero();
            assertThat(p.startedAt()).isBetween(startedAt, joinUntil - 1);
        });
        // spread over the time left, not all at the start
        assertThat(probes.stream().map(Probe::startedAt).distinct().count()).isGreaterThan(100);
        // and from the next window on, each at its own offset again
        advance(Duration.ofMillis(interval));
        assertThat(probes).hasSize(400);
        assertThat(probes.subList(200, 400)).allSatisfy(p -> {
            assertThat(p.windowStart()).isEqualTo(interval);
            assertThat(p.startedAt()).isEqualTo(interval + Windows.offsetMs(p.id(), interval));
        });
    }

    @Test
    void aWorkerStartingTooLateForTheWindowWaitsForTheNextBoundary() {
        long interval = 60_000;
        long startedAt = ProbeScheduler.lateJoinDeadline(0, interval);
        advance(Duration.ofMillis(startedAt));
        var s = scheduler(256);
        s.upsert(monitor("too-late", 60));
        advance(Duration.ofMillis(interval - startedAt - 1));
        assertThat(probes).isEmpty();
        advance(Duration.ofMillis(Windows.spreadMs(interval) + 1));
        assertThat(probes).singleElement().satisfies(p -> {
            assertThat(p.windowStart()).isEqualTo(interval);
            assertThat(p.startedAt()).isEqualTo(interval + Windows.offsetMs("too-late", interval));
        });
    }

    @Test
    void noDriftOverAThousandWindowsWhateverTheProbesTake() {
        // Durations vary from 0 to 9.9 s on a 10 s interval: a completion-based schedule would drift.
        int[] n = {0};
        duration = m -> Duration.ofMillis((n[0]++ * 3_331L) % 9_900);
        var s = scheduler(256);
        var m = monitor("drift", 10);
        s.upsert(m);
        advance(Duration.ofSeconds(10 * 1000));
        long offset = Windows.offsetMs("drift", 10_000);
        assertThat(probes).hasSize(1000);
        for (int i = 0; i < 1000; i++) {
            assertThat(probes.get(i).windowStart()).isEqualTo(i * 10_000L);
            assertThat(probes.get(i).startedAt()).isEqualTo(i * 10_000L + offset);
        }
        assertThat(s.skippedWindows()).isZero();
    }

    @Test
    void aWindowWhosePredecessorIsStillRunningIsSkippedNotQueued() {
        duration = m -> Duration.ofSeconds(25);
        var s = scheduler(256);
        s.upsert(monitor("slow", 10));
        advance(Duration.ofSeconds(60));
        // Window 0 runs 25 s: windows 10 s and 20 s are skipped; 30 s probes; 40 s and 50 s are skipped.
        assertThat(probes).extracting(Probe::windowStart).containsExactly(0L, 30_000L);
        assertThat(s.skippedWindows()).isEqualTo(4);
        assertThat(skips).containsEntry(ScheduleListener.SkipReason.OVERRUN, 4L);
        // Nothing was queued: once the probe is fast again, exactly one probe per window follows.
        duration = m -> Duration.ofMillis(100);
        advance(Duration.ofSeconds(40));
        assertThat(probes).extracting(Probe::windowStart).containsExactly(0L, 30_000L, 60_000L, 70_000L, 80_000L, 90_000L);
    }

    @Test
    void inFlightLimitSkipsWindowsInsteadOfQueueing() {
        duration = m -> Duration.ofSeconds(30);
        var s = scheduler(2);
        for (int i = 0; i < 5; i++) {
            s.upsert(monitor("m-" + i, 60));
        }
        // All five start within the 15 s spread while the first two still run.
        advance(Duration.ofSeconds(16));
        assertThat(probes).hasSize(2);
        assertThat(s.inFlight()).isEqualTo(2);
        assertThat(skips).containsEntry(ScheduleListener.SkipReason.OVERLOADED, 3L);
        advance(Duration.ofSeconds(34));
        assertThat(s.inFlight()).isZero();
        assertThat(results).hasSize(2);
    }

    @Test
    void updateMidRunTakesEffectWithoutDoubleProbingAWindow() {
        var s = scheduler(256);
        var original = monitor("api", 60);
        s.upsert(original);
        advance(Duration.ofSeconds(120));
        assertThat(probes).extracting(Probe::windowStart).containsExactly(0L, 60_000L);

        // The same definition again (compaction replay, restart of the feed) changes nothing.
        s.upsert(original);
        s.upsert(original);
        // A real change: 10 s interval and a new URL.
        var changed = new MonitorDefinition(1, "api", null, "https://example.com/v2", null, 10, 2000,
                List.of("us-east"), null, null, null, null, null, null, null);
        s.upsert(changed);
        s.upsert(changed);
        advance(Duration.ofSeconds(60));
        List<Probe> after = probes.subList(2, probes.size());
        assertThat(after).isNotEmpty().allSatisfy(p -> {
            assertThat(p.url()).isEqualTo("https://example.com/v2");
            assertThat(p.windowStart() % 10_000).isZero();
            assertThat(p.startedAt()).isEqualTo(p.windowStart() + Windows.offsetMs("api", 10_000));
        });
        Map<Long, Long> perWindow = probes.stream().collect(Collectors.groupingBy(Probe::windowStart, Collectors.counting()));
        assertThat(perWindow.values()).containsOnly(1L);
        assertThat(after).extracting(Probe::windowStart)
                .containsExactly(120_000L, 130_000L, 140_000L, 150_000L, 160_000L, 170_000L);
        assertThat(s.monitorsAssigned()).isEqualTo(1);
    }

    @Test
    void deleteMidRunStopsProbing() {
        var s = scheduler(256);
        s.upsert(monitor("a", 10));
        s.upsert(monitor("b", 10));
        advance(Duration.ofSeconds(30));
        s.remove("a");
        // A definition that no longer selects this region is a removal too.
        s.upsert(monitor("b", 10, "eu-west"));
        int before = probes.size();
        assertThat(before).isEqualTo(6);
        advance(Duration.ofSeconds(60));
        assertThat(probes).hasSize(before);
        assertThat(s.monitorsAssigned()).isZero();
        // And it can come back.
        s.upsert(monitor("a", 10));
        advance(Duration.ofSeconds(20));
        assertThat(probes.subList(before, probes.size())).extracting(Probe::id).containsOnly("a").hasSizeBetween(1, 2);
    }

    @Test
    void disabledMonitorsAreNotScheduled() {
        var s = scheduler(256);
        var m = monitor("off", 10);
        s.upsert(new MonitorDefinition(1, "off", null, m.url(), null, 10, 2000, List.of("us-east"), null, null, null,
                null, null, null, false));
        advance(Duration.ofSeconds(60));
        assertThat(probes).isEmpty();
        assertThat(s.monitorsAssigned()).isZero();
    }

    @Test
    void drainWaitsForInFlightProbesAndStopsNewOnes() {
        duration = m -> Duration.ofSeconds(5);
        var s = scheduler(256);
        s.upsert(monitor("d", 10));
        advance(Duration.ofMillis(Windows.offsetMs("d", 10_000) + 1));
        assertThat(s.inFlight()).isEqualTo(1);
        var drained = s.drain(Duration.ofMinutes(1)).toFuture();
        assertThat(drained).isNotDone();
        advance(Duration.ofSeconds(5));
        assertThat(drained).isDone();
        assertThat(results).hasSize(1);
        advance(Duration.ofSeconds(60));
        assertThat(probes).hasSize(1);
    }

    @Test
    void heartbeatMonitorsAreNeverScheduledEvenInTheirOwnRegion() {
        var heartbeat = new MonitorDefinition(1, "nightly", null, null, null, 60, null, null, null, null, null,
                null, null, null, null, dev.vigil.schemas.contract.CheckType.HEARTBEAT, null, null, null, null, null, null);
        var push = new ProbeScheduler(MonitorDefinition.PUSH_REGION, clock, (m, ws) -> {
            probes.add(new Probe(m.id(), m.target(), ws, 0));
            return Mono.empty();
        }, results::add, 16, ScheduleListener.NONE);
        push.upsert(heartbeat);
        var s = scheduler(16);
        s.upsert(heartbeat);
        s.upsert(monitor("api", 60));
        advance(Duration.ofMinutes(5));
        assertThat(push.monitorsAssigned()).isZero();
        assertThat(s.monitorsAssigned()).isEqualTo(1);
        assertThat(probes).extracting(Probe::id).containsOnly("api");
    }

    @Test
    void aProbeThatYieldsNoResultPublishesNothingAndFreesItsPermit() {
        var s = new ProbeScheduler("us-east", clock, (m, ws) -> {
            probes.add(new Probe(m.id(), m.url(), ws, 0));
            return Mono.empty();
        }, results::add, 1, ScheduleListener.NONE);
        s.upsert(monitor("a", 10));
        advance(Duration.ofSeconds(35));
        // With one permit, every window still ran: an empty probe hands its permit back like any other.
        assertThat(probes).extracting(Probe::windowStart).containsExactly(0L, 10_000L, 20_000L, 30_000L);
        assertThat(s.skippedWindows()).isZero();
        assertThat(results).isEmpty();
        assertThat(s.inFlight()).isZero();
    }
}
