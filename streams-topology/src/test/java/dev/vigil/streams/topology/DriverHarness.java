package dev.vigil.streams.topology;

import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.streams.config.TopologyConfig;
import dev.vigil.streams.deadletter.DeadLetterHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/** A TopologyTestDriver over {@link VigilTopology} with typed topics; wall clock starts at {@code start}. */
public final class DriverHarness implements AutoCloseable {
    public final TopologyConfig config;
    public final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    public final TopologyTestDriver driver;
    public final TestInputTopic<String, MonitorDefinition> monitors;
    public final TestInputTopic<String, ProbeResult> results;
    public final TestInputTopic<String, WorkerHeartbeat> heartbeats;
    public final TestInputTopic<String, byte[]> rawResults;
    public final TestOutputTopic<String, MonitorStatus> status;
    public final TestOutputTopic<String, DeadLetter> deadLetters;
    private final Path stateDir;
    private long wallClock;

    public DriverHarness(long startWallClockMs) {
        this(TopologyConfig.defaults(), startWallClockMs);
    }

    public DriverHarness(TopologyConfig config, long startWallClockMs) {
        this.config = config;
        this.wallClock = startWallClockMs;
        try {
            stateDir = Files.createTempDirectory("vigil-ttd");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "vigil-streams-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
        props.put(DeadLetterHandler.TOPIC_CONFIG, config.topics().deadLetter());
        props.put(DeadLetterHandler.REGISTRY_CONFIG, registry);
        driver = new TopologyTestDriver(
                VigilTopology.build(config, registry), props, Instant.ofEpochMilli(startWallClockMs));
        var t = config.topics();
        monitors = driver.createInputTopic(t.monitors(), new StringSerializer(), VigilSerdes.monitorDefinition());
        results = driver.createInputTopic(t.probeResults(), new StringSerializer(), VigilSerdes.probeResult());
        heartbeats = driver.createInputTopic(t.heartbeats(), new StringSerializer(), VigilSerdes.workerHeartbeat());
        rawResults = driver.createInputTopic(t.probeResults(), new StringSerializer(), new ByteArraySerializer());
        status = driver.createOutputTopic(t.monitorStatus(), new StringDeserializer(), VigilSerdes.monitorStatus());
        deadLetters = driver.createOutputTopic(t.deadLetter(), new StringDeserializer(), VigilSerdes.deadLetter());
    }

    public void define(MonitorDefinition def) {
        monitors.pipeInput(def.id(), def);
    }

    public void result(ProbeResult r) {
        results.pipeInput(r.monitorId(), r, r.startedAt());
    }

    /** Advances the driver's wall clock to {@code epochMs}, firing wall-clock punctuators on the way. */
    public void wallClockTo(long epochMs) {
        if (epochMs > wallClock) {
            driver.advanceWallClockTime(Duration.ofMillis(epochMs - wallClock));
            wallClock = epochMs;
        }
    }

    public double counter(String name) {
        var c = registry.find(name).counters();
        return c.stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count)
                .sum();
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

    public long wallClock() {
        return wallClock;
    }
}
