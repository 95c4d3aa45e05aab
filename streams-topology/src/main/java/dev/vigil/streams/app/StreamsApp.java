package dev.vigil.streams.app;

import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.kit.auth.TokenSpec;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.http.ServerLimits;
import dev.vigil.kit.kafka.CompactedTopicView;
import dev.vigil.kit.kafka.StaticMembership;
import dev.vigil.kit.main.ExitCode;
import dev.vigil.kit.trace.Tracing;
import dev.vigil.schemas.contract.AlertRule;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.streams.alertapi.AckRoutes;
import dev.vigil.streams.alertapi.AlertingRoutes;
import dev.vigil.streams.alertapi.TimelineRoutes;
import dev.vigil.streams.api.Catalog;
import dev.vigil.streams.api.MonitorChecks;
import dev.vigil.streams.api.MonitorsResource;
import dev.vigil.streams.api.RegionsResource;
import dev.vigil.streams.api.RulesResource;
import dev.vigil.streams.audit.ApiWriter;
import dev.vigil.streams.audit.AuditLog;
import dev.vigil.streams.audit.AuditRoutes;
import dev.vigil.streams.config.StreamsServiceConfig;
import dev.vigil.streams.console.ConsoleAssets;
import dev.vigil.streams.console.ConsoleRoutes;
import dev.vigil.streams.console.StatusPages;
import dev.vigil.streams.deadletter.DeadLetterHandler;
import dev.vigil.streams.deadletter.ProcessingDeadLetterHandler;
import dev.vigil.streams.query.ApiAccess;
import dev.vigil.streams.query.ApiRoutes;
import dev.vigil.streams.query.DeferredBackend;
import dev.vigil.streams.query.Forwarder;
import dev.vigil.streams.query.KafkaStreamsBackend;
import dev.vigil.streams.query.QueryServer;
import dev.vigil.streams.query.RouteExtension;
import dev.vigil.streams.readmodel.ReadModel;
import dev.vigil.streams.silence.SilenceRoutes;
import dev.vigil.streams.topology.VigilTopology;
import dev.vigil.streams.trace.HopSpans;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runtime wiring of the Streams service: the query HTTP server, the Kafka Streams instance running
 * {@link VigilTopology}, and metrics. {@link #start} is the programmatic API (the standalone launcher runs it
 * in-process); {@link #main} reads {@code vigil-streams.yaml}.
 */
public final class StreamsApp {
    private static final Logger LOG = LoggerFactory.getLogger(StreamsApp.class);
    /** A peer that does not accept a forwarded query within this is stood in for by this instance's standbys. */
    static final Duration FORWARD_CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** A connected peer's answer: a page of 10,000 monitors of a large fleet takes seconds on a busy instance. */
    static final Duration FORWARD_RESPONSE_TIMEOUT = Duration.ofSeconds(15);

    private StreamsApp() {}

    public static Running start(StreamsServiceConfig cfg) {
        return start(
                cfg,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                List.of(new AlertingRoutes(), new TimelineRoutes(Clock.systemUTC())),
                System.getenv());
    }

    /** {@link #start(StreamsServiceConfig)} reading secrets (the instance token) from {@code env}. */
    public static Running start(StreamsServiceConfig cfg, Map<String, String> env) {
        return start(
                cfg,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                List.of(new AlertingRoutes(), new TimelineRoutes(Clock.systemUTC())),
                env);
    }

    public static Running start(
            StreamsServiceConfig cfg, PrometheusMeterRegistry registry, List<RouteExtension> extensions) {
        return start(cfg, registry, extensions, System.getenv());
    }

    /**
     * The API's access control from configuration: the configured tokens, those of {@code auth.tokensFile}, and the
     * instance credential from the environment variable {@code auth.instanceTokenEnv} (a random one when unset).
     */
    static ApiAccess access(StreamsServiceConfig cfg, Map<String, String> env) {
        List<TokenSpec> tokens = new ArrayList<>(cfg.auth().tokens());
        if (!cfg.auth().tokensFile().isEmpty()) {
            tokens.addAll(TokensFile.read(Path.of(cfg.auth().tokensFile())));
        }
        String instance = env.get(cfg.auth().instanceTokenEnv());
        if (instance == null || instance.isBlank()) {
            instance = BearerTokens.generate();
            LOG.info(
                    "{} is not set: this instance uses a random forwarding credential; with several instances set the "
                            + "same secret on each so they can forward queries to each other",
                    cfg.auth().instanceTokenEnv());
        }
        return new ApiAccess(BearerTokens.of(tokens, instance), instance);
    }

    /**
     * Binds the query API, checks the input topics, then starts Kafka Streams with
     * {@code application.server} set to the bound address. Returns once Streams is started (not yet RUNNING;
     * {@code /ready} tells when it is).
     */
    public static Running start(
            StreamsServiceConfig cfg,
            PrometheusMeterRegistry registry,
            List<RouteExtension> extensions,
            Map<String, String> env) {
        ApiAccess access = access(cfg, env);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);

        DeferredBackend backend = new DeferredBackend();
        Forwarder forwarder =
                new Forwarder(FORWARD_CONNECT_TIMEOUT, FORWARD_RESPONSE_TIMEOUT, access.instanceAuthorization());
        ApiRoutes routes = new ApiRoutes();
        ReadModel.register(routes, backend, forwarder, Clock.systemUTC());
        for (RouteExtension ext : extensions) {
            ext.register(routes, backend, forwarder);
        }
        ApiWriter writer = new ApiWriter(
                ApiWriter.kafka(
                        cfg.kafka().bootstrapServers(), SilenceRoutes.DEFAULT_ACK_TIMEOUT, producerOverrides(cfg)),
                cfg.topics().audit(),
                SilenceRoutes.DEFAULT_ACK_TIMEOUT);
        SilenceRoutes silences = new SilenceRoutes(writer, cfg.topics().silences(), Clock.systemUTC(), cfg.silences());
        silences.register(routes, backend, forwarder);
        new AckRoutes(
                        writer,
                        cfg.topics().acks(),
                        cfg.topics().alerts(),
                        cfg.topics().incidentNotes(),
                        Clock.systemUTC())
                .register(routes, backend, forwarder);
        Catalog<MonitorDefinition> monitorCatalog = catalog(
                        cfg, cfg.topics().monitors(), VigilSerdes.monitorDefinition(), MonitorDefinition::id)
                .start();
        new MonitorsResource(
                        monitorCatalog,
                        new MonitorChecks(
                                cfg.management().probeAllowList(),
                                cfg.management().resolveTimeout()),
                        writer,
                        cfg.topics().monitors(),
                        cfg.management().ingestUrl(),
                        cfg.management().maxApplyMonitors(),
                        Clock.systemUTC())
                .register(routes, backend, forwarder);
        new RegionsResource(monitorCatalog, Clock.systemUTC()).register(routes, backend, forwarder);
        Catalog<AlertRule> ruleCatalog = catalog(cfg, cfg.topics().alertRules(), VigilSerdes.alertRule(), AlertRule::id)
                .start();
        new RulesResource(ruleCatalog, writer, cfg.topics().alertRules(), Clock.systemUTC())
                .register(routes, backend, forwarder);
        new AuditRoutes(
                        new AuditLog(
                                cfg.kafka().bootstrapServers(),
                                cfg.topics().audit(),
                                consumerOverrides(cfg),
                                Duration.ofSeconds(10)),
                        Clock.systemUTC())
                .register(routes);
        ConsoleAssets console = ConsoleAssets.load();
        new ConsoleRoutes(console).register(routes);
        new StatusPages(cfg.statusPages(), routes, Clock.systemUTC(), console.version()).register(routes);
        ServerLimits limits = ServerLimits.defaults(cfg.http().host())
                .withAllowedHosts(ServerLimits.defaultAllowedHosts(
                        cfg.http().host(), Set.copyOf(cfg.http().allowedHosts())));
        QueryServer server;
        try {
            server = QueryServer.start(
                    cfg.http().host(),
                    cfg.http().port(),
                    routes,
                    QueryServer.ops(backend, registry::scrape),
                    access,
                    limits,
                    registry);
        } catch (RuntimeException e) {
            silences.close();
            writer.close();
            monitorCatalog.close();
            ruleCatalog.close();
            throw e;
        }
        KafkaStreams streams = null;
        Tracing tracing = null;
        try {
            HostInfo self = HostInfo.buildFromEndpoint(
                    cfg.http().applicationServer().isEmpty()
                            ? cfg.http().advertisedHost() + ":" + server.port()
                            : cfg.http().applicationServer());
            checkTopics(cfg);
            tracing = Tracing.start("streams", self.host() + ":" + self.port(), cfg.otel(), env, registry);
            Topology topology =
                    VigilTopology.build(cfg.topology(), cfg.topologyAlerting(), registry, new HopSpans(tracing));
            streams = new KafkaStreams(topology, streamsProperties(cfg, self, registry));
            streams.setUncaughtExceptionHandler(StreamThreadFailures.standard(registry));
            streams.setGlobalStateRestoreListener(RestoreLog.standard(registry));
            streams.setStateListener((next, prev) -> LOG.info("streams state {} -> {}", prev, next));
            KafkaStreamsMetrics streamsMetrics = new KafkaStreamsMetrics(streams);
            streamsMetrics.bindTo(registry);
            backend.set(new KafkaStreamsBackend(streams, self, topology.describe()));
            streams.start();
            LOG.info(
                    "vigil-streams started: application.id={} application.server={}:{} query port {}",
                    cfg.kafka().applicationId(),
                    self.host(),
                    self.port(),
                    server.port());
            return new Running(
                    server,
                    streams,
                    forwarder,
                    streamsMetrics,
                    self,
                    writer,
                    silences,
                    List.of(monitorCatalog, ruleCatalog),
                    routes,
                    tracing);
        } catch (RuntimeException e) {
            if (streams != null) {
                streams.close(Duration.ofSeconds(10));
            }
            if (tracing != null) {
                tracing.close();
            }
            server.close();
            silences.close();
            writer.close();
            monitorCatalog.close();
            ruleCatalog.close();
            forwarder.close();
            throw e;
        }
    }

    /**
     * A compacted topic as the management API reads it (the monitors, the alert rules): followed whole by a consumer
     * of this instance's own, since every instance answers for every key (the topology's copies are partitioned, or
     * not written to by this instance's own writes at once).
     */
    static <V> Catalog<V> catalog(
            StreamsServiceConfig cfg,
            String topic,
            org.apache.kafka.common.serialization.Serde<V> serde,
            java.util.function.Function<V, String> idOf) {
        String name = "vigil-catalog-" + topic;
        return new Catalog<>(
                listener -> CompactedTopicView.of(
                        CompactedTopicView.consumerProperties(
                                cfg.kafka().bootstrapServers(), name, consumerOverrides(cfg)),
                        topic,
                        r -> serde.deserializer().deserialize(topic, r.value()),
                        listener,
                        CompactedTopicView.Options.of(name, CompactedTopicView.MissingTopic.HOLDS_NOTHING, true)),
                idOf,
                Clock.systemUTC());
    }

    /** {@code kafka.properties} entries prefixed {@code consumer.} (as Streams reads them) also tune the audit reader. */
    static Map<String, String> consumerOverrides(StreamsServiceConfig cfg) {
        return prefixed(cfg, StreamsConfig.CONSUMER_PREFIX);
    }

    /** {@code kafka.properties} entries prefixed {@code producer.} (as Streams reads them) also tune the API writer. */
    static Map<String, String> producerOverrides(StreamsServiceConfig cfg) {
        return prefixed(cfg, StreamsConfig.PRODUCER_PREFIX);
    }

    private static Map<String, String> prefixed(StreamsServiceConfig cfg, String prefix) {
        Map<String, String> out = new java.util.HashMap<>();
        cfg.kafka().properties().forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                out.put(k.substring(prefix.length()), v);
            }
        });
        return out;
    }

    /**
     * Producer batch size: every window writes its verdict and several changelog records, spread over many partitions,
     * and the default 16 KiB batches cost the producer and the brokers a request each for a few dozen records.
     */
    public static final int PRODUCER_BATCH_BYTES = 128 * 1024;
    /** {@code restore.consumer.fetch.max.wait.ms}; see {@link #streamsProperties}. */
    static final int RESTORE_FETCH_MAX_WAIT_MS = 50;

    static Properties streamsProperties(StreamsServiceConfig cfg, HostInfo self, PrometheusMeterRegistry registry) {
        var k = cfg.kafka();
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, k.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, k.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, k.stateDir());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        // Transactional state stores (writes buffered until the changelog transaction commits). Without them, under
        // exactly-once, a persistent store with no committed changelog offset in a non-empty task directory marks the
        // task corrupted and wipes it; and a persistent window store that has never been written (metric-windows when
        // no metric is posted, verdict-history of a partition without monitors) has no RocksDB segment to keep its
        // offset in, so it never has one: every restart, standby promotion or hand-over of such a task wiped it, and a
        // cluster drill's survivor did so over and over (EmptyChangelogStoreIT). With them a store without an
        // offset is restored from the start of its changelog instead. Cost: each store's writes since the last commit
        // are held in memory (a commit every commitInterval; statestore.uncommitted.max.bytes, 64 MiB, forces one).
        p.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, true);
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, k.numStreamThreads());
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, k.replicationFactor());
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, k.numStandbyReplicas());
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, k.commitInterval().toMillis());
        p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, self.host() + ":" + self.port());
        p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterHandler.class);
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, ProcessingDeadLetterHandler.class);
        // Kafka Streams 4.4.0 String.formats trace text for every record a task processes while one of its input
        // partitions has nothing buffered (the monitors partition, nearly always): ~9 % of the stream thread. With
        // idling disabled that path is skipped; a task no longer waits for an empty partition's lag. Definitions
        // are restored from their store before processing starts, and a fresh start fetches monitors and results
        // in the same fetch and processes them in timestamp order (definitions are older).
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        // Room for every monitor's pending window and uptime day (the cached stores): an evicting cache writes each
        // evicted entry to RocksDB and its changelog in the middle of processing instead of once per commit.
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 64L * 1024 * 1024);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), PRODUCER_BATCH_BYTES);
        // static membership when configured: a restart after a crash takes its tasks back without waiting out the old
        // session, and a crash that is not followed by a restart moves its tasks to the standbys after a short one
        StaticMembership.consumerSettings(k.groupInstanceId())
                .forEach((key, value) -> p.put(StreamsConfig.mainConsumerPrefix(key), value));
        // The restore consumer long-polls the changelogs it already reads; tasks handed to the state updater while
        // such a fetch is out wait for it to end before their own changelog offsets are looked up. At the default
        // 500 ms a start-up (or a restart after a crash, which restores every store) pays that wait once per batch
        // of tasks; 50 ms keeps it small at the cost of a few more idle fetches while standbys are caught up.
        p.put(
                StreamsConfig.restoreConsumerPrefix(
                        org.apache.kafka.clients.consumer.ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG),
                RESTORE_FETCH_MAX_WAIT_MS);
        p.put(DeadLetterHandler.TOPIC_CONFIG, cfg.topics().deadLetter());
        p.put(DeadLetterHandler.REGISTRY_CONFIG, registry);
        p.putAll(k.properties());
        return p;
    }

    /**
     * Fails start-up with a precise message when an input topic is missing or when {@code vigil.monitors} and
     * {@code vigil.probe-results} are not co-partitioned (the verdict processor relies on it).
     */
    static void checkTopics(StreamsServiceConfig cfg) {
        var t = cfg.topics();
        List<String> inputs = List.of(t.monitors(), t.probeResults(), t.heartbeats());
        Map<String, Object> adminProps = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                cfg.kafka().bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                30_000);
        try (Admin admin = Admin.create(adminProps)) {
            var existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<String> missing = new ArrayList<>();
            for (String topic : inputs) {
                if (!existing.contains(topic)) {
                    missing.add(topic);
                }
            }
            if (!missing.isEmpty()) {
                throw new IllegalStateException("input topics do not exist: " + missing
                        + " (create them first; the standalone launcher and the tests do)");
            }
            createSelfWatchTopics(admin, cfg, existing);
            Map<String, TopicDescription> d = admin.describeTopics(List.of(t.monitors(), t.probeResults()))
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS);
            int monitors = d.get(t.monitors()).partitions().size();
            int results = d.get(t.probeResults()).partitions().size();
            if (monitors != results) {
                throw new IllegalStateException(t.monitors() + " has " + monitors + " partitions but "
                        + t.probeResults() + " has " + results + "; they must be equal (co-partitioned by monitor id)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking topics", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(
                    "cannot reach Kafka at " + cfg.kafka().bootstrapServers() + " to check topics: " + e.getMessage(),
                    e);
        }
    }

    /**
     * Creates the topics this service keeps or mirrors when missing: the self-watch's ({@code SelfWatchTopology.topics})
     * and the notifier's escalation climbs ({@code AlertingTopology.topics}), which a deployment older than the notifier
     * that writes them does not have yet.
     */
    private static void createSelfWatchTopics(Admin admin, StreamsServiceConfig cfg, Set<String> existing)
            throws InterruptedException, java.util.concurrent.ExecutionException,
                    java.util.concurrent.TimeoutException {
        int rf = cfg.kafka().replicationFactor();
        java.util.Optional<Short> replication = rf < 1 ? java.util.Optional.empty() : java.util.Optional.of((short) rf);
        List<org.apache.kafka.clients.admin.NewTopic> wanted = new ArrayList<>();
        wanted.addAll(dev.vigil.streams.topology.SelfWatchTopology.topics(cfg.topology(), replication));
        wanted.addAll(dev.vigil.streams.topology.AlertingTopology.topics(cfg.topology(), replication));
        String notes = cfg.topics().incidentNotes();
        if (!existing.contains(notes)) {
            // as many partitions as the alerts topic: one fingerprint's events and notes meet in one task
            int alertsPartitions = existing.contains(cfg.topics().alerts())
                    ? admin.describeTopics(List.of(cfg.topics().alerts()))
                            .allTopicNames()
                            .get(30, TimeUnit.SECONDS)
                            .get(cfg.topics().alerts())
                            .partitions()
                            .size()
                    : dev.vigil.schemas.topic.Topics.DEFAULT_PARTITIONS;
            wanted.addAll(
                    dev.vigil.streams.topology.IncidentTopology.topics(cfg.topology(), alertsPartitions, replication));
        }
        var missing = wanted.stream().filter(t -> !existing.contains(t.name())).toList();
        if (missing.isEmpty()) {
            return;
        }
        try {
            admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
            LOG.info(
                    "created the topics {}",
                    missing.stream()
                            .map(org.apache.kafka.clients.admin.NewTopic::name)
                            .toList());
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                throw e; // another instance creating them at the same time is fine
            }
        }
    }

    /** A running service: its bound query port and a clean close (HTTP first, then Streams with a commit). */
    public static final class Running implements AutoCloseable {
        private final Tracing tracing;
        private final QueryServer server;
        private final KafkaStreams streams;
        private final Forwarder forwarder;
        private final KafkaStreamsMetrics metrics;
        private final HostInfo self;
        private final ApiWriter writer;
        private final SilenceRoutes silences;
        private final List<Catalog<?>> catalogs;
        private final ApiRoutes routes;

        Running(
                QueryServer server,
                KafkaStreams streams,
                Forwarder forwarder,
                KafkaStreamsMetrics metrics,
                HostInfo self,
                ApiWriter writer,
                SilenceRoutes silences,
                List<Catalog<?>> catalogs,
                ApiRoutes routes,
                Tracing tracing) {
            this.tracing = tracing;
            this.catalogs = catalogs;
            this.routes = routes;
            this.writer = writer;
            this.silences = silences;
            this.server = server;
            this.streams = streams;
            this.forwarder = forwarder;
            this.metrics = metrics;
            this.self = self;
        }

        public int httpPort() {
            return server.port();
        }

        /** Every endpoint this instance answers (what the OpenAPI document must describe). */
        public List<ApiRoutes.Route> routes() {
            return routes.routes();
        }

        /** The {@code host:port} other instances use to reach this one. */
        public String applicationServer() {
            return self.host() + ":" + self.port();
        }

        public KafkaStreams streams() {
            return streams;
        }

        public boolean running() {
            return streams.state() == KafkaStreams.State.RUNNING;
        }

        @Override
        public void close() {
            server.close();
            silences.close();
            writer.close(); // waits for a write still in flight
            catalogs.forEach(Catalog::close);
            // Before Streams closes its stores: the metrics binder's thread reads RocksDB properties, and a read of a
            // closed store can crash the JVM in native code.
            metrics.close();
            // Leave the group so partitions move to the remaining instances at once, not after the session timeout.
            streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                    .withTimeout(Duration.ofSeconds(30)));
            forwarder.close();
            tracing.close();
        }
    }

    public static void main(String[] args) {
        String path = args.length > 0 ? args[0] : System.getenv("VIGIL_CONFIG");
        if (path == null && Files.isRegularFile(Path.of(StreamsServiceConfig.DEFAULT_FILE))) {
            path = StreamsServiceConfig.DEFAULT_FILE;
        }
        StreamsServiceConfig cfg;
        try {
            cfg = StreamsServiceConfig.load(path == null ? null : Path.of(path), System.getenv());
        } catch (ConfigLoader.ConfigException e) {
            System.err.println("vigil-streams: " + e.getMessage());
            System.exit(ExitCode.CONFIG.code());
            return;
        }
        Running running;
        try {
            running = start(cfg);
        } catch (ConfigLoader.ConfigException e) {
            System.err.println("vigil-streams: " + e.getMessage());
            System.exit(ExitCode.CONFIG.code());
            return;
        } catch (RuntimeException e) {
            System.err.println("vigil-streams failed to start: " + e.getMessage());
            System.exit(ExitCode.STARTUP.code());
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(running::close, "vigil-streams-shutdown"));
    }
}
