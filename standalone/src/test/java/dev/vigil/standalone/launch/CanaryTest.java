package dev.vigil.standalone.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.MonitorDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CanaryTest {
    @TempDir
    Path dir;

    @Test
    void theCanaryProbesTheQueryApisOwnHealthOnTheAddressTheProbesMayReach() {
        MonitorDefinition m = Canary.monitor("0.0.0.0", 8081, List.of("us-east", "eu-west"));
        assertThat(m.id()).isEqualTo("vigil-canary");
        assertThat(m.target()).isEqualTo("http://127.0.0.1:8081/health");
        assertThat(m.intervalSeconds()).isEqualTo(Canary.INTERVAL_SECONDS);
        assertThat(m.regions()).containsExactly("us-east", "eu-west");
        assertThat(Canary.allowEntry("0.0.0.0")).isEqualTo("127.0.0.1/32");
        assertThat(Canary.allowEntry("127.0.0.2")).isEqualTo("127.0.0.2/32");
        assertThat(Canary.monitor("127.0.0.2", 9, List.of("a")).target()).isEqualTo("http://127.0.0.2:9/health");
        // three intervals plus the deadline (timeout and grace)
        assertThat(Canary.MAX_AGE)
                .isGreaterThan(Duration.ofSeconds(3L * Canary.INTERVAL_SECONDS).plusMillis(Canary.TIMEOUT_MS));
    }

    @Test
    void theSwitchWithoutItsVariableStopsBeforeAnythingStarts() {
        StandaloneOptions options = StandaloneOptions.defaults(dir.resolve("data"))
                .withFreePorts()
                .withDeadMan(new StandaloneOptions.DeadMan("CANARY_TEST_UNSET_URL", null));
        assertThat(options.deadMan().pingInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThatThrownBy(() -> StandaloneLauncher.start(options, Map.of(), line -> {}))
                .isInstanceOf(StandaloneLauncher.LaunchException.class)
                .hasMessageContaining("CANARY_TEST_UNSET_URL is not set")
                .hasMessageContaining("nothing was started");
        assertThat(Files.exists(dir.resolve("data").resolve("kafka"))).isFalse();
    }
}
