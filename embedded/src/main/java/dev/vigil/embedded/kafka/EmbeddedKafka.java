package dev.vigil.embedded.kafka;

import dev.vigil.embedded.internal.Dirs;
import dev.vigil.embedded.net.LocalPorts;
import dev.vigil.schemas.topic.Topics.TopicSpec;
import java.io.PrintStream;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node KRaft Kafka broker (broker and controller in one process) running inside this JVM.
 *
 * <p>Ports are chosen once, when the instance is built, and kept across {@link #stop()} / {@link #start()},
 * so clients keep their bootstrap address through a broker restart. {@link #stop()} keeps the data;
 * {@link #close()} also deletes it unless the caller supplied the data directory.
 *
 * <pre>{@code
 * try (EmbeddedKafka kafka = EmbeddedKafka.builder().build().start()) {
 *     kafka.createTopics(Topics.all());
 *     new KafkaProducer<>(kafka.producerProps(), new StringSerializer(), new StringSerializer());
 * }
 * }</pre>
 */
public final class EmbeddedKafka implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);
    private static final String HOST = "127.0.0.1";
    private static final int NODE_ID = 1;
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);
    private static final int FREE_PORT_ATTEMPTS = 3;

    private final Path dataDir;
    private final boolean ownsDataDir;
    private final boolean fixedPorts;
    private final Map<String, String> overrides;
    private volatile int port;
    private volatile int controllerPort;
    private KafkaRaftServer server;
    private boolean closed;
    private boolean everStarted;
    private Duration lastStartDuration = Duration.ZERO;

    private EmbeddedKafka(Builder builder) {
        this.fixedPorts = builder.port != 0;
        this.port = fixedPorts ? builder.port : freePort();
        this.controllerPort = freePort(port);
        this.overrides = Map.copyOf(builder.overrides);
        this.ownsDataDir = builder.dataDir == null;
        this.dataDir = ownsDataDir ? Dirs.createTemp("vigil-kafka-") : builder.dataDir.toAbsolutePath();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Formats the data directory if it is new, starts the broker and waits until it accepts requests. */
    public synchronized EmbeddedKafka start() {
        if (closed) {
            throw new IllegalStateException("embedded Kafka broker is closed; build a new one");
        }
        if (server != null) {
            return this;
        }
        ExitGuard.install();
        long began = System.nanoTime();
        formatIfNeeded();
        for (int attempt = 1; ; attempt++) {
            try {
                server = launch();
                break;
            } catch (RuntimeException e) {
                // A port picked as free can be taken by someone else before the broker binds it.
                boolean retry = !fixedPorts && !everStarted && attempt < FREE_PORT_ATTEMPTS && isBindFailure(e);
                if (!retry) {
                    throw new IllegalStateException(
                            "embedded Kafka broker failed to start on " + bootstrapServers() + " (controller port "
                                    + controllerPort + ", data " + dataDir + "): " + rootMessage(e),
                            e);
                }
                LOG.warn("Kafka port {} or {} was taken meanwhile; retrying with new free ports", port, controllerPort);
                port = freePort();
                controllerPort = freePort(port);
            }
        }
        everStarted = true;
        lastStartDuration = Duration.ofNanos(System.nanoTime() - began);
        LOG.info(
                "Embedded Kafka broker started on {} in {} ms (data {})",
                bootstrapServers(),
                lastStartDuration.toMillis(),
                dataDir);
        return this;
    }

    /** Stops the broker and keeps its data, so {@link #start()} brings it back on the same port. */
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        long began = System.nanoTime();
        KafkaRaftServer stopping = server;
        server = null;
        stopping.shutdown();
        stopping.awaitShutdown();
        LOG.info(
                "Embedded Kafka broker on {} stopped in {} ms",
                bootstrapServers(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
    }

    /** Stops the broker and deletes its data directory unless the caller supplied it. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        try {
            stop();
        } finally {
            closed = true;
            if (ownsDataDir) {
                Dirs.deleteRecursively(dataDir);
            }
        }
    }

    public synchronized boolean isRunning() {
        return server != null;
    }

    /**
     * {@code host:port} for clients, known from construction on and kept across restarts. Only when the first
     * {@link #start()} finds a port picked as free taken meanwhile does it move to another one.
     */
    public String bootstrapServers() {
        return HOST + ":" + port;
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Wall time of the last successful {@link #start()}, including formatting. */
    public synchronized Duration lastStartDuration() {
        return lastStartDuration;
    }

    public void createTopics(TopicSpec... specs) {
        createTopics(Arrays.asList(specs));
    }

    /**
     * Creates the topics with replication factor 1 ({@code compacted} maps to {@code cleanup.policy=compact})
     * and returns once every partition has a leader. Topics that already exist are left as they are.
     */
    public void createTopics(Collection<TopicSpec> specs) {
        requireRunning("create topics");
        List<NewTopic> topics = specs.stream().map(EmbeddedKafka::newTopic).toList();
        try (Admin admin = Admin.create(adminProps())) {
            var results = admin.createTopics(topics).values();
            for (var entry : results.entrySet()) {
                try {
                    entry.getValue().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException(
                                "could not create topic " + entry.getKey() + " on " + bootstrapServers() + ": "
                                        + rootMessage(e),
                                e);
                    }
                }
            }
            awaitLeaders(admin, topics.stream().map(NewTopic::name).collect(Collectors.toSet()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "timed out after " + ADMIN_TIMEOUT + " creating topics on " + bootstrapServers(), e);
        }
    }

    /** Idempotent producer with {@code acks=all}; add serializers when constructing the producer. */
    public Map<String, Object> producerProps() {
        Map<String, Object> props = clientProps();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return props;
    }

    /** {@code read_committed} consumer starting at the earliest offset, with manual commits. */
    public Map<String, Object> consumerProps(String groupId) {
        Map<String, Object> props = clientProps();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, Objects.requireNonNull(groupId, "groupId"));
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return props;
    }

    public Map<String, Object> adminProps() {
        Map<String, Object> props = clientProps();
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ADMIN_TIMEOUT.toMillis());
        return props;
    }

    @Override
    public String toString() {
        return "EmbeddedKafka[" + bootstrapServers() + ", data=" + dataDir + ", running=" + isRunning() + "]";
    }

    private Map<String, Object> clientProps() {
        Map<String, Object> props = new HashMap<>();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        return props;
    }

    private KafkaRaftServer launch() {
        KafkaRaftServer candidate = new KafkaRaftServer(new KafkaConfig(brokerConfig(), false), Time.SYSTEM);
        try {
            candidate.startup();
            awaitBrokerReady();
            return candidate;
        } catch (RuntimeException e) {
            shutdownQuietly(candidate);
            throw e;
        }
    }

    private Map<String, String> brokerConfig() {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("process.roles", "broker,controller");
        config.put("node.id", String.valueOf(NODE_ID));
        config.put("controller.quorum.voters", NODE_ID + "@" + HOST + ":" + controllerPort);
        config.put("listeners", "PLAINTEXT://" + HOST + ":" + port + ",CONTROLLER://" + HOST + ":" + controllerPort);
        config.put("advertised.listeners", "PLAINTEXT://" + HOST + ":" + port);
        config.put("controller.listener.names", "CONTROLLER");
        config.put("inter.broker.listener.name", "PLAINTEXT");
        config.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        config.put("log.dirs", dataDir.toString());
        config.put("num.partitions", "1");
        config.put("default.replication.factor", "1");
        config.put("min.insync.replicas", "1");
        config.put("auto.create.topics.enable", "false");
        // Internal state topics must fit a single broker, or groups, transactions (exactly_once_v2)
        // and share groups wait forever for replicas that never come.
        config.put("offsets.topic.replication.factor", "1");
        config.put("offsets.topic.num.partitions", "5");
        config.put("transaction.state.log.replication.factor", "1");
        config.put("transaction.state.log.min.isr", "1");
        config.put("transaction.state.log.num.partitions", "5");
        config.put("share.coordinator.state.topic.replication.factor", "1");
        config.put("share.coordinator.state.topic.min.isr", "1");
        config.put("share.coordinator.state.topic.num.partitions", "5");
        config.put("group.initial.rebalance.delay.ms", "0");
        // Small footprint: the default cleaner buffer alone is 128 MB of heap.
        config.put("log.cleaner.dedupe.buffer.size", String.valueOf(2 * 1024 * 1024));
        config.put("num.network.threads", "2");
        config.put("num.io.threads", "4");
        config.put("background.threads", "4");
        config.put("broker.heartbeat.interval.ms", "500");
        config.put("broker.session.timeout.ms", "6000");
        config.putAll(overrides);
        return config;
    }

    private void formatIfNeeded() {
        if (Files.exists(dataDir.resolve("meta.properties"))) {
            return;
        }
        try {
            Files.createDirectories(dataDir);
            new Formatter()
                    .setPrintStream(new PrintStream(PrintStream.nullOutputStream()))
                    .setNodeId(NODE_ID)
                    .setClusterId(Uuid.randomUuid().toString())
                    .setDirectories(List.of(dataDir.toString()))
                    .setMetadataLogDirectory(dataDir.toString())
                    .setControllerListenerName("CONTROLLER")
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setIgnoreFormatted(true)
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException(
                    "could not format Kafka data directory " + dataDir + ": " + rootMessage(e), e);
        }
    }

    private void awaitBrokerReady() {
        try (Admin admin = Admin.create(adminProps())) {
            admin.describeCluster().nodes().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the broker", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("broker did not answer within " + ADMIN_TIMEOUT + ": " + rootMessage(e), e);
        }
    }

    private void awaitLeaders(Admin admin, Set<String> names) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + ADMIN_TIMEOUT.toNanos();
        while (true) {
            try {
                Map<String, TopicDescription> topics = admin.describeTopics(names)
                        .allTopicNames()
                        .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                if (topics.values().stream().allMatch(EmbeddedKafka::hasLeaders)
                        && servesOffsets(admin, topics.values())) {
                    return;
                }
            } catch (ExecutionException e) {
                LOG.debug("topics {} not visible yet: {}", names, rootMessage(e));
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("topics " + names + " have no leader after " + ADMIN_TIMEOUT);
            }
            Thread.sleep(20);
        }
    }

    /**
     * Whether the broker answers ListOffsets for every partition. Metadata can name the leader a moment before the
     * broker's replica manager leads the partition; a produce in that moment gets NOT_LEADER_OR_FOLLOWER, and an
     * idempotent producer's retries could then stall on OUT_OF_ORDER_SEQUENCE_NUMBER until its delivery timeout.
     * ListOffsets passes the same leadership check as a produce.
     */
    private static boolean servesOffsets(Admin admin, Collection<TopicDescription> topics)
            throws InterruptedException, TimeoutException {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (TopicDescription t : topics) {
            t.partitions().forEach(p -> latest.put(new TopicPartition(t.name(), p.partition()), OffsetSpec.latest()));
        }
        try {
            admin.listOffsets(latest).all().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            LOG.debug("partitions not served yet: {}", rootMessage(e));
            return false;
        }
    }

    private static boolean hasLeaders(TopicDescription topic) {
        return topic.partitions().stream()
                .allMatch(p -> p.leader() != null && !p.leader().isEmpty());
    }

    private static NewTopic newTopic(TopicSpec spec) {
        return new NewTopic(spec.name(), spec.partitions(), (short) 1)
                .configs(Map.of(
                        TopicConfig.CLEANUP_POLICY_CONFIG,
                        spec.compacted() ? TopicConfig.CLEANUP_POLICY_COMPACT : TopicConfig.CLEANUP_POLICY_DELETE));
    }

    private void requireRunning(String action) {
        if (!isRunning()) {
            throw new IllegalStateException("cannot " + action + ": embedded Kafka broker on " + bootstrapServers()
                    + " is not running (call start())");
        }
    }

    private static void shutdownQuietly(KafkaRaftServer server) {
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (RuntimeException e) {
            LOG.warn("could not shut down a broker that failed to start: {}", rootMessage(e));
        }
    }

    private static boolean isBindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException
                    || (t.getMessage() != null && t.getMessage().contains("Address already in use"))) {
                return true;
            }
        }
        return false;
    }

    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    private static int freePort(int... excluded) {
        for (int i = 0; i < 10; i++) {
            int candidate = LocalPorts.free();
            if (Arrays.stream(excluded).noneMatch(p -> p == candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free local port for the embedded Kafka broker");
    }

    /** Builds an {@link EmbeddedKafka}; nothing is started until {@link EmbeddedKafka#start()}. */
    public static final class Builder {
        private int port;
        private Path dataDir;
        private final Map<String, String> overrides = new HashMap<>();

        private Builder() {}

        /** Client port; 0 (the default) picks a free one. The choice is kept across restarts. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("Kafka port must be 0 (any free port) or 1-65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * Broker log directory owned by the caller: kept on {@link EmbeddedKafka#close()} and reused,
         * without formatting, by the next broker started on it. Default: a temporary directory.
         */
        public Builder dataDir(Path dataDir) {
            this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
            return this;
        }

        /** Any broker setting, applied over the defaults (e.g. {@code auto.create.topics.enable=true}). */
        public Builder brokerProperty(String key, String value) {
            overrides.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        public EmbeddedKafka build() {
            return new EmbeddedKafka(this);
        }

        /** Shorthand for {@code build().start()}. */
        public EmbeddedKafka start() {
            return build().start();
        }
    }
}
