package dev.vigil.streams.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.kit.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StreamsServiceConfigAlertingKeyTest {
    @TempDir
    Path dir;

    @Test
    void alertingProblemsNameTheirKeyOnce() throws Exception {
        Path file = dir.resolve("vigil-streams.yaml");
        Files.writeString(file, "alerting:\n  debounce: 0s\n");
        assertThatThrownBy(() -> StreamsServiceConfig.load(file, Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining(": alerting.debounce: must be between 1m and 1d");
    }

    @Test
    void environmentOverridesReachTheAlertingSection() {
        var cfg = StreamsServiceConfig.load(
                null,
                Map.of("VIGIL_ALERTING_DEBOUNCE", "1m", "VIGIL_ALERTING_QUERY_BASE_URL", "http://vigil.example:8081"));
        org.assertj.core.api.Assertions.assertThat(cfg.alerting().debounce())
                .isEqualTo(java.time.Duration.ofMinutes(1));
        org.assertj.core.api.Assertions.assertThat(cfg.alerting().queryBaseUrl())
                .isEqualTo("http://vigil.example:8081");
    }
}
