package dev.vigil.streams.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.vigil.kit.config.ConfigLoader.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StreamsServiceConfigTest {
    @TempDir
    Path dir;

    @Test
    void defaultsMatchTheSpec() {
        var cfg = StreamsServiceConfig.load(null, Map.of());
        assertThat(cfg.http().port()).isEqualTo(8081);
        assertThat(cfg.kafka().applicationId()).isEqualTo("vigil-streams");
        assertThat(cfg.verdict().grace()).isEqualTo(Duration.ofMillis(5000L));
        assertThat(cfg.verdict().historyRetention()).isEqualTo(Duration.ofDays(90));
        assertThat(cfg.workers().healthy()).isEqualTo(Duration.ofSeconds(30));
        assertThat(cfg.workers().warn()).isEqualTo(Duration.ofSeconds(60));
        assertThat(cfg.workers().stale()).isEqualTo(Duration.ofSeconds(300));
        assertThat(cfg.topics().probeResults()).isEqualTo("vigil.probe-results");
    }

    @Test
    void theShippedExampleFileLoads() {
        var cfg = StreamsServiceConfig.load(Path.of("vigil-streams.yaml"), Map.of());
        assertThat(cfg).isEqualTo(StreamsServiceConfig.defaults());
    }

    @Test
    void yamlThenEnvironmentOverrides() throws Exception {
        Path file = dir.resolve("vigil-streams.yaml");
        Files.writeString(
                file,
                """
                kafka:
                  bootstrapServers: broker:9092
                verdict:
                  grace: 2s
                workers:
                  stale: 2m
                """);
        var cfg = StreamsServiceConfig.load(
                file,
                Map.of(
                        "VIGIL_HTTP_PORT",
                        "9999",
                        "VIGIL_VERDICT_GRACE",
                        "3s",
                        "VIGIL_KAFKA_APPLICATION_ID",
                        "vigil-eu"));
        assertThat(cfg.kafka().bootstrapServers()).isEqualTo("broker:9092");
        assertThat(cfg.kafka().applicationId()).isEqualTo("vigil-eu");
        assertThat(cfg.http().port()).isEqualTo(9999);
        assertThat(cfg.verdict().grace()).isEqualTo(Duration.ofMillis(3000L));
        assertThat(cfg.workers().stale()).isEqualTo(Duration.ofSeconds(120));
        assertThat(cfg.topology().verdict().grace()).isEqualTo(Duration.ofMillis(3000L));
    }

    @Test
    void selfWatchSettingsReadAndTheSignalsTopicIsTheApplications() throws Exception {
        Path file = dir.resolve("vigil-streams.yaml");
        Files.writeString(
                file,
                """
                kafka:
                  applicationId: vigil-eu
                  topics:
                    regions: eu.regions
                selfWatch:
                  skippedShare: 0.05
                  deadLetterQuiet: 5m
                """);
        var cfg = StreamsServiceConfig.load(file, Map.of("VIGIL_SELF_WATCH_SKIPPED_MINIMUM", "9"));
        var s = cfg.topology().selfWatch();
        assertThat(s.skippedShare()).isEqualTo(0.05);
        assertThat(s.skippedMinimum()).isEqualTo(9);
        assertThat(s.deadLetterQuiet()).isEqualTo(Duration.ofMinutes(5));
        assertThat(s.skippedOver()).isEqualTo(Duration.ofMinutes(1));
        assertThat(s.silentRegionAfter()).isEqualTo(Duration.ofSeconds(20));
        assertThat(s.signalsTopic()).isEqualTo("vigil-eu-selfwatch-signals");
        assertThat(cfg.topology().topics().regions()).isEqualTo("eu.regions");
        assertThat(StreamsServiceConfig.defaults().topology().topics().regions())
                .isEqualTo("vigil.regions");
    }

    @Test
    void aStaticGroupMemberIdComesFromTheEnvironmentAndIsValidated() {
        assertThat(StreamsServiceConfig.load(null, Map.of()).kafka().groupInstanceId())
                .isEmpty();
        assertThat(StreamsServiceConfig.load(null, Map.of("VIGIL_KAFKA_GROUP_INSTANCE_ID", "streams-0"))
                        .kafka()
                        .groupInstanceId())
                .isEqualTo("streams-0");
        assertThatThrownBy(() -> StreamsServiceConfig.load(null, Map.of("VIGIL_KAFKA_GROUP_INSTANCE_ID", "pod 0/x")))
                .hasMessageContaining("kafka.groupInstanceId");
    }

    @Test
    void invalidValuesNameTheirKey() throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "workers:\n  warn: 10s\n");
        assertThatThrownBy(() -> StreamsServiceConfig.load(file, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("workers.warn");
        assertThatThrownBy(() -> StreamsServiceConfig.load(null, Map.of("VIGIL_HTTP_PORT", "70000")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("http.port");
        assertThatThrownBy(() -> StreamsServiceConfig.load(null, Map.of("VIGIL_VERDICT_HISTORY_RETENTION", "0d")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("verdict.historyRetention");
    }

    @Test
    void theKeysOfThePreviousShapeStillWorkAndEachWarnsOnce() throws Exception {
        Path current = dir.resolve("current.yaml");
        Files.writeString(
                current,
                """
                kafka:
                  commitInterval: 250ms
                  topics: {monitors: t1.monitors, deadLetter: t1.dead, alerts: t1.alerts, metrics: t1.metrics}
                verdict: {grace: 2s, historyRetention: 30d, punctuationInterval: 500ms}
                workers: {healthy: 20s, warn: 40s, stale: 2m, punctuationInterval: 2s}
                alerting: {debounce: 30m, metricRetention: 10d, metricGrace: 1s, idleClose: 1m, punctuationInterval: 2s}
                silences: {keepExpired: 3d}
                """);
        Path old = dir.resolve("old.yaml");
        Files.writeString(
                old,
                """
                kafka:
                  commitIntervalMs: 250
                topics: {monitors: t1.monitors, deadLetter: t1.dead}
                verdict: {graceMs: 2000, historyRetentionDays: 30, punctuationIntervalMs: 500}
                workers: {healthySeconds: 20, warnSeconds: 40, staleSeconds: 120, punctuationIntervalMs: 2000}
                alerting: {alertsTopic: t1.alerts, metricsTopic: t1.metrics, debounceMinutes: 30, metricRetentionDays: 10,
                           metricGraceMs: 1000, idleCloseMs: 60000, punctuationIntervalMs: 2000}
                silences: {keepExpiredDays: 3}
                """);
        var expected = StreamsServiceConfig.load(current, Map.of());
        var r = dev.vigil.kit.config.ConfigLoader.read(StreamsServiceConfig.SPEC, old, Map.of());
        assertThat(r.config()).isEqualTo(expected);
        assertThat(r.warnings())
                .hasSize(18)
                .contains(
                        old + ": topics.monitors is deprecated, use kafka.topics.monitors",
                        old + ": alerting.alertsTopic is deprecated, use kafka.topics.alerts",
                        old
                                + ": workers.staleSeconds is deprecated, use workers.stale with the unit in the value, e.g. 30s, 5m"
                                + " or 1500ms");
        var fromEnv = dev.vigil.kit.config.ConfigLoader.read(
                StreamsServiceConfig.SPEC,
                null,
                Map.of("VIGIL_VERDICT_GRACE_MS", "3000", "VIGIL_ALERTING_DEBOUNCE_MINUTES", "5"));
        assertThat(fromEnv.config().verdict().grace()).isEqualTo(Duration.ofSeconds(3));
        assertThat(fromEnv.config().alerting().debounce()).isEqualTo(Duration.ofMinutes(5));
        assertThat(fromEnv.warnings())
                .containsExactlyInAnyOrder(
                        "VIGIL_VERDICT_GRACE_MS is deprecated, use VIGIL_VERDICT_GRACE (verdict.grace) with the unit in the value,"
                                + " e.g. 30s, 5m or 1500ms",
                        "VIGIL_ALERTING_DEBOUNCE_MINUTES is deprecated, use VIGIL_ALERTING_DEBOUNCE (alerting.debounce) with the"
                                + " unit in the value, e.g. 30s, 5m or 1500ms");
    }

    @Test
    void everyBadValueIsReportedAtOnce() throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(
                file,
                """
                kafka: {numStreamThreads: 0, topics: {alerts: "no such topic!"}}
                http: {port: 70000}
                verdict: {grace: soon, historyRetention: 36h}
                workers: {warn: 10s}
                alerting: {debounce: 0s}
                """);
        assertThatThrownBy(() -> StreamsServiceConfig.load(file, Map.of()))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
                        .containsExactlyInAnyOrder(
                                file
                                        + ": kafka.topics.alerts: must be a Kafka topic name ([A-Za-z0-9._-], at most 249 characters)",
                                file + ": kafka.numStreamThreads: must be between 1 and 64",
                                file + ": http.port: must be between 0 and 65535",
                                file + ": verdict.grace: must be a duration such as 500ms, 10s, 5m, 1h or PT1H",
                                file + ": verdict.historyRetention: must be whole days (e.g. 90d)",
                                file + ": workers.warn: must be greater than workers.healthy",
                                file + ": alerting.debounce: must be between 1m and 1d"));
    }

    @Test
    void theNewKeysAreOverriddenByTheirVariables() {
        var cfg = StreamsServiceConfig.load(
                null,
                Map.of(
                        "VIGIL_KAFKA_TOPICS_ALERTS",
                        "env.alerts",
                        "VIGIL_KAFKA_TOPICS_MONITORS",
                        "env.monitors",
                        "VIGIL_KAFKA_COMMIT_INTERVAL",
                        "1s",
                        "VIGIL_WORKERS_STALE",
                        "10m",
                        "VIGIL_SILENCES_KEEP_EXPIRED",
                        "14d"));
        assertThat(cfg.topics().alerts()).isEqualTo("env.alerts");
        assertThat(cfg.topology().topics().monitors()).isEqualTo("env.monitors");
        assertThat(cfg.kafka().commitInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(cfg.workers().stale()).isEqualTo(Duration.ofMinutes(10));
        assertThat(cfg.silences().keepExpired()).isEqualTo(Duration.ofDays(14));
    }
}
