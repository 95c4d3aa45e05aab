package dev.vigil.probe.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.kit.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeWorkerConfigTest {
    @TempDir
    Path dir;

    private Path yaml(String text) throws Exception {
        Path p = dir.resolve("vigil-probe-worker.yaml");
        Files.writeString(p, text);
        return p;
    }

    @Test
    void defaultsAreValidAndDocumented() {
        var c = ProbeWorkerConfig.load(null, Map.of());
        assertThat(c.concurrency()).isEqualTo(256);
        assertThat(c.http().port()).isEqualTo(8083);
        assertThat(c.heartbeatInterval()).isEqualTo(Duration.ofMillis(10_000L));
        assertThat(c.kafka().topics().probeResults()).isEqualTo("vigil.probe-results");
        assertThat(c.remote().enabled()).isFalse();
    }

    @Test
    void yamlThenEnvironmentOverrides() throws Exception {
        Path p = yaml(
                """
                region: eu-west
                workerId: w-7
                allowList: [127.0.0.0/8]
                kafka:
                  bootstrapServers: broker:9092
                http:
                  port: 9000
                """);
        var c = ProbeWorkerConfig.load(
                p,
                Map.of(
                        "VIGIL_REGION",
                        "asia-east",
                        "VIGIL_HTTP_PORT",
                        "0",
                        "VIGIL_ALLOW_LIST",
                        "10.0.0.0/8, 192.168.0.0/16",
                        "VIGIL_CONCURRENCY",
                        "32"));
        assertThat(c.region()).isEqualTo("asia-east");
        assertThat(c.workerId()).isEqualTo("w-7");
        assertThat(c.http().port()).isZero();
        assertThat(c.allowList()).containsExactly("10.0.0.0/8", "192.168.0.0/16");
        assertThat(c.concurrency()).isEqualTo(32);
        assertThat(c.kafka().bootstrapServers()).isEqualTo("broker:9092");
    }

    @Test
    void problemsNameTheKey() throws Exception {
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("region: mars\n"), Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("region: must be one of");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("allowList: [10.1.2.3/8]\n"), Map.of()))
                .hasMessageContaining("allowList[0]")
                .hasMessageContaining("did you mean 10.0.0.0/8");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("concurrency: 0\n"), Map.of()))
                .hasMessageContaining("concurrency: must be between 1 and 10000");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("http:\n  port: 70000\n"), Map.of()))
                .hasMessageContaining("http.port");
        assertThatThrownBy(
                        () -> ProbeWorkerConfig.load(yaml("remote:\n  enabled: true\n  ingestUrl: nope\n"), Map.of()))
                .hasMessageContaining("remote.ingestUrl");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("kafka:\n  bootstrapServers: ''\n"), Map.of()))
                .hasMessageContaining("kafka.bootstrapServers: is required");
    }

    @Test
    void pushIsNotARegionAWorkerCanProbeFrom() throws Exception {
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("region: push\nregions: [us-east, push]\n"), Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("region: push is reserved for heartbeat monitors");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(null, Map.of("VIGIL_REGION", "push")))
                .hasMessageContaining("region: push is reserved for heartbeat monitors");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("regions: [us-east, push]\n"), Map.of()))
                .hasMessageContaining("regions: must not list push");
    }

    @Test
    void headerSecretsNameOnlyVariablesThatAreNotTheWorkersOwn() throws Exception {
        assertThat(ProbeWorkerConfig.load(null, Map.of()).headerSecrets()).isEmpty();
        var c = ProbeWorkerConfig.load(yaml("headerSecrets: [HEALTH_TOKEN, PARTNER_API_KEY]\n"), Map.of());
        assertThat(c.headerSecrets()).containsExactly("HEALTH_TOKEN", "PARTNER_API_KEY");
        assertThat(ProbeWorkerConfig.load(null, Map.of("VIGIL_HEADER_SECRETS", "A_TOKEN,B_TOKEN"))
                        .headerSecrets())
                .containsExactly("A_TOKEN", "B_TOKEN");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("headerSecrets: [VIGIL_PROBE_SECRET]\n"), Map.of()))
                .hasMessageContaining("headerSecrets[0]: must not name a VIGIL_ variable");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(
                        yaml("headerSecrets: [OK_TOKEN, SIGNING]\nremote:\n  secretEnv: SIGNING\n"), Map.of()))
                .hasMessageContaining("headerSecrets[1]: must not name remote.secretEnv");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("headerSecrets: ['not a name']\n"), Map.of()))
                .hasMessageContaining("headerSecrets[0]");
    }

    @Test
    void theKeysOfThePreviousShapeStillWorkAndEachWarnsOnce() throws Exception {
        var current = ProbeWorkerConfig.load(
                yaml(
                        """
                heartbeatInterval: 2s
                drainTimeout: 45s
                kafka:
                  topics: {monitors: a.monitors, probeResults: a.results, heartbeats: a.heartbeats, deadLetter: a.dead}
                remote:
                  flushInterval: 250ms
                """),
                Map.of());
        Path old = yaml(
                """
                heartbeatIntervalMs: 2000
                drainTimeoutMs: 45000
                kafka:
                  monitorsTopic: a.monitors
                  resultsTopic: a.results
                  heartbeatsTopic: a.heartbeats
                  deadLetterTopic: a.dead
                remote:
                  flushIntervalMs: 250
                """);
        ConfigLoader.Result<ProbeWorkerConfig> r = ConfigLoader.read(ProbeWorkerConfig.SPEC, old, Map.of());
        assertThat(r.config()).isEqualTo(current);
        assertThat(r.warnings())
                .hasSize(7)
                .contains(
                        old + ": kafka.resultsTopic is deprecated, use kafka.topics.probeResults",
                        old
                                + ": heartbeatIntervalMs is deprecated, use heartbeatInterval with the unit in the value, e.g. 30s,"
                                + " 5m or 1500ms");
        assertThat(ConfigLoader.read(ProbeWorkerConfig.SPEC, null, Map.of("VIGIL_HEARTBEAT_INTERVAL_MS", "500"))
                        .config()
                        .heartbeatInterval())
                .isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void everyBadValueIsReportedAtOnce() throws Exception {
        Path p = yaml(
                """
                region: mars
                concurrency: 0
                heartbeatInterval: 10
                http: {port: 70000}
                remote: {enabled: true, ingestUrl: nope, flushInterval: 1ms}
                """);
        assertThatThrownBy(() -> ProbeWorkerConfig.load(p, Map.of()))
                .isInstanceOfSatisfying(ConfigLoader.ConfigException.class, e -> assertThat(e.problems())
                        .containsExactlyInAnyOrder(
                                p + ": heartbeatInterval: must be a duration such as 500ms, 10s, 5m, 1h or PT1H",
                                p + ": http.port: must be between 0 and 65535",
                                p + ": remote.flushInterval: must be at least 10ms",
                                p + ": remote.ingestUrl: must be an absolute http(s) URL when remote.enabled is true",
                                p + ": remote.keyId: must not be blank",
                                p + ": region: must be one of the configured regions [us-east, eu-west, asia-east]",
                                p + ": concurrency: must be between 1 and 10000"));
    }

    @Test
    void theNewKeysAreOverriddenByTheirVariables() {
        var c = ProbeWorkerConfig.load(
                null,
                Map.of(
                        "VIGIL_HEARTBEAT_INTERVAL",
                        "5s",
                        "VIGIL_DRAIN_TIMEOUT",
                        "1m",
                        "VIGIL_KAFKA_TOPICS_PROBE_RESULTS",
                        "env.results",
                        "VIGIL_REMOTE_FLUSH_INTERVAL",
                        "200ms"));
        assertThat(c.heartbeatInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.drainTimeout()).isEqualTo(Duration.ofMinutes(1));
        assertThat(c.kafka().topics().probeResults()).isEqualTo("env.results");
        assertThat(c.remote().flushInterval()).isEqualTo(Duration.ofMillis(200));
    }
}
