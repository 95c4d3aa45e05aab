package dev.vigil.notifier;

import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.config.DurationText;
import dev.vigil.kit.kafka.CompactedTopicView;
import dev.vigil.kit.kafka.StaticMembership;
import dev.vigil.kit.main.ExitCode;
import dev.vigil.kit.ops.Check;
import dev.vigil.kit.ops.OpsRoutes;
import dev.vigil.kit.ops.OpsServer;
import dev.vigil.kit.retry.Backoff;
import dev.vigil.kit.trace.Tracing;
import dev.vigil.notifier.claim.ClaimStore;
import dev.vigil.notifier.claim.Database;
import dev.vigil.notifier.claim.DigestTables;
import dev.vigil.notifier.claim.Migrations;
import dev.vigil.notifier.claim.ServerDurability;
import dev.vigil.notifier.claim.TierStore;
import dev.vigil.notifier.config.ChannelType;
import dev.vigil.notifier.config.NotifierConfig;
import dev.vigil.notifier.config.NotifierSettings;
import dev.vigil.notifier.config.ResolvedChannel;
import dev.vigil.notifier.consume.AlertConsumer;
import dev.vigil.notifier.consume.KafkaEscalations;
import dev.vigil.notifier.consume.KafkaVendorPublisher;
import dev.vigil.notifier.consume.VendorUpdateConsumer;
import dev.vigil.notifier.core.ChannelLane;
import dev.vigil.notifier.core.ChannelPipeline;
import dev.vigil.notifier.core.ClaimStage;
import dev.vigil.notifier.core.DeadLetterStage;
import dev.vigil.notifier.core.DeliveryTrace;
import dev.vigil.notifier.core.Dispatcher;
import dev.vigil.notifier.core.RecordStage;
import dev.vigil.notifier.core.RetryPolicy;
import dev.vigil.notifier.core.RoutePlans;
import dev.vigil.notifier.core.SendStage;
import dev.vigil.notifier.core.ShownTiers;
import dev.vigil.notifier.core.SilenceGate;
import dev.vigil.notifier.core.TierClock;
import dev.vigil.notifier.core.TierLog;
import dev.vigil.notifier.core.VendorAcknowledgements;
import dev.vigil.notifier.selfwatch.CanaryWatch;
import dev.vigil.notifier.selfwatch.DeadMansSwitch;
import dev.vigil.notifier.selfwatch.PipelineStalled;
import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.DeadLetter;
import dev.vigil.schemas.json.JsonSerde;
import dev.vigil.schemas.json.VigilSerdes;
import dev.vigil.schemas.silence.Silence;
import dev.vigil.schemas.silence.SilenceMatcher;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.r2dbc.pool.ConnectionPool;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The notifier's wiring and entry points: {@link #main} reads {@code vigil-notifier.yaml} (first argument or
 * {@code VIGIL_CONFIG}); {@link #start} is the programmatic API the standalone launcher calls.
 */
public final class NotifierService {
    private static final Logger LOG = LoggerFactory.getLogger(NotifierService.class);

    private NotifierService() {}

    public static void main(String[] args) {
        String path = args.length > 0 ? args[0] : System.getenv("VIGIL_CONFIG");
        Running running;
        try {
            NotifierSettings.Loaded loaded =
                    NotifierSettings.load(path == null ? null : Path.of(path), System.getenv());
            running = start(loaded, System.getenv());
        } catch (ConfigLoader.ConfigException e) {
            System.err.println("vigil-notifier: " + e.getMessage());
            System.exit(ExitCode.CONFIG.code());
            return;
        } catch (RuntimeException e) {
            // StartupException and whatever else kept it from starting: a restart may help
            System.err.println("vigil-notifier failed to start: " + e.getMessage());
            System.exit(ExitCode.STARTUP.code());
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(running::close, "vigil-notifier-shutdown"));
        LOG.info("vigil-notifier running; health and metrics on port {}", running.httpPort());
    }

    /** Validates {@code config} (routing, secrets from {@code env}) and starts. */
    public static Running start(NotifierConfig config, Map<String, String> env) {
        return start(NotifierSettings.resolve(config, null, env), env);
    }

    public static Running start(NotifierSettings.Loaded loaded, Map<String, String> env) {
        return new Running(loaded, env, Clock.systemUTC());
    }

    /** A start-up failure that is not a configuration problem (database unreachable, port taken). */
    public static final class StartupException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StartupException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** A running notifier. Close drains in-flight events (bounded), commits, and releases everything. */
    public static final class Running implements AutoCloseable {
        private final List<AutoCloseable> closeables = new ArrayList<>();
        private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        private final AtomicBoolean closed = new AtomicBoolean();
        private final Dispatcher dispatcher;
        private final java.util.function.BooleanSupplier mirrorsReady;
        private final AlertConsumer consumer;
        private final OpsServer http;
        private final Tracing tracing;
        /** The dead-man's switch when configured; stopped first on close, so no ping outlives the notifier. */
        private DeadMansSwitch deadMan;

        private final String instance =
                "notifier-" + UUID.randomUUID().toString().substring(0, 8);

        Running(NotifierSettings.Loaded loaded, Map<String, String> env, Clock clock) {
            NotifierConfig cfg = loaded.config();
            NotifierConfig.Delivery d = cfg.delivery();
            Scheduler timer = Schedulers.parallel();
            this.tracing = Tracing.start("notifier", instance, cfg.otel(), env, registry);
            closeables.add(tracing);
            try {
                new JvmMemoryMetrics().bindTo(registry);
                new JvmThreadMetrics().bindTo(registry);
                JvmGcMetrics gc = new JvmGcMetrics();
                gc.bindTo(registry);
                closeables.add(gc);

                String password = env.get(cfg.database().passwordEnv());
                Database database = Database.open(
                        cfg.database().url(),
                        cfg.database().username(),
                        password,
                        cfg.database().poolSize());
                closeables.add(database);
                ConnectionPool pool = database.pool();
                pool.getMetrics().ifPresent(m -> {
                    Gauge.builder("vigil.notifier.db.pool.acquired", m, io.r2dbc.pool.PoolMetrics::acquiredSize)
                            .register(registry);
                    Gauge.builder("vigil.notifier.db.pool.idle", m, io.r2dbc.pool.PoolMetrics::idleSize)
                            .register(registry);
                    Gauge.builder("vigil.notifier.db.pool.pending", m, io.r2dbc.pool.PoolMetrics::pendingAcquireSize)
                            .register(registry);
                });
                Migrations.Target schema = Migrations.Target.fromR2dbc(
                        cfg.database().url(), cfg.database().username(), password);
                prepareSchema(schema, cfg.database());
                ServerDurability.warning(schema).ifPresent(w -> LOG.warn("{}", w));
                Duration lease = d.sendTimeoutDuration().multipliedBy(2).plusSeconds(5);
                ClaimStore store = new ClaimStore(
                        pool,
                        d.dedupeWindowDuration(),
                        lease,
                        instance,
                        d.claimBatchSize(),
                        Math.max(1, cfg.database().poolSize() / 3),
                        registry);

                KafkaProducer<byte[], byte[]> producer =
                        new KafkaProducer<>(producerProps(cfg), new ByteArraySerializer(), new ByteArraySerializer());
                closeables.add(() -> producer.close(Duration.ofSeconds(10)));
                KafkaClientMetrics producerMetrics = new KafkaClientMetrics(producer);
                producerMetrics.bindTo(registry);
                closeables.add(producerMetrics);
                KafkaEscalations escalations = new KafkaEscalations(
                        producer,
                        cfg.kafka().topics().deadLetter(),
                        cfg.kafka().topics().alerts(),
                        cfg.kafka().topics().escalations(),
                        cfg.kafka().topics().incidentNotes());
                // closed before the producer (closeables close in reverse): the queued timeline notes go out first
                closeables.add(escalations);

                DigestTables digestTables = new DigestTables(pool);
                Channels channels = new Channels(digestTables);
                closeables.add(channels);
                RetryPolicy policy = new RetryPolicy(
                        d.retryBaseDuration(),
                        d.retryMultiplier(),
                        d.retryCapDuration(),
                        d.deadlineDuration(),
                        () -> ThreadLocalRandom.current().nextDouble());
                DeadLetterStage deadLetters = new DeadLetterStage(
                        escalations,
                        loaded.routing().routes(),
                        store,
                        cfg.kafka().topics().alerts(),
                        clock,
                        timer);
                Map<String, ChannelPipeline> pipelines = new LinkedHashMap<>();
                for (ResolvedChannel c : loaded.routing().channels().values()) {
                    if (c.type() == ChannelType.BETTERSTACK) {
                        LOG.info("channel {} reaches the on-call person by severity: {}", c.name(), c.reach());
                    }
                    ChannelLane lane = new ChannelLane(c.name(), c.ratePerSecond(), c.concurrency(), timer);
                    closeables.add(lane);
                    Gauge.builder("vigil.notifier.queue", lane, ChannelLane::queued)
                            .tag("channel", c.name())
                            .register(registry);
                    pipelines.put(
                            c.name(),
                            new ChannelPipeline(
                                    c.name(),
                                    new ClaimStage(store, timer),
                                    lane,
                                    new SendStage(
                                            channels.build(c, d.sendTimeoutDuration(), clock),
                                            d.sendTimeoutDuration(),
                                            timer),
                                    new RecordStage(store, timer),
                                    deadLetters,
                                    policy,
                                    clock,
                                    timer,
                                    Duration.ofSeconds(1),
                                    registry));
                }
                for (String line : RoutePlans.describe(loaded.routing().routes(), pipelines)) {
                    LOG.info("notifier: {}", line);
                }
                for (var r : loaded.routing().routes().grouped()) {
                    List<String> grouping = r.channels().stream()
                            .filter(ch -> pipelines.get(ch).rendersGroups())
                            .toList();
                    LOG.info(
                            "route {} groups its pages {} on {}; one message per event on {}",
                            r.name(),
                            r.group(),
                            grouping,
                            r.channels().stream()
                                    .filter(ch -> !grouping.contains(ch))
                                    .toList());
                }
                // the notifier's copies of the silences and acknowledgements the topology reads as global stores
                AtomicReference<SilenceMatcher> matcher = new AtomicReference<>(SilenceMatcher.none());
                JsonSerde<Silence> silenceSerde = new JsonSerde<>(Silence.class);
                String silencesTopic = cfg.kafka().topics().silences();
                CompactedTopicView<Silence> silences = mirror(
                        cfg,
                        silencesTopic,
                        r -> silenceSerde.deserialize(silencesTopic, r.value()),
                        all -> matcher.set(new SilenceMatcher(all)));
                closeables.add(silences);
                JsonSerde<Ack> ackSerde = new JsonSerde<>(Ack.class);
                String acksTopic = cfg.kafka().topics().acks();
                CompactedTopicView<Ack> acks =
                        mirror(cfg, acksTopic, r -> ackSerde.deserialize(acksTopic, r.value()), all -> {});
                closeables.add(acks);
                this.mirrorsReady = () -> silences.isCaughtUp() && acks.isCaughtUp();
                Gauge.builder("vigil.notifier.silences", silences, CompactedTopicView::size)
                        .register(registry);
                Gauge.builder("vigil.notifier.acks", acks, CompactedTopicView::size)
                        .register(registry);
                // the end-to-end canary's events are consumed before routing, whether or not the switch is on;
                // only the instance that reads the canary's partition judges it
                AtomicReference<AlertConsumer> consumerRef = new AtomicReference<>();
                CanaryWatch canary = new CanaryWatch(cfg.deadMan().maxCanaryAgeDuration(), () -> {
                    AlertConsumer c = consumerRef.get();
                    return c == null ? java.util.OptionalLong.empty() : c.assignedSince(CanaryWatch.FINGERPRINT);
                });
                boolean escalates = loaded.routing().routes().escalates();
                TierLog tiers =
                        escalates ? new ShownTiers(new TierStore(pool, instance), escalations, clock) : TierLog.none();
                this.dispatcher = new Dispatcher(
                        loaded.routing().routes(),
                        pipelines,
                        store,
                        timer,
                        registry,
                        new SilenceGate(matcher::get, acks::get, clock),
                        canary,
                        tiers,
                        clock,
                        escalations);
                Gauge.builder("vigil.notifier.group.waiting", dispatcher, Dispatcher::waitingInGroups)
                        .register(registry);

                if (cfg.digest().enabled()) {
                    DigestWiring.Wired digest = DigestWiring.wire(
                            cfg,
                            loaded.routing().channels(),
                            channels,
                            digestTables,
                            store,
                            deadLetters,
                            policy,
                            acks::get,
                            instance,
                            clock,
                            timer,
                            registry);
                    closeables.addAll(digest.lanes());
                    closeables.add(digest.scheduler().start());
                }

                Map<String, List<String>> vendorChannels = new LinkedHashMap<>();
                for (ResolvedChannel c : loaded.routing().channels().values()) {
                    if (c.type() == ChannelType.BETTERSTACK) {
                        vendorChannels
                                .computeIfAbsent("betterstack", k -> new ArrayList<>())
                                .add(c.name());
                    }
                }
                VendorAcknowledgements vendorAcks = new VendorAcknowledgements(
                        store,
                        vendorChannels,
                        acks::get,
                        new KafkaVendorPublisher(
                                producer,
                                cfg.kafka().topics().acks(),
                                cfg.kafka().topics().alerts(),
                                cfg.kafka().topics().audit()),
                        clock);
                VendorUpdateConsumer vendorUpdates = new VendorUpdateConsumer(
                        cfg.kafka().bootstrapServers(),
                        cfg.kafka().groupId() + "-vendor-updates",
                        cfg.kafka().topics().vendorUpdates(),
                        vendorAcks,
                        registry);
                closeables.add(vendorUpdates);
                vendorUpdates.start();

                JsonSerde<AlertEvent> serde = VigilSerdes.alertEvent();
                this.consumer = new AlertConsumer(
                        consumerProps(cfg),
                        cfg.kafka().topics().alerts(),
                        cfg.kafka().maxInFlight(),
                        r -> handle(r, serde, escalations, clock),
                        Duration.ofSeconds(15),
                        registry);
                KafkaClientMetrics consumerMetrics = new KafkaClientMetrics(consumer.kafkaConsumer());
                consumerMetrics.bindTo(registry);
                closeables.add(consumerMetrics);
                Gauge.builder("vigil.notifier.inflight", consumer, AlertConsumer::inFlight)
                        .register(registry);
                consumerRef.set(consumer);
                consumer.startAfter(mirrorsReady);
                if (escalates) {
                    // only the instance consuming an incident's alerts fires its tiers: the climb then runs in the
                    // incident's order, after any acknowledgement or resolution this instance has read
                    closeables.add(new TierClock(
                                    tiers,
                                    dispatcher,
                                    fp -> consumer.assignedSince(fp).isPresent(),
                                    clock,
                                    timer,
                                    TierClock.EVERY,
                                    lease)
                            .start(registry));
                }
                if (loaded.deadManUrl().isPresent()) {
                    NotifierConfig.DeadMan dm = cfg.deadMan();
                    Scheduler single = Schedulers.newSingle("vigil-dead-man", true);
                    closeables.add(single::dispose);
                    this.deadMan = new DeadMansSwitch(
                                    canary,
                                    loaded.deadManUrl().get(),
                                    dm.intervalDuration(),
                                    dm.timeoutDuration(),
                                    DeadMansSwitch.httpPinger(dm.timeoutDuration()),
                                    escalations,
                                    single,
                                    registry)
                            .adoptingOpenStall(store.openIncidentFirstSeen(PipelineStalled.FINGERPRINT))
                            .start();
                }

                try {
                    this.http = OpsServer.start(
                            cfg.http().host(),
                            cfg.http().port(),
                            "notifier",
                            registry,
                            OpsRoutes.of(registry).readiness(() -> {
                                String why = notReadyReason();
                                return why == null ? Check.up(details()) : Check.down(why, details());
                            }));
                } catch (RuntimeException e) {
                    throw new StartupException(
                            "cannot serve health and metrics on " + cfg.http().host() + ":"
                                    + cfg.http().port() + ": " + rootMessage(e),
                            e);
                }
                LOG.info(
                        "notifier {} started: channels {}, http port {}",
                        instance,
                        loaded.routing().channels().keySet(),
                        http.port());
            } catch (RuntimeException e) {
                closeQuietly();
                throw e;
            }
        }

        private Mono<?> handle(
                ConsumerRecord<byte[], byte[]> r,
                JsonSerde<AlertEvent> serde,
                KafkaEscalations escalations,
                Clock clock) {
            AlertEvent e;
            try {
                e = serde.deserialize(r.topic(), r.value());
            } catch (RuntimeException ex) {
                String reason = ex instanceof JsonSerde.PoisonRecordException
                        ? ex.getMessage()
                        : "unreadable alert event: " + ex.getClass().getSimpleName();
                LOG.warn("poison record {}-{}@{} dead-lettered: {}", r.topic(), r.partition(), r.offset(), reason);
                String key = r.key() == null ? null : new String(r.key(), java.nio.charset.StandardCharsets.UTF_8);
                return escalations.deadLetter(
                        key,
                        DeadLetter.poison(
                                "notifier",
                                reason,
                                ex,
                                r.topic(),
                                r.partition(),
                                r.offset(),
                                r.key(),
                                r.value(),
                                clock.millis()));
            }
            if (e == null) {
                return Mono.empty();
            }
            if (!tracing.exporting()) {
                return dispatcher.dispatch(e);
            }
            return dispatcher.dispatch(e).contextWrite(c -> DeliveryTrace.in(c, tracing, tracing.extract(r.headers())));
        }

        public boolean ready() {
            return notReadyReason() == null;
        }

        /** Null when ready; else why not (the detail of the 503 on {@code /ready}). */
        private String notReadyReason() {
            if (closed.get()) {
                return "shutting down";
            }
            if (!mirrorsReady.getAsBoolean()) {
                return "silences and acknowledgements are still being read";
            }
            if (!consumer.isRunning()) {
                return "the alert consumer is not running";
            }
            if (!consumer.isAssigned()) {
                return "no alert partition is assigned to this instance yet";
            }
            return null;
        }

        private Map<String, Object> details() {
            Map<String, Object> m = new HashMap<>();
            m.put("instance", instance);
            m.put("inFlight", consumer.inFlight());
            m.put("paused", consumer.isPaused());
            m.put("silencesAndAcksRead", mirrorsReady.getAsBoolean());
            return m;
        }

        public int httpPort() {
            return http.port();
        }

        public String instance() {
            return instance;
        }

        public PrometheusMeterRegistry registry() {
            return registry;
        }

        public Dispatcher dispatcher() {
            return dispatcher;
        }

        /** Events read and not yet final (for tests and the launcher's status). */
        public int inFlight() {
            return consumer.inFlight();
        }

        /** True while the consumer has paused its partitions because {@code kafka.maxInFlight} events are unfinished. */
        public boolean paused() {
            return consumer.isPaused();
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                closeQuietly();
            }
        }

        private void closeQuietly() {
            if (deadMan != null) {
                deadMan.close();
            }
            if (http != null) {
                http.close();
            }
            if (dispatcher != null) {
                // a long group wait would outlast the drain: its events are sent now, so they finish and commit
                dispatcher.sendWaitingGroups();
            }
            if (consumer != null) {
                consumer.close();
            }
            for (int i = closeables.size() - 1; i >= 0; i--) {
                try {
                    closeables.get(i).close();
                } catch (Exception e) {
                    LOG.warn("closing: {}", e.toString());
                }
            }
            registry.close();
        }
    }

    /** The alert consumer's Kafka settings (read_committed, manual commits, static membership when configured). */
    /**
     * The notifier's copy of a compacted topic the topology reads as a global store (silences, acknowledgements), so
     * both apply the same records. An absent topic holds nothing yet; no event is routed before both are caught up,
     * so a restart cannot page through a silence it has not yet read.
     *
     * @param onChange called with the live values after every poll that changed them
     */
    private static <V> CompactedTopicView<V> mirror(
            NotifierConfig cfg,
            String topic,
            Function<ConsumerRecord<String, byte[]>, V> decode,
            java.util.function.Consumer<Collection<V>> onChange) {
        String name = "vigil-notifier-mirror-" + topic;
        return CompactedTopicView.of(
                        CompactedTopicView.consumerProperties(cfg.kafka().bootstrapServers(), name, Map.of()),
                        topic,
                        decode,
                        new CompactedTopicView.Listener<>() {
                            @Override
                            public void changed(Collection<V> values) {
                                onChange.accept(values);
                            }
                        },
                        CompactedTopicView.Options.of(name, CompactedTopicView.MissingTopic.HOLDS_NOTHING, true))
                .start();
    }

    public static Map<String, Object> consumerProps(NotifierConfig cfg) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cfg.kafka().bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, cfg.kafka().groupId());
        // static membership when configured: after a crash the restarted notifier takes its partitions back at once
        p.putAll(StaticMembership.consumerSettings(cfg.kafka().groupInstanceId()));
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // one poll never overshoots the in-flight bound by more than itself
        p.put(
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                Math.min(cfg.kafka().maxPollRecords(), cfg.kafka().maxInFlight()));
        p.put(
                ConsumerConfig.CLIENT_ID_CONFIG,
                "vigil-notifier-consumer-" + UUID.randomUUID().toString().substring(0, 8));
        return p;
    }

    static Map<String, Object> producerProps(NotifierConfig cfg) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cfg.kafka().bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(
                ProducerConfig.CLIENT_ID_CONFIG,
                "vigil-notifier-producer-" + UUID.randomUUID().toString().substring(0, 8));
        return p;
    }

    /**
     * Runs the migrations, retrying with the kit's backoff until {@code database.startupWait} has passed: PostgreSQL
     * may still be starting, or the machine busy starting its other processes, when the notifier starts. Flyway is
     * blocking JDBC and runs here, on the starting thread, before anything is consumed.
     */
    private static void prepareSchema(Migrations.Target target, NotifierConfig.Database db) {
        Duration wait = db.startupWaitDuration();
        long deadline = System.nanoTime() + wait.toNanos();
        Backoff backoff = Backoff.jittered(Duration.ofMillis(250), 2.0, Duration.ofSeconds(5));
        for (int attempt = 1; ; attempt++) {
            try {
                Migrations.migrate(target);
                return;
            } catch (RuntimeException e) {
                Duration pause = backoff.delay(attempt);
                if (System.nanoTime() + pause.toNanos() >= deadline) {
                    throw new StartupException(
                            "cannot prepare the PostgreSQL schema at " + db.url() + " as "
                                    + db.username() + ": " + rootMessage(e) + " (tried " + attempt + " times in "
                                    + DurationText.format(wait) + ", database.startupWait)",
                            e);
                }
                LOG.warn(
                        "PostgreSQL at {} not ready for the schema (attempt {}): {}; retrying in {} ms",
                        db.url(),
                        attempt,
                        rootMessage(e),
                        pause.toMillis());
                try {
                    Thread.sleep(pause.toMillis());
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new StartupException("interrupted while preparing the PostgreSQL schema", ie);
                }
            }
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }
}
