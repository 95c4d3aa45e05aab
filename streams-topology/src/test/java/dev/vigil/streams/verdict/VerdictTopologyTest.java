package dev.vigil.streams.verdict;

import static dev.vigil.streams.Fixtures.INTERVAL_MS;
import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.deadline;
import static dev.vigil.streams.Fixtures.failure;
import static dev.vigil.streams.Fixtures.httpFailure;
import static dev.vigil.streams.Fixtures.monitor;
import static dev.vigil.streams.Fixtures.regions;
import static dev.vigil.streams.Fixtures.success;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.Status;
import dev.vigil.streams.Fixtures;
import dev.vigil.streams.topology.DriverHarness;
import dev.vigil.streams.topology.StoreNames;
import dev.vigil.streams.uptime.DailyUptime;
import dev.vigil.streams.uptime.UptimeProcessor;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VerdictTopologyTest {
    private DriverHarness h;

    @BeforeEach
    void start() {
        h = new DriverHarness(W0 - 30_000);
    }

    @AfterEach
    void stop() {
        h.close();
    }

    /** Define the monitors, then let the first punctuation after the start-up hold register them. */
    private void defineAndSettle(dev.vigil.schemas.contract.MonitorDefinition... defs) {
        for (var def : defs) {
            h.define(def);
        }
        h.wallClockTo(W0 - 20_000);
    }

    @ParameterizedTest(name = "{0} regions: {1} up, {2} failed ({3} of them http), {4} missing -> {5}")
    @CsvSource({
        // n, successes, failures, httpFailures, missing, expected
        "1, 1, 0, 0, 0, up",
        "1, 0, 1, 0, 0, down",
        "1, 0, 1, 1, 0, down",
        "1, 0, 0, 0, 1, unknown",
        "2, 2, 0, 0, 0, up",
        "2, 0, 2, 1, 0, down",
        "2, 1, 1, 0, 0, degraded",
        "2, 1, 0, 0, 1, degraded",
        "2, 0, 1, 0, 1, degraded",
        "2, 0, 0, 0, 2, unknown",
        "3, 3, 0, 0, 0, up",
        "3, 1, 2, 1, 0, down",
        "3, 0, 3, 0, 0, down",
        "3, 2, 1, 0, 0, degraded",
        "3, 2, 0, 0, 1, degraded",
        "3, 1, 1, 0, 1, degraded",
        "3, 0, 2, 0, 1, down",
        "3, 0, 1, 0, 2, degraded",
        "3, 0, 0, 0, 3, unknown",
        "5, 5, 0, 0, 0, up",
        "5, 2, 3, 2, 0, down",
        "5, 3, 2, 0, 0, degraded",
        "5, 0, 3, 0, 2, down",
        "5, 1, 2, 0, 2, degraded",
        "5, 4, 0, 0, 1, degraded",
        "5, 0, 0, 0, 5, unknown",
    })
    void verdictTable(int n, int successes, int failures, int httpFailures, int missing, String expected) {
        List<String> regions = regions(n);
        defineAndSettle(monitor("shop", regions));
        int i = 0;
        for (; i < successes; i++) {
            h.result(success("shop", regions.get(i), W0));
        }
        for (int f = 0; f < failures; f++, i++) {
            h.result(f < httpFailures ? httpFailure("shop", regions.get(i), W0) : failure("shop", regions.get(i), W0));
        }
        if (missing == 0) {
            // early emission: complete before any wall-clock time passes
            List<MonitorStatus> out = h.status.readValuesToList();
            assertThat(out).hasSize(1);
            assertVerdict(out.get(0), Status.fromWire(expected), true, 0);
        } else {
            h.wallClockTo(deadline("shop", W0) - 1);
            assertThat(h.status.isEmpty())
                    .as("no verdict before the deadline while regions are missing")
                    .isTrue();
            h.wallClockTo(deadline("shop", W0)
                    + h.config.verdict().punctuationInterval().toMillis());
            List<MonitorStatus> out = h.status.readValuesToList();
            assertThat(out).hasSize(1);
            assertVerdict(out.get(0), Status.fromWire(expected), false, missing);
        }
        // Past the deadline nothing more is said about this window.
        h.wallClockTo(deadline("shop", W0) + 10_000);
        assertThat(h.status.readValuesToList()).noneMatch(s -> s.windowStart() == W0);
    }

    private static void assertVerdict(MonitorStatus s, Status status, boolean complete, int missing) {
        assertThat(s.monitorId()).isEqualTo("shop");
        assertThat(s.windowStart()).isEqualTo(W0);
        assertThat(s.status()).isEqualTo(status);
        assertThat(s.complete()).isEqualTo(complete);
        assertThat(s.missingRegions()).hasSize(missing);
    }

    /**
     * The task reads a window's first result only just before the window's deadline: its input runs behind the wall
     * clock (Streams starved, catching up), so the other regions' results may still be unread.
     */
    private long readTheFirstResultLate() {
        defineAndSettle(monitor("shop", regions(3)));
        long deadline = deadline("shop", W0);
        h.wallClockTo(deadline - 1);
        h.result(success("shop", "eu-west", W0));
        return deadline;
    }

    @Test
    void aDeadlinePassedOnTheWallClockButNotInTheInputWaitsForTheUnreadResults() {
        long deadline = readTheFirstResultLate();
        h.wallClockTo(deadline + h.config.verdict().punctuationInterval().toMillis());
        assertThat(h.status.isEmpty())
                .as("the deadline passed on the wall clock only: the other regions' results may be in the backlog")
                .isTrue();
        h.result(success("shop", "us-east", W0));
        h.result(success("shop", "ap-south", W0));
        assertThat(h.status.readValuesToList()).singleElement().satisfies(s -> {
            assertThat(s.status()).isEqualTo(Status.UP);
            assertThat(s.complete()).isTrue();
        });
    }

    @Test
    void aBacklogThatPassesTheDeadlineDecidesWhatIsMissingThen() {
        long deadline = readTheFirstResultLate();
        h.wallClockTo(deadline + h.config.verdict().punctuationInterval().toMillis());
        // the next result read was produced after the deadline: whatever this window lacks now is missing, not unread
        var later = success("shop", "eu-west", W0 + INTERVAL_MS);
        h.results.pipeInput(later.monitorId(), later, deadline + 1);
        h.wallClockTo(deadline + 2 * h.config.verdict().punctuationInterval().toMillis());
        assertThat(h.status.readValuesToList()).singleElement().satisfies(s -> {
            assertThat(s.windowStart()).isEqualTo(W0);
            assertThat(s.status()).isEqualTo(Status.DEGRADED);
            assertThat(s.complete()).isFalse();
            assertThat(s.missingRegions()).containsExactlyInAnyOrder("us-east", "ap-south");
        });
    }

    @Test
    void aFleetThatFallsSilentWhileBehindIsStillDecidedOnceTheInputStops() {
        long deadline = readTheFirstResultLate();
        long grace = h.config.verdict().grace().toMillis();
        h.wallClockTo(
                deadline + grace + 2 * h.config.verdict().punctuationInterval().toMillis());
        assertThat(h.status.readValuesToList()).singleElement().satisfies(s -> {
            assertThat(s.status()).isEqualTo(Status.DEGRADED);
            assertThat(s.missingRegions()).hasSize(2);
        });
    }

    @Test
    void anInputThatNeverCatchesUpHoldsAWindowForABoundedTime() {
        long deadline = readTheFirstResultLate();
        var stale = success("other", "eu-west", W0);
        long t = deadline;
        // results keep coming, all produced long ago: the task never catches up with the wall clock
        while (t < deadline + VerdictProcessor.BACKLOG_HOLD_MAX_MS + 2_000 && h.status.isEmpty()) {
            t += 1_000;
            h.wallClockTo(t);
            h.results.pipeInput(stale.monitorId(), stale, stale.startedAt());
        }
        assertThat(t)
                .as("held while the backlog could still hold the window's results")
                .isGreaterThan(deadline + VerdictProcessor.BACKLOG_HOLD_MAX_MS - 2_000);
        assertThat(h.status.readValuesToList()).singleElement().satisfies(s -> {
            assertThat(s.windowStart()).isEqualTo(W0);
            assertThat(s.missingRegions()).hasSize(2);
        });
    }

    @Test
    void earlyEmissionHappensWithoutWallClockAndOnlyOnce() {
        defineAndSettle(monitor("shop", regions(3)));
        h.result(success("shop", "eu-west", W0));
        h.result(success("shop", "us-east", W0));
        assertThat(h.status.isEmpty()).isTrue();
        h.result(success("shop", "ap-south", W0));
        assertThat(h.status.readValuesToList()).singleElement().satisfies(s -> assertThat(s.status())
                .isEqualTo(Status.UP));
        h.wallClockTo(deadline(W0) + 1);
        assertThat(h.status.readValuesToList()).isEmpty();
    }

    @Test
    void eachRegionsPhaseTimingsReachTheVerdict() {
        defineAndSettle(monitor("shop", regions(2)));
        h.result(new dev.vigil.schemas.contract.ProbeResult(
                1,
                "shop",
                "eu-west",
                "worker-eu-west",
                W0,
                W0 + 10,
                dev.vigil.schemas.contract.Outcome.SUCCESS,
                null,
                200,
                42,
                45,
                100L,
                0,
                null,
                30,
                4,
                9,
                17,
                null,
                "req-1"));
        h.result(success("shop", "us-east", W0));
        MonitorStatus s = h.status.readValue();
        assertThat(s.regions().get("eu-west"))
                .isEqualTo(new MonitorStatus.RegionResult(
                        dev.vigil.schemas.contract.Outcome.SUCCESS, null, 200, 42, 4, 9, 17));
        assertThat(s.regions().get("us-east").dnsMs()).isNull();
    }

    @Test
    void deadlineEmissionOnWallClockWithPartialResults() {
        defineAndSettle(monitor("shop", regions(3)));
        h.result(failure("shop", "eu-west", W0));
        h.result(failure("shop", "us-east", W0));
        h.wallClockTo(deadline("shop", W0) - 500);
        assertThat(h.status.isEmpty()).isTrue();
        h.wallClockTo(deadline("shop", W0) + 500);
        MonitorStatus s = h.status.readValue();
        assertThat(s.status()).isEqualTo(Status.DOWN);
        assertThat(s.missingRegions()).containsExactly("ap-south");
        assertThat(h.counter("vigil.verdict.emitted")).isEqualTo(1.0);
    }

    @Test
    void silentFleetYieldsOneUnknownPerWindow() {
        defineAndSettle(monitor("quiet", regions(3)));
        h.wallClockTo(deadline(W0 + 2 * INTERVAL_MS));
        List<MonitorStatus> out = h.status.readValuesToList();
        assertThat(out)
                .extracting(MonitorStatus::windowStart)
                .containsExactly(W0, W0 + INTERVAL_MS, W0 + 2 * INTERVAL_MS);
        assertThat(out)
                .allMatch(s -> s.status() == Status.UNKNOWN
                        && !s.complete()
                        && s.missingRegions().size() == 3);
        h.wallClockTo(deadline(W0 + 2 * INTERVAL_MS) + 30_000);
        assertThat(h.status.readValuesToList()).isEmpty();
    }

    @Test
    void lateResultsAreCountedAndDropped() {
        defineAndSettle(monitor("shop", regions(2)));
        h.result(success("shop", "eu-west", W0));
        h.wallClockTo(deadline("shop", W0));
        assertThat(h.status.readValue().status()).isEqualTo(Status.DEGRADED);
        h.result(failure("shop", "us-east", W0)); // the missing region reports after the verdict
        h.wallClockTo(deadline("shop", W0) + 10_000);
        assertThat(h.status.readValuesToList()).isEmpty();
        assertThat(h.counter("vigil.verdict.late.results")).isEqualTo(1.0);

        // a window decided early also refuses a second result
        h.result(success("shop", "eu-west", W0 + INTERVAL_MS));
        h.result(success("shop", "us-east", W0 + INTERVAL_MS));
        assertThat(h.status.readValue().status()).isEqualTo(Status.UP);
        h.result(success("shop", "us-east", W0 + INTERVAL_MS));
        assertThat(h.status.isEmpty()).isTrue();
        assertThat(h.counter("vigil.verdict.late.results")).isEqualTo(2.0);
    }

    @Test
    void regionRemovedMidWindowCompletesTheWindowAtOnce() {
        defineAndSettle(monitor("shop", List.of("eu-west", "us-east", "ap-south")));
        h.result(success("shop", "eu-west", W0));
        h.result(success("shop", "us-east", W0));
        assertThat(h.status.isEmpty()).isTrue();
        h.define(monitor("shop", List.of("eu-west", "us-east")));
        MonitorStatus s = h.status.readValue();
        assertThat(s.status()).isEqualTo(Status.UP);
        assertThat(s.complete()).isTrue();
        assertThat(s.regions()).containsOnlyKeys("eu-west", "us-east");
    }

    @Test
    void regionAddedMidWindowIsExpectedAndMissing() {
        defineAndSettle(monitor("shop", List.of("eu-west", "us-east")));
        h.result(success("shop", "eu-west", W0));
        h.define(monitor("shop", List.of("eu-west", "us-east", "ap-south")));
        h.result(success("shop", "us-east", W0));
        assertThat(h.status.isEmpty())
                .as("not complete: the added region has not reported")
                .isTrue();
        h.wallClockTo(deadline(W0));
        MonitorStatus s = h.status.readValue();
        assertThat(s.status()).isEqualTo(Status.DEGRADED);
        assertThat(s.missingRegions()).containsExactly("ap-south");
    }

    @Test
    void resultOfARemovedRegionDoesNotCount() {
        defineAndSettle(monitor("shop", List.of("eu-west", "us-east")));
        h.result(failure("shop", "ap-south", W0));
        h.result(success("shop", "eu-west", W0));
        h.result(success("shop", "us-east", W0));
        MonitorStatus s = h.status.readValue();
        assertThat(s.status()).isEqualTo(Status.UP);
        assertThat(s.regions()).doesNotContainKey("ap-south");
    }

    @Test
    void deletedOrDisabledMonitorsGetNoVerdicts() {
        defineAndSettle(monitor("gone", regions(2)), Fixtures.disabled("off", regions(2)));
        h.result(success("gone", "eu-west", W0));
        h.monitors.pipeInput("gone", null);
        h.result(success("off", "eu-west", W0));
        h.result(success("nobody", "eu-west", W0));
        h.wallClockTo(deadline(W0 + INTERVAL_MS));
        // no verdict, only the tombstones that take each off the status topic (it has no current verdict)
        assertThat(h.status.readKeyValuesToList())
                .extracting(kv -> kv.key + "=" + kv.value)
                .containsExactlyInAnyOrder("off=null", "gone=null");
        assertThat(h.counter("vigil.verdict.unmonitored.results")).isEqualTo(2.0);
    }

    @Test
    void deletedMonitorLeavesTheLatestStatusButKeepsItsHistory() {
        defineAndSettle(monitor("pruned", regions(1)));
        h.result(failure("pruned", "eu-west", W0));
        KeyValueStore<String, MonitorStatus> latest = h.driver.getKeyValueStore(StoreNames.STATUS_STORE);
        assertThat(latest.get("pruned").status()).isEqualTo(Status.DOWN);

        h.monitors.pipeInput("pruned", null);

        assertThat(latest.get("pruned"))
                .as("a deleted monitor leaves /v1/status")
                .isNull();
        WindowStore<String, MonitorStatus> history = h.driver.getWindowStore(StoreNames.HISTORY_STORE);
        try (var it = history.fetch("pruned", Instant.ofEpochMilli(W0), Instant.ofEpochMilli(W0))) {
            assertThat(it.hasNext()).as("history stays until retention").isTrue();
        }
    }

    @Test
    void storesHoldLatestStatusHistoryAndDailyUptime() {
        defineAndSettle(monitor("shop", regions(1)));
        h.result(success("shop", "eu-west", W0));
        h.result(failure("shop", "eu-west", W0 + INTERVAL_MS));
        h.wallClockTo(deadline(W0 + 2 * INTERVAL_MS)); // W0+2i is silent: unknown
        h.result(success("shop", "eu-west", W0 + 3 * INTERVAL_MS));

        KeyValueStore<String, MonitorStatus> latest = h.driver.getKeyValueStore(StoreNames.STATUS_STORE);
        assertThat(latest.get("shop").windowStart()).isEqualTo(W0 + 3 * INTERVAL_MS);
        assertThat(latest.get("shop").status()).isEqualTo(Status.UP);

        WindowStore<String, MonitorStatus> history = h.driver.getWindowStore(StoreNames.HISTORY_STORE);
        List<Status> statuses = new java.util.ArrayList<>();
        try (var it = history.fetch("shop", Instant.ofEpochMilli(W0), Instant.ofEpochMilli(W0 + 3 * INTERVAL_MS))) {
            it.forEachRemaining(kv -> statuses.add(kv.value.status()));
        }
        assertThat(statuses).containsExactly(Status.UP, Status.DOWN, Status.UNKNOWN, Status.UP);

        KeyValueStore<String, DailyUptime> uptime = h.driver.getKeyValueStore(StoreNames.UPTIME_STORE);
        long day = Math.floorDiv(W0, 86_400_000L);
        DailyUptime d = uptime.get(UptimeProcessor.key("shop", day));
        assertThat(d.up()).isEqualTo(2);
        assertThat(d.down()).isEqualTo(1);
        assertThat(d.unknown()).isEqualTo(1);
        assertThat(d.uptimePercent()).isCloseTo(200.0 / 3, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void uptimeDaysOutsideRetentionAreForgotten() {
        h.close();
        var cfg = new dev.vigil.streams.config.TopologyConfig(
                null,
                new dev.vigil.streams.config.TopologyConfig.VerdictSettings(
                        null, java.time.Duration.ofDays(2), null, null),
                null);
        h = new DriverHarness(cfg, W0 - 30_000);
        defineAndSettle(monitor("shop", regions(1)));
        long day = 86_400_000L;
        for (int d = 0; d < 4; d++) {
            h.result(success("shop", "eu-west", W0 + d * day));
        }
        KeyValueStore<String, DailyUptime> uptime = h.driver.getKeyValueStore(StoreNames.UPTIME_STORE);
        long first = Math.floorDiv(W0, day);
        assertThat(uptime.get(UptimeProcessor.key("shop", first))).isNull();
        assertThat(uptime.get(UptimeProcessor.key("shop", first + 1))).isNull();
        assertThat(uptime.get(UptimeProcessor.key("shop", first + 2)).up()).isEqualTo(1);
        assertThat(uptime.get(UptimeProcessor.key("shop", first + 3)).up()).isEqualTo(1);
    }

    @Test
    void poisonRecordsGoToDeadLetterAndProcessingContinues() {
        defineAndSettle(monitor("shop", regions(1)));
        h.rawResults.pipeInput("shop", "{not json".getBytes(StandardCharsets.UTF_8));
        h.rawResults.pipeInput("shop", "{\"schemaVersion\":1,\"monitorId\":\"shop\"}".getBytes(StandardCharsets.UTF_8));
        h.results.pipeInput("other", success("shop", "eu-west", W0)); // key does not match
        h.result(success("shop", "eu-west", W0));

        // Undeserialisable records are dead-lettered by DeadLetterHandler (its records are produced by Streams itself,
        // which TopologyTestDriver does not capture: DeadLetterHandlerTest and the broker IT check the envelope).
        assertThat(h.counter("vigil.streams.dead.letter.records")).isEqualTo(2.0);
        List<DeadLetter> letters = h.deadLetters.readValuesToList();
        assertThat(letters).singleElement().satisfies(l -> {
            assertThat(l.reason()).contains("key does not equal monitorId");
            assertThat(l.key()).isEqualTo("other");
            assertThat(l.topic()).isEqualTo("vigil.probe-results");
        });
        assertThat(h.status.readValue().status()).isEqualTo(Status.UP);
    }
}
