package dev.vigil.kit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class ConfigLoaderTest {
    record Topics(String alerts, String metrics) {
        Topics {
            Problems p = new Problems();
            alerts = p.topic("alerts", alerts, "vigil.alerts");
            metrics = p.topic("metrics", metrics, "vigil.metrics");
            p.throwIfAny();
        }
    }

    record Kafka(String bootstrapServers, Integer partitions, Duration sendTimeout, Topics topics) {
        Kafka {
            Problems p = new Problems();
            p.check(partitions != null && partitions >= 1, "partitions", "must be at least 1");
            sendTimeout = p.duration(
                    "sendTimeout", sendTimeout, Duration.ofSeconds(5), Duration.ofMillis(200), Duration.ofMinutes(2));
            topics = topics == null ? new Topics(null, null) : topics;
            p.throwIfAny();
        }

        Kafka(String bootstrapServers, Integer partitions) {
            this(bootstrapServers, partitions, null, null);
        }
    }

    record Http(String host, Integer port) {
        Http {
            Problems p = new Problems();
            host = p.text("host", host, "0.0.0.0", 255);
            port = p.range("port", port, 8080, 0, 65535);
            p.throwIfAny();
        }
    }

    record Service(String region, List<String> regions, Kafka kafka, Http http, Duration drainTimeout) {
        Service {
            Problems p = new Problems();
            p.check(region != null && !region.isBlank(), "region", "is required");
            http = http == null ? new Http(null, null) : http;
            drainTimeout = p.duration(
                    "drainTimeout", drainTimeout, Duration.ofSeconds(30), Duration.ZERO, Duration.ofMinutes(10));
            if (regions != null && region != null && !regions.isEmpty() && !regions.contains(region)) {
                p.add("region", "must be one of the configured regions");
            }
            p.throwIfAny();
        }

        Service(String region, List<String> regions, Kafka kafka) {
            this(region, regions, kafka, null, null);
        }
    }

    static final Service DEFAULTS =
            new Service("us-east", List.of("us-east", "eu-west", "asia-east"), new Kafka("localhost:9092", 6));
    static final ConfigSpec<Service> SPEC = ConfigSpec.of(
            Service.class,
            () -> DEFAULTS,
            DeprecatedKey.renamed("port", "http.port"),
            DeprecatedKey.renamed("kafka.alertsTopic", "kafka.topics.alerts"),
            DeprecatedKey.millis("kafka.sendTimeoutMs", "kafka.sendTimeout"),
            DeprecatedKey.seconds("drainTimeoutSeconds", "drainTimeout"));

    @TempDir
    Path dir;

    private Path file(String yaml) throws Exception {
        return Files.writeString(dir.resolve("vigil-test.yaml"), yaml);
    }

    private List<String> problems(String yaml, Map<String, String> env) throws Exception {
        Path file = file(yaml);
        try {
            ConfigLoader.load(SPEC, file, env);
        } catch (ConfigLoader.ConfigException e) {
            return e.problems();
        }
        throw new AssertionError("expected a configuration error");
    }

    @Test
    void defaultsThenFileThenEnvironment() throws Exception {
        Path file = dir.resolve("vigil-test.yaml");
        Files.writeString(file, "region: eu-west\nkafka:\n  partitions: 12\n");
        Service s = ConfigLoader.load(
                SPEC,
                file,
                Map.of(
                        "VIGIL_KAFKA_BOOTSTRAP_SERVERS",
                        "broker:29092",
                        "VIGIL_REGIONS",
                        "eu-west, us-east",
                        "VIGIL_SOMETHING_ELSE",
                        "ignored",
                        "PATH",
                        "/bin"));
        assertThat(s.region()).isEqualTo("eu-west");
        assertThat(s.kafka().partitions()).isEqualTo(12);
        assertThat(s.kafka().bootstrapServers()).isEqualTo("broker:29092");
        assertThat(s.regions()).containsExactly("eu-west", "us-east");
    }

    @Test
    void environmentWinsOverFile() throws Exception {
        Path file = dir.resolve("vigil-test.yaml");
        Files.writeString(file, "region: eu-west\n");
        Service s = ConfigLoader.load(SPEC, file, Map.of("VIGIL_REGION", "asia-east"));
        assertThat(s.region()).isEqualTo("asia-east");
    }

    @Test
    void invalidValueNamesTheFileAndKey() throws Exception {
        Path file = dir.resolve("vigil-test.yaml");
        Files.writeString(file, "kafka:\n  partitions: 0\n");
        assertThatThrownBy(() -> ConfigLoader.load(SPEC, file, Map.of()))
                .isInstanceOf(ConfigLoader.ConfigException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("kafka.partitions: must be at least 1");
    }

    @Test
    void wrongTypeNamesTheKey() throws Exception {
        Path file = dir.resolve("vigil-test.yaml");
        Files.writeString(file, "kafka:\n  partitions: many\n");
        assertThatThrownBy(() -> ConfigLoader.load(SPEC, file, Map.of())).hasMessageContaining("kafka.partitions");
    }

    @Test
    void yamlSyntaxErrorNamesTheLine() throws Exception {
        Path file = dir.resolve("vigil-test.yaml");
        Files.writeString(file, "region: eu-west\nkafka: [unclosed\n");
        assertThatThrownBy(() -> ConfigLoader.load(SPEC, file, Map.of()))
                .hasMessageContaining("not valid YAML")
                .hasMessageContaining("line");
    }

    @Test
    void missingFileIsAClearError() {
        Path file = dir.resolve("absent.yaml");
        assertThatThrownBy(() -> ConfigLoader.load(SPEC, file, Map.of()))
                .hasMessageContaining("absent.yaml: configuration file not found");
    }

    @Test
    void envFormSplitsCamelCaseAndDashes() {
        assertThat(ConfigLoader.envForm("bootstrapServers")).isEqualTo("BOOTSTRAP_SERVERS");
        assertThat(ConfigLoader.envForm("dead-letter")).isEqualTo("DEAD_LETTER");
        assertThat(ConfigLoader.envForm("region")).isEqualTo("REGION");
        assertThat(ConfigLoader.envForm("p99Ms")).isEqualTo("P99_MS");
        assertThat(ConfigLoader.envName("kafka.topics.alerts")).isEqualTo("VIGIL_KAFKA_TOPICS_ALERTS");
    }

    @Test
    void everyProblemOfTheFileIsReportedAtOnceWithItsKeyPath() throws Exception {
        String f = dir.resolve("vigil-test.yaml").toString();
        assertThat(problems(
                        """
                region: mars
                http:
                  port: 70000
                kafka:
                  partitions: 0
                  sendTimeout: soon
                  topics:
                    alerts: "not a topic"
                drainTimeout: 1h
                """,
                        Map.of()))
                .containsExactlyInAnyOrder(
                        f + ": kafka.partitions: must be at least 1",
                        f + ": kafka.sendTimeout: " + DurationText.EXPECTED,
                        f
                                + ": kafka.topics.alerts: must be a Kafka topic name ([A-Za-z0-9._-], at most 249 characters)",
                        f + ": http.port: must be between 0 and 65535",
                        f + ": region: must be one of the configured regions",
                        f + ": drainTimeout: must be between 0s and 10m");
    }

    @Test
    void problemsOfOneRecordAreAllReported() throws Exception {
        assertThat(problems("http:\n  host: \"\"\n  port: -1\n", Map.of()))
                .hasSize(2)
                .anySatisfy(p -> assertThat(p).endsWith("http.host: must not be blank"))
                .anySatisfy(p -> assertThat(p).endsWith("http.port: must be between 0 and 65535"));
    }

    @Test
    void aDeprecatedKeyGivesTheSameConfigurationAndOneWarningNamingBothKeys() throws Exception {
        Service current = ConfigLoader.load(
                SPEC, file("http:\n  port: 9000\nkafka:\n  topics:\n    alerts: acme.alerts\n"), Map.of());
        ConfigLoader.Result<Service> old =
                ConfigLoader.read(SPEC, file("port: 9000\nkafka:\n  alertsTopic: acme.alerts\n"), Map.of());
        assertThat(old.config()).isEqualTo(current);
        String f = dir.resolve("vigil-test.yaml").toString();
        assertThat(old.warnings())
                .containsExactly(
                        f + ": port is deprecated, use http.port",
                        f + ": kafka.alertsTopic is deprecated, use kafka.topics.alerts");
        assertThat(String.join("\n", old.warnings())).doesNotContain("9000").doesNotContain("acme.alerts");
    }

    @Test
    void anOldNumberOfMillisecondsOrSecondsBecomesDurationText() throws Exception {
        var r = ConfigLoader.read(SPEC, file("kafka:\n  sendTimeoutMs: 1500\ndrainTimeoutSeconds: 45\n"), Map.of());
        assertThat(r.config().kafka().sendTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(r.config().drainTimeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(r.warnings()).hasSize(2).allSatisfy(w -> assertThat(w).contains("with the unit in the value"));
        assertThat(r.config())
                .isEqualTo(
                        ConfigLoader.load(SPEC, file("kafka:\n  sendTimeout: 1500ms\ndrainTimeout: 45s\n"), Map.of()));
    }

    @Test
    void whenTheOldAndTheNewKeyAreBothWrittenTheNewOneWins() throws Exception {
        var r = ConfigLoader.read(SPEC, file("port: 1\nhttp:\n  port: 2\n"), Map.of());
        assertThat(r.config().http().port()).isEqualTo(2);
        assertThat(r.warnings())
                .singleElement()
                .asString()
                .endsWith("port is deprecated and ignored: http.port is set too");
    }

    @Test
    void aProblemOfADeprecatedKeysValueNamesBothKeys() throws Exception {
        assertThat(problems("kafka:\n  sendTimeoutMs: 10\n", Map.of()))
                .singleElement()
                .asString()
                .endsWith(": kafka.sendTimeout (set by deprecated kafka.sendTimeoutMs): must be between 200ms and 2m");
        assertThat(problems("port: 70000\n", Map.of("VIGIL_KAFKA_SEND_TIMEOUT_MS", "-1")))
                .containsExactly(
                        dir.resolve("vigil-test.yaml")
                                + ": kafka.sendTimeout (set by deprecated VIGIL_KAFKA_SEND_TIMEOUT_MS): "
                                + DurationText.EXPECTED,
                        dir.resolve("vigil-test.yaml")
                                + ": http.port (set by deprecated port): must be between 0 and 65535");
    }

    @Test
    void newStyleKeysAreOverriddenByTheirVariables() {
        Service s = ConfigLoader.load(
                SPEC,
                null,
                Map.of(
                        "VIGIL_HTTP_PORT",
                        "9090",
                        "VIGIL_KAFKA_SEND_TIMEOUT",
                        "750ms",
                        "VIGIL_KAFKA_TOPICS_ALERTS",
                        "env.alerts",
                        "VIGIL_DRAIN_TIMEOUT",
                        "2m"));
        assertThat(s.http().port()).isEqualTo(9090);
        assertThat(s.kafka().sendTimeout()).isEqualTo(Duration.ofMillis(750));
        assertThat(s.kafka().topics().alerts()).isEqualTo("env.alerts");
        assertThat(s.drainTimeout()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void aDeprecatedVariableStillWorksAndWarnsAndTheNewVariableWins() {
        var r = ConfigLoader.read(SPEC, null, Map.of("VIGIL_PORT", "9191", "VIGIL_KAFKA_SEND_TIMEOUT_MS", "900"));
        assertThat(r.config().http().port()).isEqualTo(9191);
        assertThat(r.config().kafka().sendTimeout()).isEqualTo(Duration.ofMillis(900));
        assertThat(r.warnings())
                .containsExactlyInAnyOrder(
                        "VIGIL_PORT is deprecated, use VIGIL_HTTP_PORT (http.port)",
                        "VIGIL_KAFKA_SEND_TIMEOUT_MS is deprecated, use VIGIL_KAFKA_SEND_TIMEOUT (kafka.sendTimeout)"
                                + " with the unit in the value, e.g. 30s, 5m or 1500ms");
        var both = ConfigLoader.read(SPEC, null, Map.of("VIGIL_PORT", "1", "VIGIL_HTTP_PORT", "2"));
        assertThat(both.config().http().port()).isEqualTo(2);
        assertThat(both.warnings()).containsExactly("VIGIL_PORT is deprecated and ignored: VIGIL_HTTP_PORT is set too");
    }

    @Test
    void durationTextErrorsNameTheKeyPath() throws Exception {
        String f = dir.resolve("vigil-test.yaml").toString();
        assertThat(problems("kafka:\n  sendTimeout: 5000\n", Map.of()))
                .containsExactly(f + ": kafka.sendTimeout: " + DurationText.EXPECTED);
        assertThat(problems("drainTimeout: 3 minutes\n", Map.of()))
                .containsExactly(f + ": drainTimeout: " + DurationText.EXPECTED);
        assertThat(problems("drainTimeout: PT-5S\n", Map.of()))
                .containsExactly(f + ": drainTimeout: must not be negative");
        assertThatThrownBy(() -> ConfigLoader.load(SPEC, null, Map.of("VIGIL_KAFKA_SEND_TIMEOUT", "fast")))
                .hasMessageContaining("configuration: kafka.sendTimeout: " + DurationText.EXPECTED);
    }

    @Test
    void theLoaderLogsOneWarningPerDeprecatedKey() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(ConfigLoader.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            ConfigLoader.load(SPEC, file("port: 9000\nkafka:\n  sendTimeoutMs: 1000\n"), Map.of());
        } finally {
            logger.detachAppender(appender);
        }
        assertThat(appender.list)
                .hasSize(2)
                .allSatisfy(e -> assertThat(e.getLevel().toString()).isEqualTo("WARN"));
        assertThat(appender.list)
                .extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly(
                        dir.resolve("vigil-test.yaml") + ": port is deprecated, use http.port",
                        dir.resolve("vigil-test.yaml") + ": kafka.sendTimeoutMs is deprecated, use kafka.sendTimeout"
                                + " with the unit in the value, e.g. 30s, 5m or 1500ms");
    }

    @Test
    void theWarningsAreLoggedAlsoWhenTheConfigurationIsRefused() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(ConfigLoader.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            assertThatThrownBy(() -> ConfigLoader.load(SPEC, file("port: 70000\n"), Map.of()))
                    .hasMessageContaining("http.port (set by deprecated port): must be between 0 and 65535");
        } finally {
            logger.detachAppender(appender);
        }
        assertThat(appender.list)
                .extracting(ILoggingEvent::getFormattedMessage)
                .containsExactly(dir.resolve("vigil-test.yaml") + ": port is deprecated, use http.port");
    }

    @Test
    void bindReportsEveryEntryOfAList() throws Exception {
        var tree = ConfigLoader.readYaml(
                        file("pages:\n- {host: a, port: 1}\n- {host: \"\", port: 2}\n- {host: c, port: 99999}\n"))
                .path("pages");
        assertThatThrownBy(() -> ConfigLoader.bind(tree, Http[].class, "pages.yaml"))
                .isInstanceOfSatisfying(ConfigLoader.ConfigException.class, e -> assertThat(e.problems())
                        .containsExactly(
                                "pages.yaml: [1].host: must not be blank",
                                "pages.yaml: [2].port: must be between 0 and 65535"));
        assertThat(ConfigLoader.bind(
                        ConfigLoader.readYaml(file("pages:\n- {host: a, port: 1}\n"))
                                .path("pages"),
                        Http[].class,
                        "x"))
                .containsExactly(new Http("a", 1));
    }

    @Test
    void aRecordBuiltByHandListsItsProblems() {
        assertThatThrownBy(() -> new Http(" ", 70000))
                .isInstanceOfSatisfying(InvalidConfig.class, e -> assertThat(e.problems())
                        .extracting(Problems.Problem::key)
                        .containsExactly("host", "port"))
                .hasMessage("host: must not be blank; port: must be between 0 and 65535");
    }
}
