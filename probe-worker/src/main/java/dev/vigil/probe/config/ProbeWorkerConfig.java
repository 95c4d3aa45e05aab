package dev.vigil.probe.config;

import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.config.ConfigSpec;
import dev.vigil.probe.safety.Cidr;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.topic.Topics;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code vigil-probe-worker.yaml}. Every key can be overridden by {@code VIGIL_<PATH>}, e.g.
 * {@code VIGIL_REGION}, {@code VIGIL_WORKER_ID}, {@code VIGIL_KAFKA_BOOTSTRAP_SERVERS},
 * {@code VIGIL_ALLOW_LIST=127.0.0.0/8,10.0.0.0/8}, {@code VIGIL_HTTP_PORT}.
 *
 * @param region              this worker's region; must be one of {@code regions}, and never {@code push} (the
 *                            region of heartbeat monitors, which no worker probes)
 * @param workerId            this worker's id (unique per region)
 * @param regions             the configured logical regions
 * @param concurrency         probes in flight at most
 * @param monitorsFile        a YAML file of monitors ({@code monitors: [...]}) instead of the {@code vigil.monitors} topic; empty for the topic
 * @param allowList           CIDR blocks that may be probed although they are private/loopback/...
 * @param trustedCaFile       PEM file of extra CA certificates trusted for https targets; empty for the JDK's
 * @param heartbeatIntervalMs heartbeat period
 * @param drainTimeoutMs      how long shutdown waits for in-flight probes
 * @param headerSecrets       names of the environment variables http monitors may send as {@code secretEnv} header
 *                            values; none by default (a monitor's author chooses where its headers go). Never a
 *                            {@code VIGIL_} variable or {@code remote.secretEnv}: those are this worker's own
 */
public record ProbeWorkerConfig(
        String region,
        String workerId,
        List<String> regions,
        Integer concurrency,
        String monitorsFile,
        List<String> allowList,
        String trustedCaFile,
        Long heartbeatIntervalMs,
        Long drainTimeoutMs,
        Kafka kafka,
        Http http,
        Remote remote,
        List<String> headerSecrets) {

    public static final String VERSION = "0.1.0";
    private static final java.util.regex.Pattern ENV_NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
    public static final int DEFAULT_PORT = 8083;

    public ProbeWorkerConfig {
        regions = Require.list("regions", Require.present("regions", regions), 32);
        if (regions.isEmpty()) {
            throw new ContractViolation("regions", "must list at least one region");
        }
        for (int i = 0; i < regions.size(); i++) {
            Require.slug("regions[" + i + "]", regions.get(i));
        }
        Require.slug("region", region);
        if (MonitorDefinition.PUSH_REGION.equals(region)) {
            throw new ContractViolation("region", "push is reserved for heartbeat monitors, whose results come from "
                    + "pings at ingest; a probe worker probes from a real region such as us-east");
        }
        if (regions.contains(MonitorDefinition.PUSH_REGION)) {
            throw new ContractViolation("regions", "must not list push: it is reserved for heartbeat monitors, "
                    + "whose results come from pings at ingest");
        }
        if (!regions.contains(region)) {
            throw new ContractViolation("region", "must be one of the configured regions " + regions);
        }
        Require.text("workerId", workerId, 128);
        Require.range("concurrency", Require.present("concurrency", concurrency), 1, 10_000);
        monitorsFile = monitorsFile == null ? "" : monitorsFile.strip();
        allowList = Require.list("allowList", allowList, 64);
        for (int i = 0; i < allowList.size(); i++) {
            try {
                Cidr.parse(allowList.get(i));
            } catch (IllegalArgumentException e) {
                throw new ContractViolation("allowList[" + i + "]", e.getMessage());
            }
        }
        trustedCaFile = trustedCaFile == null ? "" : trustedCaFile.strip();
        Require.atLeast("heartbeatIntervalMs", Require.present("heartbeatIntervalMs", heartbeatIntervalMs), 100);
        Require.atLeast("drainTimeoutMs", Require.present("drainTimeoutMs", drainTimeoutMs), 0);
        Require.present("kafka", kafka);
        Require.present("http", http);
        Require.present("remote", remote);
        headerSecrets = Require.list("headerSecrets", headerSecrets, 64);
        for (int i = 0; i < headerSecrets.size(); i++) {
            String name = headerSecrets.get(i);
            String field = "headerSecrets[" + i + "]";
            Require.matches(field, name, ENV_NAME, "an environment variable name such as HEALTH_TOKEN");
            if (name.startsWith(ConfigLoader.ENV_PREFIX)) {
                throw new ContractViolation(field, "must not name a " + ConfigLoader.ENV_PREFIX
                        + " variable: those configure this worker");
            }
            if (name.equals(remote.secretEnv())) {
                throw new ContractViolation(field, "must not name remote.secretEnv: this worker's signing secret is "
                        + "never sent to a monitored target");
            }
        }
        boolean needsKafka = !remote.enabled() || monitorsFile.isEmpty();
        if (needsKafka && kafka.bootstrapServers().isBlank()) {
            throw new ContractViolation("kafka.bootstrapServers",
                    "is required unless remote.enabled is true and monitorsFile is set");
        }
    }

    /** A worker whose http monitors may use no secret header. */
    public ProbeWorkerConfig(String region, String workerId, List<String> regions, Integer concurrency,
                             String monitorsFile, List<String> allowList, String trustedCaFile,
                             Long heartbeatIntervalMs, Long drainTimeoutMs, Kafka kafka, Http http, Remote remote) {
        this(region, workerId, regions, concurrency, monitorsFile, allowList, trustedCaFile, heartbeatIntervalMs,
                drainTimeoutMs, kafka, http, remote, List.of());
    }

    /** Kafka connection and topic names. */
    public record Kafka(String bootstrapServers, String monitorsTopic, String resultsTopic, String heartbeatsTopic,
                        String deadLetterTopic) {
        public Kafka {
            bootstrapServers = bootstrapServers == null ? "" : bootstrapServers.strip();
            Require.text("monitorsTopic", monitorsTopic, 249);
            Require.text("resultsTopic", resultsTopic, 249);
            Require.text("heartbeatsTopic", heartbeatsTopic, 249);
            Require.text("deadLetterTopic", deadLetterTopic, 249);
        }
    }

    /** The /health, /ready, /metrics server; port 0 picks a free port. */
    public record Http(String host, Integer port) {
        public Http {
            Require.text("host", host, 255);
            Require.range("port", Require.present("port", port), 0, 65535);
        }
    }

    /**
     * Remote mode: results are POSTed in signed batches to ingest instead of produced to Kafka.
     *
     * @param secretEnv the name of the environment variable holding the signing secret (never the secret)
     */
    public record Remote(Boolean enabled, String ingestUrl, String keyId, String secretEnv, Integer batchSize,
                         Long flushIntervalMs) {
        public Remote {
            enabled = enabled != null && enabled;
            ingestUrl = ingestUrl == null ? "" : ingestUrl.strip();
            keyId = keyId == null ? "" : keyId.strip();
            secretEnv = secretEnv == null ? "" : secretEnv.strip();
            Require.range("batchSize", Require.present("batchSize", batchSize), 1, 1000);
            Require.atLeast("flushIntervalMs", Require.present("flushIntervalMs", flushIntervalMs), 10);
            if (enabled) {
                try {
                    URI u = new URI(ingestUrl);
                    if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
                        throw new ContractViolation("ingestUrl", "must be an absolute http(s) URL when remote.enabled is true");
                    }
                } catch (java.net.URISyntaxException e) {
                    throw new ContractViolation("ingestUrl", "must be an absolute http(s) URL when remote.enabled is true");
                }
                Require.text("keyId", keyId, 128);
                if (secretEnv.isEmpty()) {
                    throw new ContractViolation("secretEnv", "must name the environment variable that holds the signing secret");
                }
            }
        }
    }

    public static ProbeWorkerConfig defaults() {
        return new ProbeWorkerConfig("us-east", "probe-1", List.of("us-east", "eu-west", "asia-east"), 256, "",
                List.of(), "", 10_000L, 30_000L,
                new Kafka("localhost:9092", Topics.MONITORS, Topics.PROBE_RESULTS, Topics.HEARTBEATS, Topics.DEAD_LETTER),
                new Http("0.0.0.0", DEFAULT_PORT),
                new Remote(false, "", "", "VIGIL_PROBE_SECRET", 100, 1000L), List.of());
    }

    /** How {@link ConfigLoader} reads this configuration. */
    public static final ConfigSpec<ProbeWorkerConfig> SPEC = ConfigSpec.of(ProbeWorkerConfig.class, ProbeWorkerConfig::defaults);

    /** Defaults, then the YAML file (if any), then {@code VIGIL_*} variables; throws ConfigException naming each key. */
    public static ProbeWorkerConfig load(Path yamlOrNull, Map<String, String> env) {
        return ConfigLoader.load(SPEC, yamlOrNull, env);
    }

    public ProbeWorkerConfig withKafkaBootstrap(String bootstrap) {
        return new ProbeWorkerConfig(region, workerId, regions, concurrency, monitorsFile, allowList, trustedCaFile,
                heartbeatIntervalMs, drainTimeoutMs,
                new Kafka(bootstrap, kafka.monitorsTopic(), kafka.resultsTopic(), kafka.heartbeatsTopic(), kafka.deadLetterTopic()),
                http, remote, headerSecrets);
    }
}
