package dev.vigil.notifier.config;

import static dev.vigil.kit.config.DeprecatedKey.renamed;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.config.ConfigSpec;
import dev.vigil.kit.config.DurationText;
import dev.vigil.kit.config.Problems;
import dev.vigil.schemas.topic.Topics;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code vigil-notifier.yaml}. Routing is inline under {@code routing:} or in a separate file named by
 * {@code routingFile} (relative to the service config); with neither, {@link RoutingSpec#standard()} applies.
 */
public record NotifierConfig(Kafka kafka, Database database, Delivery delivery, Http http,
                             String routingFile, RoutingSpec routing) {

    /**
     * How {@link ConfigLoader} reads this configuration, and the table of the keys it was written with before every
     * service shared one shape (every topic under {@code kafka.topics}), read for one more release.
     */
    public static final ConfigSpec<NotifierConfig> SPEC = ConfigSpec.of(NotifierConfig.class, NotifierConfig::defaults,
            renamed("kafka.alertsTopic", "kafka.topics.alerts"),
            renamed("kafka.deadLetterTopic", "kafka.topics.deadLetter"),
            renamed("kafka.silencesTopic", "kafka.topics.silences"),
            renamed("kafka.acksTopic", "kafka.topics.acks"),
            renamed("kafka.vendorUpdatesTopic", "kafka.topics.vendorUpdates"),
            renamed("kafka.auditTopic", "kafka.topics.audit"));

    public NotifierConfig {
        Problems p = new Problems();
        kafka = kafka == null ? Kafka.defaults() : kafka;
        database = database == null ? Database.defaults() : database;
        delivery = delivery == null ? Delivery.defaults() : delivery;
        http = http == null ? Http.defaults() : http;
        p.check(routingFile == null || routing == null, "routingFile", "give routing inline or in routingFile, not both");
        p.throwIfAny();
    }

    /**
     * Defaults, then the YAML file (if any), then {@code VIGIL_*} variables; throws ConfigException listing every
     * problem. The routing it names is checked by {@link NotifierSettings}.
     */
    public static NotifierConfig load(Path file, Map<String, String> env) {
        return ConfigLoader.load(SPEC, file, env);
    }

    public static NotifierConfig defaults() {
        return new NotifierConfig(Kafka.defaults(), Database.defaults(), Delivery.defaults(), Http.defaults(), null, null);
    }

    public NotifierConfig withKafka(Kafka k) {
        return new NotifierConfig(k, database, delivery, http, routingFile, routing);
    }

    public NotifierConfig withDatabase(Database d) {
        return new NotifierConfig(kafka, d, delivery, http, routingFile, routing);
    }

    public NotifierConfig withDelivery(Delivery d) {
        return new NotifierConfig(kafka, database, d, http, routingFile, routing);
    }

    public NotifierConfig withHttp(Http h) {
        return new NotifierConfig(kafka, database, delivery, h, routingFile, routing);
    }

    public NotifierConfig withRouting(RoutingSpec r) {
        return new NotifierConfig(kafka, database, delivery, http, null, r);
    }

    /**
     * @param topics          where alerts are read and everything else is read or written
     * @param maxInFlight     events read but not yet committed; above it the consumer pauses its partitions
     * @param groupInstanceId a static group member id, stable across restarts and unique per notifier instance
     *                        (e.g. the pod name): a notifier restarted after a crash takes its partitions back at
     *                        once instead of after the crashed member's session timeout; empty: dynamic membership
     */
    public record Kafka(String bootstrapServers, String groupId, TopicNames topics, Integer maxInFlight,
                        Integer maxPollRecords, String groupInstanceId) {
        private static final Pattern MEMBER_ID = Pattern.compile("[a-zA-Z0-9._-]{1,200}");

        public Kafka {
            Problems p = new Problems();
            p.check(bootstrapServers != null && !bootstrapServers.isBlank(), "bootstrapServers",
                    "is required (host:port[,host:port])");
            p.check(groupId != null && !groupId.isBlank(), "groupId", "is required");
            topics = topics == null ? TopicNames.defaults() : topics;
            maxInFlight = p.range("maxInFlight", maxInFlight, 2000, 1, 1_000_000);
            maxPollRecords = p.range("maxPollRecords", maxPollRecords, 500, 1, 100_000);
            // "" (not null) when unset, so VIGIL_KAFKA_GROUP_INSTANCE_ID can still override it
            groupInstanceId = groupInstanceId == null ? "" : groupInstanceId.strip();
            p.check(groupInstanceId.isEmpty() || MEMBER_ID.matcher(groupInstanceId).matches(), "groupInstanceId",
                    "must be letters, digits, '.', '_' or '-'");
            p.throwIfAny();
        }

        /** Dynamic group membership. */
        public Kafka(String bootstrapServers, String groupId, TopicNames topics, Integer maxInFlight,
                     Integer maxPollRecords) {
            this(bootstrapServers, groupId, topics, maxInFlight, maxPollRecords, null);
        }

        static Kafka defaults() {
            return new Kafka("localhost:9092", "vigil-notifier", null, null, null);
        }
    }

    /**
     * The topics the notifier reads and writes; defaults from {@link Topics}.
     *
     * @param alerts        alert events in; escalations of undeliverable events out
     * @param silences      silences and maintenance windows (compacted), mirrored to mute application events
     * @param acks          acknowledgements (compacted): mirrored to hold reminders of application incidents, and
     *                      where acknowledgements made in a vendor's tool are written
     * @param vendorUpdates what people did in a vendor's tool (from ingest's BetterStack webhook)
     * @param audit         where those acknowledgements are audited
     */
    public record TopicNames(String alerts, String deadLetter, String silences, String acks, String vendorUpdates,
                             String audit) {
        public TopicNames {
            Problems p = new Problems();
            alerts = p.topic("alerts", alerts, Topics.ALERTS);
            deadLetter = p.topic("deadLetter", deadLetter, Topics.DEAD_LETTER);
            silences = p.topic("silences", silences, Topics.SILENCES);
            acks = p.topic("acks", acks, Topics.ACKS);
            vendorUpdates = p.topic("vendorUpdates", vendorUpdates, Topics.VENDOR_UPDATES);
            audit = p.topic("audit", audit, Topics.AUDIT);
            p.throwIfAny();
        }

        /** The alerts and dead-letter topics; every other topic its default. */
        public TopicNames(String alerts, String deadLetter) {
            this(alerts, deadLetter, null, null, null, null);
        }

        public static TopicNames defaults() {
            return new TopicNames(null, null, null, null, null, null);
        }
    }

    /**
     * @param url         {@code r2dbc:postgresql://host:port/database}
     * @param passwordEnv the environment variable holding the password (unset = no password)
     * @param startupWait how long start-up keeps trying to reach the database and prepare its schema (PostgreSQL
     *                    starting beside the notifier, or a machine busy starting many processes) before it gives up
     *                    with exit code 3
     */
    public record Database(String url, String username, String passwordEnv, Integer poolSize, String startupWait) {
        public Database(String url, String username, String passwordEnv, Integer poolSize) {
            this(url, username, passwordEnv, poolSize, null);
        }

        public Database {
            Problems p = new Problems();
            if (p.check(url != null && url.startsWith("r2dbc:postgresql://"), "url",
                    "must be an R2DBC URL r2dbc:postgresql://host:port/database")) {
                try {
                    p.check(URI.create(url.substring("r2dbc:".length())).getHost() != null, "url", "must name a host");
                } catch (IllegalArgumentException e) {
                    p.add("url", "is not a valid URL");
                }
            }
            username = username == null ? "postgres" : username;
            passwordEnv = passwordEnv == null ? "VIGIL_DB_PASSWORD" : passwordEnv;
            poolSize = p.range("poolSize", poolSize, 8, 1, 256);
            startupWait = startupWait == null ? "60s" : startupWait;
            Delivery.positive(p, "startupWait", startupWait);
            p.throwIfAny();
        }

        @JsonIgnore
        public Duration startupWaitDuration() {
            return DurationText.parse(startupWait);
        }

        static Database defaults() {
            return new Database("r2dbc:postgresql://localhost:5432/vigil", null, null, null, null);
        }
    }

    /** Dedupe window, delivery deadline and the retry schedule (SPEC section 8), as duration text. */
    public record Delivery(String dedupeWindow, String deadline, String retryBase, Double retryMultiplier,
                           String retryCap, String sendTimeout, Integer claimBatchSize) {
        public Delivery {
            Problems p = new Problems();
            dedupeWindow = dedupeWindow == null ? "1h" : dedupeWindow;
            deadline = deadline == null ? "1h" : deadline;
            retryBase = retryBase == null ? "1s" : retryBase;
            retryMultiplier = retryMultiplier == null ? 2.0 : retryMultiplier;
            retryCap = retryCap == null ? "5m" : retryCap;
            sendTimeout = sendTimeout == null ? "10s" : sendTimeout;
            positive(p, "dedupeWindow", dedupeWindow);
            positive(p, "deadline", deadline);
            Duration base = positive(p, "retryBase", retryBase);
            Duration cap = positive(p, "retryCap", retryCap);
            positive(p, "sendTimeout", sendTimeout);
            p.check(retryMultiplier >= 1.0 && retryMultiplier <= 10, "retryMultiplier", "must be between 1 and 10");
            if (base != null && cap != null) {
                p.check(cap.compareTo(base) >= 0, "retryCap", "must not be shorter than delivery.retryBase");
            }
            claimBatchSize = p.range("claimBatchSize", claimBatchSize, 256, 1, 5000);
            p.throwIfAny();
        }

        static Delivery defaults() {
            return new Delivery(null, null, null, null, null, null, null);
        }

        /** The duration {@code text} stands for, or null with its problem recorded. */
        static Duration positive(Problems p, String key, String text) {
            try {
                Duration d = DurationText.parse(text);
                return p.check(!d.isZero(), key, "must be positive") ? d : null;
            } catch (IllegalArgumentException e) {
                p.add(key, e.getMessage());
                return null;
            }
        }

        @JsonIgnore
        public Duration dedupeWindowDuration() {
            return DurationText.parse(dedupeWindow);
        }

        @JsonIgnore
        public Duration deadlineDuration() {
            return DurationText.parse(deadline);
        }

        @JsonIgnore
        public Duration retryBaseDuration() {
            return DurationText.parse(retryBase);
        }

        @JsonIgnore
        public Duration retryCapDuration() {
            return DurationText.parse(retryCap);
        }

        @JsonIgnore
        public Duration sendTimeoutDuration() {
            return DurationText.parse(sendTimeout);
        }
    }

    /** Health, readiness and metrics endpoint; port 0 picks a free port. */
    public record Http(String host, Integer port) {
        public static final int DEFAULT_PORT = 8082;

        public Http {
            Problems p = new Problems();
            host = p.text("host", host, "0.0.0.0", 255);
            port = p.range("port", port, DEFAULT_PORT, 0, 65535);
            p.throwIfAny();
        }

        static Http defaults() {
            return new Http(null, null);
        }
    }
}
