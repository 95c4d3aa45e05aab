package dev.vigil.standalone.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.standalone.monitors.MonitorCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@WithKafka(createVigilTopics = true)
class MonitorsApplyIT {
    EmbeddedKafka kafka;

    @TempDir
    Path dir;

    /** The regions the workers of this imagined deployment have served, as Streams' region watch records them. */
    @org.junit.jupiter.api.BeforeEach
    void workersHaveServed() throws Exception {
        publishRegions(Topics.REGIONS, "us-east", "eu-west");
    }

    private void publishRegions(String topic, String... regions) throws Exception {
        var serde = dev.vigil.schemas.json.VigilSerdes.regionStatus();
        Map<String, Object> props = Map.of("bootstrap.servers", kafka.bootstrapServers(), "acks", "all");
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<String, byte[]>(
                props,
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.ByteArraySerializer())) {
            long now = System.currentTimeMillis();
            for (String r : regions) {
                var status = new dev.vigil.schemas.contract.RegionStatus(1, r, 1, 1, 0, now, null, now);
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                                topic, r, serde.serialize(topic, status)))
                        .get();
            }
        }
    }

    private Path file(String name, String yaml) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, yaml);
        return f;
    }

    private Map<String, MonitorDefinition> topic() {
        return topic(Topics.MONITORS);
    }

    private Map<String, MonitorDefinition> topic(String name) {
        List<String> poison = new ArrayList<>();
        var current = new MonitorCatalog(kafka.bootstrapServers(), name, Duration.ofSeconds(30)).current(poison::add);
        assertThat(poison).isEmpty();
        return current;
    }

    private static final Pattern PING_URL = Pattern.compile(
            "ping token for (\\S+): (vgl_[A-Za-z0-9_-]{43}) \\(shown once; store it in the job's secret store as "
                    + "VIGIL_PING_TOKEN\\)\\R  ping:    curl -fsS -m 10 --retry 3 -X POST -H \"Authorization: Bearer "
                    + "\\$VIGIL_PING_TOKEN\" (\\S+)/v1/heartbeat/(\\S+)\\R");

    /** The ping URLs an apply printed: monitor id → token, with the base URL each was printed with. */
    private static Map<String, String[]> pingUrls(String out) {
        Map<String, String[]> urls = new java.util.LinkedHashMap<>();
        Matcher m = PING_URL.matcher(out);
        while (m.find()) {
            assertThat(m.group(4)).isEqualTo(m.group(1));
            urls.put(m.group(1), new String[] {m.group(3), m.group(2)});
        }
        return urls;
    }

    /**
     * A heartbeat monitor without a token gets one on apply: only its hash is published, the ping URL is printed once;
     * re-applying keeps it (no change, nothing printed), --rotate-heartbeat-token issues a new one.
     */
    @Test
    void aHeartbeatMonitorGetsItsPingTokenOnceKeepsItAndRotatesOnRequest() throws Exception {
        String topic = "it.heartbeat-monitors";
        kafka.createTopics(List.of(new Topics.TopicSpec(topic, 1, true)));
        Path f = file(
                "hb.yaml",
                """
                monitors:
                  - id: nightly-backup
                    name: Nightly backup
                    type: heartbeat
                    heartbeat:
                      schedule: "0 2 * * *"
                      zone: Europe/Paris
                      graceSeconds: 600
                  - id: api
                    url: https://api.example.com/health
                    regions: [us-east]
                """);
        String[] common = {
            "monitors",
            "apply",
            "-f",
            f.toString(),
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--topic",
            topic,
            "--regions",
            "us-east"
        };

        CliRun dry = CliRun.vigil(concat(common, "--dry-run"));
        assertThat(dry.exit()).as(dry.err()).isZero();
        assertThat(dry.out())
                .contains("(a ping token for nightly-backup would be issued)")
                .doesNotContain("vgl_");
        assertThat(topic(topic)).isEmpty();

        CliRun first = CliRun.vigil(concat(common, "--ingest-url", "https://ingest.example.com/"));
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out())
                .contains(
                        "+ nightly-backup (new: heartbeat (cron 0 2 * * * Europe/Paris, grace 600 s), "
                                + "pinged at /v1/heartbeat/nightly-backup)",
                        "+ api (new: https://api.example.com/health every 60s from us-east)");
        Map<String, String[]> issued = pingUrls(first.out());
        assertThat(issued).containsOnlyKeys("nightly-backup");
        assertThat(issued.get("nightly-backup")[0]).isEqualTo("https://ingest.example.com");
        String token = issued.get("nightly-backup")[1];
        MonitorDefinition published = topic(topic).get("nightly-backup");
        assertThat(published.heartbeat().tokenSha256()).isEqualTo(BearerTokens.hash(token));
        assertThat(published.regions()).containsExactly("push");
        assertThat(Json.toTree(published).toString()).doesNotContain(token);
        assertThat(first.err()).doesNotContain(token);

        CliRun again = CliRun.vigil(common);
        assertThat(again.out())
                .contains("0 to add, 0 to change, 2 unchanged", "nothing to publish")
                .doesNotContain("ping token")
                .doesNotContain("vgl_");
        assertThat(topic(topic).get("nightly-backup").heartbeat().tokenSha256()).isEqualTo(BearerTokens.hash(token));

        CliRun rotated = CliRun.vigil(concat(common, "--rotate-heartbeat-token", "nightly-backup"));
        assertThat(rotated.exit()).as(rotated.err()).isZero();
        assertThat(rotated.out())
                .contains("~ nightly-backup (changed: heartbeat)", "0 to add, 1 to change, 1 unchanged");
        Map<String, String[]> reissued = pingUrls(rotated.out());
        assertThat(reissued.get("nightly-backup")[0])
                .as("the standalone's ingest, Kafka being on loopback")
                .isEqualTo("http://127.0.0.1:8080");
        String newToken = reissued.get("nightly-backup")[1];
        assertThat(newToken).isNotEqualTo(token);
        assertThat(topic(topic).get("nightly-backup").heartbeat().tokenSha256()).isEqualTo(BearerTokens.hash(newToken));

        CliRun wrong = CliRun.vigil(concat(common, "--rotate-heartbeat-token", "api"));
        assertThat(wrong.exit()).isEqualTo(2);
        assertThat(wrong.err())
                .contains("--rotate-heartbeat-token api: not a heartbeat monitor of the file", "nothing was published");
        assertThat(topic(topic).get("nightly-backup").heartbeat().tokenSha256()).isEqualTo(BearerTokens.hash(newToken));

        var audit = new dev.vigil.streams.audit.AuditLog(
                        kafka.bootstrapServers(), Topics.AUDIT, Map.of(), Duration.ofSeconds(10))
                .read(0, System.currentTimeMillis() + 60_000, 100)
                .records();
        assertThat(audit)
                .filteredOn(a -> "hb.yaml".equals(a.details().get("file")))
                .extracting(a -> a.details().get("heartbeatTokens"))
                .containsExactly("1", "1");
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void appliesDiffsAndPrunes() throws Exception {
        Path v1 = file(
                "v1.yaml",
                """
                monitors:
                  - id: api
                    url: https://api.example.com/health
                    regions: [us-east, eu-west]
                  - id: shop
                    url: https://shop.example.com/
                    regions: [us-east]
                """);
        CliRun first =
                CliRun.vigil("monitors", "apply", "-f", v1.toString(), "--bootstrap-servers", kafka.bootstrapServers());
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).contains("+ api", "+ shop", "2 to add, 0 to change, 0 unchanged, 0 to delete");
        assertThat(topic()).containsOnlyKeys("api", "shop");

        CliRun again =
                CliRun.vigil("monitors", "apply", "-f", v1.toString(), "--bootstrap-servers", kafka.bootstrapServers());
        assertThat(again.out()).contains("0 to add, 0 to change, 2 unchanged", "nothing to publish");

        Path v2 = file(
                "v2.yaml",
                """
                monitors:
                  - id: api
                    url: https://api.example.com/health
                    intervalSeconds: 30
                    regions: [us-east, eu-west]
                """);
        CliRun keep =
                CliRun.vigil("monitors", "apply", "-f", v2.toString(), "--bootstrap-servers", kafka.bootstrapServers());
        assertThat(keep.out()).contains("~ api (changed: intervalSeconds)", "? shop (not in file; kept");
        assertThat(topic()).containsOnlyKeys("api", "shop");
        assertThat(topic().get("api").intervalSeconds()).isEqualTo(30);

        CliRun dry = CliRun.vigil(
                "monitors",
                "apply",
                "-f",
                v2.toString(),
                "--prune",
                "--dry-run",
                "--bootstrap-servers",
                kafka.bootstrapServers());
        assertThat(dry.out()).contains("- shop (deleted)", "dry run: nothing published");
        assertThat(topic()).containsKey("shop");

        // the dead-man's switch's canary, as vigil standalone registers it, is never pruned
        new MonitorCatalog(kafka.bootstrapServers(), Topics.MONITORS, Duration.ofSeconds(30))
                .publish(
                        List.of(new MonitorDefinition(
                                1,
                                "vigil-canary",
                                null,
                                "http://127.0.0.1:8081/health",
                                null,
                                10,
                                2500,
                                List.of("us-east"),
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null)),
                        List.of());
        CliRun prune = CliRun.vigil(
                "monitors", "apply", "-f", v2.toString(), "--prune", "--bootstrap-servers", kafka.bootstrapServers());
        assertThat(prune.exit()).isZero();
        assertThat(prune.out()).contains("= vigil-canary (the dead-man's switch's canary; kept)");
        assertThat(topic()).containsOnlyKeys("api", "vigil-canary");

        // every apply that published is on the audit log: who, what, how much
        var audit = new dev.vigil.streams.audit.AuditLog(
                        kafka.bootstrapServers(), Topics.AUDIT, Map.of(), Duration.ofSeconds(10))
                .read(0, System.currentTimeMillis() + 60_000, 100)
                .records();
        assertThat(audit)
                .filteredOn(a -> a.details().get("file").startsWith("v"))
                .extracting(a -> a.action() + " " + a.details().get("added") + "/"
                        + a.details().get("changed") + "/" + a.details().get("deleted"))
                .containsExactly("monitors.applied 2/0/0", "monitors.applied 0/1/0", "monitors.applied 0/0/1");
        assertThat(audit).allSatisfy(a -> {
            assertThat(a.actor()).startsWith("cli:");
            assertThat(a.target()).isEqualTo("monitors");
        });
    }

    /**
     * A monitor naming a region no worker has ever served is refused with the known regions listed, nothing
     * published; the override for a region being rolled out lets it through. The dry run prints what it costs.
     */
    @Test
    void aRegionNoWorkerServedIsRefusedUnlessRollingOutAndTheDryRunCountsChecks() throws Exception {
        Path f = file(
                "regions.yaml",
                """
                monitors:
                  - id: edge
                    url: https://edge.example.com/health
                    regions: [us-east, ap-south]
                """);
        CliRun refused =
                CliRun.vigil("monitors", "apply", "-f", f.toString(), "--bootstrap-servers", kafka.bootstrapServers());
        assertThat(refused.exit()).as(refused.out() + refused.err()).isEqualTo(2);
        assertThat(refused.err())
                .contains(
                        "regions no probe worker has ever served; nothing was published",
                        "- edge: ap-south",
                        "known regions: eu-west (1 live worker), us-east (1 live worker)",
                        "--allow-region ap-south");
        assertThat(topic()).doesNotContainKey("edge");

        CliRun dry = CliRun.vigil(
                "monitors",
                "apply",
                "-f",
                f.toString(),
                "--dry-run",
                "--allow-region",
                "ap-south",
                "--bootstrap-servers",
                kafka.bootstrapServers());
        assertThat(dry.exit()).as(dry.err()).isZero();
        assertThat(dry.out())
                .contains(
                        "edge: 2 regions x 86,400 / 60 s = 2,880 target checks/day",
                        "expected target checks per day: 2,880 (1 probed monitor)",
                        "dry run: nothing published");
        assertThat(topic()).doesNotContainKey("edge");

        CliRun rollout = CliRun.vigil(
                "monitors",
                "apply",
                "-f",
                f.toString(),
                "--allow-region",
                "ap-south",
                "--bootstrap-servers",
                kafka.bootstrapServers());
        assertThat(rollout.exit()).as(rollout.err()).isZero();
        assertThat(topic().get("edge").regions()).containsExactly("us-east", "ap-south");

        // a cluster whose workers never reported: nothing is known, every probed monitor is refused
        String empty = "it.regions-empty";
        kafka.createTopics(List.of(new Topics.TopicSpec(empty, 1, true)));
        Path g = file(
                "fresh.yaml",
                """
                monitors:
                  - id: fresh
                    url: https://fresh.example.com/
                    regions: [us-east]
                """);
        CliRun fresh = CliRun.vigil(
                "monitors",
                "apply",
                "-f",
                g.toString(),
                "--regions-topic",
                empty,
                "--bootstrap-servers",
                kafka.bootstrapServers());
        assertThat(fresh.exit()).isEqualTo(2);
        assertThat(fresh.err()).contains("no probe worker has reported yet", "--allow-region us-east");
        assertThat(topic()).doesNotContainKey("fresh");
    }

    @Test
    void invalidFilePublishesNothingAndSaysWhy() throws Exception {
        Path bad = file(
                "bad.yaml",
                """
                monitors:
                  - id: ok-one
                    url: https://ok.example.com/
                    regions: [us-east]
                  - id: Bad_Id
                    url: https://bad.example.com/
                    regions: [us-east]
                """);
        CliRun run = CliRun.vigil(
                "monitors", "apply", "-f", bad.toString(), "--bootstrap-servers", kafka.bootstrapServers());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("nothing was published", "monitors[1]", "id: must be a slug");
        assertThat(topic()).doesNotContainKey("ok-one");
    }
}
