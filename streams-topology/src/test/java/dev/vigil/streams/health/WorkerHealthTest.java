package dev.vigil.streams.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.streams.Fixtures;
import dev.vigil.streams.config.TopologyConfig.WorkerSettings;
import dev.vigil.streams.topology.DriverHarness;
import dev.vigil.streams.topology.StoreNames;
import java.time.Duration;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkerHealthTest {
    private static final long T0 = 1_800_000_000_000L;

    @ParameterizedTest
    @CsvSource({
        "0, healthy",
        "29999, healthy",
        "30000, warn",
        "59999, warn",
        "60000, stale",
        "299999, stale",
        "300000, dead",
        "86400000, dead"
    })
    void healthByHeartbeatAge(long ageMs, String expected) {
        assertThat(Health.of(ageMs, WorkerSettings.defaults())).isEqualTo(Health.fromWire(expected));
    }

    @Test
    void thresholdsAreConfigurable() {
        var settings = new WorkerSettings(Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(20), null);
        assertThat(Health.of(4_999, settings)).isEqualTo(Health.HEALTHY);
        assertThat(Health.of(5_000, settings)).isEqualTo(Health.WARN);
        assertThat(Health.of(19_999, settings)).isEqualTo(Health.STALE);
        assertThat(Health.of(20_000, settings)).isEqualTo(Health.DEAD);
    }

    @Test
    void silentWorkerDegradesOnWallClockAndRecoversWithAHeartbeat() {
        try (var h = new DriverHarness(T0)) {
            h.heartbeats.pipeInput("w-1", Fixtures.heartbeat("w-1", "eu-west", T0), T0);
            KeyValueStore<String, WorkerHealth> store = h.driver.getKeyValueStore(StoreNames.WORKER_HEALTH_STORE);
            assertThat(store.get("w-1").health()).isEqualTo(Health.HEALTHY);

            h.wallClockTo(T0 + 35_000);
            assertThat(store.get("w-1").health()).isEqualTo(Health.WARN);
            h.wallClockTo(T0 + 65_000);
            assertThat(store.get("w-1").health()).isEqualTo(Health.STALE);
            h.wallClockTo(T0 + 305_000);
            WorkerHealth dead = store.get("w-1");
            assertThat(dead.health()).isEqualTo(Health.DEAD);
            assertThat(dead.healthSince()).isEqualTo(T0 + 305_000);
            assertThat(dead.region()).isEqualTo("eu-west");

            h.heartbeats.pipeInput("w-1", Fixtures.heartbeat("w-1", "eu-west", T0 + 306_000), T0 + 306_000);
            assertThat(store.get("w-1").health()).isEqualTo(Health.HEALTHY);
            // an older heartbeat arriving late changes nothing
            h.heartbeats.pipeInput("w-1", Fixtures.heartbeat("w-1", "eu-west", T0), T0);
            assertThat(store.get("w-1").lastHeartbeatAt()).isEqualTo(T0 + 306_000);
        }
    }

    @Test
    void heartbeatWithMismatchedKeyIsDeadLettered() {
        try (var h = new DriverHarness(T0)) {
            h.heartbeats.pipeInput("someone-else", Fixtures.heartbeat("w-1", "eu-west", T0), T0);
            assertThat(h.deadLetters.readValue().reason()).contains("workerId");
            KeyValueStore<String, WorkerHealth> store = h.driver.getKeyValueStore(StoreNames.WORKER_HEALTH_STORE);
            assertThat(store.get("w-1")).isNull();
        }
    }
}
