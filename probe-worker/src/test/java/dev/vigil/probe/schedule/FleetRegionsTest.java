package dev.vigil.probe.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.MonitorDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FleetRegionsTest {
    @TempDir
    Path dir;

    static MonitorDefinition monitor(String id, Boolean enabled, String... regions) {
        return new MonitorDefinition(
                1,
                id,
                null,
                "https://example.com/" + id,
                null,
                60,
                2000,
                List.of(regions),
                null,
                null,
                null,
                null,
                null,
                null,
                enabled);
    }

    @Test
    void countsTheRegionsEveryEnabledProbedMonitorNamesWhateverTheWorkersOwnRegion() {
        var fleet = new FleetRegions();
        fleet.upsert(monitor("api", null, "us-east", "eu-west"));
        fleet.upsert(monitor("web", true, "eu-west", "ap-south"));
        fleet.upsert(monitor("off", false, "us-east", "sa-east"));
        fleet.upsert(new MonitorDefinition(
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
                CheckType.HEARTBEAT,
                null,
                null,
                null,
                null,
                null,
                null));
        assertThat(fleet.regionsNamed())
                .containsExactly(Map.entry("ap-south", 1), Map.entry("eu-west", 2), Map.entry("us-east", 1));
        assertThat(fleet.monitors()).isEqualTo(2);

        // a change of regions moves the counts, the same definition again changes nothing
        fleet.upsert(monitor("api", null, "us-east", "asia-east"));
        fleet.upsert(monitor("api", null, "us-east", "asia-east"));
        assertThat(fleet.regionsNamed())
                .containsExactly(
                        Map.entry("ap-south", 1),
                        Map.entry("asia-east", 1),
                        Map.entry("eu-west", 1),
                        Map.entry("us-east", 1));

        // disabling and removing (a tombstone) take a monitor out; a region no monitor names disappears
        fleet.upsert(monitor("web", false, "eu-west", "ap-south"));
        assertThat(fleet.regionsNamed()).containsOnlyKeys("asia-east", "us-east");
        fleet.remove("api");
        fleet.remove("never-seen");
        assertThat(fleet.regionsNamed()).isEmpty();
        assertThat(fleet.monitors()).isZero();
    }

    @Test
    void keepsAtMostTheRegionsAHeartbeatCarriesTheMostNamedFirst() {
        var fleet = new FleetRegions();
        for (int i = 0; i < FleetRegions.MAX_REGIONS + 6; i++) {
            fleet.upsert(monitor("m-" + i, null, "r-" + i));
        }
        fleet.upsert(monitor("extra", null, "r-" + (FleetRegions.MAX_REGIONS + 5), "r-0"));
        Map<String, Integer> named = fleet.regionsNamed();
        assertThat(named)
                .hasSize(FleetRegions.MAX_REGIONS)
                .containsEntry("r-0", 2)
                .containsEntry("r-" + (FleetRegions.MAX_REGIONS + 5), 2);
        assertThat(new dev.vigil.schemas.contract.WorkerHeartbeat(1, "w-1", "us-east", 0L, 0, 0, "0.1.0", 0L, 0L, named)
                        .regionsNamed())
                .isEqualTo(named);
    }

    @Test
    void theFeedHandsEveryDefinitionToTheSchedulerAndTheFleetView() throws Exception {
        Path file = dir.resolve("monitors.yaml");
        Files.writeString(
                file,
                """
                monitors:
                  - id: api
                    url: https://api.example.com/health
                    regions: [us-east]
                  - id: web
                    url: https://www.example.com/
                    regions: [eu-west, ap-south]
                """);
        var clock = reactor.test.scheduler.VirtualTimeScheduler.create();
        var scheduler = new ProbeScheduler(
                "us-east",
                "w-1",
                clock,
                (m, ws) -> reactor.core.publisher.Mono.empty(),
                r -> {},
                4,
                ScheduleListener.NONE);
        var fleet = new FleetRegions();
        try (var feed = new FileMonitorFeed(file, MonitorSink.both(scheduler, fleet)).start(Duration.ofMinutes(1))) {
            assertThat(scheduler.monitorsAssigned()).isEqualTo(1);
            assertThat(fleet.regionsNamed())
                    .containsExactly(Map.entry("ap-south", 1), Map.entry("eu-west", 1), Map.entry("us-east", 1));
        } finally {
            clock.dispose();
        }
    }
}
