package dev.vigil.ingest.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.ingest.auth.ApiKeys;
import dev.vigil.schemas.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IngestConfigTest {
    @TempDir
    Path dir;

    private IngestConfig load(String yaml, Map<String, String> env) throws Exception {
        Path file = dir.resolve("vigil-ingest.yaml");
        Files.writeString(file, yaml);
        return ConfigLoader.load(IngestConfig.class, IngestConfig.defaults(), file, env);
    }

    @Test
    void loadsTheShippedExampleWithEnvironmentOverrides() throws Exception {
        String yaml = new String(getClass().getResourceAsStream("/vigil-ingest.example.yaml").readAllBytes());
        IngestConfig c = load(yaml, Map.of("VIGIL_PORT", "9090", "VIGIL_KAFKA_BOOTSTRAP_SERVERS", "kafka:9092",
                "VIGIL_LIMITS_MAX_EVENTS", "500"));
        assertThat(c.port()).isEqualTo(9090);
        assertThat(c.kafka().bootstrapServers()).isEqualTo("kafka:9092");
        assertThat(c.limits().maxEvents()).isEqualTo(500);
        assertThat(c.limits().maxBodyBytes()).isEqualTo(1 << 20);
        assertThat(c.limits().timestampSkewMs()).isEqualTo(300_000);
        assertThat(c.limits().signatureSkewMs()).isEqualTo(60_000);
        assertThat(c.apiKeys()).containsKey("checkout");
        assertThat(c.probeWorkers().get("us-east-1").region()).isEqualTo("us-east");
        assertThat(c.kafka().topics().metrics()).isEqualTo("vigil.metrics");
        assertThat(c.kafka().topics().heartbeats()).isEqualTo("vigil.heartbeats");
    }

    @Test
    void aKeysHeartbeatWorkerIdDefaultsToTheKeyIdAndCanBeSet() throws Exception {
        IngestConfig c = load("probeWorkers:\n  k1: {region: us-east, secretEnv: K1}\n"
                + "  k2: {region: eu-west, secretEnv: K2, workerId: probe-eu-west-2}\n  k3: {region: eu-west, secretEnv: K3, workerId: \"  \"}\n",
                Map.of());
        assertThat(c.probeWorkers().get("k1").workerIdOr("k1")).isEqualTo("k1");
        assertThat(c.probeWorkers().get("k2").workerIdOr("k2")).isEqualTo("probe-eu-west-2");
        assertThat(c.probeWorkers().get("k3").workerIdOr("k3")).isEqualTo("k3");
        assertThat(IngestConfig.defaults().kafka().topics().heartbeats()).isEqualTo("vigil.heartbeats");
        assertThatThrownBy(() -> load("probeWorkers:\n  k1: {region: us-east, secretEnv: K1, workerId: \"" + "w".repeat(129) + "\"}\n", Map.of()))
                .hasMessageContaining("probeWorkers.k1.workerId");
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        IngestConfig c = IngestConfig.defaults();
        assertThat(c.port()).isEqualTo(8080);
        assertThat(c.kafka().sendTimeoutMs()).isEqualTo(5_000);
        assertThat(c.limits().replayCacheSize()).isEqualTo(100_000);
    }

    @Test
    void aPlaintextKeyIsRefusedWithItsKeyPath() {
        assertThatThrownBy(() -> load("apiKeys:\n  checkout: [\"my-secret-key\"]\n", Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("apiKeys.checkout[0]").hasMessageContaining("SHA-256")
                .hasMessageNotContaining("my-secret-key");
    }

    @Test
    void badValuesNameTheirKeyPath() {
        assertThatThrownBy(() -> load("kafka:\n  sendTimeoutMs: 5\n", Map.of())).hasMessageContaining("kafka.sendTimeoutMs");
        assertThatThrownBy(() -> load("limits:\n  maxEvents: 0\n", Map.of())).hasMessageContaining("limits.maxEvents");
        assertThatThrownBy(() -> load("probeWorkers:\n  w1: {region: \"US East\", secretEnv: X}\n", Map.of()))
                .hasMessageContaining("probeWorkers.w1.region");
        assertThatThrownBy(() -> load("probeWorkers:\n  w1: {region: us-east, secretEnv: \"not an env\"}\n", Map.of()))
                .hasMessageContaining("secretEnv");
    }

    @Test
    void hashesAreNormalised() throws Exception {
        String upper = ApiKeys.hash("k").toUpperCase();
        assertThat(load("apiKeys:\n  app: [\"" + upper + "\"]\n", Map.of()).apiKeys().get("app")).containsExactly(ApiKeys.hash("k"));
    }

    @Test
    void anInvalidProducerPropertyStopsStartUpNamingIt() {
        IngestConfig.Kafka k = IngestConfig.Kafka.defaults("127.0.0.1:1");
        IngestConfig.Kafka bad = new IngestConfig.Kafka(k.bootstrapServers(), k.topics(), "t", 1, k.sendTimeoutMs(),
                k.commitResolveTimeoutMs(), k.retryAfterSeconds(), k.maxRecordsPerTransaction(), k.maxQueuedRequests(),
                Map.of("compression.type", "brotli"));
        assertThatThrownBy(() -> new dev.vigil.ingest.publish.AcknowledgedPublisher(bad,
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("kafka.properties").hasMessageContaining("compression.type");
    }
}
