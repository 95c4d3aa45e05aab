package dev.vigil.standalone.launch;

import dev.vigil.embedded.kafka.EmbeddedKafka;
import dev.vigil.embedded.net.LocalPorts;
import dev.vigil.embedded.postgres.EmbeddedPostgres;
import dev.vigil.embedded.postgres.PostgresDatabase;
import dev.vigil.ingest.IngestServer;
import dev.vigil.ingest.config.IngestConfig;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.notifier.NotifierService;
import dev.vigil.notifier.config.NotifierSettings;
import dev.vigil.probe.ProbeWorker;
import dev.vigil.probe.config.ProbeWorkerConfig;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.standalone.monitors.MonitorCatalog;
import dev.vigil.streams.app.StreamsApp;
import dev.vigil.streams.app.TokensFile;
import dev.vigil.streams.config.StreamsServiceConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Vigil in one JVM: an embedded KRaft broker (data kept in the data directory between runs), an embedded
 * PostgreSQL unless {@code VIGIL_DB_URL} names a server, and every service — streams with its query API,
 * the notifier, ingest, and one probe worker per region — each configured through its own configuration
 * loader, exactly as the separate containers are, with the standalone values given as {@code VIGIL_*}
 * overrides and generated YAML under {@code <dataDir>/config}.
 */
public final class StandaloneLauncher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StandaloneLauncher.class);

    private final StandaloneOptions options;
    private final Deque<Named> running = new ArrayDeque<>();
    private EmbeddedKafka kafka;
    private EmbeddedPostgres postgres;
    private int ingestPort;
    private int queryPort;
    /** Names the variables the probe workers may send as {@code secretEnv} headers (comma-separated). */
    public static final String HEADER_SECRETS_ENV = "VIGIL_HEADER_SECRETS";
    /**
     * The embedded broker's {@code broker.session.timeout.ms} here: eight of its {@link #BROKER_HEARTBEAT_MS}
     * heartbeats. The broker and its controller share the JVM, so a broker that misses them is gone, and a restart
     * after {@code kill -9} cannot register before the dead incarnation's session ends: this is how long the restart
     * waits for its own broker (the default 9 s, the tests' 6 s, is that much longer blind).
     */
    static final int BROKER_SESSION_TIMEOUT_MS = 2000;

    static final int BROKER_HEARTBEAT_MS = 250;
    private GeneratedConfig.AdminToken adminToken;
    private GeneratedConfig.WebhookToken webhookToken;
    /** A YAML file of more query API tokens ({@code tokens: [{name, sha256, scopes}]}) next to the generated admin one. */
    public static final String TOKENS_FILE_ENV = "VIGIL_EXTRA_TOKENS_FILE";

    private int notifierPort;
    private final List<Integer> probePorts = new ArrayList<>();
    private final Map<String, ProbeSlot> probeSlots = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * One region's probe worker, which can be stopped and started again with the same settings: the drill of a region
     * whose worker is gone (Vigil must page once about itself, never about the monitors it stops watching).
     */
    private static final class ProbeSlot implements AutoCloseable {
        private final Map<String, String> env;
        private ProbeWorker.Running worker;
        private int port;

        ProbeSlot(Map<String, String> env) {
            this.env = Map.copyOf(env);
        }

        synchronized ProbeWorker.Running start() {
            if (worker == null) {
                // the same port as before, so its /metrics stays where it was advertised
                Map<String, String> withPort = new HashMap<>(env);
                if (port > 0) {
                    withPort.put("VIGIL_HTTP_PORT", Integer.toString(port));
                }
                worker = ProbeWorker.start(ProbeWorkerConfig.load(null, withPort), withPort);
                port = worker.httpPort();
            }
            return worker;
        }

        synchronized int port() {
            return port;
        }

        @Override
        public synchronized void close() {
            if (worker != null) {
                ProbeWorker.Running w = worker;
                worker = null;
                w.close();
            }
        }
    }

    private record Named(String name, AutoCloseable component) {}

    private StandaloneLauncher(StandaloneOptions options) {
        this.options = options;
    }

    /**
     * Starts everything, reporting each step to {@code progress}. On any failure, whatever started is
     * stopped again and the failure is rethrown with the step that failed.
     */
    public static StandaloneLauncher start(
            StandaloneOptions options, Map<String, String> processEnv, Consumer<String> progress) {
        StandaloneLauncher launcher = new StandaloneLauncher(options);
        try {
            launcher.startAll(processEnv, progress);
            return launcher;
        } catch (RuntimeException e) {
            launcher.close();
            throw e;
        }
    }

    private void startAll(Map<String, String> processEnv, Consumer<String> progress) {
        if (options.deadMan().enabled()) {
            String name = options.deadMan().urlEnv();
            String url = processEnv.get(name);
            if (url == null || url.isBlank()) {
                throw new LaunchException(
                        "--deadman-url-env " + name + ": the variable " + name + " is not set (it"
                                + " holds the external heartbeat URL); nothing was started",
                        null);
            }
        }
        Path dataDir = options.dataDir().toAbsolutePath();
        Path configDir = dataDir.resolve("config");
        createDirectories(configDir);
        try {
            // the generated secrets live here: only their owner may list or enter it
            java.nio.file.Files.setPosixFilePermissions(
                    configDir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException | java.io.IOException e) {
            // not a POSIX file system: the secret files themselves are still created owner-only where possible
        }

        long t = System.nanoTime();
        // stopped last by this launcher's ordered close (the shutdown hook's too), after every service that uses it
        EmbeddedPostgres.Builder pg = EmbeddedPostgres.builder().poolSize(2).stopOnJvmExit(false);
        String externalDb = processEnv.get(EmbeddedPostgres.URL_ENV);
        if (externalDb == null || externalDb.isBlank()) {
            pg.port(options.postgresPort()).dataDir(dataDir.resolve("postgres")).useEnvironment(false);
        } else {
            pg.externalUrl(externalDb);
        }
        // PostgreSQL starts beside the broker, not after it: after a crash both recover (and the database may first
        // stop the server the dead JVM left running), and neither needs the other to start
        progress.accept("starting PostgreSQL (beside the broker) ...");
        CompletableFuture<EmbeddedPostgres> pgStart =
                CompletableFuture.supplyAsync(() -> pg.build().start(), r -> {
                    Thread th = new Thread(r, "vigil-postgres-start");
                    th.setDaemon(true);
                    th.start();
                });
        try {
            kafka = step(progress, "Kafka broker", () -> EmbeddedKafka.builder()
                    .port(options.kafkaPort())
                    .dataDir(dataDir.resolve("kafka"))
                    // a restart after kill -9 waits out the dead broker's registration for this long: the
                    // broker and its controller share this JVM, so missed heartbeats mean the process is gone
                    .brokerProperty("broker.session.timeout.ms", String.valueOf(BROKER_SESSION_TIMEOUT_MS))
                    .brokerProperty("broker.heartbeat.interval.ms", String.valueOf(BROKER_HEARTBEAT_MS))
                    .build()
                    .start());
        } catch (RuntimeException e) {
            // stop the database too once it is up; the failure reported is the broker's
            pgStart.thenAccept(EmbeddedPostgres::close);
            throw e;
        }
        running.push(new Named("kafka", kafka));
        kafka.createTopics(Topics.all().stream()
                .map(s -> s.withPartitions(Math.min(s.partitions(), 6)))
                .toList());
        progress.accept(String.format(
                "  kafka      %s (%d topics, %s)",
                kafka.bootstrapServers(), Topics.all().size(), since(t)));

        try {
            postgres = pgStart.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new LaunchException("PostgreSQL failed to start: " + cause.getMessage(), cause);
        }
        running.push(new Named("postgres", postgres));
        PostgresDatabase db = postgres.database();
        progress.accept(String.format(
                "  postgres   %s:%d/%s (%s, %s)",
                db.host(),
                db.port(),
                db.name(),
                postgres.isEmbedded() ? "embedded" : "external, from " + EmbeddedPostgres.URL_ENV,
                since(t)));

        Map<String, String> common = baseEnv(processEnv);
        common.put("VIGIL_KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());

        startProbeWorkers(processEnv, common, progress);

        t = System.nanoTime();
        // Pages link to the console, so its address must be known before streams starts.
        int queryPortWanted = options.queryPort() == 0 ? LocalPorts.free() : options.queryPort();
        Map<String, String> streamsEnv = new HashMap<>(common);
        streamsEnv.put("VIGIL_KAFKA_STATE_DIR", dataDir.resolve("streams").toString());
        // One instance per data dir: a static member id lets a restart after kill -9 take its tasks back at once
        // instead of waiting out the dead member's session.
        streamsEnv.put("VIGIL_KAFKA_GROUP_INSTANCE_ID", "standalone-streams");
        streamsEnv.put("VIGIL_HTTP_HOST", options.host());
        streamsEnv.put("VIGIL_HTTP_PORT", Integer.toString(queryPortWanted));
        streamsEnv.put("VIGIL_HTTP_ADVERTISED_HOST", options.host());
        streamsEnv.putIfAbsent(
                "VIGIL_CONSOLE_PUBLIC_URL", "http://" + Canary.host(options.host()) + ":" + queryPortWanted);
        // the workers heartbeat every 10 s beside Streams: two missed heartbeats and a region without another worker
        // is blind, paged as Vigil's own gap within the demo's third window
        streamsEnv.put("VIGIL_WORKERS_HEALTHY", "20s");
        streamsEnv.put(
                "VIGIL_ALERTING_DEBOUNCE",
                Math.max(1, options.reminderInterval().toMinutes()) + "m");
        adminToken = GeneratedConfig.adminToken(configDir);
        Path tokensYaml = configDir.resolve("vigil-streams-tokens.yaml");
        String extraTokens = processEnv.get(TOKENS_FILE_ENV);
        write(
                tokensYaml,
                GeneratedConfig.streamsTokens(
                        adminToken,
                        extraTokens == null || extraTokens.isBlank()
                                ? List.of()
                                : TokensFile.read(Path.of(extraTokens))));
        streamsEnv.put("VIGIL_AUTH_TOKENS_FILE", tokensYaml.toString());
        StreamsApp.Running streams = step(
                progress,
                "streams topology",
                () -> StreamsApp.start(StreamsServiceConfig.load(null, streamsEnv)
                        .withStatusPages(options.statusPages())
                        .withManagement(management())));
        running.push(new Named("streams", streams));
        queryPort = streams.httpPort();
        progress.accept(String.format(
                "  streams    query API and console http://%s:%d/ (%s); admin token in %s (sign in to the"
                        + " console with it; the vigil CLI reads it)",
                options.host(), queryPort, since(t), adminToken.file()));
        for (var page : options.statusPages()) {
            progress.accept(String.format(
                    "  status     public page http://%s:%d/status/%s (%d monitors, no token)",
                    options.host(), queryPort, page.id(), page.monitorIds().size()));
        }

        t = System.nanoTime();
        Path notifierYaml = configDir.resolve("vigil-notifier.yaml");
        write(
                notifierYaml,
                options.routingFile() == null
                        ? GeneratedConfig.consoleRouting()
                        : "routingFile: "
                                + GeneratedConfig.quote(
                                        options.routingFile().toAbsolutePath().toString()) + "\n");
        Map<String, String> notifierEnv = new HashMap<>(common);
        if (options.deadMan().enabled()) {
            // a VIGIL_* name is not passed on by baseEnv
            notifierEnv.put(
                    options.deadMan().urlEnv(), processEnv.get(options.deadMan().urlEnv()));
            write(notifierYaml, Files.exists(notifierYaml) ? read(notifierYaml) + deadManYaml() : deadManYaml());
        }
        notifierEnv.put("VIGIL_DATABASE_URL", "r2dbc:postgresql://" + db.host() + ":" + db.port() + "/" + db.name());
        notifierEnv.put("VIGIL_DATABASE_USERNAME", db.user());
        if (db.password() != null) {
            notifierEnv.put("VIGIL_DB_PASSWORD", db.password());
        }
        notifierEnv.put("VIGIL_HTTP_HOST", options.host());
        notifierEnv.put("VIGIL_KAFKA_GROUP_INSTANCE_ID", "standalone-notifier");
        notifierEnv.put("VIGIL_HTTP_PORT", Integer.toString(options.notifierPort()));
        NotifierService.Running notifier = step(
                progress,
                "notifier",
                () -> NotifierService.start(NotifierSettings.load(notifierYaml, notifierEnv), notifierEnv));
        running.push(new Named("notifier", notifier));
        notifierPort = notifier.httpPort();
        progress.accept(String.format(
                "  notifier   health http://%s:%d/health, routing %s (%s)",
                options.host(),
                notifierPort,
                options.routingFile() == null ? "to this console" : options.routingFile(),
                since(t)));

        t = System.nanoTime();
        GeneratedConfig.IngestKey key = GeneratedConfig.ingestKey(configDir);
        Path ingestYaml = configDir.resolve("vigil-ingest.yaml");
        write(ingestYaml, GeneratedConfig.ingest(key));
        webhookToken = GeneratedConfig.betterstackWebhookToken(configDir);
        Map<String, String> ingestEnv = new HashMap<>(common);
        ingestEnv.put(GeneratedConfig.BETTERSTACK_WEBHOOK_TOKEN_ENV, webhookToken.token());
        ingestEnv.put("VIGIL_HTTP_HOST", options.host());
        ingestEnv.put("VIGIL_HTTP_PORT", Integer.toString(options.ingestPort()));
        IngestServer.Running ingest = step(
                progress,
                "ingest",
                () -> IngestServer.start(
                        IngestConfig.load(ingestYaml, ingestEnv), ingestEnv, java.time.Clock.systemUTC()));
        running.push(new Named("ingest", ingest));
        ingestPort = ingest.port();
        progress.accept(String.format(
                "  ingest     http://%s:%d (app '%s', API key in %s) (%s)",
                options.host(), ingestPort, key.appId(), key.file(), since(t)));
        progress.accept(String.format(
                "             BetterStack incident webhook: http://%s:%d/v1/integrations/betterstack/"
                        + "<the token in %s>",
                options.host(), ingestPort, webhookToken.file()));

        if (options.deadMan().enabled()) {
            new MonitorCatalog(kafka.bootstrapServers(), Topics.MONITORS, java.time.Duration.ofSeconds(30))
                    .publish(List.of(Canary.monitor(options.host(), queryPort, options.regions())), List.of());
            progress.accept(String.format(
                    "  dead-man   canary %s (every %d s from %s); the notifier pings the URL in $%s"
                            + " every %d s while the canary passed within %d s",
                    Canary.ID,
                    Canary.INTERVAL_SECONDS,
                    options.regions(),
                    options.deadMan().urlEnv(),
                    options.deadMan().pingInterval().toSeconds(),
                    Canary.MAX_AGE.toSeconds()));
        }
    }

    /**
     * The probe workers need only Kafka, so they start before Streams: after a crash they probe the window in
     * progress while Streams restores, and its first verdict does not wait for the next window.
     */
    private void startProbeWorkers(
            Map<String, String> processEnv, Map<String, String> common, Consumer<String> progress) {
        for (int i = 0; i < options.regions().size(); i++) {
            String region = options.regions().get(i);
            Map<String, String> probeEnv = new HashMap<>(common);
            probeEnv.put("VIGIL_REGION", region);
            probeEnv.put("VIGIL_WORKER_ID", "standalone-" + region);
            probeEnv.put("VIGIL_REGIONS", String.join(",", options.regions()));
            List<String> allow = new ArrayList<>(options.allowList());
            if (options.deadMan().enabled()) {
                // the canary probes the query API's own /health: that one address, nothing else of this machine
                allow.add(Canary.allowEntry(options.host()));
            }
            probeEnv.put("VIGIL_ALLOW_LIST", String.join(",", allow));
            // the variables http monitors may send as secret headers: the operator's choice, passed through
            String headerSecrets = processEnv.get(HEADER_SECRETS_ENV);
            if (headerSecrets != null && !headerSecrets.isBlank()) {
                probeEnv.put(HEADER_SECRETS_ENV, headerSecrets);
            }
            probeEnv.put("VIGIL_HTTP_HOST", options.host());
            probeEnv.put("VIGIL_HTTP_PORT", Integer.toString(options.probePort(i)));
            ProbeSlot slot = new ProbeSlot(probeEnv);
            step(progress, "probe worker " + region, slot::start);
            running.push(new Named("probe-" + region, slot));
            probeSlots.put(region, slot);
            probePorts.add(slot.port());
        }
        progress.accept(String.format("  probes     %s on ports %s", options.regions(), probePorts));
    }

    /** The process environment without {@code VIGIL_*} settings meant for single-service runs; secrets stay. */
    private static Map<String, String> baseEnv(Map<String, String> processEnv) {
        Map<String, String> env = new HashMap<>();
        processEnv.forEach((k, v) -> {
            // the stack's own settings are given per service below; tracing's reach every service alike
            if (!k.startsWith(ConfigLoader.ENV_PREFIX) || k.startsWith(ConfigLoader.ENV_PREFIX + "OTEL_")) {
                env.put(k, v);
            }
        });
        return env;
    }

    private interface Step<T> {
        T run();
    }

    /**
     * The management API judges a monitor's target as this stack's probe workers will (their allow-list), and prints a
     * heartbeat monitor's ping URL with this stack's ingest (known ahead when its port is fixed, as the demo's is).
     */
    private StreamsServiceConfig.ManagementSettings management() {
        String ingest = options.ingestPort() > 0 ? "http://" + options.host() + ":" + options.ingestPort() : null;
        return new StreamsServiceConfig.ManagementSettings(options.allowList(), ingest, null, null);
    }

    private static <T> T step(Consumer<String> progress, String what, Step<T> step) {
        progress.accept("starting " + what + " ...");
        try {
            return step.run();
        } catch (ConfigLoader.ConfigException e) {
            throw new LaunchException(what + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new LaunchException(what + " failed to start: " + e.getMessage(), e);
        }
    }

    private static String since(long startNanos) {
        return String.format("%.1f s", (System.nanoTime() - startNanos) / 1e9);
    }

    /** The notifier's switch: the URL's variable, the ping interval and the canary's bound. */
    private String deadManYaml() {
        return "deadMan:\n"
                + "  urlEnv: " + options.deadMan().urlEnv() + "\n"
                + "  interval: " + options.deadMan().pingInterval().toMillis() + "ms\n"
                + "  maxCanaryAge: " + Canary.MAX_AGE.toSeconds() + "s\n";
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Stops one component by name (tests that stop one stage of the pipeline): notifier, streams, ingest, ... */
    void stop(String name) {
        for (java.util.Iterator<Named> it = running.iterator(); it.hasNext(); ) {
            Named n = it.next();
            if (n.name().equals(name)) {
                it.remove();
                try {
                    n.component().close();
                } catch (Exception e) {
                    LOG.warn("stopping {} failed: {}", name, e.getMessage());
                }
                return;
            }
        }
        throw new IllegalArgumentException("no running component " + name);
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new LaunchException("cannot create " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** The query API admin token of this data directory (what the CLI reads from its file). */
    public String adminToken() {
        return adminToken.token();
    }

    /** The token BetterStack's incident webhook URL carries (what {@code config/betterstack-webhook-token} holds). */
    public String betterstackWebhookToken() {
        return webhookToken.token();
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    public EmbeddedPostgres postgres() {
        return postgres;
    }

    public int ingestPort() {
        return ingestPort;
    }

    public int queryPort() {
        return queryPort;
    }

    public int notifierPort() {
        return notifierPort;
    }

    public List<Integer> probePorts() {
        return List.copyOf(probePorts);
    }

    public StandaloneOptions options() {
        return options;
    }

    /** Stops the probe worker of {@code region} (drained and flushed), as if its host had gone. */
    public void stopProbeWorker(String region) {
        probeSlot(region).close();
    }

    /** Starts the probe worker of {@code region} again after {@link #stopProbeWorker}; a running one stays as it is. */
    public void startProbeWorker(String region) {
        probeSlot(region).start();
    }

    private ProbeSlot probeSlot(String region) {
        ProbeSlot slot = probeSlots.get(region);
        if (slot == null) {
            throw new IllegalArgumentException(
                    "no probe worker for region " + region + "; regions: " + probeSlots.keySet());
        }
        return slot;
    }

    /** Stops in reverse order of start: probes first (drained, flushed), the broker last. */
    @Override
    public void close() {
        while (!running.isEmpty()) {
            Named n = running.pop();
            long t = System.nanoTime();
            try {
                n.component().close();
                LOG.info("stopped {} in {}", n.name(), since(t));
            } catch (Exception e) {
                LOG.warn("stopping {} failed: {}", n.name(), e.getMessage());
            }
        }
    }

    /** A start-up failure, with the step that failed and what to do. */
    public static final class LaunchException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public LaunchException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
