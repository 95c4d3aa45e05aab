package dev.vigil.streams.verdict;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.HeartbeatFixtures.at;
import static dev.vigil.streams.HeartbeatFixtures.deadline;
import static dev.vigil.streams.HeartbeatFixtures.failed;
import static dev.vigil.streams.HeartbeatFixtures.ping;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.HeartbeatSchedules;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.Status;
import dev.vigil.streams.Fixtures;
import dev.vigil.streams.HeartbeatFixtures;
import dev.vigil.streams.topology.DriverHarness;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Heartbeat (push) monitors in the verdict topology, on TopologyTestDriver with wall-clock advance: a ping decides its
 * window {@code up} (or {@code down} for {@code /fail}) at once, a window without a ping is {@code down} with a missed
 * heartbeat at its end plus grace plus the pipeline grace, cron windows follow the zone's clock across a DST change,
 * misaligned results are dead-lettered, and the same input gives the same verdicts.
 */
class HeartbeatVerdictTest {
    private static final int INTERVAL_S = 600;
    private static final int GRACE_S = 60;
    private static final long INTERVAL = INTERVAL_S * 1000L;
    private static final MonitorDefinition EVERY_10_MIN = HeartbeatFixtures.every("backup", INTERVAL_S, GRACE_S);
    private static final MonitorDefinition NIGHTLY =
            HeartbeatFixtures.cron("nightly", "0 2 * * *", "Europe/Paris", GRACE_S);

    private DriverHarness h;

    @AfterEach
    void stop() {
        if (h != null) {
            h.close();
        }
    }

    private long nextPunctuation(long after) {
        return after + h.config.verdict().punctuationInterval().toMillis();
    }

    /** A driver whose first punctuation has registered {@code def}; its first whole window starts at {@code first}. */
    private DriverHarness started(MonitorDefinition def, long first) {
        h = new DriverHarness(first - 30_000);
        h.define(def);
        h.wallClockTo(first - 20_000);
        return h;
    }

    private static void assertPush(MonitorStatus s, Status status, Outcome outcome, ErrorKind kind) {
        assertThat(s.status()).isEqualTo(status);
        assertThat(s.complete()).isTrue();
        assertThat(s.missingRegions()).isEmpty();
        assertThat(s.regions()).containsOnlyKeys(MonitorDefinition.PUSH_REGION);
        RegionResult push = s.regions().get(MonitorDefinition.PUSH_REGION);
        assertThat(push.outcome()).isEqualTo(outcome);
        assertThat(push.errorKind()).isEqualTo(kind);
        assertThat(push.httpStatus()).isNull();
    }

    @Test
    void aPingDecidesItsWindowUpAtOnceAndASilentWindowIsDownAtItsEndPlusGrace() {
        assertThat(W0 % INTERVAL).isZero();
        started(EVERY_10_MIN, W0);
        h.wallClockTo(W0 + 300_000);
        h.result(ping(EVERY_10_MIN, W0 + 300_000));
        MonitorStatus up = h.status.readValue();
        assertThat(up.windowStart()).isEqualTo(W0);
        assertPush(up, Status.UP, Outcome.SUCCESS, null);

        long w1 = W0 + INTERVAL;
        long due = deadline(EVERY_10_MIN, w1);
        assertThat(due).isEqualTo(w1 + INTERVAL + GRACE_S * 1000L + 5_000);
        h.wallClockTo(w1 + INTERVAL); // the window ended: still within its grace
        h.wallClockTo(due - 1);
        assertThat(h.status.isEmpty())
                .as("no verdict before the end plus grace")
                .isTrue();
        h.wallClockTo(nextPunctuation(due - 1)); // the punctuator runs once a second
        MonitorStatus down = h.status.readValue();
        assertThat(down.windowStart()).isEqualTo(w1);
        assertPush(down, Status.DOWN, Outcome.NETWORK_FAILURE, ErrorKind.MISSED_HEARTBEAT);
        assertThat(down.decidedAt()).isBetween(due, nextPunctuation(due - 1));
        assertThat(h.counter("vigil.verdict.emitted")).isEqualTo(2.0);
    }

    @Test
    void laterPingsOfADecidedWindowAreLateAndTheFirstPingDecides() {
        started(EVERY_10_MIN, W0);
        h.result(ping(EVERY_10_MIN, W0 + 1_000));
        h.result(failed(EVERY_10_MIN, W0 + 2_000));
        h.result(ping(EVERY_10_MIN, W0 + 3_000));
        assertThat(h.status.readValuesToList())
                .singleElement()
                .satisfies(s -> assertPush(s, Status.UP, Outcome.SUCCESS, null));
        assertThat(h.counter("vigil.verdict.late.results")).isEqualTo(2.0);
    }

    @Test
    void aFailPingIsDownWithReportedFailureAtOnce() {
        started(EVERY_10_MIN, W0);
        h.result(failed(EVERY_10_MIN, W0 + 42_000));
        MonitorStatus s = h.status.readValue();
        assertThat(s.windowStart()).isEqualTo(W0);
        assertPush(s, Status.DOWN, Outcome.ASSERTION_FAILURE, ErrorKind.REPORTED_FAILURE);
    }

    @Test
    void aPingDuringTheGraceOfAMissedWindowWaitsSoVerdictsStayInWindowOrder() {
        started(EVERY_10_MIN, W0);
        h.result(ping(EVERY_10_MIN, W0 + 1_000));
        assertThat(h.status.readValue().status()).isEqualTo(Status.UP);
        long w1 = W0 + INTERVAL;
        long w2 = w1 + INTERVAL;
        h.wallClockTo(w2 + 10_000); // w1 had no ping; it is in its grace when w2's ping arrives
        h.result(ping(EVERY_10_MIN, w2 + 10_000));
        assertThat(h.status.isEmpty()).as("w2 waits for w1").isTrue();
        h.wallClockTo(deadline(EVERY_10_MIN, w1));
        List<MonitorStatus> out = h.status.readValuesToList();
        assertThat(out).extracting(MonitorStatus::windowStart).containsExactly(w1, w2);
        assertThat(out).extracting(MonitorStatus::status).containsExactly(Status.DOWN, Status.UP);
        // w2 was decided once: nothing more comes for it at its own deadline
        h.wallClockTo(deadline(EVERY_10_MIN, w2));
        assertThat(h.status.readValuesToList()).isEmpty();
    }

    @Test
    void aPingInAWindowBeforeTheFirstWholeOneIsDecidedButSilenceIsJudgedOnlyFromThere() {
        h = new DriverHarness(W0 + 100_000);
        h.define(EVERY_10_MIN);
        h.wallClockTo(W0 + 110_000); // registered mid-window: responsibility for silence starts at W0 + 10 min
        h.result(ping(EVERY_10_MIN, W0 + 120_000));
        assertThat(h.status.readValue().windowStart()).isEqualTo(W0);
        h.wallClockTo(deadline(EVERY_10_MIN, W0 + INTERVAL) - 1);
        assertThat(h.status.isEmpty()).isTrue();
        h.wallClockTo(nextPunctuation(deadline(EVERY_10_MIN, W0 + INTERVAL) - 1));
        assertThat(h.status.readValue().status()).isEqualTo(Status.DOWN);
    }

    @Test
    void aResultForAnotherWindowStartOrFromAProbeRegionIsDeadLettered() {
        started(EVERY_10_MIN, W0);
        h.result(HeartbeatFixtures.result(EVERY_10_MIN, W0 + 60_000, W0 + 70_000, Outcome.SUCCESS, null));
        h.result(Fixtures.success("backup", "eu-west", W0));
        assertThat(h.deadLetters.readValuesToList())
                .extracting(l -> l.reason())
                .containsExactly(
                        "windowStart is not a window start of the monitor's heartbeat schedule",
                        "a heartbeat monitor's results are its pings (region push), not probes");
        assertThat(h.status.isEmpty()).isTrue();
    }

    /**
     * {@code 0 2 * * *} in Europe/Paris: on 2026-10-25 clocks go back from 03:00 CEST to 02:00 CET, so that day's window
     * is 25 hours long (00:00Z to 01:00Z the next day), and 02:00 CET on the 25th (01:00Z) is no window start.
     */
    @Test
    void cronWindowsFollowTheZoneAcrossTheOctober2026DstChange() {
        long oct24 = at("2026-10-24T00:00:00Z"); // 02:00 CEST
        long oct25 = at("2026-10-25T00:00:00Z"); // 02:00 CEST, the night clocks go back
        long oct26 = at("2026-10-26T01:00:00Z"); // 02:00 CET
        long oct27 = at("2026-10-27T01:00:00Z");
        assertThat(HeartbeatSchedules.windowAt(NIGHTLY, oct25 + 3_600_000L))
                .isEqualTo(new HeartbeatSchedules.Window(oct25, oct26));
        started(NIGHTLY, oct24);

        h.wallClockTo(oct24 + 30 * 60_000L);
        h.result(ping(NIGHTLY, oct24 + 30 * 60_000L)); // 02:30 CEST: the backup ran
        MonitorStatus first = h.status.readValue();
        assertThat(first.windowStart()).isEqualTo(oct24);
        assertPush(first, Status.UP, Outcome.SUCCESS, null);

        // a result placed at 02:00 CET on the 25th (a naive "02:00 local" after the change) is misaligned
        h.result(HeartbeatFixtures.result(
                NIGHTLY, at("2026-10-25T01:00:00Z"), at("2026-10-25T01:00:05Z"), Outcome.SUCCESS, null));
        assertThat(h.deadLetters.readValue().reason()).contains("heartbeat schedule");

        // the job does not run on the 25th: its window ends at 02:00 CET on the 26th, 25 h after it started
        h.wallClockTo(oct25 + 86_400_000L + GRACE_S * 1000L + 5_000);
        assertThat(h.status.isEmpty())
                .as("a 24 h window would have ended already; this one is 25 h")
                .isTrue();
        h.wallClockTo(deadline(NIGHTLY, oct25) - 1);
        assertThat(h.status.isEmpty()).isTrue();
        h.wallClockTo(nextPunctuation(deadline(NIGHTLY, oct25) - 1));
        MonitorStatus missed = h.status.readValue();
        assertThat(missed.windowStart()).isEqualTo(oct25);
        assertPush(missed, Status.DOWN, Outcome.NETWORK_FAILURE, ErrorKind.MISSED_HEARTBEAT);
        assertThat(deadline(NIGHTLY, oct25)).isEqualTo(oct26 + 65_000);

        h.wallClockTo(oct26 + 20 * 60_000L);
        h.result(ping(NIGHTLY, oct26 + 20 * 60_000L)); // 02:20 CET
        MonitorStatus back = h.status.readValue();
        assertThat(back.windowStart()).isEqualTo(oct26);
        assertThat(back.status()).isEqualTo(Status.UP);
        assertThat(HeartbeatSchedules.next(NIGHTLY, new HeartbeatSchedules.Window(oct26, oct27))
                        .start())
                .isEqualTo(oct27);
    }

    /** One scenario of pings, fails and silence over five windows, as a list of verdicts. */
    private List<MonitorStatus> scenario(Consumer<DriverHarness> extra) {
        started(EVERY_10_MIN, W0);
        h.result(ping(EVERY_10_MIN, W0 + 5_000));
        h.wallClockTo(W0 + 2 * INTERVAL + 30_000);
        h.result(failed(EVERY_10_MIN, W0 + 2 * INTERVAL + 30_000));
        h.wallClockTo(W0 + 3 * INTERVAL + 30_000);
        h.result(ping(EVERY_10_MIN, W0 + 3 * INTERVAL + 30_000));
        extra.accept(h);
        h.wallClockTo(deadline(EVERY_10_MIN, W0 + 4 * INTERVAL));
        List<MonitorStatus> out = new ArrayList<>(h.status.readValuesToList());
        h.close();
        h = null;
        return out;
    }

    @Test
    void theSameInputGivesTheSameVerdictsAndReplayedPingsChangeNothing() {
        List<MonitorStatus> once = scenario(d -> {});
        List<MonitorStatus> replayed = scenario(d -> {
            // the same pings delivered again (a producer retry, a replay of the topic): late, no new verdict
            d.result(ping(EVERY_10_MIN, W0 + 5_000));
            d.result(failed(EVERY_10_MIN, W0 + 2 * INTERVAL + 30_000));
        });
        assertThat(once)
                .extracting(MonitorStatus::status)
                .containsExactly(Status.UP, Status.DOWN, Status.DOWN, Status.UP, Status.DOWN);
        assertThat(once)
                .extracting(MonitorStatus::windowStart)
                .containsExactly(W0, W0 + INTERVAL, W0 + 2 * INTERVAL, W0 + 3 * INTERVAL, W0 + 4 * INTERVAL);
        assertThat(replayed).isEqualTo(once);
    }
}
