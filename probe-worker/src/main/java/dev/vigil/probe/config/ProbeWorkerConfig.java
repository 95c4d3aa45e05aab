package dev.vigil.probe.config;

import static dev.vigil.kit.config.DeprecatedKey.millis;
import static dev.vigil.kit.config.DeprecatedKey.renamed;

import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.config.ConfigSpec;
import dev.vigil.kit.config.Problems;
import dev.vigil.kit.net.Cidr;
import dev.vigil.kit.trace.OtelSettings;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.topic.Topics;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code vigil-probe-worker.yaml}. Every key can be overridden by {@code VIGIL_<PATH>}, e.g.
 * {@code VIGIL_REGION}, {@code VIGIL_WORKER_ID}, {@code VIGIL_KAFKA_BOOTSTRAP_SERVERS},
 * {@code VIGIL_ALLOW_LIST=127.0.0.0/8,10.0.0.0/8}, {@code VIGIL_HTTP_PORT}. Every problem is reported at once.
 *
 * @param region            this worker's region; must be one of {@code regions}, and never {@code push} (the
 *                          region of heartbeat monitors, which no worker probes)
 * @param workerId          this worker's id (unique per region)
 * @param regions           the configured logical regions
 * @param concurrency       probes in flight at most
 * @param monitorsFile      a YAML file of monitors ({@code monitors: [...]}) instead of the {@code vigil.monitors} topic; empty for the topic
 * @param allowList         CIDR blocks that may be probed although they are private/loopback/...
 * @param trustedCaFile     PEM file of extra CA certificates trusted for https targets; empty for the JDK's
 * @param heartbeatInterval heartbeat period
 * @param drainTimeout      how long shutdown waits for in-flight probes
 * @param headerSecrets     names of the environment variables http monitors may send as {@code secretEnv} header
 *                          values; none by default (a monitor's author chooses where its headers go). Never a
 *                          {@code VIGIL_} variable or {@code remote.secretEnv}: those are this worker's own
 */
public record ProbeWorkerConfig(
        String region,
        String workerId,
        List<String> regions,
        Integer concurrency,
        String monitorsFile,
        List<String> allowList,
        String trustedCaFile,
        Duration heartbeatInterval,
        Duration drainTimeout,
        Kafka kafka,
        Http http,
        Remote remote,
        List<String> headerSecrets,
        OtelSettings otel) {

    public static final String VERSION = "0.1.0";
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
    public static final int DEFAULT_PORT = 8083;

    /**
     * How {@link ConfigLoader} reads this configuration, and the table of the keys it was written with before every
     * service shared one shape (topics under {@code kafka.topics}, durations as text), read for one more release.
     */
    public static final ConfigSpec<ProbeWorkerConfig> SPEC = ConfigSpec.of(
            ProbeWorkerConfig.class,
            ProbeWorkerConfig::defaults,
            millis("heartbeatIntervalMs", "heartbeatInterval"),
            millis("drainTimeoutMs", "drainTimeout"),
            renamed("kafka.monitorsTopic", "kafka.topics.monitors"),
            renamed("kafka.resultsTopic", "kafka.topics.probeResults"),
            renamed("kafka.heartbeatsTopic", "kafka.topics.heartbeats"),
            renamed("kafka.deadLetterTopic", "kafka.topics.deadLetter"),
            millis("remote.flushIntervalMs", "remote.flushInterval"));

    public ProbeWorkerConfig {
        otel = otel == null ? OtelSettings.defaults() : otel;
        Problems p = new Problems();
        if (p.required("regions", regions) != null) {
            p.check(!regions.isEmpty(), "regions", "must list at least one region");
        }
        regions = list(p, "regions", regions, 32);
        for (int i = 0; i < regions.size(); i++) {
            String key = "regions[" + i + "]";
            String name = regions.get(i);
            p.contract(() -> Require.slug(key, name));
        }
        String givenRegion = region;
        if (p.contract(() -> Require.slug("region", givenRegion)) != null) {
            if (MonitorDefinition.PUSH_REGION.equals(region)) {
                p.add(
                        "region",
                        "push is reserved for heartbeat monitors, whose results come from "
                                + "pings at ingest; a probe worker probes from a real region such as us-east");
            } else if (!regions.isEmpty() && !regions.contains(region)) {
                p.add("region", "must be one of the configured regions " + regions);
            }
        }
        p.check(
                !regions.contains(MonitorDefinition.PUSH_REGION),
                "regions",
                "must not list push: it is reserved for "
                        + "heartbeat monitors, whose results come from pings at ingest");
        workerId = p.text("workerId", workerId, null, 128);
        if (p.required("concurrency", concurrency) != null) {
            p.range("concurrency", concurrency, 0, 1, 10_000);
        }
        monitorsFile = monitorsFile == null ? "" : monitorsFile.strip();
        allowList = list(p, "allowList", allowList, 64);
        for (int i = 0; i < allowList.size(); i++) {
            try {
                Cidr.parse(allowList.get(i));
            } catch (IllegalArgumentException e) {
                p.add("allowList[" + i + "]", e.getMessage());
            }
        }
        trustedCaFile = trustedCaFile == null ? "" : trustedCaFile.strip();
        if (p.required("heartbeatInterval", heartbeatInterval) != null) {
            p.duration("heartbeatInterval", heartbeatInterval, heartbeatInterval, Duration.ofMillis(100));
        }
        p.required("drainTimeout", drainTimeout);
        p.required("kafka", kafka);
        p.required("http", http);
        p.required("remote", remote);
        headerSecrets = list(p, "headerSecrets", headerSecrets, 64);
        for (int i = 0; i < headerSecrets.size(); i++) {
            String name = headerSecrets.get(i);
            String key = "headerSecrets[" + i + "]";
            if (!p.check(
                    ENV_NAME.matcher(name).matches(),
                    key,
                    "must be an environment variable name such as HEALTH_TOKEN")) {
                continue;
            }
            p.check(
                    !name.startsWith(ConfigLoader.ENV_PREFIX),
                    key,
                    "must not name a " + ConfigLoader.ENV_PREFIX + " variable: those configure this worker");
            p.check(
                    remote == null || !name.equals(remote.secretEnv()),
                    key,
                    "must not name remote.secretEnv: this "
                            + "worker's signing secret is never sent to a monitored target");
        }
        if (kafka != null && remote != null) {
            boolean needsKafka = !remote.enabled() || monitorsFile.isEmpty();
            p.check(
                    !needsKafka || !kafka.bootstrapServers().isBlank(),
                    "kafka.bootstrapServers",
                    "is required unless remote.enabled is true and monitorsFile is set");
        }
        p.throwIfAny();
    }

    /** The shape before tracing ({@code otel}: export off). */
    public ProbeWorkerConfig(
            String region,
            String workerId,
            List<String> regions,
            Integer concurrency,
            String monitorsFile,
            List<String> allowList,
            String trustedCaFile,
            Duration heartbeatInterval,
            Duration drainTimeout,
            Kafka kafka,
            Http http,
            Remote remote,
            List<String> headerSecrets) {
        this(
                region,
                workerId,
                regions,
                concurrency,
                monitorsFile,
                allowList,
                trustedCaFile,
                heartbeatInterval,
                drainTimeout,
                kafka,
                http,
                remote,
                headerSecrets,
                null);
    }

    /** The list, checked by the contracts' list rule; empty when absent or not usable. */
    private static List<String> list(Problems p, String key, List<String> value, int maxSize) {
        List<String> checked = p.contract(() -> Require.list(key, value, maxSize));
        return checked == null ? List.of() : checked;
    }

    /** A worker whose http monitors may use no secret header. */
    public ProbeWorkerConfig(
            String region,
            String workerId,
            List<String> regions,
            Integer concurrency,
            String monitorsFile,
            List<String> allowList,
            String trustedCaFile,
            Duration heartbeatInterval,
            Duration drainTimeout,
            Kafka kafka,
            Http http,
            Remote remote) {
        this(
                region,
                workerId,
                regions,
                concurrency,
                monitorsFile,
                allowList,
                trustedCaFile,
                heartbeatInterval,
                drainTimeout,
                kafka,
                http,
                remote,
                List.of());
    }

    /** Kafka connection and topic names. */
    public record Kafka(String bootstrapServers, TopicNames topics) {
        public Kafka {
            bootstrapServers = bootstrapServers == null ? "" : bootstrapServers.strip();
            topics = topics == null ? TopicNames.defaults() : topics;
        }
    }

    /**
     * The topics a worker reads and writes; defaults from {@link Topics}.
     *
     * @param monitors     monitor definitions in (compacted), unless {@code monitorsFile} is set
     * @param probeResults results out (Kafka mode)
     * @param heartbeats   this worker's heartbeats out (Kafka mode)
     * @param deadLetter   monitor definitions that cannot be read
     */
    public record TopicNames(String monitors, String probeResults, String heartbeats, String deadLetter) {
        public TopicNames {
            Problems p = new Problems();
            monitors = p.topic("monitors", monitors, Topics.MONITORS);
            probeResults = p.topic("probeResults", probeResults, Topics.PROBE_RESULTS);
            heartbeats = p.topic("heartbeats", heartbeats, Topics.HEARTBEATS);
            deadLetter = p.topic("deadLetter", deadLetter, Topics.DEAD_LETTER);
            p.throwIfAny();
        }

        public static TopicNames defaults() {
            return new TopicNames(null, null, null, null);
        }
    }

    /** The /health, /ready, /metrics server; port 0 picks a free port. */
    public record Http(String host, Integer port) {
        public Http {
            Problems p = new Problems();
            host = p.text("host", host, "0.0.0.0", 255);
            port = p.range("port", port, DEFAULT_PORT, 0, 65535);
            p.throwIfAny();
        }
    }

    /**
     * Remote mode: results are POSTed in signed batches to ingest instead of produced to Kafka.
     *
     * @param secretEnv     the name of the environment variable holding the signing secret (never the secret)
     * @param flushInterval a batch is sent when full or this long after its first result
     */
    public record Remote(
            Boolean enabled,
            String ingestUrl,
            String keyId,
            String secretEnv,
            Integer batchSize,
            Duration flushInterval) {
        public Remote {
            Problems p = new Problems();
            enabled = enabled != null && enabled;
            ingestUrl = ingestUrl == null ? "" : ingestUrl.strip();
            keyId = keyId == null ? "" : keyId.strip();
            secretEnv = secretEnv == null ? "" : secretEnv.strip();
            if (p.required("batchSize", batchSize) != null) {
                p.range("batchSize", batchSize, 0, 1, 1000);
            }
            if (p.required("flushInterval", flushInterval) != null) {
                p.duration("flushInterval", flushInterval, flushInterval, Duration.ofMillis(10));
            }
            if (enabled) {
                p.check(httpUrl(ingestUrl), "ingestUrl", "must be an absolute http(s) URL when remote.enabled is true");
                p.text("keyId", keyId, null, 128);
                p.check(
                        !secretEnv.isEmpty(),
                        "secretEnv",
                        "must name the environment variable that holds the signing secret");
            }
            p.throwIfAny();
        }

        private static boolean httpUrl(String url) {
            try {
                URI u = new URI(url);
                return ("http".equals(u.getScheme()) || "https".equals(u.getScheme())) && u.getHost() != null;
            } catch (URISyntaxException e) {
                return false;
            }
        }
    }

    public static ProbeWorkerConfig defaults() {
        return new ProbeWorkerConfig(
                "us-east",
                "probe-1",
                List.of("us-east", "eu-west", "asia-east"),
                256,
                "",
                List.of(),
                "",
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                new Kafka("localhost:9092", TopicNames.defaults()),
                new Http("0.0.0.0", DEFAULT_PORT),
                new Remote(false, "", "", "VIGIL_PROBE_SECRET", 100, Duration.ofSeconds(1)),
                List.of());
    }

    /** Defaults, then the YAML file (if any), then {@code VIGIL_*} variables; throws ConfigException naming each key. */
    public static ProbeWorkerConfig load(Path yamlOrNull, Map<String, String> env) {
        return ConfigLoader.load(SPEC, yamlOrNull, env);
    }

    public ProbeWorkerConfig withKafkaBootstrap(String bootstrap) {
        return new ProbeWorkerConfig(
                region,
                workerId,
                regions,
                concurrency,
                monitorsFile,
                allowList,
                trustedCaFile,
                heartbeatInterval,
                drainTimeout,
                new Kafka(bootstrap, kafka.topics()),
                http,
                remote,
                headerSecrets,
                otel);
    }

    /** With other tracing settings. */
    public ProbeWorkerConfig withOtel(OtelSettings o) {
        return new ProbeWorkerConfig(
                region,
                workerId,
                regions,
                concurrency,
                monitorsFile,
                allowList,
                trustedCaFile,
                heartbeatInterval,
                drainTimeout,
                kafka,
                http,
                remote,
                headerSecrets,
                o);
    }
}
