package dev.vigil.streams.selfwatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.WorkerHeartbeat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The region watch's pure rules: liveness, the monitors naming a region, blindness and the skipped share. */
class RegionWatchTest {
    static final long T = 1_800_000_000_000L;
    static final long HEALTHY = 30_000;
    static final long FORGET = 86_400_000;

    static WatchSignal beat(
            String worker, String region, String about, long at, long started, long skipped, int naming) {
        var hb = new WorkerHeartbeat(1, worker, region, at, 0, 0, "1", started, skipped, Map.of(about, naming));
        return WatchSignal.of(hb, about);
    }

    @Test
    void aRegionIsBlindWhenMonitorsNameItAndNoLiveWorkerServesItAndNotBeforeItWasWatchedLongEnough() {
        var w = RegionWatch.first("ap-south", T).heard(beat("w-eu", "eu-west", "ap-south", T, 0, 0, 7), 60_000);
        assertThat(w.judged(T + 10_000, HEALTHY, FORGET).blind())
                .as("a fresh start waits for heartbeats")
                .isFalse();
        var blind = w.heard(beat("w-eu", "eu-west", "ap-south", T + 25_000, 0, 0, 7), 60_000)
                .judged(T + 30_000, HEALTHY, FORGET);
        assertThat(blind.blind()).isTrue();
        assertThat(blind.status(T + 30_000, HEALTHY).monitorsNaming()).isEqualTo(7);
        assertThat(blind.status(T + 30_000, HEALTHY).everServed()).isFalse();

        var served = blind.heard(beat("w-ap", "ap-south", "ap-south", T + 31_000, 10, 0, 7), 60_000)
                .judged(T + 31_000, HEALTHY, FORGET);
        assertThat(served.blind()).isFalse();
        assertThat(served.status(T + 31_000, HEALTHY).liveWorkers()).isEqualTo(1);
        // its only worker falls silent in its first minute: one late heartbeat then is its cold start, so it is live
        // for twice workers.healthy, and blind after that
        var late = served.heard(beat("w-eu", "eu-west", "ap-south", T + 60_000, 0, 0, 7), 60_000)
                .judged(T + 61_000 + 5_000, HEALTHY, FORGET);
        assertThat(late.blind())
                .as("warming up: a late heartbeat is not a death")
                .isFalse();
        var dead = served.heard(beat("w-eu", "eu-west", "ap-south", T + 90_000, 0, 0, 7), 60_000)
                .judged(T + 91_000, HEALTHY, FORGET);
        assertThat(dead.blind()).isTrue();
        assertThat(dead.status(T + 91_000, HEALTHY).everServed()).isTrue();
        // no live worker reports that monitors name it: not blind (nothing is unwatched)
        assertThat(dead.judged(T + 91_000 + HEALTHY, HEALTHY, FORGET).blind()).isFalse();
    }

    @Test
    void aWorkerPastItsWarmUpIsDeadOnceItsHeartbeatIsOlderThanWorkersHealthy() {
        var w = RegionWatch.first("eu-west", T);
        for (int i = 0; i <= 7; i++) {
            w = w.heard(beat("w", "eu-west", "eu-west", T + i * 10_000L, 10L * i, 0, 3), 60_000);
        }
        long last = T + 70_000;
        assertThat(w.liveWorkers(last + HEALTHY - 1, HEALTHY)).isEqualTo(1);
        assertThat(w.liveWorkers(last + HEALTHY, HEALTHY))
                .as("past its first minute")
                .isZero();
        // the same silence in its first minute still counts it live
        var fresh = RegionWatch.first("eu-west", T).heard(beat("w", "eu-west", "eu-west", T, 0, 0, 3), 60_000);
        assertThat(fresh.liveWorkers(T + HEALTHY, HEALTHY)).isEqualTo(1);
        assertThat(fresh.liveWorkers(T + 2 * HEALTHY, HEALTHY)).isZero();
    }

    @Test
    void theSkippedShareIsMeasuredOverAWholeSpanAfterTheWarmUpAndARestartStartsAgain() {
        var w = RegionWatch.first("eu-west", T);
        for (int i = 0; i <= 12; i++) {
            w = w.heard(beat("w", "eu-west", "eu-west", T + i * 10_000L, 100L * i, 2L * i, 1), 60_000);
            if (i < 12) {
                assertThat(w.skips("w", 60_000))
                        .as("its first minute is its warm-up, then a whole minute")
                        .isNull();
            }
        }
        assertThat(w.skips("w", 60_000)).isEqualTo(new RegionWatch.Skips(600, 12, 60_000));
        w = w.heard(beat("w", "eu-west", "eu-west", T + 130_000, 1300, 26, 1), 60_000);
        assertThat(w.skips("w", 60_000)).isEqualTo(new RegionWatch.Skips(600, 12, 60_000));
        // the worker restarted: its counters begin again, and so do the warm-up and the span
        w = w.heard(beat("w", "eu-west", "eu-west", T + 140_000, 5, 0, 1), 60_000);
        assertThat(w.skips("w", 60_000)).isNull();
        for (int i = 1; i <= 11; i++) {
            w = w.heard(beat("w", "eu-west", "eu-west", T + 140_000 + i * 10_000L, 5 + 100L * i, i, 1), 60_000);
            assertThat(w.skips("w", 60_000)).as("warming up again").isNull();
        }
        w = w.heard(beat("w", "eu-west", "eu-west", T + 140_000 + 120_000, 5 + 1200, 12, 1), 60_000);
        assertThat(w.skips("w", 60_000)).isEqualTo(new RegionWatch.Skips(600, 6, 60_000));
    }

    @Test
    void theSkipsOfAWorkersWarmUpAreNotCounted() {
        var w = RegionWatch.first("eu-west", T);
        long skipped = 0;
        for (int i = 0; i <= 14; i++) {
            skipped += i < 6 ? 40 : 0; // a cold start: its first minute's probes finish late
            w = w.heard(beat("w", "eu-west", "eu-west", T + i * 10_000L, 100L * i, skipped, 1), 60_000);
            RegionWatch.Skips skips = w.skips("w", 60_000);
            assertThat(skips == null || skips.skipped() == 0)
                    .as("judged at %d s: %s", i * 10, skips)
                    .isTrue();
        }
        assertThat(w.skips("w", 60_000)).isEqualTo(new RegionWatch.Skips(600, 0, 60_000));
    }
}
