package dev.vigil.streams.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.vigil.embedded.junit.WithKafka;
import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.schemas.topic.Topics.TopicSpec;
import dev.vigil.streams.Fixtures;
import dev.vigil.streams.app.StreamsApp;
import dev.vigil.streams.config.StreamsServiceConfig;
import dev.vigil.streams.config.StreamsServiceConfig.KafkaSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A persistent window store that has never been written (no metric was ever posted: {@code metric-windows} of every
 * metric task) has no RocksDB segment, and since Kafka Streams 4.3 (KIP-1035) a segmented store keeps its changelog
 * offset inside its segments: with none, it never has a committed offset, while its (empty) store directory makes
 * the task directory "not empty". Under exactly-once every later initialisation of such a task (a clean restart, a
 * standby promoted to active, an active task turned standby) then logs "did not find checkpoint offsets while stores
 * are not empty", throws {@code TaskCorruptedException} and wipes the task, with every other store in it. This is what
 * the cluster drill's surviving instance did on the metric tasks it took over, 164 times. A persistent key-value store
 * keeps an "unknown offset" marker of its own and is not affected.
 *
 * <p>Vigil enables transactional state stores, under which a store without a committed offset is restored from the
 * start of its changelog instead ({@code StreamsApp.streamsProperties}); these tests count the warning, through a
 * Logback appender on Kafka Streams' state manager, in the scenarios that raised it. They reproduce the spurious
 * corruption (twice per affected task and scenario without the setting), not the endless repetition the drill saw:
 * here each wiped task came back on the next attempt.
 */
@WithKafka
class EmptyChangelogStoreIT {
    static final String CORRUPTION = "did not find checkpoint offsets while stores are not empty";
    static final int MONITORS = 12;

    EmbeddedKafka kafka;

    @TempDir
    Path dirA;

    @TempDir
    Path dirB;

    /** Every corruption warning logged in this JVM during the test: thread, then message. */
    final List<String> warnings = new CopyOnWriteArrayList<>();

    final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent e) {
            if (e.getFormattedMessage().contains(CORRUPTION)) {
                warnings.add(e.getThreadName() + " " + e.getFormattedMessage());
            }
        }
    };

    private static Logger stateManagerLog() {
        return (Logger) LoggerFactory.getLogger("org.apache.kafka.streams.processor.internals.ProcessorStateManager");
    }

    @BeforeEach
    void listen() {
        appender.start();
        stateManagerLog().addAppender(appender);
    }

    @AfterEach
    void stopListening() {
        stateManagerLog().detachAppender(appender);
    }

    /** "task store" of each warning, e.g. {@code 5_0 metric-windows}, with how often it was logged. */
    private Map<String, Long> byTaskAndStore() {
        return warnings.stream()
                .collect(Collectors.groupingBy(
                        w -> w.replaceAll(".*local state of task (\\S+).*", "$1") + " "
                                + w.replaceAll(".*State store (\\S+) did not.*", "$1"),
                        java.util.TreeMap::new,
                        Collectors.counting()));
    }

    // ------------------------------------------------------------------ the Kafka Streams behaviour, alone

    static final class Writer implements Processor<String, String, Void, Void> {
        private final AtomicInteger processed;
        private KeyValueStore<String, String> written;

        Writer(AtomicInteger processed) {
            this.processed = processed;
        }

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            written = context.getStateStore("written");
        }

        @Override
        public void process(Record<String, String> record) {
            written.put(record.key(), record.value());
            processed.incrementAndGet();
        }
    }

    /**
     * The cause without Vigil: under exactly-once (transactional state stores off, the Kafka default) a clean restart
     * reports a task corrupted because of a persistent window store never written, never because of a persistent
     * key-value store never written. If a Kafka Streams upgrade stops logging it, the workaround may no longer be
     * needed.
     */
    @Test
    void withoutTransactionalStoresACleanRestartFindsANeverWrittenWindowStoreCorrupted() {
        String topic = "never-written-in";
        kafka.createTopics(new TopicSpec(topic, 1, false));
        AtomicInteger processed = new AtomicInteger();
        Topology topology = new Topology();
        topology.addSource("in", Serdes.String().deserializer(), Serdes.String().deserializer(), topic);
        topology.addProcessor("writer", () -> new Writer(processed), "in");
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore("written"), Serdes.String(), Serdes.String()),
                "writer");
        topology.addStateStore(
                Stores.keyValueStoreBuilder(
                        Stores.persistentKeyValueStore("never-kv"), Serdes.String(), Serdes.String()),
                "writer");
        topology.addStateStore(
                Stores.windowStoreBuilder(
                                Stores.persistentWindowStore(
                                        "never-windows", Duration.ofDays(1), Duration.ofMinutes(1), false),
                                Serdes.String(),
                                Serdes.String())
                        .withCachingEnabled(),
                "writer");
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "never-written");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, dirA.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);

        for (int run = 1; run <= 2; run++) {
            try (KafkaStreams streams = new KafkaStreams(topology, p)) {
                streams.start();
                await().atMost(Duration.ofSeconds(60)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
                int before = processed.get();
                try (var producer =
                        new KafkaProducer<>(kafka.producerProps(), new StringSerializer(), new StringSerializer())) {
                    producer.send(new ProducerRecord<>(topic, "k" + run, "v")).get();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                await().atMost(Duration.ofSeconds(60)).until(() -> processed.get() > before);
                // leave the group, so the second run's join does not wait out the first run's session
                assertThat(streams.close(
                                CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                                        .withTimeout(Duration.ofSeconds(30))))
                        .as("clean close")
                        .isTrue();
            }
        }
        // the first run starts on an empty directory; the clean restart opens the store and finds no offset for it
        assertThat(byTaskAndStore().keySet()).as("warnings: %s", warnings).containsExactly("0_0 never-windows");
    }

    // ------------------------------------------------------------------ Vigil

    /** Hourly windows from the next hour on: decided by completeness, their deadlines still ahead. */
    private static final long BASE = ItSupport.nextHourStart();

    private static long windowStart(int k) {
        return BASE + k * ItSupport.HOUR;
    }

    private void defineMonitors() {
        try (var producer = ItSupport.producer(kafka)) {
            for (int m = 0; m < MONITORS; m++) {
                ItSupport.define(
                        producer,
                        new MonitorDefinition(
                                1,
                                "e-" + m,
                                null,
                                "https://example.com/" + m,
                                null,
                                3600,
                                2500,
                                Fixtures.regions(3),
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null));
            }
        }
    }

    /** Every monitor's results for one (hourly) window: decided by completeness, no metric posted. */
    private void produceWindow(long ws) {
        try (var producer = ItSupport.producer(kafka)) {
            for (int m = 0; m < MONITORS; m++) {
                for (String region : Fixtures.regions(3)) {
                    ItSupport.result(producer, Fixtures.success("e-" + m, region, ws));
                }
            }
        }
    }

    private Set<String> decided(long ws) {
        return ItSupport.readAllVerdicts(kafka).stream()
                .filter(v -> v.windowStart() == ws)
                .map(MonitorStatus::monitorId)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private void awaitEveryMonitorDecided(long ws) {
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(decided(ws)).hasSize(MONITORS));
    }

    private StreamsServiceConfig config(String appId, Path dir, String instance) {
        StreamsServiceConfig base = ItSupport.config(kafka, appId, dir);
        KafkaSettings k = base.kafka();
        return base.withKafka(new KafkaSettings(
                k.bootstrapServers(),
                k.applicationId(),
                k.stateDir(),
                1,
                1,
                1,
                k.commitInterval(),
                Map.of(
                        "consumer.session.timeout.ms",
                        "10000",
                        "consumer.heartbeat.interval.ms",
                        "1000",
                        "client.id",
                        instance),
                instance));
    }

    /** The id of the sub-topology that reads the metrics topic: its tasks hold the never-written window stores. */
    private static int metricSubtopology(StreamsServiceConfig cfg) {
        for (TopologyDescription.Subtopology s : describe(cfg).subtopologies()) {
            for (TopologyDescription.Node n : s.nodes()) {
                if (n instanceof TopologyDescription.Source source
                        && source.topicSet().contains(cfg.topology().topics().metrics())) {
                    return s.id();
                }
            }
        }
        throw new IllegalStateException("no sub-topology reads the metrics topic");
    }

    /** Every task of the application: per sub-topology, as many as its source topics have partitions. */
    private static int taskCount(StreamsServiceConfig cfg) {
        Map<String, Integer> partitions = new java.util.HashMap<>();
        Topics.all().forEach(t -> partitions.put(t.name(), t.partitions()));
        dev.vigil.streams.topology.SelfWatchTopology.topics(cfg.topology(), java.util.Optional.empty())
                .forEach(t -> partitions.putIfAbsent(t.name(), t.numPartitions()));
        int tasks = 0;
        for (TopologyDescription.Subtopology s : describe(cfg).subtopologies()) {
            int most = 0;
            for (TopologyDescription.Node n : s.nodes()) {
                if (n instanceof TopologyDescription.Source source) {
                    for (String topic : source.topicSet()) {
                        most = Math.max(most, partitions.getOrDefault(topic, 0));
                    }
                }
            }
            tasks += most;
        }
        return tasks;
    }

    private static TopologyDescription describe(StreamsServiceConfig cfg) {
        return dev.vigil.streams.topology.VigilTopology.build(
                        cfg.topology(), cfg.alerting(), new io.micrometer.core.instrument.simple.SimpleMeterRegistry())
                .describe();
    }

    private static Set<String> tasks(KafkaStreams streams, boolean active) {
        return streams.metadataForLocalThreads().stream()
                .flatMap(t -> (active ? t.activeTasks() : t.standbyTasks()).stream())
                .map(t -> t.taskId().toString())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * The simplest trigger: one instance, no metric ever posted, closed cleanly and started again on its state. Without
     * transactional state stores each metric task (and each verdict task of a partition without monitors) was reported
     * corrupted twice and wiped.
     */
    @Test
    void aCleanRestartWithoutAnyMetricFindsNoTaskCorrupted() {
        kafka.createTopics(Topics.all());
        defineMonitors();
        StreamsServiceConfig cfg = config("vigil-empty-restart", dirA, "restart-a");
        try (var first = StreamsApp.start(cfg, ItSupport.env())) {
            await().atMost(Duration.ofSeconds(90)).until(first::running);
            produceWindow(windowStart(0));
            awaitEveryMonitorDecided(windowStart(0));
        }
        try (var second = StreamsApp.start(cfg, ItSupport.env())) {
            await().atMost(Duration.ofSeconds(90)).until(second::running);
            produceWindow(windowStart(1));
            awaitEveryMonitorDecided(windowStart(1));
            assertThat(second.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
        }
        // Kafka Streams 4.4 also opens the stores found on disk once at start-up (on the thread that starts it), to
        // report their offsets to the assignor; that probe ignores enable.transactional.statestores and still logs the
        // warning for a never-written window store, but only drops the probe (it closes cleanly: nothing is wiped).
        // The stream threads, which would wipe the task, must not report it.
        assertThat(warnings)
                .as("tasks reported corrupted by a stream thread: %s", byTaskAndStore())
                .noneMatch(w -> w.contains("StreamThread"));
    }

    /**
     * The drill: two instances (standby replicas 1, static members, 10 s session), no metric ever posted; one is killed
     * with SIGKILL (its own JVM). The survivor promotes its standbys, among them the metric tasks whose window stores
     * were never written, reports no task corrupted, runs every task and decides the next window of every monitor.
     */
    @Test
    void theSurvivorOfAKillTakesOverTasksWhoseWindowStoreWasNeverWritten() throws Exception {
        kafka.createTopics(Topics.all());
        defineMonitors();
        StreamsServiceConfig cfgA = config("vigil-empty-kill", dirA, "kill-a");
        String metricTasks = metricSubtopology(cfgA) + "_";
        int allTasks = taskCount(cfgA);
        var a = StreamsApp.start(cfgA, ItSupport.env());
        Process b = launch(writeConfig(dirB, "vigil-empty-kill", "kill-b"), dirB.resolve("b.log"));
        try {
            await("both running, each with standbys")
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> a.running()
                            && !tasks(a.streams(), false).isEmpty()
                            && tasks(a.streams(), true).size() < allTasks);
            produceWindow(windowStart(0));
            awaitEveryMonitorDecided(windowStart(0));
            Set<String> standbys = tasks(a.streams(), false);
            assertThat(standbys)
                    .as("the survivor holds standbys of metric tasks")
                    .anyMatch(t -> t.startsWith(metricTasks));

            b.destroyForcibly().waitFor();
            // after the session (10 s) every task is the survivor's
            await("every task active on the survivor")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> a.running() && tasks(a.streams(), true).size() == allTasks);
            // a task caught in a corruption loop keeps leaving the active set: it must stay whole for a while
            await("every task stays active on the survivor")
                    .during(Duration.ofSeconds(5))
                    .atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> a.running() && tasks(a.streams(), true).size() == allTasks);
            assertThat(a.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
            assertThat(tasks(a.streams(), true)).hasSize(allTasks).containsAll(standbys);
            produceWindow(windowStart(1));
            awaitEveryMonitorDecided(windowStart(1));
        } finally {
            b.destroyForcibly();
            a.close();
        }
        assertThat(byTaskAndStore())
                .as("tasks reported corrupted on the survivor")
                .isEmpty();
    }

    private Path writeConfig(Path dir, String appId, String instance) throws IOException {
        String yaml =
                """
                kafka:
                  bootstrapServers: "%s"
                  applicationId: %s
                  stateDir: "%s"
                  replicationFactor: 1
                  numStandbyReplicas: 1
                  groupInstanceId: %s
                  commitInterval: 100ms
                  properties:
                    consumer.session.timeout.ms: "10000"
                    consumer.heartbeat.interval.ms: "1000"
                    client.id: %s
                http:
                  host: 127.0.0.1
                  port: 0
                  advertisedHost: 127.0.0.1
                verdict:
                  punctuationInterval: 200ms
                """
                        .formatted(kafka.bootstrapServers(), appId, dir.resolve("state"), instance, instance);
        Path file = dir.resolve("vigil-streams.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    private static Process launch(Path config, Path log) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return new ProcessBuilder(List.of(java, "-Xmx512m", "-cp", cp, StreamsApp.class.getName(), config.toString()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }
}
