package dev.vigil.probe.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.SkipReason;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.validate.PrivacyGuard;
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
    /** The scheduler's clock: virtual time, plus a jump that makes a timer fire late (a stalled timer thread). */
    private final JumpyClock timer = new JumpyClock(clock);

    private final List<Probe> probes = Collections.synchronizedList(new ArrayList<>());
    private final List<ProbeResult> results = Collections.synchronizedList(new ArrayList<>());
    private final Map<SkipReason, Long> skips = new ConcurrentHashMap<>();
    private Function<MonitorDefinition, Duration> duration = m -> Duration.ofMillis(500);

    /** One probe start as the fake prober saw it. */
    record Probe(String id, String url, long windowStart, long startedAt) {}

    private ProbeScheduler scheduler(int concurrency) {
        return new ProbeScheduler(
                "us-east",
                "w-1",
                timer,
                (m, ws) -> {
                    long now = timer.now(java.util.concurrent.TimeUnit.MILLISECONDS);
                    probes.add(new Probe(m.id(), m.url(), ws, now));
                    return Mono.delay(duration.apply(m), clock)
                            .map(x -> new ProbeResult(
                                    1,
                                    m.id(),
                                    "us-east",
                                    "w-1",
                                    ws,
                                    now,
                                    Outcome.SUCCESS,
                                    null,
                                    200,
                                    1,
                                    1,
                                    0L,
                                    0,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    null,
                                    "r-" + ws));
                },
                results::add,
                concurrency,
                new ScheduleListener() {
                    @Override
                    public void skipped(SkipReason reason, long windows) {
                        skips.merge(reason, windows, Long::sum);
                    }
                });
    }

    /** The offset of {@link #monitor}'s probes in each window. */
    static long offset(String id, int intervalSeconds) {
        return Windows.offsetMs(id, intervalSeconds * 1000L, timeoutMs(intervalSeconds));
    }

    static int timeoutMs(int intervalSeconds) {
        return Math.min(5000, intervalSeconds * 1000 - 1);
    }

    static MonitorDefinition monitor(String id, int intervalSeconds, String... regions) {
        return new MonitorDefinition(
                1,
                id,
                null,
                "https://example.com/" + id,
                null,
                intervalSeconds,
                timeoutMs(intervalSeconds),
                List.of(regions.length == 0 ? new String[] {"us-east"} : regions),
                null,
                null,
                null,
                null,
                null,
                null,
                null);
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
        long offset = offset("api-" + intervalSeconds, intervalSeconds);
        assertThat(offset).isBetween(0L, Windows.spreadMs(interval, timeoutMs(intervalSeconds)) - 1);
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
    void aWorkerStartingMidWindowJoinsItOnlyWhereTheResultCanStillReachTheMonitorsDeadline() {
        long interval = 60_000;
        long timeout = timeoutMs(60);
        long startedAt = 30_000;
        advance(Duration.ofMillis(startedAt));
        var s = scheduler(4096);
        int n = 2000;
        for (int i = 0; i < n; i++) {
            s.upsert(monitor("late-" + i, 60));
        }
        advance(Duration.ofMillis(interval - startedAt - 1));
        List<Probe> joined = new ArrayList<>();
        for (Probe p : probes) {
            assertThat(p.windowStart()).isZero();
            long at = Windows.scheduledAt(p.id(), 0, interval, timeout);
            if (at >= startedAt) {
                // not late: at its own offset
                assertThat(p.startedAt()).isEqualTo(at);
            } else {
                joined.add(p);
                // late: started after the worker did, by the join deadline, so the result makes the monitor's own
                // deadline
                assertThat(p.startedAt())
                        .isBetween(startedAt, ProbeScheduler.lateJoinDeadline(p.id(), 0, interval, timeout) - 1);
                assertThat(p.startedAt() + timeout + Windows.DEFAULT_GRACE_MS / 2)
                        .isLessThanOrEqualTo(
                                Windows.collectionDeadline(p.id(), 0, interval, timeout, Windows.DEFAULT_GRACE_MS));
            }
        }
        // the monitors whose start had passed by less than half the grace joined; the others wait for window 1
        long expectedJoiners = java.util.stream.IntStream.range(0, n)
                .mapToObj(i -> "late-" + i)
                .map(id -> Windows.scheduledAt(id, 0, interval, timeout))
                .filter(at -> at < startedAt && at > startedAt - Windows.DEFAULT_GRACE_MS / 2)
                .count();
        assertThat(expectedJoiners).isGreaterThan(20);
        assertThat(joined).hasSize((int) expectedJoiners);
        // spread over the time left, not all at the worker's start
        assertThat(joined.stream().map(Probe::startedAt).distinct().count()).isGreaterThan(expectedJoiners / 2);
        int firstWindow = probes.size();
        // and from the next window on, each at its own offset again
        advance(Duration.ofMillis(interval));
        assertThat(probes).hasSize(firstWindow + n);
        assertThat(probes.subList(firstWindow, probes.size())).allSatisfy(p -> {
            assertThat(p.windowStart()).isEqualTo(interval);
            assertThat(p.startedAt()).isEqualTo(interval + offset(p.id(), 60));
        });
    }

    @Test
    void aWorkerStartingTooLateForTheWindowWaitsForTheNextBoundary() {
        long interval = 60_000;
        long startedAt = ProbeScheduler.lateJoinDeadline("too-late", 0, interval, timeoutMs(60));
        advance(Duration.ofMillis(startedAt));
        var s = scheduler(256);
        s.upsert(monitor("too-late", 60));
        advance(Duration.ofMillis(interval - startedAt - 1));
        assertThat(probes).isEmpty();
        advance(Duration.ofMillis(offset("too-late", 60) + 2));
        assertThat(probes).singleElement().satisfies(p -> {
            assertThat(p.windowStart()).isEqualTo(interval);
            assertThat(p.startedAt()).isEqualTo(interval + offset("too-late", 60));
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
        long offset = offset("drift", 10);
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
        assertThat(skips).containsEntry(SkipReason.OVERRUN, 4L);
        // each skipped window is published as a skipped result, never as silence
        assertThat(results.stream().filter(ProbeResult::skipped))
                .allSatisfy(r -> {
                    assertThat(r.skipReason()).isEqualTo(SkipReason.OVERRUN);
                    assertThat(r.outcome()).isEqualTo(Outcome.SKIPPED);
                    assertThat(r.monitorId()).isEqualTo("slow");
                    assertThat(r.region()).isEqualTo("us-east");
                    assertThat(r.workerId()).isEqualTo("w-1");
                    assertThat(r.startedAt()).isEqualTo(r.windowStart() + offset("slow", 10));
                })
                .extracting(ProbeResult::windowStart)
                .containsExactly(10_000L, 20_000L, 40_000L, 50_000L);
        assertThat(s.probesStarted()).isEqualTo(2);
        // Nothing was queued: once the probe is fast again, exactly one probe per window follows.
        duration = m -> Duration.ofMillis(100);
        advance(Duration.ofSeconds(40));
        assertThat(probes)
                .extracting(Probe::windowStart)
                .containsExactly(0L, 30_000L, 60_000L, 70_000L, 80_000L, 90_000L);
    }

    @Test
    void inFlightLimitSkipsWindowsInsteadOfQueueing() {
        // Each probe outlasts the spread, so all five are due while the first two still run.
        duration = m -> Duration.ofSeconds(59);
        var s = scheduler(2);
        for (int i = 0; i < 5; i++) {
            s.upsert(monitor("m-" + i, 60));
        }
        advance(Duration.ofSeconds(56));
        assertThat(probes).hasSize(2);
        assertThat(s.inFlight()).isEqualTo(2);
        assertThat(skips).containsEntry(SkipReason.OVERLOADED, 3L);
        List<String> probed = probes.stream().map(Probe::id).toList();
        assertThat(results).hasSize(3).allSatisfy(r -> {
            assertThat(r.skipReason()).isEqualTo(SkipReason.OVERLOADED);
            assertThat(r.windowStart()).isZero();
            assertThat(r.monitorId()).isNotIn(probed);
        });
        assertThat(s.skippedWindows()).isEqualTo(3);
        assertThat(s.probesStarted()).isEqualTo(2);
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
        var changed = new MonitorDefinition(
                1,
                "api",
                null,
                "https://example.com/v2",
                null,
                10,
                2000,
                List.of("us-east"),
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        s.upsert(changed);
        s.upsert(changed);
        advance(Duration.ofSeconds(60));
        List<Probe> after = probes.subList(2, probes.size());
        assertThat(after).isNotEmpty().allSatisfy(p -> {
            assertThat(p.url()).isEqualTo("https://example.com/v2");
            assertThat(p.windowStart() % 10_000).isZero();
            assertThat(p.startedAt()).isEqualTo(p.windowStart() + Windows.offsetMs("api", 10_000, 2000));
        });
        Map<Long, Long> perWindow =
                probes.stream().collect(Collectors.groupingBy(Probe::windowStart, Collectors.counting()));
        assertThat(perWindow.values()).containsOnly(1L);
        assertThat(after)
                .extracting(Probe::windowStart)
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
        assertThat(probes.subList(before, probes.size()))
                .extracting(Probe::id)
                .containsOnly("a")
                .hasSizeBetween(1, 2);
    }

    @Test
    void disabledMonitorsAreNotScheduled() {
        var s = scheduler(256);
        var m = monitor("off", 10);
        s.upsert(new MonitorDefinition(
                1,
                "off",
                null,
                m.url(),
                null,
                10,
                2000,
                List.of("us-east"),
                null,
                null,
                null,
                null,
                null,
                null,
                false));
        advance(Duration.ofSeconds(60));
        assertThat(probes).isEmpty();
        assertThat(s.monitorsAssigned()).isZero();
    }

    @Test
    void drainWaitsForInFlightProbesAndStopsNewOnes() {
        duration = m -> Duration.ofSeconds(5);
        var s = scheduler(256);
        s.upsert(monitor("d", 10));
        advance(Duration.ofMillis(offset("d", 10) + 1));
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
        var heartbeat = new MonitorDefinition(
                1,
                "nightly",
                null,
                null,
                null,
                60,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                dev.vigil.schemas.contract.CheckType.HEARTBEAT,
                null,
                null,
                null,
                null,
                null,
                null);
        var push = new ProbeScheduler(
                MonitorDefinition.PUSH_REGION,
                "w-push",
                clock,
                (m, ws) -> {
                    probes.add(new Probe(m.id(), m.target(), ws, 0));
                    return Mono.empty();
                },
                results::add,
                16,
                ScheduleListener.NONE);
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
        var s = new ProbeScheduler(
                "us-east",
                "w-1",
                clock,
                (m, ws) -> {
                    probes.add(new Probe(m.id(), m.url(), ws, 0));
                    return Mono.empty();
                },
                results::add,
                1,
                ScheduleListener.NONE);
        s.upsert(monitor("a", 10));
        advance(Duration.ofSeconds(35));
        // With one permit, every window still ran: an empty probe hands its permit back like any other.
        assertThat(probes).extracting(Probe::windowStart).containsExactly(0L, 10_000L, 20_000L, 30_000L);
        assertThat(s.skippedWindows()).isZero();
        assertThat(results).isEmpty();
        assertThat(s.inFlight()).isZero();
    }

    @Test
    void aTimerFiringWindowsLatePublishesABoundedNumberOfLateSkips() {
        var s = scheduler(256);
        s.upsert(monitor("stalled", 10));
        long offset = offset("stalled", 10);
        advance(Duration.ofMillis(offset + 10_000 - 1));
        assertThat(probes).hasSize(1);
        // The timer thread stalls for ten windows: window 10 s fires when the clock already reads window 110 s.
        timer.jumpMs = 100_000;
        advance(Duration.ofMillis(2));
        // windows 20 s .. 100 s passed unprobed: all counted, only the latest few published
        assertThat(skips).containsEntry(SkipReason.LATE, 9L);
        assertThat(results.stream().filter(r -> r.skipReason() == SkipReason.LATE))
                .hasSize(ProbeScheduler.MAX_LATE_RESULTS)
                .allSatisfy(r -> {
                    assertThat(r.monitorId()).isEqualTo("stalled");
                    assertThat(r.startedAt()).isEqualTo(110_000 + offset);
                })
                .extracting(ProbeResult::windowStart)
                .containsExactly(80_000L, 90_000L, 100_000L);
        assertThat(s.skippedWindows()).isGreaterThanOrEqualTo(9);
    }

    @Test
    void drainingForShutdownPublishesASkipForEveryProbeStillToComeInItsWindow() {
        duration = m -> Duration.ofSeconds(1);
        var s = scheduler(256);
        int n = 50;
        for (int i = 0; i < n; i++) {
            s.upsert(monitor("d-" + i, 60));
        }
        long at = 30_000;
        advance(Duration.ofMillis(at));
        List<String> probed = probes.stream().map(Probe::id).toList();
        List<String> toCome = java.util.stream.IntStream.range(0, n)
                .mapToObj(i -> "d-" + i)
                .filter(id -> offset(id, 60) > at)
                .toList();
        assertThat(probed).isNotEmpty();
        assertThat(toCome).isNotEmpty().hasSize(n - probed.size());
        int before = results.size();
        var drained = s.drain(Duration.ofMinutes(1)).toFuture();
        List<ProbeResult> shutdown = results.subList(before, results.size());
        assertThat(shutdown).hasSize(toCome.size()).allSatisfy(r -> {
            assertThat(r.skipReason()).isEqualTo(SkipReason.SHUTTING_DOWN);
            assertThat(r.windowStart()).isZero();
            assertThat(r.startedAt()).isEqualTo(at);
        });
        assertThat(shutdown).extracting(ProbeResult::monitorId).containsExactlyInAnyOrderElementsOf(toCome);
        assertThat(skips).containsEntry(SkipReason.SHUTTING_DOWN, (long) toCome.size());
        assertThat(s.skippedWindows())
                .as("a worker that is leaving is not a worker skipping probes")
                .isZero();
        advance(Duration.ofSeconds(2));
        assertThat(drained).isDone();
        // nothing more: no probes and no second round of skips on close
        s.close();
        advance(Duration.ofMinutes(2));
        assertThat(probes).hasSize(probed.size());
        assertThat(results.stream().filter(r -> r.skipReason() == SkipReason.SHUTTING_DOWN))
                .hasSize(toCome.size());
    }

    @Test
    void skippedResultsPassThePrivacyGuardAndTheWire() {
        duration = m -> Duration.ofSeconds(25);
        var s = scheduler(256);
        s.upsert(monitor("slow", 10));
        // a monitor whose probe is still to come in its window when the worker drains
        String later = java.util.stream.IntStream.range(0, 100)
                .mapToObj(i -> "later-" + i)
                .filter(id -> offset(id, 60) > 30_000)
                .findFirst()
                .orElseThrow();
        s.upsert(monitor(later, 60));
        advance(Duration.ofSeconds(25));
        s.drain(Duration.ofMinutes(1));
        List<ProbeResult> skipped =
                results.stream().filter(ProbeResult::skipped).toList();
        assertThat(skipped).extracting(ProbeResult::skipReason).contains(SkipReason.OVERRUN, SkipReason.SHUTTING_DOWN);
        for (ProbeResult r : skipped) {
            assertThat(PrivacyGuard.inspect(r)).isEmpty();
            assertThat(r.errorKind()).isNull();
            assertThat(r.checkType()).isEqualTo(dev.vigil.schemas.contract.CheckType.HTTP);
            // as a remote worker posts it and ingest reads it back
            assertThat(Json.convert(Json.tree(Json.bytes(r)), ProbeResult.class))
                    .isEqualTo(r);
        }
    }

    /** Virtual time whose {@code now()} can run ahead of when tasks fire, as a stalled timer thread sees it. */
    static final class JumpyClock implements reactor.core.scheduler.Scheduler {
        private final VirtualTimeScheduler clock;
        volatile long jumpMs;

        JumpyClock(VirtualTimeScheduler clock) {
            this.clock = clock;
        }

        @Override
        public long now(java.util.concurrent.TimeUnit unit) {
            return clock.now(unit) + unit.convert(jumpMs, java.util.concurrent.TimeUnit.MILLISECONDS);
        }

        @Override
        public reactor.core.Disposable schedule(Runnable task) {
            return clock.schedule(task);
        }

        @Override
        public reactor.core.Disposable schedule(Runnable task, long delay, java.util.concurrent.TimeUnit unit) {
            return clock.schedule(task, delay, unit);
        }

        @Override
        public Worker createWorker() {
            return clock.createWorker();
        }
    }
}
