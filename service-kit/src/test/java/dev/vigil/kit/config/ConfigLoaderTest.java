package dev.vigil.kit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.schemas.contract.ContractViolation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    record Kafka(String bootstrapServers, Integer partitions) {
        Kafka {
            if (partitions == null || partitions < 1) {
                throw new ContractViolation("kafka.partitions", "must be at least 1");
            }
        }
    }

    record Service(String region, List<String> regions, Kafka kafka) {
        Service {
            if (region == null || region.isBlank()) {
                throw new ContractViolation("region", "is required");
            }
        }
    }

    static final Service DEFAULTS = new Service("us-east", List.of("us-east"), new Kafka("localhost:9092", 6));

    @TempDir
    Path dir;

    @Test
    void defaultsThenFileThenEnvironment() throws Exception {
        Path file = dir.resolve("vigil-test.yaml");
        Files.writeString(file, "region: eu-west\nkafka:\n  partitions: 12\n");
        Service s = ConfigLoader.load(Service.class, DEFAULTS, file,
                Map.of("VIGIL_KAFKA_BOOTSTRAP_SERVERS", "broker:29092", "VIGIL_REGIONS", "eu-west, us-east",
                        "VIGIL_SOMETHING_ELSE", "ignored", "PATH", "/bin"));
        assertThat(s.region()).isEqualTo("eu-west");
        assertThat(s.kafka().partitions()).isEqualTo(12);
        assertThat(s.kafka().bootstrapServers()).isEqualTo("broker:29092");
        assertThat(s.regions()).containsExactly("eu-west", "us-east");
    }

    @Test
    void environmentWinsOverFile() throws Exception {
        Path file = dir.resolve("vigil-test.yaml");
        Files.writeString(file, "region: eu-west\n");
        Service s = ConfigLoader.load(Service.class, DEFAULTS, file, Map.of("VIGIL_REGION", "asia-east"));
        assertThat(s.region()).isEqualTo("asia-east");
    }

    @Test
    void invalidValueNamesTheFileAndKey() throws Exception {
        Path file = dir.resolve("vigil-test.yaml");
        Files.writeString(file, "kafka:\n  partitions: 0\n");
        assertThatThrownBy(() -> ConfigLoader.load(Service.class, DEFAULTS, file, Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("kafka.partitions: must be at least 1");
    }

    @Test
    void wrongTypeNamesTheKey() throws Exception {
        Path file = dir.resolve("vigil-test.yaml");
        Files.writeString(file, "kafka:\n  partitions: many\n");
        assertThatThrownBy(() -> ConfigLoader.load(Service.class, DEFAULTS, file, Map.of()))
                .hasMessageContaining("kafka.partitions");
    }

    @Test
    void yamlSyntaxErrorNamesTheLine() throws Exception {
        Path file = dir.resolve("vigil-test.yaml");
        Files.writeString(file, "region: eu-west\nkafka: [unclosed\n");
        assertThatThrownBy(() -> ConfigLoader.load(Service.class, DEFAULTS, file, Map.of()))
                .hasMessageContaining("not valid YAML").hasMessageContaining("line");
    }

    @Test
    void missingFileIsAClearError() {
        Path file = dir.resolve("absent.yaml");
        assertThatThrownBy(() -> ConfigLoader.load(Service.class, DEFAULTS, file, Map.of()))
                .hasMessageContaining("absent.yaml: configuration file not found");
    }

    @Test
    void envFormSplitsCamelCaseAndDashes() {
        assertThat(ConfigLoader.envForm("bootstrapServers")).isEqualTo("BOOTSTRAP_SERVERS");
        assertThat(ConfigLoader.envForm("dead-letter")).isEqualTo("DEAD_LETTER");
        assertThat(ConfigLoader.envForm("region")).isEqualTo("REGION");
        assertThat(ConfigLoader.envForm("p99Ms")).isEqualTo("P99_MS");
    }
}
