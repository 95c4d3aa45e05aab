package dev.vigil.notifier.config;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.config.ConfigSpec;
import dev.vigil.kit.config.DurationText;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.topic.Topics;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * {@code vigil-notifier.yaml}. Routing is inline under {@code routing:} or in a separate file named by
 * {@code routingFile} (relative to the service config); with neither, {@link RoutingSpec#standard()} applies.
 */
public record NotifierConfig(Kafka kafka, Database database, Delivery delivery, Http http,
                             String routingFile, RoutingSpec routing) {

    public NotifierConfig {
        kafka = kafka == null ? Kafka.defaults() : kafka;
        database = database == null ? Database.defaults() : database;
        delivery = delivery == null ? Delivery.defaults() : delivery;
        http = http == null ? Http.defaults() : http;
        if (routingFile != null && routing != null) {
            throw new ContractViolation("routingFile", "give routing inline or in routingFile, not both");
        }
    }

    /** How {@link ConfigLoader} reads this configuration. */
    public static final ConfigSpec<NotifierConfig> SPEC = ConfigSpec.of(NotifierConfig.class, NotifierConfig::defaults);

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
     * @param maxInFlight        events read but not yet committed; above it the consumer pauses its partitions
     * @param silencesTopic      silences and maintenance windows (compacted), mirrored to mute application events
     * @param acksTopic          acknowledgements (compacted): mirrored to hold reminders of application incidents, and
     *                           where acknowledgements made in a vendor's tool are written
     * @param vendorUpdatesTopic what people did in a vendor's tool (from ingest's BetterStack webhook)
     * @param auditTopic         where those acknowledgements are audited
     * @param groupInstanceId    a static group member id, stable across restarts and unique per notifier instance
     *                           (e.g. the pod name): a notifier restarted after a crash takes its partitions back at
     *                           once instead of after the crashed member's session timeout; empty: dynamic membership
     */
    public record Kafka(String bootstrapServers, String groupId, String alertsTopic, String deadLetterTopic,
                        Integer maxInFlight, Integer maxPollRecords, String silencesTopic, String acksTopic,
                        String vendorUpdatesTopic, String auditTopic, String groupInstanceId) {
        public Kafka {
            if (bootstrapServers == null || bootstrapServers.isBlank()) {
                throw new ContractViolation("kafka.bootstrapServers", "is required (host:port[,host:port])");
            }
            if (groupId == null || groupId.isBlank()) {
                throw new ContractViolation("kafka.groupId", "is required");
            }
            alertsTopic = alertsTopic == null ? Topics.ALERTS : alertsTopic;
            deadLetterTopic = deadLetterTopic == null ? Topics.DEAD_LETTER : deadLetterTopic;
            maxInFlight = maxInFlight == null ? 2000 : maxInFlight;
            if (maxInFlight < 1 || maxInFlight > 1_000_000) {
                throw new ContractViolation("kafka.maxInFlight", "must be between 1 and 1000000");
            }
            maxPollRecords = maxPollRecords == null ? 500 : maxPollRecords;
            if (maxPollRecords < 1 || maxPollRecords > 100_000) {
                throw new ContractViolation("kafka.maxPollRecords", "must be between 1 and 100000");
            }
            silencesTopic = topic("kafka.silencesTopic", silencesTopic, Topics.SILENCES);
            acksTopic = topic("kafka.acksTopic", acksTopic, Topics.ACKS);
            vendorUpdatesTopic = topic("kafka.vendorUpdatesTopic", vendorUpdatesTopic, Topics.VENDOR_UPDATES);
            auditTopic = topic("kafka.auditTopic", auditTopic, Topics.AUDIT);
            // "" (not null) when unset, so VIGIL_KAFKA_GROUP_INSTANCE_ID can still override it
            groupInstanceId = groupInstanceId == null ? "" : groupInstanceId.strip();
            if (!groupInstanceId.isEmpty() && !groupInstanceId.matches("[a-zA-Z0-9._-]{1,200}")) {
                throw new ContractViolation("kafka.groupInstanceId", "must be letters, digits, '.', '_' or '-'");
            }
        }

        /** Every topic named, dynamic group membership. */
        public Kafka(String bootstrapServers, String groupId, String alertsTopic, String deadLetterTopic,
                     Integer maxInFlight, Integer maxPollRecords, String silencesTopic, String acksTopic,
                     String vendorUpdatesTopic, String auditTopic) {
            this(bootstrapServers, groupId, alertsTopic, deadLetterTopic, maxInFlight, maxPollRecords, silencesTopic,
                    acksTopic, vendorUpdatesTopic, auditTopic, null);
        }

        /** The alerts and dead-letter topics; every other topic its default. */
        public Kafka(String bootstrapServers, String groupId, String alertsTopic, String deadLetterTopic,
                     Integer maxInFlight, Integer maxPollRecords) {
            this(bootstrapServers, groupId, alertsTopic, deadLetterTopic, maxInFlight, maxPollRecords, null, null, null,
                    null, null);
        }

        private static String topic(String key, String value, String fallback) {
            if (value == null) {
                return fallback;
            }
            if (value.isBlank() || value.length() > 249 || !value.matches("[A-Za-z0-9._-]+")) {
                throw new ContractViolation(key, "must be a Kafka topic name ([A-Za-z0-9._-], at most 249 characters)");
            }
            return value;
        }

        static Kafka defaults() {
            return new Kafka("localhost:9092", "vigil-notifier", null, null, null, null);
        }
    }

    /**
     * @param url         {@code r2dbc:postgresql://host:port/database}
     * @param passwordEnv the environment variable holding the password (unset = no password)
     */
    public record Database(String url, String username, String passwordEnv, Integer poolSize) {
        public Database {
            if (url == null || !url.startsWith("r2dbc:postgresql://")) {
                throw new ContractViolation("database.url", "must be an R2DBC URL r2dbc:postgresql://host:port/database");
            }
            try {
                URI u = URI.create(url.substring("r2dbc:".length()));
                if (u.getHost() == null) {
                    throw new ContractViolation("database.url", "must name a host");
                }
            } catch (IllegalArgumentException e) {
                throw new ContractViolation("database.url", "is not a valid URL");
            }
            username = username == null ? "postgres" : username;
            passwordEnv = passwordEnv == null ? "VIGIL_DB_PASSWORD" : passwordEnv;
            poolSize = poolSize == null ? 8 : poolSize;
            if (poolSize < 1 || poolSize > 256) {
                throw new ContractViolation("database.poolSize", "must be between 1 and 256");
            }
        }

        static Database defaults() {
            return new Database("r2dbc:postgresql://localhost:5432/vigil", null, null, null);
        }
    }

    /** Dedupe window, delivery deadline and the retry schedule (SPEC section 8), as duration text. */
    public record Delivery(String dedupeWindow, String deadline, String retryBase, Double retryMultiplier,
                           String retryCap, String sendTimeout, Integer claimBatchSize) {
        public Delivery {
            dedupeWindow = dedupeWindow == null ? "1h" : dedupeWindow;
            deadline = deadline == null ? "1h" : deadline;
            retryBase = retryBase == null ? "1s" : retryBase;
            retryMultiplier = retryMultiplier == null ? 2.0 : retryMultiplier;
            retryCap = retryCap == null ? "5m" : retryCap;
            sendTimeout = sendTimeout == null ? "10s" : sendTimeout;
            claimBatchSize = claimBatchSize == null ? 256 : claimBatchSize;
            parse("delivery.dedupeWindow", dedupeWindow);
            parse("delivery.deadline", deadline);
            Duration base = parse("delivery.retryBase", retryBase);
            Duration cap = parse("delivery.retryCap", retryCap);
            parse("delivery.sendTimeout", sendTimeout);
            if (!(retryMultiplier >= 1.0) || retryMultiplier > 10) {
                throw new ContractViolation("delivery.retryMultiplier", "must be between 1 and 10");
            }
            if (cap.compareTo(base) < 0) {
                throw new ContractViolation("delivery.retryCap", "must not be shorter than delivery.retryBase");
            }
            if (claimBatchSize < 1 || claimBatchSize > 5000) {
                throw new ContractViolation("delivery.claimBatchSize", "must be between 1 and 5000");
            }
        }

        static Delivery defaults() {
            return new Delivery(null, null, null, null, null, null, null);
        }

        private static Duration parse(String field, String text) {
            try {
                Duration d = DurationText.parse(text);
                if (d.isZero()) {
                    throw new ContractViolation(field, "must be positive");
                }
                return d;
            } catch (IllegalArgumentException e) {
                throw e instanceof ContractViolation cv ? cv : new ContractViolation(field, e.getMessage());
            }
        }

        @JsonIgnore
        public Duration dedupeWindowDuration() {
            return parse("delivery.dedupeWindow", dedupeWindow);
        }

        @JsonIgnore
        public Duration deadlineDuration() {
            return parse("delivery.deadline", deadline);
        }

        @JsonIgnore
        public Duration retryBaseDuration() {
            return parse("delivery.retryBase", retryBase);
        }

        @JsonIgnore
        public Duration retryCapDuration() {
            return parse("delivery.retryCap", retryCap);
        }

        @JsonIgnore
        public Duration sendTimeoutDuration() {
            return parse("delivery.sendTimeout", sendTimeout);
        }
    }

    /** Health, readiness and metrics endpoint; port 0 picks a free port. */
    public record Http(String host, Integer port) {
        public static final int DEFAULT_PORT = 8082;

        public Http {
            host = host == null ? "0.0.0.0" : host;
            port = port == null ? DEFAULT_PORT : port;
            if (port < 0 || port > 65535) {
                throw new ContractViolation("http.port", "must be between 0 and 65535");
            }
        }

        static Http defaults() {
            return new Http(null, null);
        }
    }
}
