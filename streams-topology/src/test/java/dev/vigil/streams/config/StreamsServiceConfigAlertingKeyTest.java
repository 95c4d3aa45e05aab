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
        Files.writeString(file, "alerting:\n  debounceMinutes: 0\n");
        assertThatThrownBy(() -> StreamsServiceConfig.load(file, Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining(": alerting.debounceMinutes: must be between 1 and 1440");
    }

    @Test
    void environmentOverridesReachTheAlertingSection() {
        var cfg = StreamsServiceConfig.load(null, Map.of("VIGIL_ALERTING_DEBOUNCE_MINUTES", "1",
                "VIGIL_ALERTING_QUERY_BASE_URL", "http://vigil.example:8081"));
        org.assertj.core.api.Assertions.assertThat(cfg.alerting().debounceMinutes()).isEqualTo(1);
        org.assertj.core.api.Assertions.assertThat(cfg.alerting().queryBaseUrl()).isEqualTo("http://vigil.example:8081");
    }
}
