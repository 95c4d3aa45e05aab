package dev.vigil.probe.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.kit.config.ConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
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
        assertThat(c.heartbeatIntervalMs()).isEqualTo(10_000L);
        assertThat(c.kafka().resultsTopic()).isEqualTo("vigil.probe-results");
        assertThat(c.remote().enabled()).isFalse();
    }

    @Test
    void yamlThenEnvironmentOverrides() throws Exception {
        Path p = yaml("""
                region: eu-west
                workerId: w-7
                allowList: [127.0.0.0/8]
                kafka:
                  bootstrapServers: broker:9092
                http:
                  port: 9000
                """);
        var c = ProbeWorkerConfig.load(p, Map.of("VIGIL_REGION", "asia-east", "VIGIL_HTTP_PORT", "0",
                "VIGIL_ALLOW_LIST", "10.0.0.0/8, 192.168.0.0/16", "VIGIL_CONCURRENCY", "32"));
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
                .isInstanceOf(ConfigLoader.ConfigException.class).hasMessageContaining("region: must be one of");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("allowList: [10.1.2.3/8]\n"), Map.of()))
                .hasMessageContaining("allowList[0]").hasMessageContaining("did you mean 10.0.0.0/8");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("concurrency: 0\n"), Map.of()))
                .hasMessageContaining("concurrency: must be between 1 and 10000");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("http:\n  port: 70000\n"), Map.of()))
                .hasMessageContaining("http.port");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("remote:\n  enabled: true\n  ingestUrl: nope\n"), Map.of()))
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
        assertThat(ProbeWorkerConfig.load(null, Map.of("VIGIL_HEADER_SECRETS", "A_TOKEN,B_TOKEN")).headerSecrets())
                .containsExactly("A_TOKEN", "B_TOKEN");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("headerSecrets: [VIGIL_PROBE_SECRET]\n"), Map.of()))
                .hasMessageContaining("headerSecrets[0]: must not name a VIGIL_ variable");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml(
                "headerSecrets: [OK_TOKEN, SIGNING]\nremote:\n  secretEnv: SIGNING\n"), Map.of()))
                .hasMessageContaining("headerSecrets[1]: must not name remote.secretEnv");
        assertThatThrownBy(() -> ProbeWorkerConfig.load(yaml("headerSecrets: ['not a name']\n"), Map.of()))
                .hasMessageContaining("headerSecrets[0]");
    }
}
