package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.standalone.monitors.MonitorCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@WithKafka(createVigilTopics = true)
class MonitorsApplyIT {
    EmbeddedKafka kafka;

    @TempDir
    Path dir;

    private Path file(String name, String yaml) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, yaml);
        return f;
    }

    private Map<String, MonitorDefinition> topic() {
        List<String> poison = new ArrayList<>();
        var current = new MonitorCatalog(kafka.bootstrapServers(), Topics.MONITORS, Duration.ofSeconds(30)).current(poison::add);
        assertThat(poison).isEmpty();
        return current;
    }

    @Test
    void appliesDiffsAndPrunes() throws Exception {
        Path v1 = file("v1.yaml", """
                monitors:
                  - id: api
                    url: https://api.example.com/health
                    regions: [us-east, eu-west]
                  - id: shop
                    url: https://shop.example.com/
                    regions: [us-east]
                """);
        CliRun first = CliRun.vigil("monitors", "apply", "-f", v1.toString(), "--bootstrap-servers", kafka.bootstrapServers());
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).contains("+ api", "+ shop", "2 to add, 0 to change, 0 unchanged, 0 to delete");
        assertThat(topic()).containsOnlyKeys("api", "shop");

        CliRun again = CliRun.vigil("monitors", "apply", "-f", v1.toString(), "--bootstrap-servers", kafka.bootstrapServers());
        assertThat(again.out()).contains("0 to add, 0 to change, 2 unchanged", "nothing to publish");

        Path v2 = file("v2.yaml", """
                monitors:
                  - id: api
                    url: https://api.example.com/health
                    intervalSeconds: 30
                    regions: [us-east, eu-west]
                """);
        CliRun keep = CliRun.vigil("monitors", "apply", "-f", v2.toString(), "--bootstrap-servers", kafka.bootstrapServers());
        assertThat(keep.out()).contains("~ api (changed: intervalSeconds)", "? shop (not in file; kept");
        assertThat(topic()).containsOnlyKeys("api", "shop");
        assertThat(topic().get("api").intervalSeconds()).isEqualTo(30);

        CliRun dry = CliRun.vigil("monitors", "apply", "-f", v2.toString(), "--prune", "--dry-run",
                "--bootstrap-servers", kafka.bootstrapServers());
        assertThat(dry.out()).contains("- shop (deleted)", "dry run: nothing published");
        assertThat(topic()).containsKey("shop");

        CliRun prune = CliRun.vigil("monitors", "apply", "-f", v2.toString(), "--prune", "--bootstrap-servers", kafka.bootstrapServers());
        assertThat(prune.exit()).isZero();
        assertThat(topic()).containsOnlyKeys("api");

        // every apply that published is on the audit log: who, what, how much
        var audit = new dev.vigil.streams.audit.AuditLog(kafka.bootstrapServers(), Topics.AUDIT, Map.of(), Duration.ofSeconds(10))
                .read(0, System.currentTimeMillis() + 60_000, 100).records();
        assertThat(audit).extracting(a -> a.action() + " " + a.details().get("added") + "/" + a.details().get("changed")
                + "/" + a.details().get("deleted")).containsExactly("monitors.applied 2/0/0", "monitors.applied 0/1/0",
                "monitors.applied 0/0/1");
        assertThat(audit).allSatisfy(a -> {
            assertThat(a.actor()).startsWith("cli:");
            assertThat(a.target()).isEqualTo("monitors");
        });
    }

    @Test
    void invalidFilePublishesNothingAndSaysWhy() throws Exception {
        Path bad = file("bad.yaml", """
                monitors:
                  - id: ok-one
                    url: https://ok.example.com/
                    regions: [us-east]
                  - id: Bad_Id
                    url: https://bad.example.com/
                    regions: [us-east]
                """);
        CliRun run = CliRun.vigil("monitors", "apply", "-f", bad.toString(), "--bootstrap-servers", kafka.bootstrapServers());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("nothing was published", "monitors[1]", "id: must be a slug");
        assertThat(topic()).doesNotContainKey("ok-one");
    }
}
