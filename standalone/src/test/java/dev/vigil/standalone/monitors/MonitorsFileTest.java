package dev.vigil.standalone.monitors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.MonitorDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MonitorsFileTest {
    @TempDir
    Path dir;

    private Path write(String yaml) throws Exception {
        Path file = dir.resolve("monitors.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    @Test
    void readsMonitorsWithDefaultsAndNoSchemaVersionNeeded() throws Exception {
        Path file = write(
                """
                monitors:
                  - id: api
                    url: https://api.example.com/health
                    regions: [us-east, eu-west]
                  - id: shop
                    url: https://shop.example.com/
                    intervalSeconds: 30
                    regions: [us-east]
                    expect:
                      statusCodes: ["200"]
                """);
        List<MonitorDefinition> monitors = MonitorsFile.read(file, Set.of("us-east", "eu-west"));
        assertThat(monitors).extracting(MonitorDefinition::id).containsExactly("api", "shop");
        assertThat(monitors.get(0).intervalSeconds()).isEqualTo(60);
        assertThat(monitors.get(0).expect().json()).isEqualTo(MonitorDefinition.JsonAssertion.HEALTH);
        assertThat(monitors.get(1).expect().acceptsStatus(200)).isTrue();
        assertThat(monitors.get(1).expect().acceptsStatus(301)).isFalse();
    }

    @Test
    void reportsEveryProblemWithPositionIdAndField() throws Exception {
        Path file = write(
                """
                monitors:
                  - id: api
                    url: ftp://api.example.com/
                    regions: [us-east]
                  - id: api2
                    url: https://x.example.com/
                    intervalSeconds: 5
                    regions: [us-east]
                  - id: api2
                    url: https://y.example.com/
                    regions: [us-east]
                  - id: far
                    url: https://z.example.com/
                    regions: [mars-north]
                """);
        assertThatThrownBy(() -> MonitorsFile.read(file, Set.of("us-east")))
                .isInstanceOfSatisfying(
                        ConfigLoader.ConfigException.class,
                        e -> assertThat(e.problems())
                                .containsExactly(
                                        file + ": monitors[0] (id api): url: must be an absolute http or https URL",
                                        file + ": monitors[1] (id api2): intervalSeconds: must be between 10 and 3600",
                                        file + ": monitors[2] (id api2): id: is used by an earlier monitor",
                                        file
                                                + ": monitors[3] (id far): regions: 'mars-north' is not one of the configured regions [us-east]"));
    }

    @Test
    void theReadmeExampleIsValid() {
        // Surefire runs in the module folder; the example lives at the repository root.
        List<MonitorDefinition> monitors =
                MonitorsFile.read(Path.of("../examples/monitors.yaml"), Set.of("us-east", "eu-west", "asia-east"));
        assertThat(monitors)
                .extracting(MonitorDefinition::id)
                .containsExactly(
                        "checkout-api",
                        "marketing-site",
                        "status-json",
                        "orders-api-write",
                        "mail-relay",
                        "mx-records",
                        "imaps-certificate",
                        "nightly-backup");
        assertThat(monitors.get(0).expect().json()).isEqualTo(MonitorDefinition.JsonAssertion.HEALTH);
        assertThat(monitors.get(2).expect().json().anyOf()).containsExactly("green", "operational");
        assertThat(monitors)
                .extracting(MonitorDefinition::type)
                .containsExactly(
                        CheckType.HTTP,
                        CheckType.HTTP,
                        CheckType.HTTP,
                        CheckType.HTTP,
                        CheckType.TCP,
                        CheckType.DNS,
                        CheckType.TLS,
                        CheckType.HEARTBEAT);
        MonitorDefinition post = monitors.get(3);
        assertThat(post.method()).isEqualTo("POST");
        assertThat(post.headers().get("Authorization").secretEnv()).isEqualTo("ORDERS_HEALTH_TOKEN");
        assertThat(post.headers().get("Authorization").value()).isNull();
        assertThat(post.expect().headers()).containsEntry("Content-Type", "re:application/json.*");
        assertThat(monitors.get(4).tcp()).isEqualTo(new MonitorDefinition.Tcp("smtp.example.com", 25, null, "ESMTP"));
        assertThat(monitors.get(5).dns().recordType()).isEqualTo("MX");
        assertThat(monitors.get(6).tls().port()).isEqualTo(993);
        MonitorDefinition backup = monitors.get(7);
        assertThat(backup.regions()).containsExactly(MonitorDefinition.PUSH_REGION);
        assertThat(backup.heartbeat().schedule()).isEqualTo("0 2 * * *");
        assertThat(backup.heartbeat().zone()).isEqualTo("Europe/Paris");
    }

    @Test
    void missingListIsAClearError() throws Exception {
        Path file = write("monitor:\n  - id: api\n");
        assertThatThrownBy(() -> MonitorsFile.read(file, Set.of()))
                .hasMessageContaining("must have a top-level 'monitors:' list");
    }
}
