package dev.vigil.streams.config;

import dev.vigil.kit.auth.TokenSpec;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.config.ConfigSpec;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.streams.config.TopologyConfig.TopicNames;
import dev.vigil.streams.config.TopologyConfig.VerdictSettings;
import dev.vigil.streams.config.TopologyConfig.WorkerSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code vigil-streams.yaml}: the Streams service's one configuration record. Every key can be overridden
 * by {@code VIGIL_<SECTION>_<KEY>} (e.g. {@code VIGIL_KAFKA_BOOTSTRAP_SERVERS}, {@code VIGIL_HTTP_PORT},
 * {@code VIGIL_VERDICT_GRACE_MS}, {@code VIGIL_WORKERS_DEAD_SECONDS}).
 */
public record StreamsServiceConfig(KafkaSettings kafka, HttpSettings http, TopicNames topics, VerdictSettings verdict,
                                   WorkerSettings workers, AlertingConfig alerting, AuthSettings auth,
                                   SilenceSettings silences, List<StatusPage> statusPages) {
    public static final String DEFAULT_FILE = "vigil-streams.yaml";

    public StreamsServiceConfig {
        kafka = kafka == null ? KafkaSettings.defaults() : kafka;
        http = http == null ? HttpSettings.defaults() : http;
        topics = topics == null ? TopicNames.defaults() : topics;
        verdict = verdict == null ? VerdictSettings.defaults() : verdict;
        workers = workers == null ? WorkerSettings.defaults() : workers;
        alerting = alerting == null ? defaultAlerting(http) : alerting;
        auth = auth == null ? AuthSettings.defaults() : auth;
        silences = silences == null ? SilenceSettings.defaults() : silences;
        statusPages = statusPages == null ? List.of() : List.copyOf(statusPages);
        java.util.Set<String> pageIds = new java.util.HashSet<>();
        for (int i = 0; i < statusPages.size(); i++) {
            if (statusPages.get(i) == null) {
                throw new ContractViolation("statusPages[" + i + "]", "must be an object with id, title and groups");
            }
            if (!pageIds.add(statusPages.get(i).id())) {
                throw new ContractViolation("statusPages[" + i + "].id", "'" + statusPages.get(i).id() + "' is used twice");
            }
        }
    }

    /** The shape before public status pages. */
    public StreamsServiceConfig(KafkaSettings kafka, HttpSettings http, TopicNames topics, VerdictSettings verdict,
                                WorkerSettings workers, AlertingConfig alerting, AuthSettings auth,
                                SilenceSettings silences) {
        this(kafka, http, topics, verdict, workers, alerting, auth, silences, null);
    }

    /** The pre-access-control shape, kept for callers that build a config by hand: no tokens, default silences. */
    public StreamsServiceConfig(KafkaSettings kafka, HttpSettings http, TopicNames topics, VerdictSettings verdict,
                                WorkerSettings workers, AlertingConfig alerting) {
        this(kafka, http, topics, verdict, workers, alerting, null, null, null);
    }

    public static StreamsServiceConfig defaults() {
        return new StreamsServiceConfig(null, null, null, null, null, null, null, null, null);
    }

    /** Alert links point at this instance's query API unless {@code alerting.queryBaseUrl} says otherwise. */
    private static AlertingConfig defaultAlerting(HttpSettings http) {
        AlertingConfig d = AlertingConfig.defaults();
        return new AlertingConfig(d.alertsTopic(), d.alertRulesTopic(), d.silencesTopic(), d.metricsTopic(),
                d.debounceMinutes(), d.healthyToResolve(), "http://" + http.advertisedHost() + ":" + http.port(),
                d.metricRetentionDays(), d.metricGraceMs(), d.idleCloseMs(), d.punctuationIntervalMs());
    }

    /** Defaults, then the YAML file (if any), then {@code VIGIL_*} variables; throws ConfigException listing every problem. */
    public static StreamsServiceConfig load(Path file, Map<String, String> env) {
        return ConfigLoader.load(SPEC, file, env);
    }

    /** How {@link ConfigLoader} reads this configuration. */
    public static final ConfigSpec<StreamsServiceConfig> SPEC =
            ConfigSpec.of(StreamsServiceConfig.class, StreamsServiceConfig::defaults);

    public TopologyConfig topology() {
        return new TopologyConfig(topics, verdict, workers);
    }

    public StreamsServiceConfig withKafka(KafkaSettings k) {
        return new StreamsServiceConfig(k, http, topics, verdict, workers, alerting, auth, silences, statusPages);
    }

    public StreamsServiceConfig withHttp(HttpSettings h) {
        return new StreamsServiceConfig(kafka, h, topics, verdict, workers, alerting, auth, silences, statusPages);
    }

    public StreamsServiceConfig withVerdict(VerdictSettings v) {
        return new StreamsServiceConfig(kafka, http, topics, v, workers, alerting, auth, silences, statusPages);
    }

    public StreamsServiceConfig withAuth(AuthSettings a) {
        return new StreamsServiceConfig(kafka, http, topics, verdict, workers, alerting, a, silences, statusPages);
    }

    public StreamsServiceConfig withSilences(SilenceSettings s) {
        return new StreamsServiceConfig(kafka, http, topics, verdict, workers, alerting, auth, s, statusPages);
    }

    /**
     * Query API access (SPEC section 11). {@code tokens}: name, SHA-256 of the token, scopes; {@code tokensFile}: a
     * YAML file holding more of them (a list under {@code tokens:}), read at start; {@code instanceTokenEnv}: the
     * environment variable holding the credential every instance of this application shares to forward queries
     * to the owner of a key (unset: a random one, fine for a single instance; forwards between instances then fail
     * with 503 and a log line saying why). With no token configured every {@code /v1} request is refused.
     */
    public record AuthSettings(List<TokenSpec> tokens, String tokensFile, String instanceTokenEnv) {
        public static final String DEFAULT_INSTANCE_TOKEN_ENV = "VIGIL_INSTANCE_TOKEN";

        public AuthSettings {
            tokens = tokens == null ? List.of() : List.copyOf(tokens);
            tokensFile = tokensFile == null ? "" : tokensFile.trim();
            instanceTokenEnv = instanceTokenEnv == null || instanceTokenEnv.isBlank() ? DEFAULT_INSTANCE_TOKEN_ENV : instanceTokenEnv;
            if (!instanceTokenEnv.matches("[A-Z_][A-Z0-9_]{0,127}")) {
                throw new ContractViolation("auth.instanceTokenEnv", "must be an environment variable name such as VIGIL_INSTANCE_TOKEN");
            }
            List<String> problems = new java.util.ArrayList<>();
            for (int i = 0; i < tokens.size(); i++) {
                if (tokens.get(i) == null) {
                    problems.add("auth.tokens[" + i + "]: must be an object with name, sha256 and scopes");
                } else {
                    problems.addAll(tokens.get(i).problems("auth.tokens[" + i + "]"));
                }
            }
            if (!problems.isEmpty()) {
                String first = problems.get(0);
                int colon = first.indexOf(": ");
                throw new ContractViolation(first.substring(0, colon), String.join("; ", problems).substring(colon + 2));
            }
        }

        public static AuthSettings defaults() {
            return new AuthSettings(null, null, null);
        }

        public static AuthSettings of(List<TokenSpec> tokens) {
            return new AuthSettings(tokens, null, null);
        }
    }

    public StreamsServiceConfig withStatusPages(List<StatusPage> pages) {
        return new StreamsServiceConfig(kafka, http, topics, verdict, workers, alerting, auth, silences, pages);
    }

    /**
     * A public status page, {@code /status/<id>}, readable without a token (SPEC section 14): its title, an optional
     * description, and groups of monitors by id. It shows only these monitors (name, state, open incidents, 90-day
     * uptime), never a URL, a region or an error detail; badges exist only for monitors some page lists.
     */
    public record StatusPage(String id, String title, String description, List<Group> groups) {
        public static final int MAX_MONITORS = 200;

        public StatusPage {
            if (id == null || !id.matches("[a-z0-9][a-z0-9-]{0,62}")) {
                throw new ContractViolation("statusPages.id", "must match [a-z0-9][a-z0-9-]{0,62} (it is the page's URL)");
            }
            String where = "statusPages[" + id + "]";
            if (title == null || title.isBlank() || title.length() > 120) {
                throw new ContractViolation(where + ".title", "must be 1 to 120 characters");
            }
            description = description == null || description.isBlank() ? null : description.strip();
            if (description != null && description.length() > 500) {
                throw new ContractViolation(where + ".description", "must be at most 500 characters");
            }
            if (groups == null || groups.isEmpty()) {
                throw new ContractViolation(where + ".groups", "must list at least one group of monitors");
            }
            groups = List.copyOf(groups);
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (int g = 0; g < groups.size(); g++) {
                Group group = groups.get(g);
                if (group == null || group.name() == null || group.name().isBlank() || group.name().length() > 120) {
                    throw new ContractViolation(where + ".groups[" + g + "].name", "must be 1 to 120 characters");
                }
                if (group.monitors() == null || group.monitors().isEmpty()) {
                    throw new ContractViolation(where + ".groups[" + g + "].monitors", "must list at least one monitor id");
                }
                for (String m : group.monitors()) {
                    if (m == null || !m.matches("[a-z0-9][a-z0-9-]{0,62}")) {
                        throw new ContractViolation(where + ".groups[" + g + "].monitors", "'" + m + "' is not a monitor id");
                    }
                    if (!seen.add(m)) {
                        throw new ContractViolation(where + ".groups[" + g + "].monitors", "'" + m + "' is listed twice");
                    }
                }
            }
            if (seen.size() > MAX_MONITORS) {
                throw new ContractViolation(where + ".groups", "must list at most " + MAX_MONITORS + " monitors");
            }
        }

        /** Every monitor id on the page, in page order. */
        public List<String> monitorIds() {
            return groups.stream().flatMap(g -> g.monitors().stream()).toList();
        }
    }

    /** A titled group of monitors on a status page. */
    public record Group(String name, List<String> monitors) {
        public Group {
            monitors = monitors == null ? null : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(monitors));
        }
    }

    /** Silences: at most {@code max} not yet expired; expired ones are deleted (tombstoned) after {@code keepExpiredDays}. */
    public record SilenceSettings(Integer max, Integer keepExpiredDays) {
        public SilenceSettings {
            max = max == null ? 1000 : max;
            if (max < 1 || max > 100_000) {
                throw new ContractViolation("silences.max", "must be between 1 and 100000");
            }
            keepExpiredDays = keepExpiredDays == null ? 7 : keepExpiredDays;
            if (keepExpiredDays < 0 || keepExpiredDays > 366) {
                throw new ContractViolation("silences.keepExpiredDays", "must be between 0 and 366");
            }
        }

        public static SilenceSettings defaults() {
            return new SilenceSettings(null, null);
        }
    }

    /**
     * Kafka Streams settings. {@code properties} are passed to Streams as-is after Vigil's own (for tuning
     * such as {@code num.stream.threads}); {@code replicationFactor} applies to internal topics.
     * {@code groupInstanceId}: a static group member id, stable across restarts of this instance and unique among
     * the application's instances (e.g. the pod name of a StatefulSet). With it, an instance restarted after a crash
     * takes its tasks back at once instead of waiting for the crashed member's session to time out (45 s by
     * default); empty (the default): dynamic membership.
     */
    public record KafkaSettings(String bootstrapServers, String applicationId, String stateDir, Integer numStreamThreads,
                                Integer replicationFactor, Integer numStandbyReplicas, Long commitIntervalMs,
                                Map<String, String> properties, String groupInstanceId) {
        public KafkaSettings {
            bootstrapServers = bootstrapServers == null ? "localhost:9092" : bootstrapServers;
            if (bootstrapServers.isBlank()) {
                throw new ContractViolation("kafka.bootstrapServers", "must name at least one host:port");
            }
            applicationId = applicationId == null ? "vigil-streams" : applicationId;
            if (!applicationId.matches("[a-zA-Z0-9._-]{1,200}")) {
                throw new ContractViolation("kafka.applicationId", "must be letters, digits, '.', '_' or '-'");
            }
            stateDir = stateDir == null ? "data/streams" : stateDir;
            if (stateDir.isBlank()) {
                throw new ContractViolation("kafka.stateDir", "must not be blank");
            }
            numStreamThreads = numStreamThreads == null ? 1 : numStreamThreads;
            if (numStreamThreads < 1 || numStreamThreads > 64) {
                throw new ContractViolation("kafka.numStreamThreads", "must be between 1 and 64");
            }
            replicationFactor = replicationFactor == null ? -1 : replicationFactor;
            if (replicationFactor == 0 || replicationFactor < -1) {
                throw new ContractViolation("kafka.replicationFactor", "must be -1 (broker default) or at least 1");
            }
            numStandbyReplicas = numStandbyReplicas == null ? 0 : numStandbyReplicas;
            if (numStandbyReplicas < 0) {
                throw new ContractViolation("kafka.numStandbyReplicas", "must not be negative");
            }
            commitIntervalMs = commitIntervalMs == null ? 100L : commitIntervalMs;
            if (commitIntervalMs < 1) {
                throw new ContractViolation("kafka.commitIntervalMs", "must be positive");
            }
            properties = properties == null ? Map.of() : Map.copyOf(properties);
            // "" (not null) when unset, so VIGIL_KAFKA_GROUP_INSTANCE_ID can still override it
            groupInstanceId = groupInstanceId == null ? "" : groupInstanceId.strip();
            if (!groupInstanceId.isEmpty() && !groupInstanceId.matches("[a-zA-Z0-9._-]{1,200}")) {
                throw new ContractViolation("kafka.groupInstanceId", "must be letters, digits, '.', '_' or '-'");
            }
        }

        /** Settings without a static group member id. */
        public KafkaSettings(String bootstrapServers, String applicationId, String stateDir, Integer numStreamThreads,
                             Integer replicationFactor, Integer numStandbyReplicas, Long commitIntervalMs,
                             Map<String, String> properties) {
            this(bootstrapServers, applicationId, stateDir, numStreamThreads, replicationFactor, numStandbyReplicas,
                    commitIntervalMs, properties, null);
        }

        public static KafkaSettings defaults() {
            return new KafkaSettings(null, null, null, null, null, null, null, null, null);
        }

        public KafkaSettings with(String bootstrap, String appId, String dir) {
            return new KafkaSettings(bootstrap, appId, dir, numStreamThreads, replicationFactor, numStandbyReplicas,
                    commitIntervalMs, properties, groupInstanceId);
        }
    }

    /**
     * The query API. {@code port} 0 picks a free port. {@code applicationServer} is the {@code host:port} other
     * instances use to reach this one (Streams' {@code application.server}); empty means
     * {@code advertisedHost:<bound port>}. {@code allowedHosts}: names accepted in the {@code Host} header besides
     * the loopback names a loopback-bound server always accepts (empty on a non-loopback bind: any).
     */
    public record HttpSettings(String host, Integer port, String advertisedHost, String applicationServer,
                               List<String> allowedHosts) {
        public HttpSettings {
            allowedHosts = allowedHosts == null ? List.of() : List.copyOf(allowedHosts);
            host = host == null ? "0.0.0.0" : host;
            port = port == null ? 8081 : port;
            if (port < 0 || port > 65535) {
                throw new ContractViolation("http.port", "must be between 0 and 65535");
            }
            advertisedHost = advertisedHost == null ? "localhost" : advertisedHost;
            applicationServer = applicationServer == null ? "" : applicationServer;
            if (!applicationServer.isEmpty() && !applicationServer.matches("[^:\\s]+:[0-9]{1,5}")) {
                throw new ContractViolation("http.applicationServer", "must be host:port or empty");
            }
        }

        public static HttpSettings defaults() {
            return new HttpSettings(null, null, null, null, null);
        }

        public static HttpSettings loopback(int port) {
            return new HttpSettings("127.0.0.1", port, "127.0.0.1", "", null);
        }
    }
}
