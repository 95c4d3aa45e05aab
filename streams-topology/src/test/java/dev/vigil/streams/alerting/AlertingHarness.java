package dev.vigil.streams.alerting;

import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertRule;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
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
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;

/** A TopologyTestDriver over the whole topology (topology I plus {@link AlertingTopology}); wall clock from {@code start}. */
final class AlertingHarness implements AutoCloseable {
    final TopologyConfig config = TopologyConfig.defaults();
    final AlertingConfig alerting;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final TopologyTestDriver driver;
    final TestInputTopic<String, MonitorDefinition> monitors;
    final TestInputTopic<String, ProbeResult> results;
    final TestInputTopic<String, WorkerHeartbeat> heartbeats;
    final TestInputTopic<String, DomainMetric> metrics;
    final TestInputTopic<String, AlertRule> rules;
    final TestInputTopic<String, Silence> silences;
    final TestInputTopic<String, Ack> acks;
    final TestInputTopic<String, dev.vigil.schemas.contract.EscalationStatus> escalations;
    final TestOutputTopic<String, AlertEvent> alerts;
    final TestOutputTopic<String, DeadLetter> deadLetters;
    private final Path stateDir;
    private long wallClock;

    AlertingHarness(long startWallClockMs) {
        this(AlertingConfig.defaults(), startWallClockMs);
    }

    AlertingHarness(AlertingConfig alerting, long startWallClockMs) {
        this.alerting = alerting;
        this.wallClock = startWallClockMs;
        try {
            stateDir = Files.createTempDirectory("vigil-alerting-ttd");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "vigil-alerting-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
        props.put(DeadLetterHandler.TOPIC_CONFIG, config.topics().deadLetter());
        Topology topology = VigilTopology.build(config, registry);
        AlertingTopology.addTo(topology, config, alerting, registry);
        driver = new TopologyTestDriver(topology, props, Instant.ofEpochMilli(startWallClockMs));
        var t = config.topics();
        monitors = driver.createInputTopic(t.monitors(), new StringSerializer(), VigilSerdes.monitorDefinition());
        results = driver.createInputTopic(t.probeResults(), new StringSerializer(), VigilSerdes.probeResult());
        heartbeats = driver.createInputTopic(t.heartbeats(), new StringSerializer(), VigilSerdes.workerHeartbeat());
        metrics =
                driver.createInputTopic(config.topics().metrics(), new StringSerializer(), VigilSerdes.domainMetric());
        rules = driver.createInputTopic(config.topics().alertRules(), new StringSerializer(), VigilSerdes.alertRule());
        silences = driver.createInputTopic(
                config.topics().silences(), new StringSerializer(), new JsonSerde<>(Silence.class));
        acks = driver.createInputTopic(t.acks(), new StringSerializer(), new JsonSerde<>(Ack.class));
        escalations = driver.createInputTopic(
                t.escalations(),
                new StringSerializer(),
                new JsonSerde<>(dev.vigil.schemas.contract.EscalationStatus.class));
        alerts = driver.createOutputTopic(config.topics().alerts(), new StringDeserializer(), VigilSerdes.alertEvent());
        deadLetters = driver.createOutputTopic(t.deadLetter(), new StringDeserializer(), VigilSerdes.deadLetter());
    }

    /** A reader of the alerts topic as raw bytes (byte-identical replay checks); do not mix with {@link #alerts}. */
    TestOutputTopic<String, byte[]> rawAlerts() {
        return driver.createOutputTopic(
                config.topics().alerts(), new StringDeserializer(), new ByteArrayDeserializer());
    }

    void define(MonitorDefinition def) {
        monitors.pipeInput(def.id(), def);
    }

    void result(ProbeResult r) {
        results.pipeInput(r.monitorId(), r, r.startedAt());
    }

    void metric(DomainMetric m) {
        metrics.pipeInput(m.key(), m, m.timestamp());
    }

    void wallClockTo(long epochMs) {
        if (epochMs > wallClock) {
            driver.advanceWallClockTime(Duration.ofMillis(epochMs - wallClock));
            wallClock = epochMs;
        }
    }

    long wallClock() {
        return wallClock;
    }

    @Override
    public void close() {
        driver.close();
        try (var files = Files.walk(stateDir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (java.io.IOException ignored) {
            // temp dir
        }
    }
}
