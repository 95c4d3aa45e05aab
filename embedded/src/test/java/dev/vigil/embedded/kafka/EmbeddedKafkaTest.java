package dev.vigil.embedded.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Builder and lifecycle rules that need no running broker. */
class EmbeddedKafkaTest {
    @Test
    void portIsChosenAtBuildSoClientsCanBeConfiguredBeforeStart() {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().build()) {
            assertThat(kafka.isRunning()).isFalse();
            assertThat(kafka.port()).isBetween(1, 65535);
            assertThat(kafka.bootstrapServers()).isEqualTo("127.0.0.1:" + kafka.port());
            assertThat(kafka.producerProps())
                    .containsEntry("bootstrap.servers", kafka.bootstrapServers())
                    .containsEntry("acks", "all")
                    .containsEntry("enable.idempotence", true);
            assertThat(kafka.consumerProps("g"))
                    .containsEntry("group.id", "g")
                    .containsEntry("isolation.level", "read_committed")
                    .containsEntry("enable.auto.commit", false);
        }
    }

    @Test
    void givenPortIsUsed() {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().port(19092).build()) {
            assertThat(kafka.bootstrapServers()).isEqualTo("127.0.0.1:19092");
        }
    }

    @Test
    void rejectsImpossiblePorts() {
        assertThatThrownBy(() -> EmbeddedKafka.builder().port(70000)).hasMessageContaining("1-65535");
        assertThatThrownBy(() -> EmbeddedKafka.builder().port(-1)).hasMessageContaining("1-65535");
    }

    @Test
    void topicsNeedARunningBroker() {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().build()) {
            assertThatThrownBy(() -> kafka.createTopics(dev.vigil.schemas.topic.Topics.all()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not running (call start())");
        }
    }

    @Test
    void closeKeepsACallerDirectoryAndDeletesItsOwnTemporaryOne(@TempDir Path callerDir) throws Exception {
        Files.writeString(callerDir.resolve("keep.txt"), "x");
        EmbeddedKafka withCallerDir = EmbeddedKafka.builder().dataDir(callerDir).build();
        EmbeddedKafka withTempDir = EmbeddedKafka.builder().build();
        Path tempDir = withTempDir.dataDir();

        withCallerDir.close();
        withTempDir.close();

        assertThat(callerDir.resolve("keep.txt")).exists();
        assertThat(tempDir).doesNotExist();
    }
}
