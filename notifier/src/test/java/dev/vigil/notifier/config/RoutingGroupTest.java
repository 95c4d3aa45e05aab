package dev.vigil.notifier.config;

import static dev.vigil.notifier.support.TestEvents.opened;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.kit.config.ConfigLoader.ConfigException;
import dev.vigil.notifier.core.Grouping;
import dev.vigil.schemas.contract.Severity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A route's {@code group:} as written in the routing: its defaults, and every mistake named with its key path. */
class RoutingGroupTest {
    @TempDir
    Path dir;

    private NotifierSettings.Loaded load(String routes) throws IOException {
        Path file = dir.resolve("vigil-notifier.yaml");
        String routing =
                """
                channels:
                  slack: { type: log }
                routes:
                """
                        + routes.indent(2)
                        + "defaults: { critical: [slack], warning: [slack], info: [slack] }\n";
        Files.writeString(file, "routing:\n" + routing.indent(2));
        return NotifierSettings.load(file, Map.of());
    }

    private List<String> problems(String routes) {
        return ((ConfigException) org.assertj.core.api.Assertions.catchThrowable(() -> load(routes))).problems();
    }

    private Grouping groupOf(String routes) throws IOException {
        return load(routes)
                .routing()
                .routes()
                .route(opened("monitor/api", Severity.CRITICAL))
                .group();
    }

    @Test
    void byDefaultsToTheServiceAndWaitToFiveSeconds() throws IOException {
        assertThat(groupOf("- { name: all, channels: [slack], group: {} }"))
                .isEqualTo(new Grouping(List.of("service"), Duration.ofSeconds(5)));
    }

    @Test
    void labelsAndAWaitAreTakenAsWritten() throws IOException {
        assertThat(groupOf("- { name: all, channels: [slack], group: { by: [service, region], wait: 30s } }"))
                .isEqualTo(new Grouping(List.of("service", "region"), Duration.ofSeconds(30)));
    }

    @Test
    void aRouteWithoutGroupSendsOneMessagePerEvent() throws IOException {
        assertThat(groupOf("- { name: all, channels: [slack] }")).isNull();
    }

    @Test
    void everyMistakeIsNamedWithItsKeyPath() {
        assertThat(
                        problems(
                                """
                        - { name: zero, channels: [slack], group: { wait: 0s } }
                        - { name: long, channels: [slack], group: { wait: 6m } }
                        - { name: words, channels: [slack], group: { wait: soon } }
                        - { name: blank, channels: [slack], group: { by: [service, " "] } }
                        - { name: twice, channels: [slack], group: { by: [region, region] } }
                        """))
                .anySatisfy(p -> assertThat(p).contains("routes[0] (zero).group.wait: must be positive"))
                .anySatisfy(p -> assertThat(p).contains("routes[1] (long).group.wait: at most 5m"))
                .anySatisfy(p -> assertThat(p).contains("routes[2] (words).group.wait: "))
                .anySatisfy(
                        p -> assertThat(p).contains("routes[3] (blank).group.by[1]: must be service or an attribute"))
                .anySatisfy(p -> assertThat(p).contains("routes[4] (twice).group.by[1]: 'region' is named twice"));
    }
}
