package dev.vigil.streams.silence;

import static dev.vigil.streams.Fixtures.W0;
import static dev.vigil.streams.Fixtures.failure;
import static dev.vigil.streams.Fixtures.success;
import static org.assertj.core.api.Assertions.assertThat;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.silence.Schedule;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.streams.config.AlertingConfig;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.deadletter.DeadLetterHandler;
import dev.vigil.streams.topology.AlertingTopology;
import dev.vigil.streams.topology.VigilTopology;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A weekly maintenance window in the whole topology (TopologyTestDriver, as AlertingTopologyTest builds it): alert
 * events whose evaluation falls inside an occurrence are emitted {@code silenced=true}, the others are not. The
 * outage is the one of AlertingTopologyTest's outageThatOutlivesItsSilencePagesOnce: twenty failing two-minute
 * windows from W0 (Friday 2027-01-15 08:00Z, 09:00 in Paris), then two good ones.
 */
class ScheduledSilenceTopologyTest {
    static final long MIN = 60_000L;
    static final long DAY = 24 * 60 * MIN;

    private Path stateDir;
    private TopologyTestDriver driver;
    private TestInputTopic<String, MonitorDefinition> monitors;
    private TestInputTopic<String, dev.vigil.schemas.contract.ProbeResult> results;
    private TestInputTopic<String, Silence> silences;
    private TestOutputTopic<String, AlertEvent> alerts;

    @BeforeEach
    void start() throws Exception {
        TopologyConfig config = TopologyConfig.defaults();
        AlertingConfig alerting = AlertingConfig.defaults();
        stateDir = Files.createTempDirectory("vigil-scheduled-silence-ttd");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "vigil-scheduled-silence-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
        props.put(DeadLetterHandler.TOPIC_CONFIG, config.topics().deadLetter());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Topology topology = VigilTopology.build(config, registry);
        AlertingTopology.addTo(topology, config, alerting, registry);
        // wall clock before the data, as AlertingTopologyTest's started() harness
        driver = new TopologyTestDriver(topology, props, Instant.ofEpochMilli(W0 - 30_000));
        monitors = driver.createInputTopic(
                config.topics().monitors(), new StringSerializer(), VigilSerdes.monitorDefinition());
        results = driver.createInputTopic(
                config.topics().probeResults(), new StringSerializer(), VigilSerdes.probeResult());
        silences = driver.createInputTopic(
                config.topics().silences(), new StringSerializer(), new JsonSerde<>(Silence.class));
        alerts = driver.createOutputTopic(config.topics().alerts(), new StringDeserializer(), VigilSerdes.alertEvent());
    }

    @AfterEach
    void stop() {
        driver.close();
        try (var files = Files.walk(stateDir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (java.io.IOException ignored) {
            // temp dir
        }
    }

    private static Silence weekly(Schedule schedule) {
        return new Silence(
                1,
                "maint",
                "monitor/api*",
                null,
                null,
                W0 - 7 * DAY,
                W0 + 30 * DAY,
                "ops",
                "weekly maintenance",
                W0 - 8 * DAY,
                null,
                schedule);
    }

    private List<String> outage() {
        monitors.pipeInput(
                "api",
                new MonitorDefinition(
                        1,
                        "api",
                        null,
                        "https://example.com/api",
                        null,
                        120,
                        2500,
                        List.of("eu-west"),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null));
        driver.advanceWallClockTime(Duration.ofMillis(10_000));
        String pattern = "F".repeat(20) + "OO";
        for (int i = 0; i < pattern.length(); i++) {
            long w = W0 + i * 2 * MIN;
            var r = pattern.charAt(i) == 'F' ? failure("api", "eu-west", w) : success("api", "eu-west", w);
            results.pipeInput(r.monitorId(), r, r.startedAt());
        }
        return alerts.readValuesToList().stream()
                .map(e -> e.state().wire() + ":" + e.severity().wire() + (e.silenced() ? ":silenced" : ""))
                .toList();
    }

    @Test
    void eventsInsideAnOccurrenceAreSilencedAndTheOutageThatOutlivesItPagesOnce() {
        // Fridays 09:00 Paris (08:00Z in January) for 21 minutes: the same span as the one-off silence of
        // outageThatOutlivesItsSilencePagesOnce, so the same events
        silences.pipeInput("maint", weekly(new Schedule(List.of("fri"), "09:00", 21, "Europe/Paris")));
        assertThat(outage())
                .containsExactly(
                        "opened:critical:silenced",
                        "reminder:critical:silenced",
                        "opened:critical",
                        "reminder:critical",
                        "resolved:critical");
    }

    @Test
    void eventsOutsideEveryOccurrenceAreNotSilenced() {
        // 09:00 UTC is 10:00 in Paris: the 08:00Z outage is an hour before the window, in the zone that counts
        silences.pipeInput("maint", weekly(new Schedule(List.of("fri"), "09:00", 60, "UTC")));
        assertThat(outage())
                .containsExactly("opened:critical", "reminder:critical", "reminder:critical", "resolved:critical");
    }

    @Test
    void aWindowOnAnotherDayDoesNotSilence() {
        silences.pipeInput("maint", weekly(new Schedule(List.of("mon", "thu", "sat"), "09:00", 60, "Europe/Paris")));
        assertThat(outage())
                .containsExactly("opened:critical", "reminder:critical", "reminder:critical", "resolved:critical");
    }
}
