package dev.vigil.streams.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.RegionStatus;
import java.util.List;
import java.util.Map;
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
    void aRegionCountsAsServedOnceAnyWorkerReportedItEvenWhileBlind() {
        assertThat(RegionCheck.served(KNOWN)).containsExactly("eu-west", "us-east");
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
    }
}
