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
        String yaml = new String(
                getClass().getResourceAsStream("/vigil-ingest.example.yaml").readAllBytes());
        IngestConfig c = load(
                yaml,
                Map.of(
                        "VIGIL_HTTP_PORT",
                        "9090",
                        "VIGIL_KAFKA_BOOTSTRAP_SERVERS",
                        "kafka:9092",
                        "VIGIL_LIMITS_MAX_EVENTS",
                        "500"));
        assertThat(c.http().port()).isEqualTo(9090);
        assertThat(c.kafka().bootstrapServers()).isEqualTo("kafka:9092");
        assertThat(c.limits().maxEvents()).isEqualTo(500);
        assertThat(c.limits().maxBodyBytes()).isEqualTo(1 << 20);
        assertThat(c.limits().timestampSkew()).isEqualTo(Duration.ofMillis(300_000));
        assertThat(c.limits().signatureSkew()).isEqualTo(Duration.ofMillis(60_000));
        assertThat(c.apiKeys()).containsKey("checkout");
        assertThat(c.probeWorkers().get("us-east-1").region()).isEqualTo("us-east");
        assertThat(c.kafka().topics().metrics()).isEqualTo("vigil.metrics");
        assertThat(c.kafka().topics().heartbeats()).isEqualTo("vigil.heartbeats");
        assertThat(c.kafka().topics().vendorUpdates()).isEqualTo("vigil.vendor-updates");
        assertThat(c.kafka().topics().monitors()).isEqualTo("vigil.monitors");
        assertThat(c.integrations().betterstack())
                .as("the example leaves the webhook off")
                .isNull();
    }

    @Test
    void aKeysHeartbeatWorkerIdDefaultsToTheKeyIdAndCanBeSet() throws Exception {
        IngestConfig c = load(
                "probeWorkers:\n  k1: {region: us-east, secretEnv: K1}\n"
                        + "  k2: {region: eu-west, secretEnv: K2, workerId: probe-eu-west-2}\n  k3: {region: eu-west, secretEnv: K3, workerId: \"  \"}\n",
                Map.of());
        assertThat(c.probeWorkers().get("k1").workerIdOr("k1")).isEqualTo("k1");
        assertThat(c.probeWorkers().get("k2").workerIdOr("k2")).isEqualTo("probe-eu-west-2");
        assertThat(c.probeWorkers().get("k3").workerIdOr("k3")).isEqualTo("k3");
        assertThat(IngestConfig.defaults().kafka().topics().heartbeats()).isEqualTo("vigil.heartbeats");
        assertThatThrownBy(() -> load(
                        "probeWorkers:\n  k1: {region: us-east, secretEnv: K1, workerId: \"" + "w".repeat(129)
                                + "\"}\n",
                        Map.of()))
                .hasMessageContaining("probeWorkers.k1.workerId");
    }

    @Test
    void theMonitorCatalogueTopicDefaultsAndCanBeRenamedAndNoProbeKeySpeaksForPush() throws Exception {
        assertThat(IngestConfig.defaults().kafka().topics().monitors()).isEqualTo("vigil.monitors");
        assertThat(load("kafka:\n  topics:\n    monitors: acme.monitors\n", Map.of())
                        .kafka()
                        .topics()
                        .monitors())
                .isEqualTo("acme.monitors");
        assertThat(load("http:\n  port: 1\n", Map.of("VIGIL_KAFKA_TOPICS_MONITORS", "x.monitors"))
                        .kafka()
                        .topics()
                        .monitors())
                .isEqualTo("x.monitors");
        assertThatThrownBy(() -> load("probeWorkers:\n  k1: {region: push, secretEnv: K1}\n", Map.of()))
                .hasMessageContaining("probeWorkers.k1.region")
                .hasMessageContaining("heartbeat pings");
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        IngestConfig c = IngestConfig.defaults();
        assertThat(c.http().port()).isEqualTo(8080);
        assertThat(c.kafka().sendTimeout()).isEqualTo(Duration.ofMillis(5_000));
        assertThat(c.limits().replayCacheSize()).isEqualTo(100_000);
    }

    @Test
    void aPlaintextKeyIsRefusedWithItsKeyPath() {
        assertThatThrownBy(() -> load("apiKeys:\n  checkout: [\"my-secret-key\"]\n", Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("apiKeys.checkout[0]")
                .hasMessageContaining("SHA-256")
                .hasMessageNotContaining("my-secret-key");
    }

    @Test
    void quotasHaveDefaultsAndBadOnesNameTheirKeyPath() throws Exception {
        IngestConfig c = load("limits:\n  maxInFlightBodyBytes: 8388608\n", Map.of());
        assertThat(c.quotas().metricsRequestsPerSecond()).isEqualTo(200);
        assertThat(c.quotas().alertsRequestsPerSecond())
                .isGreaterThan(c.quotas().metricsRequestsPerSecond());
        assertThat(c.quotas().maxSeriesPerApp()).isEqualTo(10_000);
        assertThat(c.quotas().bodyBytesPerPrincipal(c.limits())).isEqualTo(1L << 20);
        assertThat(c.quotas().alertsReservedBodyBytes(c.limits())).isEqualTo(2L << 20);
        IngestConfig set = load(
                "quotas:\n  metricsRequestsPerSecond: 5\n  metricsBurst: 10\n  maxSeriesPerApp: 50\n"
                        + "  seriesIdleExpiry: 10m\n",
                Map.of("VIGIL_QUOTAS_ALERTS_BURST", "70"));
        assertThat(set.quotas().metricsRequestsPerSecond()).isEqualTo(5);
        assertThat(set.quotas().metricsBurst()).isEqualTo(10);
        assertThat(set.quotas().alertsBurst()).as("from the environment").isEqualTo(70);
        assertThat(set.quotas().maxSeriesPerApp()).isEqualTo(50);
        assertThatThrownBy(() -> load("quotas:\n  metricsRequestsPerSecond: 0\n", Map.of()))
                .hasMessageContaining("quotas.metricsRequestsPerSecond");
        assertThatThrownBy(() -> load("quotas:\n  bodyBytesPerPrincipal: 1024\n", Map.of()))
                .hasMessageContaining("quotas.bodyBytesPerPrincipal")
                .hasMessageContaining("limits.maxBodyBytes");
    }

    @Test
    void badValuesNameTheirKeyPath() {
        assertThatThrownBy(() -> load("kafka:\n  sendTimeout: 5ms\n", Map.of()))
                .hasMessageContaining("kafka.sendTimeout");
        assertThatThrownBy(() -> load("limits:\n  maxEvents: 0\n", Map.of())).hasMessageContaining("limits.maxEvents");
        assertThatThrownBy(() -> load("probeWorkers:\n  w1: {region: \"US East\", secretEnv: X}\n", Map.of()))
                .hasMessageContaining("probeWorkers.w1.region");
        assertThatThrownBy(() -> load("probeWorkers:\n  w1: {region: us-east, secretEnv: \"not an env\"}\n", Map.of()))
                .hasMessageContaining("secretEnv");
    }

    @Test
    void hashesAreNormalised() throws Exception {
        String upper = ApiKeys.hash("k").toUpperCase();
        assertThat(load("apiKeys:\n  app: [\"" + upper + "\"]\n", Map.of())
                        .apiKeys()
                        .get("app"))
                .containsExactly(ApiKeys.hash("k"));
    }

    @Test
    void edgeSettingsHaveTheDocumentedDefaults() {
        IngestConfig c = IngestConfig.defaults();
        assertThat(c.http().allowedHosts()).isEmpty();
        assertThat(c.limits().maxInFlightBodyBytes()).isEqualTo(64L << 20);
        assertThat(c.limits().headerTimeout()).isEqualTo(Duration.ofMillis(10_000));
        assertThat(c.limits().requestTimeout()).isEqualTo(Duration.ofMillis(30_000));
        assertThat(c.limits().idleTimeout()).isEqualTo(Duration.ofMillis(60_000));
        ServerLimits edge = EdgeLimits.of(c);
        assertThat(edge.maxInFlightBodyBytes()).isEqualTo(64L << 20);
        assertThat(edge.headerTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(edge.requestTimeout())
                .as("a backstop behind the body reader's own 408")
                .isEqualTo(Duration.ofSeconds(30).plus(EdgeLimits.SERVER_READ_GRACE));
        assertThat(edge.idleTimeout()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void theHostAllowListFollowsTheBindAddress() throws Exception {
        assertThat(EdgeLimits.of(load("http:\n  host: 127.0.0.1\n", Map.of())).allowedHosts())
                .containsExactlyInAnyOrderElementsOf(ServerLimits.LOOPBACK_NAMES);
        assertThat(EdgeLimits.of(load("http:\n  host: localhost\n", Map.of())).hostAllowed("evil.example"))
                .isFalse();
        assertThat(EdgeLimits.of(load("http:\n  host: 0.0.0.0\n", Map.of())).allowedHosts())
                .as("any")
                .isEmpty();
        IngestConfig listed = load("http:\n  host: 127.0.0.1\n  allowedHosts: [Ingest.Internal]\n", Map.of());
        assertThat(listed.http().allowedHosts()).containsExactly("ingest.internal");
        assertThat(EdgeLimits.of(listed).hostAllowed("ingest.internal:8080")).isTrue();
        assertThat(EdgeLimits.of(listed).hostAllowed("localhost:8080"))
                .as("loopback names stay on a loopback bind")
                .isTrue();
        IngestConfig wildcardBind =
                load("http:\n  host: 0.0.0.0\n", Map.of("VIGIL_HTTP_ALLOWED_HOSTS", "ingest.internal, [::1]"));
        assertThat(wildcardBind.http().allowedHosts()).containsExactly("ingest.internal", "[::1]");
        assertThat(EdgeLimits.of(wildcardBind).hostAllowed("evil.example")).isFalse();
        assertThat(EdgeLimits.of(load("http:\n  host: 127.0.0.1\n  allowedHosts: [\"*\"]\n", Map.of()))
                        .allowedHosts())
                .as("* accepts any")
                .isEmpty();
        assertThatThrownBy(() -> load("http:\n  allowedHosts: [\"evil.example/path\"]\n", Map.of()))
                .hasMessageContaining("http.allowedHosts[0]");
    }

    @Test
    void edgeLimitsAreOverriddenAndCheckedWithTheirKeyPath() throws Exception {
        IngestConfig c = load(
                "limits:\n  headerTimeout: 500ms\n",
                Map.of("VIGIL_LIMITS_MAX_IN_FLIGHT_BODY_BYTES", "2097152", "VIGIL_LIMITS_REQUEST_TIMEOUT", "5s"));
        assertThat(c.limits().headerTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.limits().maxInFlightBodyBytes()).isEqualTo(2L << 20);
        assertThat(c.limits().requestTimeout()).isEqualTo(Duration.ofMillis(5000));
        assertThatThrownBy(() -> load("limits:\n  maxInFlightBodyBytes: 1000\n", Map.of()))
                .hasMessageContaining("limits.maxInFlightBodyBytes")
                .hasMessageContaining("limits.maxBodyBytes");
        assertThatThrownBy(() -> load("limits:\n  headerTimeout: 0s\n", Map.of()))
                .hasMessageContaining("limits.headerTimeout");
        assertThatThrownBy(() -> load("limits:\n  idleTimeout: -5s\n", Map.of()))
                .hasMessageContaining("limits.idleTimeout");
    }

    @Test
    void anInvalidProducerPropertyStopsStartUpNamingIt() {
        IngestConfig.Kafka k = IngestConfig.Kafka.defaults("127.0.0.1:1");
        IngestConfig.Kafka bad = new IngestConfig.Kafka(
                k.bootstrapServers(),
                k.topics(),
                "t",
                1,
                k.sendTimeout(),
                k.commitResolveTimeout(),
                k.retryAfter(),
                k.maxRecordsPerTransaction(),
                k.maxQueuedRequests(),
                Map.of("compression.type", "brotli"));
        assertThatThrownBy(() -> new dev.vigil.ingest.publish.AcknowledgedPublisher(
                        bad, new io.micrometer.core.instrument.simple.SimpleMeterRegistry()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("kafka.properties")
                .hasMessageContaining("compression.type");
    }

    @Test
    void theBetterStackWebhookIsOffUnlessConfiguredAndNamesItsTokenByEnvironmentVariable() throws Exception {
        assertThat(IngestConfig.defaults().integrations().betterstack())
                .as("deny by default")
                .isNull();
        assertThat(load("http:\n  port: 8080\n", Map.of()).integrations().betterstack())
                .isNull();
        IngestConfig c =
                load("integrations:\n  betterstack:\n    tokenEnv: VIGIL_BETTERSTACK_WEBHOOK_TOKEN\n", Map.of());
        assertThat(c.integrations().betterstack().tokenEnv()).isEqualTo("VIGIL_BETTERSTACK_WEBHOOK_TOKEN");
        IngestConfig renamed = load(
                "integrations:\n  betterstack:\n    tokenEnv: A\n",
                Map.of("VIGIL_INTEGRATIONS_BETTERSTACK_TOKEN_ENV", "BS_TOKEN"));
        assertThat(renamed.integrations().betterstack().tokenEnv()).isEqualTo("BS_TOKEN");
        assertThatThrownBy(() -> load("integrations:\n  betterstack:\n    tokenEnv: \"vgl_not an env\"\n", Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("integrations.betterstack.tokenEnv")
                .hasMessageContaining("environment variable name");
        assertThatThrownBy(() -> load("integrations:\n  betterstack: {}\n", Map.of()))
                .hasMessageContaining("integrations.betterstack.tokenEnv")
                .hasMessageContaining("is required");
    }

    @Test
    void vendorUpdatesGoToTheirTopicByDefaultAndTheNameCanBeChanged() throws Exception {
        assertThat(IngestConfig.defaults().kafka().topics().vendorUpdates()).isEqualTo("vigil.vendor-updates");
        assertThat(load("kafka:\n  topics:\n    vendorUpdates: acme.vendor-updates\n", Map.of())
                        .kafka()
                        .topics()
                        .vendorUpdates())
                .isEqualTo("acme.vendor-updates");
        assertThat(load("http:\n  port: 1\n", Map.of("VIGIL_KAFKA_TOPICS_VENDOR_UPDATES", "x.vu"))
                        .kafka()
                        .topics()
                        .vendorUpdates())
                .isEqualTo("x.vu");
    }

    @Test
    void aMissingOrUnusableBetterStackTokenStopsStartUpNamingTheVariableNeverTheValue() {
        IngestConfig c = IngestConfig.defaults()
                .withIntegrations(
                        new IngestConfig.Integrations(new IngestConfig.BetterStack("VIGIL_BETTERSTACK_WEBHOOK_TOKEN")));
        java.time.Clock clock = java.time.Clock.systemUTC();
        assertThatThrownBy(() -> dev.vigil.ingest.IngestServer.start(c, Map.of(), clock))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining(
                        "integrations.betterstack.tokenEnv: environment variable VIGIL_BETTERSTACK_WEBHOOK_TOKEN is not set");
        assertThatThrownBy(() ->
                        dev.vigil.ingest.IngestServer.start(c, Map.of("VIGIL_BETTERSTACK_WEBHOOK_TOKEN", ""), clock))
                .hasMessageContaining("VIGIL_BETTERSTACK_WEBHOOK_TOKEN is not set");
        assertThatThrownBy(() -> dev.vigil.ingest.IngestServer.start(
                        c, Map.of("VIGIL_BETTERSTACK_WEBHOOK_TOKEN", "tooshort-4711"), clock))
                .hasMessageContaining(
                        "integrations.betterstack.tokenEnv: the token in VIGIL_BETTERSTACK_WEBHOOK_TOKEN must be at least 32 characters")
                .hasMessageNotContaining("tooshort-4711");
        String slashy = "abcdefghijklmnopqrstuvwxyz/0123456789";
        assertThatThrownBy(() -> dev.vigil.ingest.IngestServer.start(
                        c, Map.of("VIGIL_BETTERSTACK_WEBHOOK_TOKEN", slashy), clock))
                .hasMessageContaining("URL-safe")
                .hasMessageNotContaining(slashy);
        IngestConfig both = c.withLimits(c.limits());
        IngestConfig withWorker = new IngestConfig(
                both.http(),
                both.kafka(),
                both.apiKeys(),
                Map.of("w1", new IngestConfig.ProbeWorkerKey("us-east", "W1_SECRET")),
                both.limits(),
                both.integrations());
        assertThatThrownBy(() -> dev.vigil.ingest.IngestServer.start(withWorker, Map.of(), clock))
                .as("every start-up problem at once")
                .hasMessageContaining("probeWorkers.w1.secretEnv")
                .hasMessageContaining("integrations.betterstack.tokenEnv");
    }

    @Test
    void theKeysOfThePreviousShapeStillWorkAndEachWarnsOnce() throws Exception {
        String current =
                """
                http: {host: 127.0.0.1, port: 9090}
                kafka: {sendTimeout: 2500ms, commitResolveTimeout: 90s, retryAfter: 7s}
                limits: {timestampSkew: 600000ms, signatureSkew: 30s, headerTimeout: 4s, requestTimeout: 20s, idleTimeout: 2m}
                """;
        String old =
                """
                host: 127.0.0.1
                port: 9090
                kafka: {sendTimeoutMs: 2500, commitResolveTimeoutMs: 90000, retryAfterSeconds: 7}
                limits: {timestampSkewMs: 600000, signatureSkewMs: 30000, headerTimeoutMs: 4000, requestTimeoutMs: 20000,
                         idleTimeoutMs: 120000}
                """;
        IngestConfig expected = load(current, Map.of());
        Path file = dir.resolve("vigil-ingest.yaml");
        Files.writeString(file, old);
        ConfigLoader.Result<IngestConfig> r = ConfigLoader.read(IngestConfig.SPEC, file, Map.of());
        assertThat(r.config()).isEqualTo(expected);
        assertThat(r.warnings())
                .hasSize(10)
                .allSatisfy(w -> assertThat(w).startsWith(file + ": "))
                .contains(
                        file + ": port is deprecated, use http.port",
                        file + ": kafka.sendTimeoutMs is deprecated, use kafka.sendTimeout with the unit in the value,"
                                + " e.g. 30s, 5m or 1500ms");
        assertThat(ConfigLoader.read(IngestConfig.SPEC, null, Map.of("VIGIL_PORT", "9191"))
                        .warnings())
                .containsExactly("VIGIL_PORT is deprecated, use VIGIL_HTTP_PORT (http.port)");
    }

    @Test
    void everyBadValueOfTheFileIsReportedAtOnce() throws Exception {
        Path file = dir.resolve("vigil-ingest.yaml");
        assertThatThrownBy(() -> load(
                        """
                http: {port: 70000}
                kafka: {sendTimeout: 5ms}
                limits: {maxEvents: 0, idleTimeout: soon}
                """,
                        Map.of()))
                .isInstanceOfSatisfying(ConfigLoader.ConfigException.class, e -> assertThat(e.problems())
                        .containsExactly(
                                file + ": http.port: must be between 0 and 65535",
                                file + ": kafka.sendTimeout: must be between 200ms and 2m",
                                file + ": limits.idleTimeout: must be a duration such as 500ms, 10s, 5m, 1h or PT1H",
                                file + ": limits.maxEvents: must be between 1 and 100000"));
    }

    @Test
    void theNewKeysAreOverriddenByTheirVariables() throws Exception {
        IngestConfig c = load(
                "http:\n  port: 8080\n",
                Map.of(
                        "VIGIL_HTTP_HOST",
                        "127.0.0.1",
                        "VIGIL_HTTP_PORT",
                        "0",
                        "VIGIL_KAFKA_SEND_TIMEOUT",
                        "2s",
                        "VIGIL_KAFKA_RETRY_AFTER",
                        "10s",
                        "VIGIL_LIMITS_IDLE_TIMEOUT",
                        "5m"));
        assertThat(c.http().host()).isEqualTo("127.0.0.1");
        assertThat(c.http().port()).isZero();
        assertThat(c.kafka().sendTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.kafka().retryAfter()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.limits().idleTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThatThrownBy(() -> load("http:\n  port: 8080\n", Map.of("VIGIL_KAFKA_RETRY_AFTER", "1500ms")))
                .hasMessageContaining("kafka.retryAfter: must be whole seconds");
    }
}
