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
        org.assertj.core.api.Assertions.assertThat(cfg.consoleUrl()).isEqualTo("http://vigil.example:8081");
    }

    @Test
    void pagesLinkToTheConsolesPublicUrlWhichDefaultsToThisInstance() throws Exception {
        var defaults = StreamsServiceConfig.load(
                null, Map.of("VIGIL_HTTP_PORT", "8099", "VIGIL_HTTP_ADVERTISED_HOST", "vigil-1.internal"));
        org.assertj.core.api.Assertions.assertThat(defaults.consoleUrl()).isEqualTo("http://vigil-1.internal:8099");
        org.assertj.core.api.Assertions.assertThat(defaults.topologyAlerting().consoleUrl())
                .isEqualTo("http://vigil-1.internal:8099");
        org.assertj.core.api.Assertions.assertThat(StreamsServiceConfig.load(
                                null, Map.of("VIGIL_CONSOLE_PUBLIC_URL", "https://status-admin.example.com"))
                        .consoleUrl())
                .isEqualTo("https://status-admin.example.com");

        Path file = dir.resolve("vigil-streams.yaml");
        Files.writeString(file, "console:\n  publicUrl: https://vigil.example.com/\n");
        var set = StreamsServiceConfig.load(file, Map.of());
        org.assertj.core.api.Assertions.assertThat(set.console().publicUrl()).isEqualTo("https://vigil.example.com");
        org.assertj.core.api.Assertions.assertThat(set.consoleUrl()).isEqualTo("https://vigil.example.com");
        org.assertj.core.api.Assertions.assertThat(set.topologyAlerting().consoleUrl())
                .isEqualTo("https://vigil.example.com");

        var older =
                StreamsServiceConfig.load(null, Map.of("VIGIL_ALERTING_QUERY_BASE_URL", "http://vigil.example:8081"));
        org.assertj.core.api.Assertions.assertThat(older.consoleUrl()).isEqualTo("http://vigil.example:8081");

        Files.writeString(file, "console:\n  publicUrl: \"https://user:pw@vigil.example.com/#/x\"\n");
        assertThatThrownBy(() -> StreamsServiceConfig.load(file, Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("console.publicUrl: must be an http(s) URL without user-info, query or fragment")
                .hasMessageNotContaining("pw@");
    }
}
