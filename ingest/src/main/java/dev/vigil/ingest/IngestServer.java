package dev.vigil.ingest;

import dev.vigil.ingest.auth.ApiKeys;
import dev.vigil.ingest.auth.SignatureVerifier;
import dev.vigil.ingest.auth.WebhookToken;
import dev.vigil.ingest.config.EdgeLimits;
import dev.vigil.ingest.config.IngestConfig;
import dev.vigil.ingest.heartbeat.HeartbeatCatalog;
import dev.vigil.ingest.heartbeat.MonitorsFollower;
import dev.vigil.ingest.publish.AcknowledgedPublisher;
import dev.vigil.ingest.quota.BodyShares;
import dev.vigil.ingest.quota.IngestQuotas;
import dev.vigil.ingest.route.AccessLogFormat;
import dev.vigil.ingest.route.AlertsHandler;
import dev.vigil.ingest.route.BatchResponder;
import dev.vigil.ingest.route.BetterStackWebhookHandler;
import dev.vigil.ingest.route.BodyReader;
import dev.vigil.ingest.route.HeartbeatHandler;
import dev.vigil.ingest.route.MetricsHandler;
import dev.vigil.ingest.route.PathRedaction;
import dev.vigil.ingest.route.Responder;
import dev.vigil.ingest.route.SignedBatchHandler;
import dev.vigil.ingest.validate.BatchParser;
import dev.vigil.ingest.validate.MetricValidator;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.http.HttpProblem;
import dev.vigil.kit.http.ServerGuard;
import dev.vigil.kit.http.ServerLimits;
import dev.vigil.kit.main.ExitCode;
import dev.vigil.kit.ops.Check;
import dev.vigil.kit.ops.OpsRoutes;
import dev.vigil.kit.trace.Tracing;
import dev.vigil.schemas.sign.RequestSigner;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * Wiring and entry points of the ingest service: {@link #start(IngestConfig)} for a launcher (returns a
 * running handle that reports its bound port), {@link #main} for a process.
 */
public final class IngestServer {
    private static final Logger LOG = LoggerFactory.getLogger(IngestServer.class);

    private IngestServer() {}

    /** Starts with secrets from the process environment and the system clock. */
    public static Running start(IngestConfig config) {
        return start(config, System.getenv(), Clock.systemUTC());
    }

    /**
     * @param env   where probe-worker secrets and webhook tokens are looked up by {@code secretEnv}/{@code tokenEnv} name
     * @param clock wall clock for timestamp skew and signature staleness
     * @throws ConfigLoader.ConfigException when a probe-worker secret or a webhook token is missing or unusable
     */
    public static Running start(IngestConfig config, Map<String, String> env, Clock clock) {
        List<String> problems = new ArrayList<>();
        Map<String, SignatureVerifier.WorkerKey> workerKeys = workerKeys(config, env, problems);
        WebhookToken betterStackToken = betterStackToken(config, env, problems);
        if (!problems.isEmpty()) {
            throw new ConfigLoader.ConfigException(problems);
        }
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);

        AtomicLong inFlight = new AtomicLong();
        registry.gauge("vigil.ingest.inflight.bytes", inFlight);
        var limits = config.limits();
        AcknowledgedPublisher publisher = new AcknowledgedPublisher(config.kafka(), registry);
        Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.kafka().bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2000,
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000));

        Responder responder = new Responder(registry);
        BodyShares shares = new BodyShares(
                limits.maxInFlightBodyBytes(),
                config.quotas().alertsReservedBodyBytes(limits),
                config.quotas().bodyBytesPerPrincipal(limits));
        registry.gauge("vigil.ingest.body.budget.used.bytes", shares, BodyShares::used);
        IngestQuotas quotas = IngestQuotas.of(config.quotas(), System::nanoTime);
        BodyReader bodies = new BodyReader(limits.maxBodyBytes(), inFlight, limits.requestTimeout(), shares);
        FunctionCounter.builder("vigil.ingest.body.allocated.bytes", bodies, BodyReader::allocatedBytes)
                .description(
                        "bytes allocated for request body buffers (grows with bytes received, never with a declared length)")
                .baseUnit("bytes")
                .register(registry);
        BatchParser parser = new BatchParser(limits.maxEvents());
        Tracing tracing = Tracing.start(
                "ingest", config.http().host() + ":" + config.http().port(), config.otel(), env, registry);
        BatchResponder batches = new BatchResponder(
                publisher,
                responder,
                registry,
                (int) config.kafka().retryAfter().toSeconds(),
                tracing);
        ApiKeys apiKeys = new ApiKeys(config.apiKeys());
        var topics = config.kafka().topics();
        MetricsHandler metrics = new MetricsHandler(
                apiKeys,
                bodies,
                parser,
                new MetricValidator(limits.timestampSkew().toMillis()),
                batches,
                responder,
                topics.metrics(),
                clock,
                quotas);
        SignatureVerifier verifier = new SignatureVerifier(
                workerKeys, limits.replayCacheSize(), limits.signatureSkew().toMillis(), clock);
        var probes = SignedBatchHandler.probeResults(
                verifier,
                bodies,
                parser,
                batches,
                responder,
                topics.probeResults(),
                limits.signatureSkew().toMillis(),
                clock);
        var heartbeats = SignedBatchHandler.heartbeats(
                verifier,
                bodies,
                parser,
                batches,
                responder,
                topics.heartbeats(),
                limits.signatureSkew().toMillis(),
                clock);
        AlertsHandler alerts = new AlertsHandler(
                apiKeys,
                bodies,
                limits.maxEvents(),
                limits.timestampSkew().toMillis(),
                batches,
                responder,
                topics.alerts(),
                clock,
                quotas);
        // Off unless configured: then nothing is routed there and the catch-all answers 404.
        BetterStackWebhookHandler betterStack = betterStackToken == null
                ? null
                : new BetterStackWebhookHandler(
                        betterStackToken,
                        bodies,
                        limits.timestampSkew().toMillis(),
                        batches,
                        responder,
                        registry,
                        topics.vendorUpdates(),
                        clock);
        // Heartbeat pings are checked against ingest's own copy of the heartbeat monitors (and their token hashes).
        HeartbeatCatalog heartbeatMonitors = new HeartbeatCatalog();
        registry.gauge("vigil.ingest.heartbeat.monitors", heartbeatMonitors, HeartbeatCatalog::size);
        registry.gauge("vigil.ingest.heartbeat.catalog.ready", heartbeatMonitors, c -> c.ready() ? 1 : 0);
        HeartbeatHandler pings = new HeartbeatHandler(
                heartbeatMonitors, batches, responder, registry, topics.probeResults(), clock, limits.requestTimeout());
        // each route's 202s and accepted events are counted from the start (an idle route reads 0, not "No data")
        List<String> routes = new ArrayList<>(List.of(
                MetricsHandler.ROUTE,
                probes.route(),
                heartbeats.route(),
                AlertsHandler.ROUTE,
                HeartbeatHandler.ROUTE,
                HeartbeatHandler.FAIL_ROUTE));
        if (betterStack != null) {
            routes.addAll(List.of(BetterStackWebhookHandler.ROUTE, BetterStackWebhookHandler.PATH_ROUTE));
        }
        routes.forEach(batches::expect);

        // Header/body/idle timeouts, the server-wide body budget (503 + Retry-After) and the Host allow-list are
        // enforced by the service kit before any route runs.
        ServerLimits edge = EdgeLimits.of(config);
        OpsRoutes ops = OpsRoutes.of(registry).readiness(() -> readiness(publisher, admin));
        // The access log (off unless Reactor Netty's switch is set) writes paths redacted: a webhook token is one.
        DisposableServer server;
        try {
            server = ServerGuard.apply(
                            HttpServer.create()
                                    .host(config.http().host())
                                    .port(config.http().port()),
                            edge,
                            "ingest",
                            registry)
                    .accessLog(AccessLogFormat.enabled(), AccessLogFormat.factory())
                    .route(r -> {
                        r.post(MetricsHandler.ROUTE, metrics::handle)
                                .post(probes.route(), probes::handle)
                                .post(heartbeats.route(), heartbeats::handle)
                                .post(AlertsHandler.ROUTE, alerts::handle);
                        if (betterStack != null) {
                            r.route(BetterStackWebhookHandler::matches, betterStack::handle);
                        }
                        r.route(HeartbeatHandler::matches, pings::handle);
                        ops.accept(r);
                        r.route(
                                req -> true,
                                (req, res) -> Responder.guard(
                                        Mono.error(new HttpProblem(
                                                404,
                                                "not-found",
                                                "Not found",
                                                "no such endpoint: " + req.method() + " /"
                                                        + PathRedaction.redact(req.path()))),
                                        "other",
                                        req,
                                        res,
                                        responder,
                                        limits.maxBodyBytes()));
                    })
                    .bindNow(Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            // nothing is listening: let go of the Kafka clients already made, so a failed start leaves no threads
            admin.close(Duration.ofSeconds(1));
            publisher.close();
            gc.close();
            registry.close();
            throw e;
        }
        // until it has caught up with the topic, pings are answered 503 + Retry-After
        MonitorsFollower monitorsFollower = new MonitorsFollower(config.kafka(), heartbeatMonitors).start();
        LOG.info(
                "ingest listening on {}:{} (metrics → {}, probe results and heartbeat pings → {}, heartbeats → {}, alerts → {}, "
                        + "BetterStack webhook {}; hosts {}; heartbeat monitors from {})",
                config.http().host(),
                server.port(),
                topics.metrics(),
                topics.probeResults(),
                topics.heartbeats(),
                topics.alerts(),
                betterStack == null ? "off" : "→ " + topics.vendorUpdates(),
                edge.allowedHosts().isEmpty() ? "any" : new java.util.TreeSet<>(edge.allowedHosts()),
                topics.monitors());
        return new Running(server, publisher, admin, registry, gc, monitorsFollower, tracing);
    }

    /** Ready once every transactional producer is initialised and the cluster answers; run off the event loop. */
    private static Check readiness(AcknowledgedPublisher publisher, Admin admin) {
        if (!publisher.ready()) {
            return Check.down("the Kafka producers are not initialised yet");
        }
        try {
            if (!admin.describeCluster(new DescribeClusterOptions().timeoutMs(1500))
                    .nodes()
                    .get(2, TimeUnit.SECONDS)
                    .isEmpty()) {
                return Check.up();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // not answering: not ready
        }
        return Check.down("the Kafka cluster does not answer");
    }

    private static Map<String, SignatureVerifier.WorkerKey> workerKeys(
            IngestConfig config, Map<String, String> env, List<String> problems) {
        Map<String, SignatureVerifier.WorkerKey> keys = new HashMap<>();
        config.probeWorkers().forEach((keyId, k) -> {
            String secret = env.get(k.secretEnv());
            if (secret == null || secret.isEmpty()) {
                problems.add(
                        "probeWorkers." + keyId + ".secretEnv: environment variable " + k.secretEnv() + " is not set");
            } else if (secret.getBytes(StandardCharsets.UTF_8).length < 32) {
                problems.add("probeWorkers." + keyId + ".secretEnv: the secret in " + k.secretEnv()
                        + " must be at least 32 bytes");
            } else {
                keys.put(
                        keyId,
                        new SignatureVerifier.WorkerKey(
                                k.region(),
                                k.workerIdOr(keyId),
                                new RequestSigner(secret.getBytes(StandardCharsets.UTF_8))));
            }
        });
        return keys;
    }

    /** The BetterStack webhook token, hashed at once; null when the integration is not configured. */
    private static WebhookToken betterStackToken(IngestConfig config, Map<String, String> env, List<String> problems) {
        IngestConfig.BetterStack betterStack = config.integrations().betterstack();
        if (betterStack == null) {
            return null;
        }
        String name = betterStack.tokenEnv();
        String token = env.get(name);
        if (token == null || token.isEmpty()) {
            problems.add("integrations.betterstack.tokenEnv: environment variable " + name + " is not set");
            return null;
        }
        var problem = WebhookToken.problem(token);
        if (problem.isPresent()) {
            problems.add("integrations.betterstack.tokenEnv: the token in " + name + " " + problem.get());
            return null;
        }
        return WebhookToken.of(token);
    }

    /** Loads {@code vigil-ingest.yaml} (first argument or {@code VIGIL_CONFIG}), starts, runs until SIGTERM. */
    public static void main(String[] args) throws InterruptedException {
        String path = args.length > 0 ? args[0] : System.getenv("VIGIL_CONFIG");
        IngestConfig config;
        try {
            config = IngestConfig.load(path == null ? null : Path.of(path), System.getenv());
        } catch (ConfigLoader.ConfigException e) {
            System.err.println("vigil-ingest: " + e.getMessage());
            System.exit(ExitCode.CONFIG.code());
            return;
        }
        Running running;
        try {
            running = start(config);
        } catch (ConfigLoader.ConfigException e) {
            System.err.println("vigil-ingest: " + e.getMessage());
            System.exit(ExitCode.CONFIG.code());
            return;
        } catch (RuntimeException e) {
            System.err.println("vigil-ingest failed to start: " + e.getMessage());
            System.exit(ExitCode.STARTUP.code());
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            running.close();
                            stopped.countDown();
                        },
                        "ingest-shutdown"));
        stopped.await();
    }

    /** A running ingest server. Closing stops accepting connections, lets queued batches finish, closes the producers. */
    public static final class Running implements AutoCloseable {
        private final DisposableServer server;
        private final AcknowledgedPublisher publisher;
        private final Admin admin;
        private final PrometheusMeterRegistry registry;
        private final JvmGcMetrics gc;
        private final MonitorsFollower monitorsFollower;
        private final Tracing tracing;
        private boolean closed;

        Running(
                DisposableServer server,
                AcknowledgedPublisher publisher,
                Admin admin,
                PrometheusMeterRegistry registry,
                JvmGcMetrics gc,
                MonitorsFollower monitorsFollower,
                Tracing tracing) {
            this.tracing = tracing;
            this.server = server;
            this.publisher = publisher;
            this.admin = admin;
            this.registry = registry;
            this.gc = gc;
            this.monitorsFollower = monitorsFollower;
        }

        public int port() {
            return server.port();
        }

        public String baseUrl() {
            return "http://127.0.0.1:" + port();
        }

        public PrometheusMeterRegistry registry() {
            return registry;
        }

        @Override
        public synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            server.disposeNow(Duration.ofSeconds(15));
            monitorsFollower.close();
            publisher.close();
            tracing.close();
            admin.close(Duration.ofSeconds(2));
            gc.close();
            registry.close();
            LOG.info("ingest stopped");
        }

        /** Waits for the publisher to have initialised its producers (for launchers and tests). */
        public boolean awaitReady(Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                if (publisher.ready()) {
                    return true;
                }
                TimeUnit.MILLISECONDS.sleep(20);
            }
            return publisher.ready();
        }
    }
}
