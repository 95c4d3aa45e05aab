package dev.vigil.probe;

import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.main.ExitCode;
import dev.vigil.kit.net.Cidr;
import dev.vigil.kit.net.HostResolver;
import dev.vigil.kit.net.TargetGuard;
import dev.vigil.kit.ops.Check;
import dev.vigil.kit.ops.OpsRoutes;
import dev.vigil.kit.ops.OpsServer;
import dev.vigil.kit.trace.Tracing;
import dev.vigil.probe.config.ProbeWorkerConfig;
import dev.vigil.probe.http.ProbeMetrics;
import dev.vigil.probe.probe.ProbeSettings;
import dev.vigil.probe.probe.Probes;
import dev.vigil.probe.probe.StallWatch;
import dev.vigil.probe.probe.TrustStores;
import dev.vigil.probe.publish.KafkaResultPublisher;
import dev.vigil.probe.publish.RemoteResultPublisher;
import dev.vigil.probe.publish.ResultPublisher;
import dev.vigil.probe.schedule.FileMonitorFeed;
import dev.vigil.probe.schedule.FleetRegions;
import dev.vigil.probe.schedule.KafkaMonitorFeed;
import dev.vigil.probe.schedule.MonitorSink;
import dev.vigil.probe.schedule.ProbeScheduler;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.schemas.json.VigilSerdes;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The probe worker service: monitors in (topic or file), window-aligned probes, results out (Kafka or
 * signed HTTP to ingest), heartbeats, metrics and health. {@link #start(ProbeWorkerConfig)} is the
 * programmatic entry point the standalone launcher uses; {@link #main(String[])} runs it as a process.
 */
public final class ProbeWorker {
    private static final Logger LOG = LoggerFactory.getLogger(ProbeWorker.class);

    private ProbeWorker() {}

    public static void main(String[] args) {
        String path = args.length > 0 ? args[0] : System.getenv("VIGIL_CONFIG");
        Running running;
        try {
            ProbeWorkerConfig cfg =
                    ProbeWorkerConfig.load(path == null || path.isBlank() ? null : Path.of(path), System.getenv());
            running = start(cfg);
        } catch (ConfigLoader.ConfigException e) {
            System.err.println("vigil probe worker: " + e.getMessage());
            System.exit(ExitCode.CONFIG.code());
            return;
        } catch (RuntimeException e) {
            System.err.println("vigil probe worker failed to start: " + e.getMessage());
            System.exit(ExitCode.STARTUP.code());
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(running::close, "vigil-probe-shutdown"));
        LOG.info(
                "probe worker {} in region {} listening on port {}",
                running.config().workerId(),
                running.config().region(),
                running.httpPort());
    }

    public static Running start(ProbeWorkerConfig cfg) {
        return start(cfg, System.getenv());
    }

    /** Starts every part; on a start-up problem releases what was started and throws ConfigException. */
    public static Running start(ProbeWorkerConfig cfg, Map<String, String> env) {
        return new Running(cfg, env, ResultPublisher.Listener.NONE);
    }

    /** As {@link #start(ProbeWorkerConfig, Map)}, with an observer of every result's delivery. */
    public static Running start(ProbeWorkerConfig cfg, Map<String, String> env, ResultPublisher.Listener observer) {
        return new Running(cfg, env, observer);
    }

    /** {@code /health}, {@code /ready} (503 problem while {@code notReadyReason} gives one) and {@code /metrics}. */
    static OpsRoutes ops(ProbeMetrics metrics, Supplier<String> notReadyReason) {
        return OpsRoutes.of(metrics.registry()).readiness(() -> Check.unless(notReadyReason.get()));
    }

    /** A running worker. Close to drain in-flight probes, flush results and stop. */
    public static final class Running implements AutoCloseable {
        private final ProbeWorkerConfig config;
        private final ProbeMetrics metrics = new ProbeMetrics();
        private final Scheduler timer = Schedulers.newSingle("vigil-probe-scheduler");
        private final ResultPublisher publisher;
        private final ProbeScheduler scheduler;
        private final FleetRegions fleet = new FleetRegions();
        private final List<AutoCloseable> closeables = new ArrayList<>();
        private final KafkaMonitorFeed kafkaFeed;
        private final Disposable heartbeats;
        private final OpsServer http;
        private final Tracing tracing;
        private volatile boolean closed;

        Running(ProbeWorkerConfig cfg, Map<String, String> env, ResultPublisher.Listener observer) {
            this.config = cfg;
            ResultPublisher.Listener delivery = new ResultPublisher.Listener() {
                @Override
                public void acknowledged(dev.vigil.schemas.contract.ProbeResult result) {
                    metrics.acknowledged(result);
                    observer.acknowledged(result);
                }

                @Override
                public void failed(dev.vigil.schemas.contract.ProbeResult result, Throwable error) {
                    metrics.failed(result, error);
                    observer.failed(result, error);
                }

                @Override
                public void heartbeatAcknowledged(WorkerHeartbeat heartbeat) {
                    metrics.heartbeatAcknowledged(heartbeat);
                    observer.heartbeatAcknowledged(heartbeat);
                }

                @Override
                public void heartbeatFailed(WorkerHeartbeat heartbeat, Throwable error) {
                    metrics.heartbeatFailed(heartbeat, error);
                    observer.heartbeatFailed(heartbeat, error);
                }

                @Override
                public void retrySucceeded() {
                    metrics.retrySucceeded();
                    observer.retrySucceeded();
                }
            };
            this.tracing = Tracing.start(
                    "probe-worker", cfg.region() + "/" + cfg.workerId(), cfg.otel(), env, metrics.registry());
            try {
                ProbeSettings settings = new ProbeSettings(
                                cfg.region(),
                                cfg.workerId(),
                                ProbeWorkerConfig.VERSION,
                                trust(cfg.trustedCaFile()),
                                true,
                                System::currentTimeMillis)
                        .withSecrets(env, java.util.Set.copyOf(cfg.headerSecrets()));
                TargetGuard guard = new TargetGuard(
                        cfg.allowList().stream().map(Cidr::parse).toList(), HostResolver.system());
                StallWatch stallWatch = StallWatch.start();
                closeables.add(stallWatch);
                metrics.bindStalls(() -> {
                    long now = System.currentTimeMillis();
                    return stallWatch.worstMs(now - 60_000, now) / 1000.0;
                });
                Probes probes = Probes.standard(guard, settings, stallWatch.stalls());
                this.publisher = publisher(cfg, env, delivery);
                this.scheduler = new ProbeScheduler(
                        cfg.region(),
                        cfg.workerId(),
                        timer,
                        (m, ws) -> probes.probe(m, ws)
                                .doOnNext(metrics::record)
                                .switchIfEmpty(Mono.fromRunnable(() -> metrics.notRun(m.type()))),
                        publisher::publish,
                        cfg.concurrency(),
                        metrics,
                        Schedulers.parallel());
                metrics.bindGauges(scheduler::inFlight, scheduler::monitorsAssigned);
                // Every definition goes to the scheduler (which keeps those of this region) and to the fleet view.
                MonitorSink monitors = MonitorSink.both(scheduler, fleet);
                if (!cfg.monitorsFile().isEmpty()) {
                    closeables.add(
                            new FileMonitorFeed(Path.of(cfg.monitorsFile()), monitors).start(Duration.ofSeconds(5)));
                    this.kafkaFeed = null;
                } else {
                    KafkaResultPublisher kafka = publisher instanceof KafkaResultPublisher k ? k : null;
                    this.kafkaFeed = new KafkaMonitorFeed(
                            cfg.kafka().bootstrapServers(),
                            cfg.workerId() + "-monitors",
                            cfg.kafka().topics().monitors(),
                            monitors,
                            dl -> {
                                if (kafka != null) {
                                    kafka.producer()
                                            .send(
                                                    new ProducerRecord<>(
                                                            cfg.kafka().topics().deadLetter(),
                                                            dl.key(),
                                                            VigilSerdes.deadLetter()
                                                                    .serialize(
                                                                            cfg.kafka()
                                                                                    .topics()
                                                                                    .deadLetter(),
                                                                            dl)),
                                                    (md, e) -> {
                                                        if (e != null) {
                                                            LOG.error(
                                                                    "dead letter for monitor definition {} was not delivered ({}): {}",
                                                                    dl.key(),
                                                                    dl.reason(),
                                                                    e.toString());
                                                        }
                                                    });
                                }
                            });
                    new KafkaClientMetrics(kafkaFeed.consumer()).bindTo(metrics.registry());
                    kafkaFeed.start();
                }
                long hb = cfg.heartbeatInterval().toMillis();
                this.heartbeats = timer.schedulePeriodically(this::heartbeat, 0, hb, TimeUnit.MILLISECONDS);
                this.http = OpsServer.start(
                        cfg.http().host(),
                        cfg.http().port(),
                        "probe",
                        metrics.registry(),
                        ops(metrics, this::notReadyReason));
            } catch (RuntimeException e) {
                closeQuietly();
                throw e;
            }
        }

        private ResultPublisher publisher(
                ProbeWorkerConfig cfg, Map<String, String> env, ResultPublisher.Listener delivery) {
            if (cfg.remote().enabled()) {
                String secret = env.get(cfg.remote().secretEnv());
                if (secret == null || secret.isBlank()) {
                    throw new ConfigLoader.ConfigException(List.of("remote.secretEnv: environment variable "
                            + cfg.remote().secretEnv() + " is not set"));
                }
                if (secret.getBytes(StandardCharsets.UTF_8).length < 32) {
                    throw new ConfigLoader.ConfigException(List.of("remote.secretEnv: the secret in "
                            + cfg.remote().secretEnv() + " must be at least 32 bytes"));
                }
                return new RemoteResultPublisher(
                        cfg.remote().ingestUrl(),
                        cfg.remote().keyId(),
                        cfg.region(),
                        secret.getBytes(StandardCharsets.UTF_8),
                        cfg.remote().batchSize(),
                        cfg.remote().flushInterval(),
                        System::currentTimeMillis,
                        delivery);
            }
            KafkaResultPublisher kafka = new KafkaResultPublisher(
                    cfg.kafka().bootstrapServers(),
                    cfg.workerId() + "-results",
                    cfg.kafka().topics().probeResults(),
                    cfg.kafka().topics().heartbeats(),
                    Map.of(),
                    delivery,
                    tracing);
            new KafkaClientMetrics(kafka.producer()).bindTo(metrics.registry());
            return kafka;
        }

        private static TrustManagerFactory trust(String pemFile) {
            return pemFile.isEmpty() ? null : TrustStores.jdkPlus(Path.of(pemFile));
        }

        private void heartbeat() {
            try {
                publisher.heartbeat(
                        heartbeat(config.workerId(), config.region(), scheduler, fleet, System.currentTimeMillis()));
            } catch (RuntimeException e) {
                LOG.warn("heartbeat failed: {}", e.toString());
            }
        }

        /** The worker's heartbeat now: its load, and the self-watch counts (probes started and skipped, regions named). */
        static WorkerHeartbeat heartbeat(
                String workerId, String region, ProbeScheduler scheduler, FleetRegions fleet, long now) {
            return new WorkerHeartbeat(
                    1,
                    workerId,
                    region,
                    now,
                    scheduler.inFlight(),
                    scheduler.monitorsAssigned(),
                    ProbeWorkerConfig.VERSION,
                    scheduler.probesStarted(),
                    scheduler.skippedWindows(),
                    fleet.regionsNamed());
        }

        /** The worker's view of which regions the fleet's monitors name. */
        public FleetRegions fleet() {
            return fleet;
        }

        /** Null when ready; else why not. */
        public String notReadyReason() {
            if (closed) {
                return "shutting down";
            }
            if (kafkaFeed != null && !kafkaFeed.ready()) {
                return "monitor definitions are still loading from "
                        + config.kafka().topics().monitors();
            }
            if (!publisher.healthy()) {
                return "results cannot be delivered right now";
            }
            return null;
        }

        public boolean ready() {
            return notReadyReason() == null;
        }

        public int httpPort() {
            return http.port();
        }

        public ProbeWorkerConfig config() {
            return config;
        }

        public ProbeScheduler scheduler() {
            return scheduler;
        }

        public ResultPublisher publisher() {
            return publisher;
        }

        public ProbeMetrics metrics() {
            return metrics;
        }

        @Override
        public synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            closeQuietly();
        }

        private void closeQuietly() {
            run(() -> kafkaFeed.close(), kafkaFeed != null);
            closeables.forEach(c -> run(c::close, true));
            run(() -> scheduler.drain(config.drainTimeout()).block(), scheduler != null);
            run(() -> heartbeats.dispose(), heartbeats != null);
            run(this::heartbeat, publisher != null && scheduler != null);
            run(() -> publisher.close(Duration.ofSeconds(30)), publisher != null);
            run(() -> http.close(), http != null);
            run(timer::dispose, true);
            run(tracing::close, true);
            run(metrics::close, true);
        }

        private interface Step {
            void run() throws Exception;
        }

        private static void run(Step step, boolean when) {
            if (!when) {
                return;
            }
            try {
                step.run();
            } catch (Exception e) {
                LOG.warn("shutdown step failed: {}", e.toString());
            }
        }
    }
}
