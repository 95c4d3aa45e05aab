package dev.vigil.streams.alerting;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.heartbeat;
import static dev.vigil.streams.Fixtures.monitor;
import static dev.vigil.streams.Fixtures.skipped;
import static dev.vigil.streams.Fixtures.success;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.RegionStatus;
import dev.vigil.schemas.contract.SkipReason;
import dev.vigil.schemas.contract.Status;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.window.Windows;
import dev.vigil.streams.Fixtures;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Vigil's own gaps over the whole topology: skipped results, blind and unserved regions across a fleet of monitors,
 * skipping workers and dead letters each give one self-alert at most, and never a page about a monitor.
 */
class VigilGapsTopologyTest {
    static final long MIN = 60_000L;
    static final List<String> THREE = Fixtures.regions(3); // eu-west, us-east, ap-south

    static List<String> log(List<AlertEvent> events, String fingerprint) {
        return events.stream()
                .filter(e -> e.fingerprint().equals(fingerprint))
                .map(e -> e.state().wire() + ":" + e.severity().wire() + (e.silenced() ? ":silenced" : ""))
                .toList();
    }

    @Test
    void skippedResultsCompleteTheWindowAsMissingRegionsNamedInTheVerdictAndNeverBreach() {
        try (var h = new AlertingHarness(W0 - 30_000)) {
            var statuses = h.driver.createOutputTopic(
                    h.config.topics().monitorStatus(), new StringDeserializer(), VigilSerdes.monitorStatus());
            h.define(monitor("shop", THREE));
            h.wallClockTo(W0 - 20_000);
            for (int i = 0; i < 4; i++) {
                long w = W0 + i * MIN;
                h.wallClockTo(Windows.scheduledAt("shop", w, MIN, Fixtures.TIMEOUT_MS) + 500);
                h.result(success("shop", "eu-west", w));
                h.result(skipped("shop", "ap-south", w, SkipReason.OVERLOADED));
                assertThat(statuses.readValuesToList())
                        .as("still waiting for us-east")
                        .isEmpty();
                h.result(success("shop", "us-east", w));
                // every region has a result or a skip: decided at once, before the deadline
                List<MonitorStatus> decided = statuses.readValuesToList();
                assertThat(decided).singleElement().satisfies(v -> {
                    assertThat(v.status()).isEqualTo(Status.DEGRADED);
                    assertThat(v.complete()).isFalse();
                    assertThat(v.missingRegions()).containsExactly("ap-south");
                    assertThat(v.skipped()).containsExactly(Map.entry("ap-south", SkipReason.OVERLOADED));
                    assertThat(v.regions()).containsOnlyKeys("eu-west", "us-east");
                });
            }
            // a real result after a skip of the same region replaces it; a skip after a result is a duplicate
            long w = W0 + 4 * MIN;
            h.wallClockTo(Windows.scheduledAt("shop", w, MIN, Fixtures.TIMEOUT_MS) + 500);
            h.result(skipped("shop", "ap-south", w, SkipReason.OVERRUN));
            h.result(success("shop", "ap-south", w));
            h.result(skipped("shop", "eu-west", w, SkipReason.SHUTTING_DOWN));
            h.result(success("shop", "eu-west", w));
            assertThat(statuses.readValuesToList())
                    .as("us-east is still awaited")
                    .isEmpty();
            h.result(success("shop", "us-east", w));
            assertThat(statuses.readValuesToList()).singleElement().satisfies(v -> {
                assertThat(v.status()).isEqualTo(Status.UP);
                assertThat(v.complete()).isTrue();
                assertThat(v.skipped()).isEmpty();
            });
            assertThat(h.alerts.readValuesToList())
                    .as("four degraded windows made of a skip: no breach")
                    .isEmpty();
        }
    }

    /** The fleet of the blind-region test: monitors and the regions they name. */
    record Fleet(List<MonitorDefinition> monitors, Map<String, Integer> regionsNamed) {
        static Fleet of() {
            List<MonitorDefinition> all = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                if (i < 400) {
                    all.add(monitor(String.format("full-%04d", i), THREE));
                } else if (i < 700) {
                    all.add(monitor(String.format("ap-only-%04d", i), List.of("ap-south")));
                } else if (i < 900) {
                    all.add(monitor(String.format("mixed-%04d", i), List.of("eu-west", "us-east", "sa-east")));
                } else {
                    all.add(monitor(String.format("sa-only-%04d", i), List.of("sa-east")));
                }
            }
            return of(all);
        }

        /** The monitors, and the regions they name as every worker reports them. */
        static Fleet of(List<MonitorDefinition> monitors) {
            Map<String, Integer> named = new HashMap<>();
            monitors.forEach(m -> m.regions().forEach(r -> named.merge(r, 1, Integer::sum)));
            return new Fleet(monitors, named);
        }
    }

    /**
     * Drives the fleet from {@code from} to {@code to} in 1 s steps of wall clock: each live worker sends a heartbeat
     * every 10 s and every monitor's result from each live region it names arrives half a second after the monitor's
     * own start in each window, as a worker's would.
     */
    static void run(AlertingHarness h, Fleet fleet, Set<String> liveRegions, long from, long to) {
        for (long t = from; t <= to; t += 1_000) {
            h.wallClockTo(t);
            if ((t - from) % 10_000 == 0) {
                for (String region : liveRegions) {
                    h.heartbeats.pipeInput(
                            "w-" + region, heartbeat("w-" + region, region, t, t / 1000, 0, fleet.regionsNamed()), t);
                }
            }
            long w = Windows.windowStart(t, MIN);
            for (MonitorDefinition m : fleet.monitors()) {
                long arrives = Windows.scheduledAt(m.id(), w, MIN, m.timeoutMs()) + 500;
                if (arrives > t - 1_000 && arrives <= t) {
                    for (String region : m.regions()) {
                        if (liveRegions.contains(region)) {
                            h.result(success(m.id(), region, w));
                        }
                    }
                }
            }
        }
    }

    @Test
    void aDeadAndAnUnservedRegionGiveOneSelfAlertEachAndNoMonitorAlertAcrossAThousandMonitors() {
        Fleet fleet = Fleet.of();
        try (var h = new AlertingHarness(W0 - 30_000)) {
            var regions = h.driver.createOutputTopic(
                    h.config.topics().regions(), new StringDeserializer(), VigilSerdes.regionStatus());
            fleet.monitors().forEach(h::define);
            // sa-east is named by 300 monitors and served by no worker, ever; ap-south's only worker dies after W0
            run(h, fleet, Set.of("eu-west", "us-east", "ap-south"), W0 - 20_000, W0 + MIN - 1_000);
            run(h, fleet, Set.of("eu-west", "us-east"), W0 + MIN, W0 + 7 * MIN);
            List<AlertEvent> whileBlind = h.alerts.readValuesToList();

            assertThat(whileBlind)
                    .filteredOn(e -> e.fingerprint().startsWith("monitor/"))
                    .as("no monitor alert: missing regions are Vigil's gap")
                    .isEmpty();
            assertThat(log(whileBlind, "vigil/region-blind/ap-south")).containsExactly("opened:critical");
            assertThat(log(whileBlind, "vigil/region-blind/sa-east")).containsExactly("opened:critical");
            AlertEvent ap = whileBlind.stream()
                    .filter(e -> e.fingerprint().equals("vigil/region-blind/ap-south"))
                    .findFirst()
                    .orElseThrow();
            assertThat(ap.summary())
                    .startsWith("Region ap-south is blind: no live probe worker serves it")
                    .endsWith("700 monitors name it and are unwatched from there");
            assertThat(ap.service()).isEqualTo("vigil");
            AlertEvent sa = whileBlind.stream()
                    .filter(e -> e.fingerprint().equals("vigil/region-blind/sa-east"))
                    .findFirst()
                    .orElseThrow();
            assertThat(sa.summary())
                    .isEqualTo(
                            "Region sa-east is unserved: no probe worker has ever served it; 300 monitors name it and are "
                                    + "unwatched from there");
            // its dead worker is recorded, folded into the region's page
            assertThat(log(whileBlind, "worker/ap-south/w-ap-south")).containsExactly("opened:warning:silenced");
            assertThat(whileBlind)
                    .filteredOn(e -> !e.silenced())
                    .as("exactly one page per gap")
                    .hasSize(2);

            Map<String, RegionStatus> pictures = new HashMap<>();
            regions.readValuesToList().forEach(r -> pictures.put(r.region(), r));
            assertThat(pictures.get("ap-south").blind()).isTrue();
            assertThat(pictures.get("ap-south").monitorsNaming()).isEqualTo(700);
            assertThat(pictures.get("sa-east").everServed()).isFalse();
            assertThat(pictures.get("eu-west").liveWorkers()).isEqualTo(1);
            assertThat(pictures.get("eu-west").blind()).isFalse();

            // the worker comes back: the self-alert resolves, and still no monitor alert
            run(h, fleet, Set.of("eu-west", "us-east", "ap-south"), W0 + 7 * MIN + 1_000, W0 + 10 * MIN);
            List<AlertEvent> after = h.alerts.readValuesToList();
            assertThat(after)
                    .filteredOn(e -> e.fingerprint().startsWith("monitor/"))
                    .isEmpty();
            assertThat(log(after, "vigil/region-blind/ap-south")).containsExactly("resolved:critical");
            assertThat(log(after, "vigil/region-blind/sa-east"))
                    .as("still unserved")
                    .isEmpty();
            assertThat(log(after, "worker/ap-south/w-ap-south")).containsExactly("resolved:warning:silenced");
            regions.readValuesToList().forEach(r -> pictures.put(r.region(), r));
            assertThat(pictures.get("ap-south").blind()).isFalse();
            assertThat(pictures.get("ap-south").liveWorkers()).isEqualTo(1);
        }
    }

    @Test
    void anIncidentWhoseTargetRecoversWhereverProbedResolvesWhileAnotherRegionIsBlind() {
        MonitorDefinition api = monitor("api", THREE);
        Fleet fleet = Fleet.of(List.of(api));
        try (var h = new AlertingHarness(W0 - 30_000)) {
            h.define(api);
            h.wallClockTo(W0 + 10_000);
            for (String region : THREE) {
                h.heartbeats.pipeInput(
                        "w-" + region,
                        heartbeat("w-" + region, region, W0 + 10_000, 1, 0, fleet.regionsNamed()),
                        W0 + 10_000);
                h.result(Fixtures.failure("api", region, W0));
            }
            assertThat(log(h.alerts.readValuesToList(), "monitor/api")).containsExactly("opened:critical");
            // ap-south's worker dies; the target answers again in eu-west and us-east
            run(h, fleet, Set.of("eu-west", "us-east"), W0 + 20_000, W0 + MIN + 50_000);
            List<AlertEvent> oneWindow = h.alerts.readValuesToList();
            assertThat(log(oneWindow, "monitor/api"))
                    .as("one healthy window: resolving, not yet resolved")
                    .isEmpty();
            assertThat(log(oneWindow, "vigil/region-blind/ap-south")).containsExactly("opened:critical");
            run(h, fleet, Set.of("eu-west", "us-east"), W0 + 2 * MIN, W0 + 3 * MIN + 50_000);
            List<AlertEvent> events = h.alerts.readValuesToList();
            assertThat(log(events, "monitor/api")).containsExactly("resolved:critical");
            assertThat(events)
                    .filteredOn(e -> e.fingerprint().equals("monitor/api"))
                    .singleElement()
                    .satisfies(e -> assertThat(e.summary())
                            .isEqualTo("api is up in eu-west, us-east (no result from ap-south)"));
        }
    }

    @Test
    void aMonitorWhoseRegionIsServedButWhoseResultsDoNotArriveStillPagesNoData() {
        // the control of the fold: the region is served and healthy, so the missing results are this monitor's fault
        MonitorDefinition lost = monitor("lost", List.of("eu-west"));
        List<MonitorDefinition> named = new ArrayList<>(Fleet.of().monitors().subList(0, 10));
        named.add(lost);
        Fleet fleet =
                new Fleet(Fleet.of().monitors().subList(0, 10), Fleet.of(named).regionsNamed());
        try (var h = new AlertingHarness(W0 - 30_000)) {
            h.define(lost);
            fleet.monitors().forEach(h::define);
            run(h, fleet, Set.of("eu-west", "us-east", "ap-south"), W0 - 20_000, W0 + 6 * MIN);
            List<AlertEvent> events = h.alerts.readValuesToList();
            assertThat(log(events, "monitor/lost/no-data")).containsExactly("opened:warning");
            assertThat(events)
                    .filteredOn(e -> !e.fingerprint().equals("monitor/lost/no-data"))
                    .isEmpty();
        }
    }

    @Test
    void aRealFailureInOneRegionPlusAMissingOneFollowsTheDegradedAndDownRules() {
        try (var h = new AlertingHarness(W0 - 30_000)) {
            h.define(monitor("api", THREE));
            h.wallClockTo(W0 - 20_000);
            for (int i = 0; i < 3; i++) {
                long w = W0 + i * MIN;
                h.wallClockTo(w + 10_000);
                h.result(Fixtures.failure("api", "eu-west", w));
                h.result(i < 2 ? success("api", "us-east", w) : Fixtures.failure("api", "us-east", w));
                h.result(skipped("api", "ap-south", w, SkipReason.OVERLOADED));
            }
            h.wallClockTo(W0 + 4 * MIN);
            List<AlertEvent> events = h.alerts.readValuesToList();
            assertThat(log(events, "monitor/api")).containsExactly("opened:warning", "escalated:critical");
            assertThat(events.get(0).summary())
                    .isEqualTo("api is degraded: failing in eu-west; no result from ap-south (skipped: overloaded)");
        }
    }

    @Test
    void heartbeatsReadBehindWallClockRaiseNoSelfAlertYetASilentRegionStillTurnsBlind() {
        List<MonitorDefinition> monitors = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            monitors.add(monitor(String.format("m-%02d", i), THREE));
        }
        Fleet fleet = Fleet.of(monitors);
        long behind = 3 * MIN; // far past workers.healthy and the dead threshold: Streams reads the heartbeats late
        try (var h = new AlertingHarness(W0 - 30_000)) {
            fleet.monitors().forEach(h::define);
            for (long t = W0; t <= W0 + 6 * MIN; t += 10_000) {
                h.wallClockTo(t + behind);
                for (String region : THREE) {
                    h.heartbeats.pipeInput(
                            "w-" + region, heartbeat("w-" + region, region, t, t / 1000, 0, fleet.regionsNamed()), t);
                }
            }
            List<AlertEvent> behindAll = h.alerts.readValuesToList();
            assertThat(behindAll)
                    .filteredOn(e -> e.fingerprint().startsWith("vigil/")
                            || e.fingerprint().startsWith("worker/"))
                    .as(
                            "every worker sent its heartbeats: reading them late is no region's blindness, no worker's death")
                    .isEmpty();

            // ap-south's worker falls silent while the others' heartbeats are still read just as late
            for (long t = W0 + 6 * MIN + 10_000; t <= W0 + 9 * MIN; t += 10_000) {
                h.wallClockTo(t + behind);
                for (String region : List.of("eu-west", "us-east")) {
                    h.heartbeats.pipeInput(
                            "w-" + region, heartbeat("w-" + region, region, t, t / 1000, 0, fleet.regionsNamed()), t);
                }
            }
            List<AlertEvent> silent = h.alerts.readValuesToList();
            assertThat(log(silent, "vigil/region-blind/ap-south")).containsExactly("opened:critical");
            assertThat(silent)
                    .filteredOn(e -> e.fingerprint().startsWith("vigil/region-blind/")
                            && !e.fingerprint().endsWith("ap-south"))
                    .isEmpty();
        }
    }

    @Test
    void aWorkerSkippingOverTheThresholdRaisesOneAlertAndOneUnderItNone() {
        try (var h = new AlertingHarness(W0 - 30_000)) {
            long started = 0;
            long busySkipped = 0;
            long calmSkipped = 0;
            int step = 0;
            for (long t = W0; t <= W0 + 5 * MIN; t += 10_000, step++) {
                h.wallClockTo(t);
                started += 100;
                busySkipped += 5; // 5 of 105 probes every 10 s: about 5 %, 30 a minute
                if (step % 6 == 0) {
                    calmSkipped += 1; // one skip a minute of 600 probes: under both bounds
                }
                h.heartbeats.pipeInput("w-busy", heartbeat("w-busy", "eu-west", t, started, busySkipped, Map.of()), t);
                h.heartbeats.pipeInput("w-calm", heartbeat("w-calm", "us-east", t, started, calmSkipped, Map.of()), t);
            }
            List<AlertEvent> events = h.alerts.readValuesToList();
            assertThat(log(events, "vigil/worker-skipping/eu-west/w-busy")).containsExactly("opened:warning");
            assertThat(events)
                    .filteredOn(e -> e.fingerprint().equals("vigil/worker-skipping/eu-west/w-busy"))
                    .singleElement()
                    .satisfies(
                            e -> assertThat(e.summary())
                                    .startsWith(
                                            "Probe worker w-busy in eu-west skips probes: 30 of 630 (4.8 %) over the last 60 s"));
            assertThat(events)
                    .filteredOn(e -> e.fingerprint().contains("w-calm"))
                    .isEmpty();

            // it stops skipping: resolved once its last minute is clean
            for (long t = W0 + 5 * MIN + 10_000; t <= W0 + 8 * MIN; t += 10_000) {
                h.wallClockTo(t);
                started += 100;
                h.heartbeats.pipeInput("w-busy", heartbeat("w-busy", "eu-west", t, started, busySkipped, Map.of()), t);
            }
            assertThat(log(h.alerts.readValuesToList(), "vigil/worker-skipping/eu-west/w-busy"))
                    .containsExactly("resolved:warning");
        }
    }

    @Test
    void deadLettersRaiseOneRateLimitedIncidentThatResolvesAfterTheQuietPeriod() {
        try (var h = new AlertingHarness(W0 - 30_000)) {
            var poison = h.driver.createInputTopic(
                    h.config.topics().deadLetter(), new StringSerializer(), new ByteArraySerializer());
            h.define(monitor("shop", THREE));
            long t = W0;
            for (int i = 0; i < 50; i++, t += 6_000) {
                h.wallClockTo(t);
                poison.pipeInput("k" + i, new byte[] {1, 2, 3}, t);
            }
            // a record a processor refuses becomes a dead letter too (a result keyed by another monitor's id)
            h.results.pipeInput("other", success("shop", "eu-west", W0 + 5 * MIN), t);
            assertThat(h.deadLetters.readValuesToList()).hasSize(1);
            List<AlertEvent> events = h.alerts.readValuesToList();
            assertThat(log(events, "vigil/dead-letters"))
                    .as("one incident, never a page per record")
                    .containsExactly("opened:warning");
            assertThat(events.get(0).summary()).startsWith("1 record reached vigil.dead-letter since ");

            long last = t;
            for (t = last + 5_000; t < last + 10 * MIN; t += 5_000) {
                h.wallClockTo(t);
            }
            assertThat(h.alerts.readValuesToList())
                    .as("not yet quiet for ten minutes")
                    .isEmpty();
            for (; t <= last + 10 * MIN + 15_000; t += 5_000) {
                h.wallClockTo(t);
            }
            List<AlertEvent> resolved = h.alerts.readValuesToList();
            assertThat(log(resolved, "vigil/dead-letters")).containsExactly("resolved:warning");
            assertThat(resolved.get(0).attributes()).containsEntry("deadLetters", "51");
        }
    }
}
