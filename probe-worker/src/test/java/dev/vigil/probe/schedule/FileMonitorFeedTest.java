package dev.vigil.probe.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.schemas.contract.MonitorDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileMonitorFeedTest {
    @TempDir
    Path dir;

    private final Map<String, MonitorDefinition> seen = new ConcurrentHashMap<>();
    private final MonitorSink sink = new MonitorSink() {
        @Override
        public void upsert(MonitorDefinition definition) {
            seen.put(definition.id(), definition);
        }

        @Override
        public void remove(String monitorId) {
            seen.remove(monitorId);
        }
    };

    @Test
    void loadsAndFollowsChangesToTheFile() throws Exception {
        Path file = dir.resolve("monitors.yaml");
        Files.writeString(
                file,
                """
                monitors:
                  - id: api
                    url: https://api.example.com/health
                    regions: [us-east]
                  - id: web
                    url: https://www.example.com/
                    intervalSeconds: 30
                    regions: [us-east, eu-west]
                """);
        try (var feed = new FileMonitorFeed(file, sink).start(Duration.ofMillis(50))) {
            assertThat(seen).containsOnlyKeys("api", "web");
            assertThat(seen.get("api").expect().json()).isEqualTo(MonitorDefinition.JsonAssertion.HEALTH);
            assertThat(seen.get("web").intervalSeconds()).isEqualTo(30);
            Files.writeString(
                    file,
                    """
                    monitors:
                      - id: web
                        url: https://www.example.com/v2
                        regions: [us-east]
                    """);
            Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 5_000));
            await().atMost(Duration.ofSeconds(10)).until(() -> !seen.containsKey("api"));
            assertThat(seen.get("web").url()).isEqualTo("https://www.example.com/v2");
        }
    }

    @Test
    void badFilesNameEveryProblem() throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(
                file,
                """
                monitors:
                  - id: Bad_Id
                    url: https://x.example/
                    regions: [us-east]
                  - id: ok
                    url: ftp://x.example/
                    regions: [us-east]
                  - id: dup
                    url: https://x.example/
                    regions: [us-east]
                  - id: dup
                    url: https://y.example/
                    regions: [us-east]
                """);
        assertThatThrownBy(() -> FileMonitorFeed.read(file))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining("monitors[0]: id")
                .hasMessageContaining("monitors[1]: url")
                .hasMessageContaining("monitors[3].id: repeats");
    }
}
