package dev.vigil.streams.config;

import static dev.vigil.kit.config.DeprecatedKey.days;
import static dev.vigil.kit.config.DeprecatedKey.millis;
import static dev.vigil.kit.config.DeprecatedKey.minutes;
import static dev.vigil.kit.config.DeprecatedKey.renamed;
import static dev.vigil.kit.config.DeprecatedKey.seconds;

import dev.vigil.kit.auth.TokenSpec;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.config.ConfigSpec;
import dev.vigil.kit.config.Problems;
import dev.vigil.kit.trace.OtelSettings;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.streams.config.TopologyConfig.TopicNames;
import dev.vigil.streams.config.TopologyConfig.VerdictSettings;
import dev.vigil.streams.config.TopologyConfig.WorkerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code vigil-streams.yaml}: the Streams service's one configuration record. Every key can be overridden
 * by {@code VIGIL_<SECTION>_<KEY>} (e.g. {@code VIGIL_KAFKA_BOOTSTRAP_SERVERS}, {@code VIGIL_HTTP_PORT},
 * {@code VIGIL_KAFKA_TOPICS_ALERTS}, {@code VIGIL_VERDICT_GRACE=10s}). Every problem is reported at once.
 */
public record StreamsServiceConfig(
        KafkaSettings kafka,
        HttpSettings http,
        VerdictSettings verdict,
        WorkerSettings workers,
        AlertingConfig alerting,
        AuthSettings auth,
        SilenceSettings silences,
        List<StatusPage> statusPages,
        TopologyConfig.SelfWatchSettings selfWatch,
        ManagementSettings management,
        ConsoleSettings console,
        OtelSettings otel) {
    public static final String DEFAULT_FILE = "vigil-streams.yaml";

    /**
     * How {@link ConfigLoader} reads this configuration, and the table of the keys it was written with before every
     * service shared one shape (every topic under {@code kafka.topics}, durations as text), read for one more release.
     */
    public static final ConfigSpec<StreamsServiceConfig> SPEC = ConfigSpec.of(
            StreamsServiceConfig.class,
            StreamsServiceConfig::defaults,
            renamed("topics.monitors", "kafka.topics.monitors"),
            renamed("topics.probeResults", "kafka.topics.probeResults"),
            renamed("topics.heartbeats", "kafka.topics.heartbeats"),
            renamed("topics.monitorStatus", "kafka.topics.monitorStatus"),
            renamed("topics.deadLetter", "kafka.topics.deadLetter"),
            renamed("topics.audit", "kafka.topics.audit"),
            renamed("topics.acks", "kafka.topics.acks"),
            renamed("alerting.alertsTopic", "kafka.topics.alerts"),
            renamed("alerting.alertRulesTopic", "kafka.topics.alertRules"),
            renamed("alerting.silencesTopic", "kafka.topics.silences"),
            renamed("alerting.metricsTopic", "kafka.topics.metrics"),
            millis("kafka.commitIntervalMs", "kafka.commitInterval"),
            millis("verdict.graceMs", "verdict.grace"),
            days("verdict.historyRetentionDays", "verdict.historyRetention"),
            millis("verdict.punctuationIntervalMs", "verdict.punctuationInterval"),
            seconds("workers.healthySeconds", "workers.healthy"),
            seconds("workers.warnSeconds", "workers.warn"),
            seconds("workers.staleSeconds", "workers.stale"),
            millis("workers.punctuationIntervalMs", "workers.punctuationInterval"),
            minutes("alerting.debounceMinutes", "alerting.debounce"),
            days("alerting.metricRetentionDays", "alerting.metricRetention"),
            millis("alerting.metricGraceMs", "alerting.metricGrace"),
            millis("alerting.idleCloseMs", "alerting.idleClose"),
            millis("alerting.punctuationIntervalMs", "alerting.punctuationInterval"),
            days("silences.keepExpiredDays", "silences.keepExpired"));

    public StreamsServiceConfig {
        otel = otel == null ? OtelSettings.defaults() : otel;
        Problems p = new Problems();
        kafka = kafka == null ? KafkaSettings.defaults() : kafka;
        http = http == null ? HttpSettings.defaults() : http;
        verdict = verdict == null ? VerdictSettings.defaults() : verdict;
        workers = workers == null ? WorkerSettings.defaults() : workers;
        alerting = alerting == null ? AlertingConfig.defaults() : alerting;
        auth = auth == null ? AuthSettings.defaults() : auth;
        silences = silences == null ? SilenceSettings.defaults() : silences;
        statusPages = statusPages == null ? List.of() : List.copyOf(statusPages);
        selfWatch = selfWatch == null ? TopologyConfig.SelfWatchSettings.defaults() : selfWatch;
        management = management == null ? ManagementSettings.defaults() : management;
        console = console == null ? new ConsoleSettings(null) : console;
        Set<String> pageIds = new HashSet<>();
        for (int i = 0; i < statusPages.size(); i++) {
            StatusPage page = statusPages.get(i);
            if (p.check(page != null, "statusPages[" + i + "]", "must be an object with id, title and groups")) {
                p.check(pageIds.add(page.id()), "statusPages[" + i + "].id", "'" + page.id() + "' is used twice");
            }
        }
        p.throwIfAny();
    }

    /** The shape before tracing ({@code otel}: export off). */
    public StreamsServiceConfig(
            KafkaSettings kafka,
            HttpSettings http,
            VerdictSettings verdict,
            WorkerSettings workers,
            AlertingConfig alerting,
            AuthSettings auth,
            SilenceSettings silences,
            List<StatusPage> statusPages,
            TopologyConfig.SelfWatchSettings selfWatch,
            ManagementSettings management,
            ConsoleSettings console) {
        this(
                kafka,
                http,
                verdict,
                workers,
                alerting,
                auth,
                silences,
                statusPages,
                selfWatch,
                management,
                console,
                null);
    }

    /** The shape before the console's public URL (it then follows {@code alerting.queryBaseUrl}). */
    public StreamsServiceConfig(
            KafkaSettings kafka,
            HttpSettings http,
            VerdictSettings verdict,
            WorkerSettings workers,
            AlertingConfig alerting,
            AuthSettings auth,
            SilenceSettings silences,
            List<StatusPage> statusPages,
            TopologyConfig.SelfWatchSettings selfWatch,
            ManagementSettings management) {
        this(kafka, http, verdict, workers, alerting, auth, silences, statusPages, selfWatch, management, null);
    }

    /** The shape before the management API's settings. */
    public StreamsServiceConfig(
            KafkaSettings kafka,
            HttpSettings http,
            VerdictSettings verdict,
            WorkerSettings workers,
            AlertingConfig alerting,
            AuthSettings auth,
            SilenceSettings silences,
            List<StatusPage> statusPages,
            TopologyConfig.SelfWatchSettings selfWatch) {
        this(kafka, http, verdict, workers, alerting, auth, silences, statusPages, selfWatch, null);
    }

    /** The shape before the self-watch settings. */
    public StreamsServiceConfig(
            KafkaSettings kafka,
            HttpSettings http,
            VerdictSettings verdict,
            WorkerSettings workers,
            AlertingConfig alerting,
            AuthSettings auth,
            SilenceSettings silences,
            List<StatusPage> statusPages) {
        this(kafka, http, verdict, workers, alerting, auth, silences, statusPages, null);
    }

    /** The shape before public status pages. */
    public StreamsServiceConfig(
            KafkaSettings kafka,
            HttpSettings http,
            VerdictSettings verdict,
            WorkerSettings workers,
            AlertingConfig alerting,
            AuthSettings auth,
            SilenceSettings silences) {
        this(kafka, http, verdict, workers, alerting, auth, silences, null);
    }

    /** Without access control: no tokens, default silences. */
    public StreamsServiceConfig(
            KafkaSettings kafka,
            HttpSettings http,
            VerdictSettings verdict,
            WorkerSettings workers,
            AlertingConfig alerting) {
        this(kafka, http, verdict, workers, alerting, null, null, null);
    }

    public static StreamsServiceConfig defaults() {
        return new StreamsServiceConfig(null, null, null, null, null, null, null, null, null, null, null);
    }

    /**
     * Where pages link: {@code console.publicUrl}, else an older file's {@code alerting.queryBaseUrl}, else this
     * instance's own console ({@code http.advertisedHost} and {@code http.port}). Resolved here, not stored as a
     * default, so a port or host set in the file or the environment is the one pages name.
     */
    public String consoleUrl() {
        if (!console.publicUrl().isEmpty()) {
            return console.publicUrl();
        }
        return !alerting.queryBaseUrl().isEmpty()
                ? alerting.queryBaseUrl()
                : "http://" + http.advertisedHost() + ":" + http.port();
    }

    /** The alerting settings the topology runs with: pages link to {@link #consoleUrl()}. */
    public AlertingConfig topologyAlerting() {
        return alerting.withQueryBaseUrl(consoleUrl());
    }

    /** Defaults, then the YAML file (if any), then {@code VIGIL_*} variables; throws ConfigException listing every problem. */
    public static StreamsServiceConfig load(Path file, Map<String, String> env) {
        return ConfigLoader.load(SPEC, file, env);
    }

    /** The topics, {@code kafka.topics}. */
    public TopicNames topics() {
        return kafka.topics();
    }

    public TopologyConfig topology() {
        TopologyConfig topology = new TopologyConfig(kafka.topics(), verdict, workers, selfWatch);
        // the internal signals topic belongs to the application, as Kafka Streams' own internal topics do
        return selfWatch.signalsTopic().equals(TopologyConfig.SelfWatchSettings.DEFAULT_SIGNALS_TOPIC)
                ? topology.withSignalsTopicOf(kafka.applicationId())
                : topology;
    }

    public StreamsServiceConfig withKafka(KafkaSettings k) {
        return new StreamsServiceConfig(
                k, http, verdict, workers, alerting, auth, silences, statusPages, selfWatch, management, console, otel);
    }

    public StreamsServiceConfig withTopics(TopicNames t) {
        return withKafka(kafka.withTopics(t));
    }

    public StreamsServiceConfig withHttp(HttpSettings h) {
        return new StreamsServiceConfig(
                kafka,
                h,
                verdict,
                workers,
                alerting,
                auth,
                silences,
                statusPages,
                selfWatch,
                management,
                console,
                otel);
    }

    public StreamsServiceConfig withVerdict(VerdictSettings v) {
        return new StreamsServiceConfig(
                kafka, http, v, workers, alerting, auth, silences, statusPages, selfWatch, management, console, otel);
    }

    public StreamsServiceConfig withAuth(AuthSettings a) {
        return new StreamsServiceConfig(
                kafka,
                http,
                verdict,
                workers,
                alerting,
                a,
                silences,
                statusPages,
                selfWatch,
                management,
                console,
                otel);
    }

    public StreamsServiceConfig withSilences(SilenceSettings s) {
        return new StreamsServiceConfig(
                kafka, http, verdict, workers, alerting, auth, s, statusPages, selfWatch, management, console, otel);
    }

    public StreamsServiceConfig withManagement(ManagementSettings m) {
        return new StreamsServiceConfig(
                kafka, http, verdict, workers, alerting, auth, silences, statusPages, selfWatch, m, console, otel);
    }

    public StreamsServiceConfig withStatusPages(List<StatusPage> pages) {
        return new StreamsServiceConfig(
                kafka, http, verdict, workers, alerting, auth, silences, pages, selfWatch, management, console, otel);
    }

    /**
     * Where people reach the console: the base URL every page's links start from (the console's incident and monitor
     * views, which ask for sign-in and then land on the page). Behind a proxy or a load balancer, the URL people use;
     * left out, this instance's own address ({@code http.advertisedHost} and {@code http.port}).
     */
    public record ConsoleSettings(String publicUrl) {
        public ConsoleSettings {
            publicUrl = publicUrl == null ? "" : publicUrl.strip();
            if (!publicUrl.isEmpty()) {
                Problems p = new Problems();
                p.check(
                        (publicUrl.startsWith("http://") || publicUrl.startsWith("https://"))
                                && !publicUrl.contains("?")
                                && !publicUrl.contains("#")
                                && !publicUrl.contains("@"),
                        "publicUrl",
                        "must be an http(s) URL without user-info, query or fragment, such as"
                                + " https://vigil.example.com");
                p.throwIfAny();
                publicUrl = publicUrl.endsWith("/") ? publicUrl.substring(0, publicUrl.length() - 1) : publicUrl;
            }
        }
    }

    /**
     * Query API access (docs/security.md). {@code tokens}: name, SHA-256 of the token, scopes; {@code tokensFile}: a
     * YAML file holding more of them (a list under {@code tokens:}), read at start; {@code instanceTokenEnv}: the
     * environment variable holding the credential every instance of this application shares to forward queries
     * to the owner of a key (unset: a random one, fine for a single instance; forwards between instances then fail
     * with 503 and a log line saying why). With no token configured every {@code /v1} request is refused.
     */
    public record AuthSettings(List<TokenSpec> tokens, String tokensFile, String instanceTokenEnv) {
        public static final String DEFAULT_INSTANCE_TOKEN_ENV = "VIGIL_INSTANCE_TOKEN";
        private static final Pattern ENV_NAME = Pattern.compile("[A-Z_][A-Z0-9_]{0,127}");

        public AuthSettings {
            Problems p = new Problems();
            tokens = tokens == null ? List.of() : List.copyOf(tokens);
            tokensFile = tokensFile == null ? "" : tokensFile.trim();
            instanceTokenEnv = instanceTokenEnv == null || instanceTokenEnv.isBlank()
                    ? DEFAULT_INSTANCE_TOKEN_ENV
                    : instanceTokenEnv;
            p.check(
                    ENV_NAME.matcher(instanceTokenEnv).matches(),
                    "instanceTokenEnv",
                    "must be an environment variable name such as VIGIL_INSTANCE_TOKEN");
            for (int i = 0; i < tokens.size(); i++) {
                String key = "tokens[" + i + "]";
                if (p.check(tokens.get(i) != null, key, "must be an object with name, sha256 and scopes")) {
                    // TokenSpec words its problems as "<key>.<field>: <problem>"
                    for (String problem : tokens.get(i).problems(key)) {
                        int colon = problem.indexOf(": ");
                        p.add(problem.substring(0, colon), problem.substring(colon + 2));
                    }
                }
            }
            p.throwIfAny();
        }

        public static AuthSettings defaults() {
            return new AuthSettings(null, null, null);
        }

        public static AuthSettings of(List<TokenSpec> tokens) {
            return new AuthSettings(tokens, null, null);
        }
    }

    /**
     * A public status page, {@code /status/<id>}, readable without a token (docs/api.md#console-status-pages-and-badges): its title, an optional
     * description, and groups of monitors by id. It shows only these monitors (name, state, open incidents, 90-day
     * uptime), never a URL, a region or an error detail; badges exist only for monitors some page lists.
     */
    public record StatusPage(String id, String title, String description, List<Group> groups) {
        public static final int MAX_MONITORS = 200;

        public StatusPage {
            if (id == null || !id.matches("[a-z0-9][a-z0-9-]{0,62}")) {
                throw new ContractViolation(
                        "statusPages.id", "must match [a-z0-9][a-z0-9-]{0,62} (it is the page's URL)");
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
                if (group == null
                        || group.name() == null
                        || group.name().isBlank()
                        || group.name().length() > 120) {
                    throw new ContractViolation(where + ".groups[" + g + "].name", "must be 1 to 120 characters");
                }
                if (group.monitors() == null || group.monitors().isEmpty()) {
                    throw new ContractViolation(
                            where + ".groups[" + g + "].monitors", "must list at least one monitor id");
                }
                for (String m : group.monitors()) {
                    if (m == null || !m.matches("[a-z0-9][a-z0-9-]{0,62}")) {
                        throw new ContractViolation(
                                where + ".groups[" + g + "].monitors", "'" + m + "' is not a monitor id");
                    }
                    if (!seen.add(m)) {
                        throw new ContractViolation(
                                where + ".groups[" + g + "].monitors", "'" + m + "' is listed twice");
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
            monitors = monitors == null
                    ? null
                    : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(monitors));
        }
    }

    /**
     * Silences: at most {@code max} not yet expired; expired ones are deleted (tombstoned) after {@code keepExpired}.
     * So that one token cannot mute everything for long or crowd everyone else out: each author (token name) has at
     * most {@code maxPerAuthor} not yet expired; a silence may start at most {@code maxStartAhead} from now; a
     * non-admin silence (a series too) lasts at most {@code maxDuration}. Admins are exempt from the caps and from
     * {@code maxDuration} (the 366-day ceiling still holds), so they can always add one.
     */
    public record SilenceSettings(
            Integer max, Duration keepExpired, Integer maxPerAuthor, Duration maxStartAhead, Duration maxDuration) {
        public SilenceSettings {
            Problems p = new Problems();
            max = p.range("max", max, 1000, 1, 100_000);
            keepExpired =
                    p.duration("keepExpired", keepExpired, Duration.ofDays(7), Duration.ZERO, Duration.ofDays(366));
            maxPerAuthor = p.range("maxPerAuthor", maxPerAuthor, 50, 1, 100_000);
            maxStartAhead = p.duration(
                    "maxStartAhead", maxStartAhead, Duration.ofDays(30), Duration.ZERO, Duration.ofDays(366));
            maxDuration = p.duration(
                    "maxDuration", maxDuration, Duration.ofDays(30), Duration.ofMinutes(1), Duration.ofDays(366));
            p.throwIfAny();
        }

        /** The shape before the per-author and time bounds (their defaults). */
        public SilenceSettings(Integer max, Duration keepExpired) {
            this(max, keepExpired, null, null, null);
        }

        public static SilenceSettings defaults() {
            return new SilenceSettings(null, null, null, null, null);
        }
    }

    /**
     * The management API (monitors and alert rules through {@code /v1}). {@code probeAllowList}: the CIDR blocks the
     * probe workers are allowed to probe although private (their {@code allowList}), so a monitor is judged here as the
     * probe will judge it, and a target the probe would refuse is refused at write time; {@code ingestUrl}: ingest's
     * base URL as jobs reach it, for the ping URL of a heartbeat monitor's new token (empty: only the path is given);
     * {@code resolveTimeout}: how long a write may wait for the target's DNS answer (a name that does not resolve in
     * time is accepted with a warning: it may not exist yet); {@code maxApplyMonitors}: the most monitors one
     * {@code :apply} request may hold.
     */
    public record ManagementSettings(
            List<String> probeAllowList, String ingestUrl, Duration resolveTimeout, Integer maxApplyMonitors) {
        public ManagementSettings {
            Problems p = new Problems();
            probeAllowList = probeAllowList == null ? List.of() : List.copyOf(probeAllowList);
            for (int i = 0; i < probeAllowList.size(); i++) {
                try {
                    dev.vigil.kit.net.Cidr.parse(probeAllowList.get(i));
                } catch (IllegalArgumentException e) {
                    p.add("probeAllowList[" + i + "]", e.getMessage());
                }
            }
            ingestUrl = ingestUrl == null ? "" : ingestUrl.strip();
            if (ingestUrl.endsWith("/")) {
                ingestUrl = ingestUrl.substring(0, ingestUrl.length() - 1);
            }
            p.check(
                    ingestUrl.isEmpty()
                            || (ingestUrl.startsWith("http://") || ingestUrl.startsWith("https://"))
                                    && !ingestUrl.contains("?")
                                    && !ingestUrl.contains("#"),
                    "ingestUrl",
                    "must be an http(s) base URL without query, e.g. https://ingest.example.com");
            resolveTimeout = p.duration(
                    "resolveTimeout", resolveTimeout, Duration.ofSeconds(2), Duration.ZERO, Duration.ofSeconds(30));
            maxApplyMonitors = p.range("maxApplyMonitors", maxApplyMonitors, 5_000, 1, 100_000);
            p.throwIfAny();
        }

        public static ManagementSettings defaults() {
            return new ManagementSettings(null, null, null, null);
        }
    }

    /**
     * Kafka Streams settings. {@code properties} are passed to Streams as-is after Vigil's own (for tuning
     * such as {@code num.stream.threads}); {@code replicationFactor} applies to internal topics.
     * {@code groupInstanceId}: a static group member id, stable across restarts of this instance and unique among
     * the application's instances (e.g. the pod name of a StatefulSet). With it, an instance restarted after a crash
     * takes its tasks back at once instead of waiting for the crashed member's session to time out (45 s by
     * default); empty (the default): dynamic membership. {@code topics}: every topic the service reads or writes.
     */
    public record KafkaSettings(
            String bootstrapServers,
            String applicationId,
            String stateDir,
            Integer numStreamThreads,
            Integer replicationFactor,
            Integer numStandbyReplicas,
            Duration commitInterval,
            Map<String, String> properties,
            String groupInstanceId,
            TopicNames topics) {
        private static final Pattern ID = Pattern.compile("[a-zA-Z0-9._-]{1,200}");

        public KafkaSettings {
            Problems p = new Problems();
            bootstrapServers = bootstrapServers == null ? "localhost:9092" : bootstrapServers;
            p.check(!bootstrapServers.isBlank(), "bootstrapServers", "must name at least one host:port");
            applicationId = applicationId == null ? "vigil-streams" : applicationId;
            p.check(ID.matcher(applicationId).matches(), "applicationId", "must be letters, digits, '.', '_' or '-'");
            stateDir = stateDir == null ? "data/streams" : stateDir;
            p.check(!stateDir.isBlank(), "stateDir", "must not be blank");
            numStreamThreads = p.range("numStreamThreads", numStreamThreads, 1, 1, 64);
            replicationFactor = replicationFactor == null ? -1 : replicationFactor;
            p.check(
                    replicationFactor == -1 || replicationFactor >= 1,
                    "replicationFactor",
                    "must be -1 (broker default) or at least 1");
            numStandbyReplicas = numStandbyReplicas == null ? 0 : numStandbyReplicas;
            p.check(numStandbyReplicas >= 0, "numStandbyReplicas", "must not be negative");
            commitInterval = p.duration("commitInterval", commitInterval, Duration.ofMillis(100), Duration.ofMillis(1));
            properties = properties == null ? Map.of() : Map.copyOf(properties);
            // "" (not null) when unset, so VIGIL_KAFKA_GROUP_INSTANCE_ID can still override it
            groupInstanceId = groupInstanceId == null ? "" : groupInstanceId.strip();
            p.check(
                    groupInstanceId.isEmpty() || ID.matcher(groupInstanceId).matches(),
                    "groupInstanceId",
                    "must be letters, digits, '.', '_' or '-'");
            topics = topics == null ? TopicNames.defaults() : topics;
            p.throwIfAny();
        }

        /** Settings on the default topics. */
        public KafkaSettings(
                String bootstrapServers,
                String applicationId,
                String stateDir,
                Integer numStreamThreads,
                Integer replicationFactor,
                Integer numStandbyReplicas,
                Duration commitInterval,
                Map<String, String> properties,
                String groupInstanceId) {
            this(
                    bootstrapServers,
                    applicationId,
                    stateDir,
                    numStreamThreads,
                    replicationFactor,
                    numStandbyReplicas,
                    commitInterval,
                    properties,
                    groupInstanceId,
                    null);
        }

        /** Settings without a static group member id, on the default topics. */
        public KafkaSettings(
                String bootstrapServers,
                String applicationId,
                String stateDir,
                Integer numStreamThreads,
                Integer replicationFactor,
                Integer numStandbyReplicas,
                Duration commitInterval,
                Map<String, String> properties) {
            this(
                    bootstrapServers,
                    applicationId,
                    stateDir,
                    numStreamThreads,
                    replicationFactor,
                    numStandbyReplicas,
                    commitInterval,
                    properties,
                    null,
                    null);
        }

        public static KafkaSettings defaults() {
            return new KafkaSettings(null, null, null, null, null, null, null, null, null, null);
        }

        public KafkaSettings with(String bootstrap, String appId, String dir) {
            return new KafkaSettings(
                    bootstrap,
                    appId,
                    dir,
                    numStreamThreads,
                    replicationFactor,
                    numStandbyReplicas,
                    commitInterval,
                    properties,
                    groupInstanceId,
                    topics);
        }

        public KafkaSettings withTopics(TopicNames names) {
            return new KafkaSettings(
                    bootstrapServers,
                    applicationId,
                    stateDir,
                    numStreamThreads,
                    replicationFactor,
                    numStandbyReplicas,
                    commitInterval,
                    properties,
                    groupInstanceId,
                    names);
        }
    }

    /**
     * The query API. {@code port} 0 picks a free port. {@code applicationServer} is the {@code host:port} other
     * instances use to reach this one (Streams' {@code application.server}); empty means
     * {@code advertisedHost:<bound port>}. {@code allowedHosts}: names accepted in the {@code Host} header besides
     * the loopback names a loopback-bound server always accepts (empty on a non-loopback bind: any).
     */
    public record HttpSettings(
            String host, Integer port, String advertisedHost, String applicationServer, List<String> allowedHosts) {
        private static final Pattern HOST_PORT = Pattern.compile("[^:\\s]+:[0-9]{1,5}");

        public HttpSettings {
            Problems p = new Problems();
            allowedHosts = allowedHosts == null ? List.of() : List.copyOf(allowedHosts);
            host = p.text("host", host, "0.0.0.0", 255);
            port = p.range("port", port, 8081, 0, 65535);
            advertisedHost = advertisedHost == null ? "localhost" : advertisedHost;
            applicationServer = applicationServer == null ? "" : applicationServer;
            p.check(
                    applicationServer.isEmpty()
                            || HOST_PORT.matcher(applicationServer).matches(),
                    "applicationServer",
                    "must be host:port or empty");
            p.throwIfAny();
        }

        public static HttpSettings defaults() {
            return new HttpSettings(null, null, null, null, null);
        }

        public static HttpSettings loopback(int port) {
            return new HttpSettings("127.0.0.1", port, "127.0.0.1", "", null);
        }
    }

    /** With other tracing settings. */
    public StreamsServiceConfig withOtel(OtelSettings o) {
        return new StreamsServiceConfig(
                kafka,
                http,
                verdict,
                workers,
                alerting,
                auth,
                silences,
                statusPages,
                selfWatch,
                management,
                console,
                o);
    }
}
