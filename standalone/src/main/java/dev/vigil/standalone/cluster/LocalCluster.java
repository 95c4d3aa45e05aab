package dev.vigil.standalone.cluster;

import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.kit.auth.SecretFiles;
import dev.vigil.notifier.NotifierJvm;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A Vigil cluster on this machine, every part its own OS process (docs/cluster.md): three KRaft brokers from the
 * Kafka jars Vigil is built with (each broker and controller; replication factor 3, {@code min.insync.replicas} 2),
 * a PostgreSQL server, and each Vigil service run by the same command and YAML as its container
 * ({@code vigil <service> --config docker/config/vigil-<service>.yaml}), with only addresses, ports, instance ids and
 * secrets given as {@code VIGIL_*} environment variables. Topics are created by the compose stack's
 * {@code docker/kafka/create-topics.sh}, with {@code kafka-topics.sh} running Kafka's {@code TopicCommand}.
 */
public final class LocalCluster {
    public static final String ADMIN_TOKEN_FILE = "admin-token";
    public static final String INGEST_KEY_FILE = "ingest-api-key";
    static final String APP_ID = "demo";
    public static final String WEBHOOK_SECRET_ENV = "CLUSTER_WEBHOOK_SECRET";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(300);

    private final ClusterLayout layout;
    private final Path repo;
    private final ProcessTable processes;
    private final PrintWriter out;
    private final String javaCommand;
    private final String classpath;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** Heap caps that replace the defaults, by service ({@code streams}, {@code probe-worker}, ...): the scale benchmark's. */
    private final Map<String, String> heapCaps = new java.util.concurrent.ConcurrentHashMap<>();

    private final Map<String, List<String>> extraFlags = new java.util.concurrent.ConcurrentHashMap<>();

    public LocalCluster(ClusterLayout layout, Path repo, PrintWriter out) {
        this(layout, repo, out, System.getProperty("java.class.path"));
    }

    /** @param launcherClasspath what the processes run: vigil.jar, or a class path that holds it all */
    public LocalCluster(ClusterLayout layout, Path repo, PrintWriter out, String launcherClasspath) {
        this.layout = layout;
        this.repo = repo.toAbsolutePath().normalize();
        this.out = out;
        TrustedPaths.prepareDataDir(layout.dataDir());
        this.processes = new ProcessTable(layout.run(), layout.logs());
        this.javaCommand = ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        this.classpath = runnableClasspath(layout, launcherClasspath);
        for (String f : List.of("docker/kafka/create-topics.sh", "docker/config/vigil-streams.yaml")) {
            if (!Files.isRegularFile(this.repo.resolve(f))) {
                throw new IllegalArgumentException("not a Vigil checkout (no " + f + "): " + this.repo
                        + "; run from the repository root or pass --repo");
            }
        }
    }

    /**
     * The launcher's own class path, absolute. When it is one jar (vigil.jar) the processes run a copy of it under
     * {@code <data-dir>/lib}, named by its SHA-256 digest, so rebuilding Vigil never rewrites a jar a running process
     * reads, and a restarted process runs the build it was started with until {@code up} runs a newer one. A copy
     * found there is used only when its digest is the jar's (anything else is replaced) and it is a file of this user
     * that no one else can write and not a link (else refused).
     */
    static String runnableClasspath(ClusterLayout layout, String launcher) {
        List<Path> entries = java.util.Arrays.stream(launcher.split(java.io.File.pathSeparator))
                .map(e -> Path.of(e).toAbsolutePath().normalize())
                .toList();
        if (entries.size() != 1 || !entries.get(0).toString().endsWith(".jar")) {
            return String.join(
                    java.io.File.pathSeparator,
                    entries.stream().map(Path::toString).toList());
        }
        Path jar = entries.get(0);
        Path lib = TrustedPaths.requireOwnedDir(
                layout.dataDir().resolve("lib"), java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        Path copy = lib.resolve("vigil-" + TrustedPaths.sha256(jar).substring(0, 16) + ".jar");
        return TrustedPaths.copyVerified(jar, copy).toString();
    }

    /** Runs every later-started process of {@code service} with {@code -Xmx<cap>} (e.g. {@code 1536m}). */
    public LocalCluster heapCap(String service, String cap) {
        heapCaps.put(service, cap);
        return this;
    }

    /** Runs every later-started process of {@code service} with these JVM flags as well (a benchmark's knob). */
    public LocalCluster jvmFlags(String service, List<String> flags) {
        if (!List.of("streams", "notifier", "ingest", "probe-worker").contains(service)) {
            throw new IllegalArgumentException(
                    "no service " + service + " (streams, notifier, ingest or probe-worker)");
        }
        extraFlags.put(service, List.copyOf(flags));
        return this;
    }

    /** The class path every process of the cluster runs with. */
    public String classpath() {
        return classpath;
    }

    public ClusterLayout layout() {
        return layout;
    }

    public ProcessTable processes() {
        return processes;
    }

    // ---------------------------------------------------------------- names

    public static String broker(int node) {
        return "kafka-" + node;
    }

    public static String streams(int i) {
        return "streams-" + i;
    }

    public static String notifier(int i) {
        return "notifier-" + i;
    }

    public static String ingest(int i) {
        return "ingest-" + i;
    }

    public static String probe(String region) {
        return "probe-" + region;
    }

    public static final String POSTGRES = "postgres";
    public static final String PROMETHEUS = "prometheus";

    public List<String> brokerNames() {
        return IntStream.rangeClosed(1, layout.brokers())
                .mapToObj(LocalCluster::broker)
                .toList();
    }

    /** Every Vigil service process, in rolling-restart order. */
    public List<String> serviceNames() {
        List<String> names = new ArrayList<>();
        IntStream.rangeClosed(1, layout.streams()).forEach(i -> names.add(streams(i)));
        IntStream.rangeClosed(1, layout.notifiers()).forEach(i -> names.add(notifier(i)));
        IntStream.rangeClosed(1, layout.ingests()).forEach(i -> names.add(ingest(i)));
        layout.regions().forEach(r -> names.add(probe(r)));
        return names;
    }

    // ---------------------------------------------------------------- secrets

    public String adminToken() {
        return secret(ADMIN_TOKEN_FILE, BearerTokens::generate);
    }

    public String ingestKey() {
        return secret(INGEST_KEY_FILE, () -> "vigil_" + random(24));
    }

    /** The signing secret a routing file's webhook channels may name as {@code secretEnv}. */
    public String webhookSecret() {
        return secret("webhook-secret", () -> random(32));
    }

    private String instanceToken() {
        return secret("instance-token", () -> random(32));
    }

    private String postgresPassword() {
        return secret("postgres-password", () -> random(24));
    }

    private String secret(String name, java.util.function.Supplier<String> fresh) {
        try {
            Files.createDirectories(layout.config());
            return SecretFiles.readOrCreate(layout.config().resolve(name), fresh.get());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + layout.config().resolve(name) + ": " + e.getMessage(), e);
        }
    }

    private static String random(int bytes) {
        byte[] b = new byte[bytes];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    static String sha256(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------- up / down / status

    /** Starts whatever of the cluster is not running, and waits until every part answers. */
    public void up(Path routingFile) {
        Instant t0 = Instant.now();
        write(
                layout.config().resolve("streams-tokens.yaml"),
                "# generated by vigil cluster; the token is in "
                        + ADMIN_TOKEN_FILE + " (0600)\ntokens:\n  - name: cluster-admin\n    sha256: \""
                        + BearerTokens.hash(adminToken()) + "\"\n    scopes: [admin]\n");
        if (routingFile != null) {
            write(
                    layout.config().resolve("routing.path"),
                    routingFile.toAbsolutePath().toString());
        }
        IntStream.rangeClosed(1, layout.brokers()).forEach(this::startBroker);
        ClusterPostgres postgres = postgres();
        postgres.start();
        awaitBrokers(READY_TIMEOUT);
        createTopics();
        postgres.awaitReady(READY_TIMEOUT, postgresPassword());
        out.printf("cluster: brokers, topics and PostgreSQL ready after %.1f s%n", seconds(t0));
        out.flush();
        serviceNames().forEach(this::start);
        for (String name : serviceNames()) {
            awaitReady(name, READY_TIMEOUT);
        }
        out.printf("cluster: every service ready after %.1f s%n", seconds(t0));
        out.flush();
    }

    /** Stops every process {@code up} started (services first, then PostgreSQL, then the brokers). */
    public void down() {
        List<String> order = new ArrayList<>(serviceNames());
        order.add(PROMETHEUS);
        order.add(POSTGRES);
        order.addAll(brokerNames());
        for (String name : order) {
            if (processes.stop(name, Duration.ofSeconds(30))) {
                out.println("cluster: stopped " + name);
                out.flush();
            }
        }
    }

    /** Each known process: running or not, and for the services what {@code /ready} answers. */
    public Map<String, String> status() {
        Map<String, String> status = new LinkedHashMap<>();
        List<String> all = new ArrayList<>(brokerNames());
        all.add(POSTGRES);
        all.addAll(serviceNames());
        all.add(PROMETHEUS);
        for (String name : all) {
            Optional<ProcessTable.Running> r = processes.running(name);
            String state = r.map(p -> "running pid " + p.pid()).orElse("down");
            if (r.isPresent() && port(name) > 0) {
                state += ", " + readyPath(name) + " " + readyCode(name);
            }
            if (r.isPresent() || processes.names().contains(name)) {
                status.put(name, state);
            }
        }
        return status;
    }

    /** Starts one process of the cluster by name (a no-op when it runs). */
    public void start(String name) {
        if (name.startsWith("kafka-")) {
            startBroker(Integer.parseInt(name.substring("kafka-".length())));
        } else if (name.equals(POSTGRES)) {
            postgres().start();
        } else if (name.equals(PROMETHEUS)) {
            if (!prometheus(ClusterPrometheus.locate()).start()) {
                throw new IllegalStateException("prometheus is not installed");
            }
        } else {
            processes.start(serviceSpec(name));
        }
    }

    /** Stops one process cleanly (its stop signal, then SIGKILL after 30 s). */
    public void stop(String name) {
        processes.stop(name, Duration.ofSeconds(30));
    }

    public void kill9(String name) {
        processes.kill9(name);
    }

    // ---------------------------------------------------------------- Kafka

    private void startBroker(int node) {
        Path dir = layout.kafkaDir(node);
        Path props = layout.config().resolve("kafka-" + node + ".properties");
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", Integer.toString(node));
        p.setProperty("controller.quorum.voters", layout.quorumVoters());
        p.setProperty(
                "listeners",
                "PLAINTEXT://127.0.0.1:" + layout.brokerPort(node) + ",CONTROLLER://127.0.0.1:"
                        + layout.controllerPort(node));
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + layout.brokerPort(node));
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("log.dirs", dir.toString());
        // the promise of docs/design.md#delivery-guarantees: every record on three brokers, acknowledged by two
        p.setProperty("default.replication.factor", "3");
        p.setProperty("min.insync.replicas", "2");
        p.setProperty("offsets.topic.replication.factor", "3");
        p.setProperty("transaction.state.log.replication.factor", "3");
        p.setProperty("transaction.state.log.min.isr", "2");
        p.setProperty("share.coordinator.state.topic.replication.factor", "3");
        p.setProperty("share.coordinator.state.topic.min.isr", "2");
        p.setProperty("unclean.leader.election.enable", "false");
        p.setProperty("auto.create.topics.enable", "false");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("num.partitions", "6");
        // the three start together: on a busy machine a broker may wait longer than the 60 s default for a quorum
        p.setProperty("initial.broker.registration.timeout.ms", "300000");
        try {
            Files.createDirectories(layout.config());
            try (var w = Files.newBufferedWriter(props)) {
                p.store(w, "generated by vigil cluster for broker " + node);
            }
            if (!Files.isRegularFile(dir.resolve("meta.properties"))) {
                runToCompletion(
                        "kafka-format-" + node,
                        List.of(
                                javaCommand,
                                "-Xmx256m",
                                "-cp",
                                classpath,
                                "kafka.tools.StorageTool",
                                "format",
                                "-t",
                                clusterId(),
                                "-c",
                                props.toString(),
                                "--ignore-formatted"),
                        Map.of(),
                        Duration.ofSeconds(120));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        processes.start(new ProcessSpec(
                broker(node),
                List.of(
                        javaCommand,
                        "-Xms256m",
                        "-Xmx768m",
                        "-XX:+ExitOnOutOfMemoryError",
                        "-cp",
                        classpath,
                        "kafka.Kafka",
                        props.toString()),
                Map.of()));
    }

    private String clusterId() {
        return secret("kafka-cluster-id", () -> Uuid.randomUuid().toString());
    }

    public Admin admin() {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                layout.bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                5000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                10000));
    }

    private void awaitBrokers(Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        try (Admin admin = admin()) {
            while (true) {
                try {
                    int nodes = admin.describeCluster()
                            .nodes()
                            .get(5, TimeUnit.SECONDS)
                            .size();
                    if (nodes == layout.brokers()) {
                        return;
                    }
                } catch (Exception e) {
                    // not up yet
                }
                for (String broker : brokerNames()) {
                    if (processes.running(broker).isEmpty()) {
                        throw new IllegalStateException(
                                broker + " exited while the cluster formed; see " + processes.log(broker));
                    }
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("the " + layout.brokers() + " brokers did not all register within "
                            + timeout.toSeconds() + " s; see " + layout.logs() + "/kafka-*.log");
                }
                sleep(500);
            }
        }
    }

    private void createTopics() {
        Path home = layout.dataDir().resolve("kafka-home");
        Path bin = home.resolve("bin").resolve("kafka-topics.sh");
        write(
                bin,
                "#!/bin/sh\n# what the Kafka distribution's kafka-topics.sh runs\nexec \"" + javaCommand
                        + "\" -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp \"" + classpath
                        + "\" org.apache.kafka.tools.TopicCommand \"$@\"\n");
        bin.toFile().setExecutable(true);
        runToCompletion(
                "topics",
                List.of("sh", repo.resolve("docker/kafka/create-topics.sh").toString()),
                Map.of(
                        "KAFKA_BOOTSTRAP",
                        layout.bootstrapServers(),
                        "KAFKA_HOME",
                        home.toString(),
                        "KAFKA_REPLICATION_FACTOR",
                        Integer.toString(layout.brokers())),
                Duration.ofMinutes(5));
    }

    // ---------------------------------------------------------------- PostgreSQL

    ClusterPostgres postgres() {
        postgresPassword();
        return new ClusterPostgres(layout, processes, out, this::runToCompletion);
    }

    public String databaseUrl() {
        return "r2dbc:postgresql://127.0.0.1:" + layout.postgresPort() + "/vigil";
    }

    // ---------------------------------------------------------------- Prometheus

    /** The cluster's Prometheus, run by {@code binary} (empty: not installed). */
    public ClusterPrometheus prometheus(Optional<Path> binary) {
        return ClusterPrometheus.forCluster(layout, processes, binary, out)
                .withRules(repo.resolve(ClusterPrometheus.RULES));
    }

    // ---------------------------------------------------------------- Vigil services

    private ProcessSpec serviceSpec(String name) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("VIGIL_KAFKA_BOOTSTRAP_SERVERS", layout.bootstrapServers());
        env.put("VIGIL_HTTP_HOST", "127.0.0.1");
        env.put("VIGIL_HTTP_PORT", Integer.toString(port(name)));
        String service;
        String heap = "-Xmx384m";
        if (name.startsWith("streams-")) {
            service = "streams";
            heap = "-Xmx768m";
            int i = instance(name);
            env.put("VIGIL_KAFKA_STATE_DIR", layout.streamsStateDir(i).toString());
            env.put("VIGIL_KAFKA_REPLICATION_FACTOR", "3");
            env.put("VIGIL_KAFKA_NUM_STANDBY_REPLICAS", "1");
            env.put("VIGIL_KAFKA_GROUP_INSTANCE_ID", name);
            env.put("VIGIL_HTTP_ADVERTISED_HOST", "127.0.0.1");
            env.put("VIGIL_HTTP_ALLOWED_HOSTS", "localhost,127.0.0.1");
            env.put(
                    "VIGIL_AUTH_TOKENS_FILE",
                    layout.config().resolve("streams-tokens.yaml").toString());
            env.put("VIGIL_INSTANCE_TOKEN", instanceToken());
            // monitors are applied through the API, which judges their targets as the probe workers will (below)
            env.put("VIGIL_MANAGEMENT_PROBE_ALLOW_LIST", "127.0.0.0/8");
        } else if (name.startsWith("notifier-")) {
            service = "notifier";
            env.put("VIGIL_KAFKA_GROUP_INSTANCE_ID", name);
            env.put("VIGIL_DATABASE_URL", databaseUrl());
            env.put("VIGIL_DATABASE_USERNAME", ClusterPostgres.USER);
            env.put("VIGIL_DB_PASSWORD", postgresPassword());
            env.put("VIGIL_ROUTING_FILE", routingFile());
            env.put(WEBHOOK_SECRET_ENV, webhookSecret());
        } else if (name.startsWith("ingest-")) {
            service = "ingest";
            env.put("VIGIL_KAFKA_TRANSACTIONAL_ID_PREFIX", "vigil-" + name);
            env.put("VIGIL_HTTP_ALLOWED_HOSTS", "localhost,127.0.0.1");
            env.put("VIGIL_API_KEYS_" + APP_ID.toUpperCase(Locale.ROOT), sha256(ingestKey()));
        } else if (name.startsWith("probe-")) {
            service = "probe-worker";
            String region = name.substring("probe-".length());
            env.put("VIGIL_REGION", region);
            env.put("VIGIL_WORKER_ID", "cluster-" + region + "-1");
            env.put("VIGIL_REGIONS", String.join(",", layout.regions()));
            // the drill's and the benchmark's targets answer on loopback
            env.put("VIGIL_ALLOW_LIST", "127.0.0.0/8");
        } else {
            throw new IllegalArgumentException("no such process: " + name);
        }
        heap = heapCaps.containsKey(service) ? "-Xmx" + heapCaps.get(service) : heap;
        String config = repo.resolve("docker/config/vigil-" + service + ".yaml").toString();
        // the directory on the command line marks the process as this cluster's (see ProcessTable) when the class
        // path is not the jar under lib/
        List<String> command = new ArrayList<>(List.of(javaCommand, "-Xms64m", heap));
        if (service.equals("notifier")) {
            command.addAll(NotifierJvm.FLAGS);
        }
        command.addAll(extraFlags.getOrDefault(service, List.of()));
        command.addAll(List.of(
                "-XX:+ExitOnOutOfMemoryError",
                "-Dvigil.cluster.dir=" + layout.dataDir(),
                "-cp",
                classpath,
                "dev.vigil.standalone.cli.VigilCommand",
                service,
                "--config",
                config));
        return new ProcessSpec(name, command, env);
    }

    private String routingFile() {
        Optional<String> chosen = TrustedPaths.readTrusted(layout.config().resolve("routing.path"));
        if (chosen.isPresent()) {
            return chosen.get().trim();
        }
        return repo.resolve("docker/config/routing-console.yaml").toString();
    }

    private static int instance(String name) {
        return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
    }

    /** The HTTP port of a Vigil service process or Prometheus, 0 for the others. */
    public int port(String name) {
        if (name.equals(PROMETHEUS)) {
            return layout.prometheusPort();
        }
        if (name.startsWith("streams-")) {
            return layout.streamsPort(instance(name));
        } else if (name.startsWith("notifier-")) {
            return layout.notifierPort(instance(name));
        } else if (name.startsWith("ingest-")) {
            return layout.ingestPort(instance(name));
        } else if (name.startsWith("probe-")) {
            return layout.probePort(name.substring("probe-".length()));
        }
        return 0;
    }

    public int readyCode(String name) {
        try {
            HttpResponse<Void> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port(name) + readyPath(name)))
                            .timeout(Duration.ofSeconds(3))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return r.statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    private static String readyPath(String name) {
        return name.equals(PROMETHEUS) ? "/-/ready" : "/ready";
    }

    public void awaitReady(String name, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (readyCode(name) != 200) {
            // seen gone twice, a second apart: a process just started can read as not yet ours for a moment (its
            // command line and start time are read from /proc while the launcher checks them)
            if (processes.running(name).isEmpty() && gone(name)) {
                throw new IllegalStateException(name + " exited; see " + processes.log(name));
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(
                        name + " not ready within " + timeout.toSeconds() + " s; see " + processes.log(name));
            }
            sleep(250);
        }
    }

    private boolean gone(String name) {
        sleep(1000);
        return processes.running(name).isEmpty();
    }

    // ---------------------------------------------------------------- helpers

    /** Runs a one-shot command (format, topics, initdb) with its output in its own log; fails on a non-zero exit. */
    void runToCompletion(String name, List<String> command, Map<String, String> env, Duration timeout) {
        try {
            Files.createDirectories(layout.logs());
            Path log = layout.logs().resolve(name + ".log");
            ProcessBuilder b = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            b.environment().putAll(env);
            Process p = b.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(
                        name + " did not finish within " + timeout.toSeconds() + " s; see " + log);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(name + " failed (exit " + p.exitValue() + "); see " + log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + name + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + name, e);
        }
    }

    /** Writes a file of the cluster (mode 0600), replacing whatever is there, a planted link included. */
    static void write(Path file, String text) {
        TrustedPaths.writePrivate(file, text);
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static double seconds(Instant since) {
        return Duration.between(since, Instant.now()).toMillis() / 1000.0;
    }

    /** A one-shot command's runner, so PostgreSQL's initdb goes through the same log handling. */
    @FunctionalInterface
    interface Runner {
        void run(String name, List<String> command, Map<String, String> env, Duration timeout);
    }
}
