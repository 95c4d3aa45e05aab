package dev.vigil.streams.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.kit.config.ConfigLoader.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StreamsServiceConfigTest {
    @TempDir
    Path dir;

    @Test
    void defaultsMatchTheSpec() {
        var cfg = StreamsServiceConfig.load(null, Map.of());
        assertThat(cfg.http().port()).isEqualTo(8081);
        assertThat(cfg.kafka().applicationId()).isEqualTo("vigil-streams");
        assertThat(cfg.verdict().graceMs()).isEqualTo(5000L);
        assertThat(cfg.verdict().historyRetentionDays()).isEqualTo(90);
        assertThat(cfg.workers().healthySeconds()).isEqualTo(30);
        assertThat(cfg.workers().warnSeconds()).isEqualTo(60);
        assertThat(cfg.workers().staleSeconds()).isEqualTo(300);
        assertThat(cfg.topics().probeResults()).isEqualTo("vigil.probe-results");
    }

    @Test
    void theShippedExampleFileLoads() {
        var cfg = StreamsServiceConfig.load(Path.of("vigil-streams.yaml"), Map.of());
        assertThat(cfg).isEqualTo(StreamsServiceConfig.defaults());
    }

    @Test
    void yamlThenEnvironmentOverrides() throws Exception {
        Path file = dir.resolve("vigil-streams.yaml");
        Files.writeString(file, """
                kafka:
                  bootstrapServers: broker:9092
                verdict:
                  graceMs: 2000
                workers:
                  staleSeconds: 120
                """);
        var cfg = StreamsServiceConfig.load(file, Map.of("VIGIL_HTTP_PORT", "9999", "VIGIL_VERDICT_GRACE_MS", "3000",
                "VIGIL_KAFKA_APPLICATION_ID", "vigil-eu"));
        assertThat(cfg.kafka().bootstrapServers()).isEqualTo("broker:9092");
        assertThat(cfg.kafka().applicationId()).isEqualTo("vigil-eu");
        assertThat(cfg.http().port()).isEqualTo(9999);
        assertThat(cfg.verdict().graceMs()).isEqualTo(3000L);
        assertThat(cfg.workers().staleSeconds()).isEqualTo(120);
        assertThat(cfg.topology().verdict().graceMs()).isEqualTo(3000L);
    }

    @Test
    void aStaticGroupMemberIdComesFromTheEnvironmentAndIsValidated() {
        assertThat(StreamsServiceConfig.load(null, Map.of()).kafka().groupInstanceId()).isEmpty();
        assertThat(StreamsServiceConfig.load(null, Map.of("VIGIL_KAFKA_GROUP_INSTANCE_ID", "streams-0")).kafka()
                .groupInstanceId()).isEqualTo("streams-0");
        assertThatThrownBy(() -> StreamsServiceConfig.load(null, Map.of("VIGIL_KAFKA_GROUP_INSTANCE_ID", "pod 0/x")))
                .hasMessageContaining("kafka.groupInstanceId");
    }

    @Test
    void invalidValuesNameTheirKey() throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "workers:\n  warnSeconds: 10\n");
        assertThatThrownBy(() -> StreamsServiceConfig.load(file, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("workers.warnSeconds");
        assertThatThrownBy(() -> StreamsServiceConfig.load(null, Map.of("VIGIL_HTTP_PORT", "70000")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("http.port");
        assertThatThrownBy(() -> StreamsServiceConfig.load(null, Map.of("VIGIL_VERDICT_HISTORY_RETENTION_DAYS", "0")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("verdict.historyRetentionDays");
    }
}
