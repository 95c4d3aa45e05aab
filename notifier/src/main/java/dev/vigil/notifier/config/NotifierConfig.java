package dev.vigil.notifier.config;

import static dev.vigil.kit.config.DeprecatedKey.renamed;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.config.ConfigSpec;
import dev.vigil.kit.config.DurationText;
import dev.vigil.kit.config.Problems;
import dev.vigil.kit.trace.OtelSettings;
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
public record NotifierConfig(
        Kafka kafka,
        Database database,
        Delivery delivery,
        Http http,
        String routingFile,
        RoutingSpec routing,
        DeadMan deadMan,
        Digest digest,
        OtelSettings otel) {

    /**
     * How {@link ConfigLoader} reads this configuration, and the table of the keys it was written with before every
     * service shared one shape (every topic under {@code kafka.topics}), read for one more release.
     */
    public static final ConfigSpec<NotifierConfig> SPEC = ConfigSpec.of(
            NotifierConfig.class,
            NotifierConfig::defaults,
            renamed("kafka.alertsTopic", "kafka.topics.alerts"),
            renamed("kafka.deadLetterTopic", "kafka.topics.deadLetter"),
            renamed("kafka.silencesTopic", "kafka.topics.silences"),
            renamed("kafka.acksTopic", "kafka.topics.acks"),
            renamed("kafka.vendorUpdatesTopic", "kafka.topics.vendorUpdates"),
            renamed("kafka.auditTopic", "kafka.topics.audit"));

    public NotifierConfig {
        otel = otel == null ? OtelSettings.defaults() : otel;
        Problems p = new Problems();
        kafka = kafka == null ? Kafka.defaults() : kafka;
        database = database == null ? Database.defaults() : database;
        delivery = delivery == null ? Delivery.defaults() : delivery;
        http = http == null ? Http.defaults() : http;
        deadMan = deadMan == null ? DeadMan.defaults() : deadMan;
        digest = digest == null ? Digest.off() : digest;
        p.check(
                routingFile == null || routing == null,
                "routingFile",
                "give routing inline or in routingFile, not both");
        p.throwIfAny();
    }

    /** The shape before tracing ({@code otel}: export off). */
    public NotifierConfig(
            Kafka kafka,
            Database database,
            Delivery delivery,
            Http http,
            String routingFile,
            RoutingSpec routing,
            DeadMan deadMan,
            Digest digest) {
        this(kafka, database, delivery, http, routingFile, routing, deadMan, digest, null);
    }

    /**
     * Defaults, then the YAML file (if any), then {@code VIGIL_*} variables; throws ConfigException listing every
     * problem. The routing it names is checked by {@link NotifierSettings}.
     */
    public static NotifierConfig load(Path file, Map<String, String> env) {
        return ConfigLoader.load(SPEC, file, env);
    }

    public static NotifierConfig defaults() {
        return new NotifierConfig(
                Kafka.defaults(), Database.defaults(), Delivery.defaults(), Http.defaults(), null, null);
    }

    /** The shape without the dead-man's switch (off). */
    public NotifierConfig(
            Kafka kafka, Database database, Delivery delivery, Http http, String routingFile, RoutingSpec routing) {
        this(kafka, database, delivery, http, routingFile, routing, null);
    }

    /** The shape without the daily digest (off). */
    public NotifierConfig(
            Kafka kafka,
            Database database,
            Delivery delivery,
            Http http,
            String routingFile,
            RoutingSpec routing,
            DeadMan deadMan) {
        this(kafka, database, delivery, http, routingFile, routing, deadMan, null);
    }

    public NotifierConfig withDigest(Digest g) {
        return new NotifierConfig(kafka, database, delivery, http, routingFile, routing, deadMan, g, otel);
    }

    public NotifierConfig withDeadMan(DeadMan m) {
        return new NotifierConfig(kafka, database, delivery, http, routingFile, routing, m, digest, otel);
    }

    public NotifierConfig withKafka(Kafka k) {
        return new NotifierConfig(k, database, delivery, http, routingFile, routing, deadMan, digest, otel);
    }

    public NotifierConfig withDatabase(Database d) {
        return new NotifierConfig(kafka, d, delivery, http, routingFile, routing, deadMan, digest, otel);
    }

    public NotifierConfig withDelivery(Delivery d) {
        return new NotifierConfig(kafka, database, d, http, routingFile, routing, deadMan, digest, otel);
    }

    public NotifierConfig withHttp(Http h) {
        return new NotifierConfig(kafka, database, delivery, h, routingFile, routing, deadMan, digest, otel);
    }

    public NotifierConfig withRouting(RoutingSpec r) {
        return new NotifierConfig(kafka, database, delivery, http, null, r, deadMan, digest, otel);
    }

    /**
     * @param topics          where alerts are read and everything else is read or written
     * @param maxInFlight     events read but not yet committed; above it the consumer pauses its partitions
     * @param groupInstanceId a static group member id, stable across restarts and unique per notifier instance
     *                        (e.g. the pod name): a notifier restarted after a crash takes its partitions back at
     *                        once instead of after the crashed member's session timeout; empty: dynamic membership
     */
    public record Kafka(
            String bootstrapServers,
            String groupId,
            TopicNames topics,
            Integer maxInFlight,
            Integer maxPollRecords,
            String groupInstanceId) {
        private static final Pattern MEMBER_ID = Pattern.compile("[a-zA-Z0-9._-]{1,200}");

        public Kafka {
            Problems p = new Problems();
            p.check(
                    bootstrapServers != null && !bootstrapServers.isBlank(),
                    "bootstrapServers",
                    "is required (host:port[,host:port])");
            p.check(groupId != null && !groupId.isBlank(), "groupId", "is required");
            topics = topics == null ? TopicNames.defaults() : topics;
            maxInFlight = p.range("maxInFlight", maxInFlight, 2000, 1, 1_000_000);
            maxPollRecords = p.range("maxPollRecords", maxPollRecords, 500, 1, 100_000);
            // "" (not null) when unset, so VIGIL_KAFKA_GROUP_INSTANCE_ID can still override it
            groupInstanceId = groupInstanceId == null ? "" : groupInstanceId.strip();
            p.check(
                    groupInstanceId.isEmpty()
                            || MEMBER_ID.matcher(groupInstanceId).matches(),
                    "groupInstanceId",
                    "must be letters, digits, '.', '_' or '-'");
            p.throwIfAny();
        }

        /** Dynamic group membership. */
        public Kafka(
                String bootstrapServers,
                String groupId,
                TopicNames topics,
                Integer maxInFlight,
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
     * @param escalations   where each incident's escalation climb is shown (compacted, read by the console's API)
     * @param incidentNotes where each event's outcome per channel is noted for its incident's timeline
     */
    public record TopicNames(
            String alerts,
            String deadLetter,
            String silences,
            String acks,
            String vendorUpdates,
            String audit,
            String escalations,
            String incidentNotes) {
        public TopicNames {
            Problems p = new Problems();
            alerts = p.topic("alerts", alerts, Topics.ALERTS);
            deadLetter = p.topic("deadLetter", deadLetter, Topics.DEAD_LETTER);
            silences = p.topic("silences", silences, Topics.SILENCES);
            acks = p.topic("acks", acks, Topics.ACKS);
            vendorUpdates = p.topic("vendorUpdates", vendorUpdates, Topics.VENDOR_UPDATES);
            audit = p.topic("audit", audit, Topics.AUDIT);
            escalations = p.topic("escalations", escalations, Topics.ESCALATIONS);
            incidentNotes = p.topic("incidentNotes", incidentNotes, Topics.INCIDENT_NOTES);
            p.throwIfAny();
        }

        /** Every topic but the incident notes' named (its default). */
        public TopicNames(
                String alerts,
                String deadLetter,
                String silences,
                String acks,
                String vendorUpdates,
                String audit,
                String escalations) {
            this(alerts, deadLetter, silences, acks, vendorUpdates, audit, escalations, null);
        }

        /** Every topic but the escalations' named (its default). */
        public TopicNames(
                String alerts, String deadLetter, String silences, String acks, String vendorUpdates, String audit) {
            this(alerts, deadLetter, silences, acks, vendorUpdates, audit, null);
        }

        /** The alerts and dead-letter topics; every other topic its default. */
        public TopicNames(String alerts, String deadLetter) {
            this(alerts, deadLetter, null, null, null, null);
        }

        public static TopicNames defaults() {
            return new TopicNames(null, null, null, null, null, null, null, null);
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
            if (p.check(
                    url != null && url.startsWith("r2dbc:postgresql://"),
                    "url",
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

    /** Dedupe window, delivery deadline and the retry schedule (docs/design.md#notifier), as duration text. */
    public record Delivery(
            String dedupeWindow,
            String deadline,
            String retryBase,
            Double retryMultiplier,
            String retryCap,
            String sendTimeout,
            Integer claimBatchSize) {
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

    /**
     * The dead-man's switch (off unless {@code urlEnv} is set): while the end-to-end canary passed within
     * {@code maxCanaryAge}, a GET of the external heartbeat URL every {@code interval}; when it has not, the
     * {@code vigil/pipeline-stalled} alert. The URL is a secret: only the name of the variable holding it is here.
     *
     * @param urlEnv       the environment variable holding the heartbeat URL (https, or http on loopback); empty: off
     * @param interval     time between pings (1m)
     * @param maxCanaryAge the canary's bound: three canary intervals plus its deadline (4m, for a 60 s canary)
     * @param timeout      how long one ping may take (10s)
     */
    public record DeadMan(String urlEnv, String interval, String maxCanaryAge, String timeout) {
        public DeadMan {
            Problems p = new Problems();
            urlEnv = urlEnv == null ? "" : urlEnv.strip();
            p.check(
                    urlEnv.isEmpty() || urlEnv.matches("[A-Za-z_][A-Za-z0-9_]{0,127}"),
                    "urlEnv",
                    "must be an environment variable name");
            interval = interval == null ? "1m" : interval;
            maxCanaryAge = maxCanaryAge == null ? "4m" : maxCanaryAge;
            timeout = timeout == null ? "10s" : timeout;
            Delivery.positive(p, "interval", interval);
            Delivery.positive(p, "maxCanaryAge", maxCanaryAge);
            Delivery.positive(p, "timeout", timeout);
            p.throwIfAny();
        }

        static DeadMan defaults() {
            return new DeadMan(null, null, null, null);
        }

        @JsonIgnore
        public boolean enabled() {
            return !urlEnv.isEmpty();
        }

        @JsonIgnore
        public Duration intervalDuration() {
            return DurationText.parse(interval);
        }

        @JsonIgnore
        public Duration maxCanaryAgeDuration() {
            return DurationText.parse(maxCanaryAge);
        }

        @JsonIgnore
        public Duration timeoutDuration() {
            return DurationText.parse(timeout);
        }

        /**
         * The heartbeat URL from {@code env}: empty when the switch is off; a problem (never the value) when the
         * variable is unset or the URL is not https (http only to a loopback host, for local stand-ins).
         */
        public java.util.Optional<URI> url(Map<String, String> env, Problems p) {
            if (!enabled()) {
                return java.util.Optional.empty();
            }
            String value = env.get(urlEnv);
            if (value == null || value.isBlank()) {
                p.add("deadMan.urlEnv", "names " + urlEnv + ", which is not set");
                return java.util.Optional.empty();
            }
            try {
                URI u = URI.create(value.strip());
                if (u.getHost() == null || !dev.vigil.notifier.channel.PlainTransport.allows(u)) {
                    p.add("deadMan.urlEnv", "the URL in " + urlEnv + " must be https (http only on loopback)");
                    return java.util.Optional.empty();
                }
                return java.util.Optional.of(u);
            } catch (IllegalArgumentException e) {
                p.add("deadMan.urlEnv", "the value of " + urlEnv + " is not a URL");
                return java.util.Optional.empty();
            }
        }
    }

    /**
     * The daily digest (off unless {@code channels} names at least one): at {@code at} (HH:mm, or HH:mm:ss) in {@code zone}, the
     * digest of the day before goes to each of {@code channels} (slack or email channels of the routing), once per
     * day across restarts and instances.
     */
    public record Digest(String at, String zone, java.util.List<String> channels) {
        public Digest {
            Problems p = new Problems();
            at = at == null ? "09:00" : at.strip();
            zone = zone == null ? "UTC" : zone.strip();
            channels = channels == null ? java.util.List.of() : java.util.List.copyOf(channels);
            p.check(
                    at.matches("([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?"),
                    "at",
                    "must be a time of day HH:mm, e.g. \"09:00\"");
            try {
                java.time.ZoneId.of(zone);
            } catch (java.time.DateTimeException e) {
                p.add("zone", "'" + zone + "' is not a time zone; use a region id such as Europe/Berlin, or UTC");
            }
            p.throwIfAny();
        }

        static Digest off() {
            return new Digest(null, null, null);
        }

        @JsonIgnore
        public boolean enabled() {
            return !channels.isEmpty();
        }

        @JsonIgnore
        public java.time.LocalTime time() {
            return java.time.LocalTime.parse(at);
        }

        @JsonIgnore
        public java.time.ZoneId zoneId() {
            return java.time.ZoneId.of(zone);
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

    /** With other tracing settings. */
    public NotifierConfig withOtel(OtelSettings o) {
        return new NotifierConfig(kafka, database, delivery, http, routingFile, routing, deadMan, digest, o);
    }
}
