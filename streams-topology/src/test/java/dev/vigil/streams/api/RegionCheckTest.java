package dev.vigil.streams.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.RegionStatus;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RegionCheckTest {
    static final Map<String, RegionStatus> KNOWN = Map.of(
            "us-east", new RegionStatus(1, "us-east", 1, 1, 3, 1_000L, null, 2_000L),
            "eu-west", new RegionStatus(1, "eu-west", 0, 1, 3, 900L, 1_500L, 2_000L),
            // named by monitors, never served by any worker
            "ap-south", new RegionStatus(1, "ap-south", 0, 0, 1, null, 1_000L, 2_000L));

    static MonitorDefinition http(String id, int interval, List<String> regions) {
        return new MonitorDefinition(
                1,
                id,
                null,
                "https://" + id + ".example.com/",
                null,
                interval,
                2500,
                regions,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    @Test
    void aRegionNoWorkerEverServedIsRefusedUnlessRollingOut() {
        List<MonitorDefinition> monitors = List.of(
                http("api", 60, List.of("us-east", "eu-west")),
                http("shop", 30, List.of("us-east", "ap-south", "sa-east")));
        assertThat(RegionCheck.served(KNOWN)).containsExactly("eu-west", "us-east");
        List<RegionCheck.Refusal> refused = RegionCheck.refusals(monitors, KNOWN, Set.of());
        assertThat(refused).containsExactly(new RegionCheck.Refusal("shop", List.of("ap-south", "sa-east")));
        assertThat(RegionCheck.refusals(monitors, KNOWN, Set.of("ap-south")))
                .containsExactly(new RegionCheck.Refusal("shop", List.of("sa-east")));
        assertThat(RegionCheck.refusals(monitors, KNOWN, Set.of("ap-south", "sa-east")))
                .isEmpty();

        List<String> said = RegionCheck.explain(refused, KNOWN, "vigil.regions");
        assertThat(said)
                .containsExactly(
                        "refused: monitors name regions no probe worker has ever served; nothing was published:",
                        "  - shop: ap-south, sa-east",
                        "known regions: eu-west (0 live workers), us-east (1 live worker)",
                        "start a probe worker for those regions, or pass --allow-region ap-south,sa-east if they are being"
                                + " rolled out");
    }

    @Test
    void withNoRegionReportedEveryProbedMonitorIsRefusedAndTheMessageSaysNoWorkerReported() {
        List<RegionCheck.Refusal> refused =
                RegionCheck.refusals(List.of(http("api", 60, List.of("us-east"))), Map.of(), Set.of());
        assertThat(refused).hasSize(1);
        List<String> said = RegionCheck.explain(refused, Map.of(), "vigil.regions");
        assertThat(said.get(0)).startsWith("no probe worker has reported yet (vigil.regions");
        assertThat(said).noneMatch(l -> l.startsWith("known regions"));
        assertThat(said.get(said.size() - 1)).contains("--allow-region us-east");
    }

    @Test
    void checksPerDayAreRegionsTimesTheDayOverTheInterval() {
        MonitorDefinition heartbeat = dev.vigil.schemas.json.Json.read(
                "{\"schemaVersion\":1,\"id\":\"nightly\",\"type\":\"heartbeat\",\"heartbeat\":{\"schedule\":\"0 2 * * *\","
                        + "\"graceSeconds\":600}}",
                MonitorDefinition.class);
        List<String> lines = RegionCheck.checksPerDay(List.of(
                http("api", 60, List.of("us-east", "eu-west", "ap-south")),
                http("shop", 10, List.of("us-east")),
                heartbeat));
        assertThat(lines)
                .containsExactly(
                        "  api: 3 regions x 86,400 / 60 s = 4,320 target checks/day",
                        "  shop: 1 region x 86,400 / 10 s = 8,640 target checks/day",
                        "expected target checks per day: 12,960 (2 probed monitors); heartbeat monitors are pinged by their"
                                + " jobs, not counted: nightly");
        assertThat(RegionCheck.refusals(List.of(heartbeat), Map.of(), Set.of())).isEmpty();
    }
}
