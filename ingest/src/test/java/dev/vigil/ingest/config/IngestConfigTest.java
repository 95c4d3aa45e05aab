package dev.vigil.ingest.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.ingest.auth.ApiKeys;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.http.ServerLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IngestConfigTest {
    @TempDir
    Path dir;

    private IngestConfig load(String yaml, Map<String, String> env) throws Exception {
        Path file = dir.resolve("vigil-ingest.yaml");
        Files.writeString(file, yaml);
        return IngestConfig.load(file, env);
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
        assertThat(c.kafka().topics().vendorUpdates()).isEqualTo("vigil.vendor-updates");
        assertThat(c.kafka().topics().monitors()).isEqualTo("vigil.monitors");
        assertThat(c.integrations().betterstack()).as("the example leaves the webhook off").isNull();
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
    void theMonitorCatalogueTopicDefaultsAndCanBeRenamedAndNoProbeKeySpeaksForPush() throws Exception {
        assertThat(IngestConfig.defaults().kafka().topics().monitors()).isEqualTo("vigil.monitors");
        assertThat(load("kafka:\n  topics:\n    monitors: acme.monitors\n", Map.of()).kafka().topics().monitors())
                .isEqualTo("acme.monitors");
        assertThat(load("port: 1\n", Map.of("VIGIL_KAFKA_TOPICS_MONITORS", "x.monitors")).kafka().topics().monitors())
                .isEqualTo("x.monitors");
        assertThatThrownBy(() -> load("probeWorkers:\n  k1: {region: push, secretEnv: K1}\n", Map.of()))
                .hasMessageContaining("probeWorkers.k1.region").hasMessageContaining("heartbeat pings");
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
    void edgeSettingsHaveTheDocumentedDefaults() {
        IngestConfig c = IngestConfig.defaults();
        assertThat(c.http().allowedHosts()).isEmpty();
        assertThat(c.limits().maxInFlightBodyBytes()).isEqualTo(64L << 20);
        assertThat(c.limits().headerTimeoutMs()).isEqualTo(10_000);
        assertThat(c.limits().requestTimeoutMs()).isEqualTo(30_000);
        assertThat(c.limits().idleTimeoutMs()).isEqualTo(60_000);
        ServerLimits edge = EdgeLimits.of(c);
        assertThat(edge.maxInFlightBodyBytes()).isEqualTo(64L << 20);
        assertThat(edge.headerTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(edge.requestTimeout()).as("a backstop behind the body reader's own 408")
                .isEqualTo(Duration.ofSeconds(30).plus(EdgeLimits.SERVER_READ_GRACE));
        assertThat(edge.idleTimeout()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void theHostAllowListFollowsTheBindAddress() throws Exception {
        assertThat(EdgeLimits.of(load("host: 127.0.0.1\n", Map.of())).allowedHosts())
                .containsExactlyInAnyOrderElementsOf(ServerLimits.LOOPBACK_NAMES);
        assertThat(EdgeLimits.of(load("host: localhost\n", Map.of())).hostAllowed("evil.example")).isFalse();
        assertThat(EdgeLimits.of(load("host: 0.0.0.0\n", Map.of())).allowedHosts()).as("any").isEmpty();
        IngestConfig listed = load("host: 127.0.0.1\nhttp:\n  allowedHosts: [Ingest.Internal]\n", Map.of());
        assertThat(listed.http().allowedHosts()).containsExactly("ingest.internal");
        assertThat(EdgeLimits.of(listed).hostAllowed("ingest.internal:8080")).isTrue();
        assertThat(EdgeLimits.of(listed).hostAllowed("localhost:8080")).as("loopback names stay on a loopback bind").isTrue();
        IngestConfig wildcardBind = load("host: 0.0.0.0\n", Map.of("VIGIL_HTTP_ALLOWED_HOSTS", "ingest.internal, [::1]"));
        assertThat(wildcardBind.http().allowedHosts()).containsExactly("ingest.internal", "[::1]");
        assertThat(EdgeLimits.of(wildcardBind).hostAllowed("evil.example")).isFalse();
        assertThat(EdgeLimits.of(load("host: 127.0.0.1\nhttp:\n  allowedHosts: [\"*\"]\n", Map.of())).allowedHosts())
                .as("* accepts any").isEmpty();
        assertThatThrownBy(() -> load("http:\n  allowedHosts: [\"evil.example/path\"]\n", Map.of()))
                .hasMessageContaining("http.allowedHosts[0]");
    }

    @Test
    void edgeLimitsAreOverriddenAndCheckedWithTheirKeyPath() throws Exception {
        IngestConfig c = load("limits:\n  headerTimeoutMs: 500\n", Map.of("VIGIL_LIMITS_MAX_IN_FLIGHT_BODY_BYTES", "2097152",
                "VIGIL_LIMITS_REQUEST_TIMEOUT_MS", "5000"));
        assertThat(c.limits().headerTimeoutMs()).isEqualTo(500);
        assertThat(c.limits().maxInFlightBodyBytes()).isEqualTo(2L << 20);
        assertThat(c.limits().requestTimeoutMs()).isEqualTo(5000);
        assertThatThrownBy(() -> load("limits:\n  maxInFlightBodyBytes: 1000\n", Map.of()))
                .hasMessageContaining("limits.maxInFlightBodyBytes").hasMessageContaining("limits.maxBodyBytes");
        assertThatThrownBy(() -> load("limits:\n  headerTimeoutMs: 0\n", Map.of())).hasMessageContaining("limits.headerTimeoutMs");
        assertThatThrownBy(() -> load("limits:\n  idleTimeoutMs: -5\n", Map.of())).hasMessageContaining("limits.idleTimeoutMs");
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

    @Test
    void theBetterStackWebhookIsOffUnlessConfiguredAndNamesItsTokenByEnvironmentVariable() throws Exception {
        assertThat(IngestConfig.defaults().integrations().betterstack()).as("deny by default").isNull();
        assertThat(load("port: 8080\n", Map.of()).integrations().betterstack()).isNull();
        IngestConfig c = load("integrations:\n  betterstack:\n    tokenEnv: VIGIL_BETTERSTACK_WEBHOOK_TOKEN\n", Map.of());
        assertThat(c.integrations().betterstack().tokenEnv()).isEqualTo("VIGIL_BETTERSTACK_WEBHOOK_TOKEN");
        IngestConfig renamed = load("integrations:\n  betterstack:\n    tokenEnv: A\n",
                Map.of("VIGIL_INTEGRATIONS_BETTERSTACK_TOKEN_ENV", "BS_TOKEN"));
        assertThat(renamed.integrations().betterstack().tokenEnv()).isEqualTo("BS_TOKEN");
        assertThatThrownBy(() -> load("integrations:\n  betterstack:\n    tokenEnv: \"vgl_not an env\"\n", Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("integrations.betterstack.tokenEnv").hasMessageContaining("environment variable name");
        assertThatThrownBy(() -> load("integrations:\n  betterstack: {}\n", Map.of()))
                .hasMessageContaining("integrations.betterstack.tokenEnv").hasMessageContaining("is required");
    }

    @Test
    void vendorUpdatesGoToTheirTopicByDefaultAndTheNameCanBeChanged() throws Exception {
        assertThat(IngestConfig.defaults().kafka().topics().vendorUpdates()).isEqualTo("vigil.vendor-updates");
        assertThat(load("kafka:\n  topics:\n    vendorUpdates: acme.vendor-updates\n", Map.of()).kafka().topics().vendorUpdates())
                .isEqualTo("acme.vendor-updates");
        assertThat(load("port: 1\n", Map.of("VIGIL_KAFKA_TOPICS_VENDOR_UPDATES", "x.vu")).kafka().topics().vendorUpdates())
                .isEqualTo("x.vu");
    }

    @Test
    void aMissingOrUnusableBetterStackTokenStopsStartUpNamingTheVariableNeverTheValue() {
        IngestConfig c = IngestConfig.defaults().withIntegrations(new IngestConfig.Integrations(
                new IngestConfig.BetterStack("VIGIL_BETTERSTACK_WEBHOOK_TOKEN")));
        java.time.Clock clock = java.time.Clock.systemUTC();
        assertThatThrownBy(() -> dev.vigil.ingest.IngestServer.start(c, Map.of(), clock))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("integrations.betterstack.tokenEnv: environment variable VIGIL_BETTERSTACK_WEBHOOK_TOKEN is not set");
        assertThatThrownBy(() -> dev.vigil.ingest.IngestServer.start(c, Map.of("VIGIL_BETTERSTACK_WEBHOOK_TOKEN", ""), clock))
                .hasMessageContaining("VIGIL_BETTERSTACK_WEBHOOK_TOKEN is not set");
        assertThatThrownBy(() -> dev.vigil.ingest.IngestServer.start(c, Map.of("VIGIL_BETTERSTACK_WEBHOOK_TOKEN", "tooshort-4711"), clock))
                .hasMessageContaining("integrations.betterstack.tokenEnv: the token in VIGIL_BETTERSTACK_WEBHOOK_TOKEN must be at least 32 characters")
                .hasMessageNotContaining("tooshort-4711");
        String slashy = "abcdefghijklmnopqrstuvwxyz/0123456789";
        assertThatThrownBy(() -> dev.vigil.ingest.IngestServer.start(c, Map.of("VIGIL_BETTERSTACK_WEBHOOK_TOKEN", slashy), clock))
                .hasMessageContaining("URL-safe").hasMessageNotContaining(slashy);
        IngestConfig both = c.withLimits(c.limits());
        IngestConfig withWorker = new IngestConfig(both.host(), both.port(), both.kafka(), both.apiKeys(),
                Map.of("w1", new IngestConfig.ProbeWorkerKey("us-east", "W1_SECRET")), both.limits(), both.http(), both.integrations());
        assertThatThrownBy(() -> dev.vigil.ingest.IngestServer.start(withWorker, Map.of(), clock))
                .as("every start-up problem at once")
                .hasMessageContaining("probeWorkers.w1.secretEnv").hasMessageContaining("integrations.betterstack.tokenEnv");
    }
}
