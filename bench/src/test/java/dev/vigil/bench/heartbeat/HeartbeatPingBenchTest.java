package dev.vigil.bench.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the heartbeat ping harness at tiny scale (50 monitors, 2 s phases) so it cannot rot. */
class HeartbeatPingBenchTest {
    @TempDir
    Path results;

    @Test
    void harnessRunsEveryPhaseAndEveryPingIsAnswered() throws Exception {
        System.setProperty("vigil.results.dir", results.toString());
        try {
            Map<String, Object> r = HeartbeatPingBench.run(new HeartbeatPingBench.Options(50, 2, 1, 4, 2, 4));
            assertThat(r)
                    .containsKeys(
                            "spreadPingsPerSec",
                            "othersAloneP99Ms",
                            "othersUnderFloodP99Ms",
                            "floodPingsPerSec",
                            "bareHttpRequestsPerSec",
                            "ratioToBareHttp",
                            "othersP99RatioUnderFlood");
            for (String phase : new String[] {"spread", "othersAlone", "flood", "othersUnderFlood"}) {
                assertThat((Long) r.get(phase + "Pings")).as(phase).isPositive();
                assertThat((Long) r.get(phase + "Non2xx"))
                        .as(phase + ": every ping answered 2xx")
                        .isZero();
            }
            // one published result per (monitor, window) at most: never more than the pings
            assertThat((Long) r.get("resultsPublished"))
                    .isPositive()
                    .isLessThanOrEqualTo((Long) r.get("spreadPings") + 51);
            assertThat(Files.readString(results.resolve("heartbeat-pings.json")))
                    .contains("\"name\":\"heartbeat-pings\"");
        } finally {
            System.clearProperty("vigil.results.dir");
        }
    }
}
