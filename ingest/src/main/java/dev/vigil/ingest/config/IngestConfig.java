package dev.vigil.ingest.config;

import static dev.vigil.kit.config.DeprecatedKey.millis;
import static dev.vigil.kit.config.DeprecatedKey.renamed;
import static dev.vigil.kit.config.DeprecatedKey.seconds;

import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.config.ConfigSpec;
import dev.vigil.kit.config.Problems;
import dev.vigil.kit.trace.OtelSettings;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.topic.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Configuration of the ingest service ({@code vigil-ingest.yaml}), validated at start. Every problem names
 * its key path, and all of them are reported at once.
 *
 * <p>API keys are configured as the lower-case hex SHA-256 of the key, never the key itself:
 * {@code printf '%s' "$KEY" | sha256sum | cut -d' ' -f1}. Probe-worker secrets and webhook tokens are named by
 * environment variable, never inline.
 */
public record IngestConfig(
        Http http,
        Kafka kafka,
        Map<String, List<String>> apiKeys,
        Map<String, ProbeWorkerKey> probeWorkers,
        Limits limits,
        Integrations integrations,
        Quotas quotas,
        OtelSettings otel) {

    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * How {@link ConfigLoader} reads this configuration, and the table of the keys it was written with before every
     * service shared one shape ({@code http.host}/{@code http.port}, durations as text), read for one more release.
     */
    public static final ConfigSpec<IngestConfig> SPEC = ConfigSpec.of(
            IngestConfig.class,
            IngestConfig::defaults,
            renamed("host", "http.host"),
            renamed("port", "http.port"),
            millis("kafka.sendTimeoutMs", "kafka.sendTimeout"),
            millis("kafka.commitResolveTimeoutMs", "kafka.commitResolveTimeout"),
            seconds("kafka.retryAfterSeconds", "kafka.retryAfter"),
            millis("limits.timestampSkewMs", "limits.timestampSkew"),
            millis("limits.signatureSkewMs", "limits.signatureSkew"),
            millis("limits.headerTimeoutMs", "limits.headerTimeout"),
            millis("limits.requestTimeoutMs", "limits.requestTimeout"),
            millis("limits.idleTimeoutMs", "limits.idleTimeout"));

    public IngestConfig {
        otel = otel == null ? OtelSettings.defaults() : otel;
        Problems p = new Problems();
        http = http == null ? Http.defaults() : http;
        p.required("kafka", kafka);
        limits = limits == null ? Limits.defaults() : limits;
        integrations = integrations == null ? Integrations.none() : integrations;
        quotas = quotas == null ? Quotas.defaults() : quotas;
        if (quotas.bodyBytesPerPrincipal() != null) {
            p.check(
                    quotas.bodyBytesPerPrincipal() >= limits.maxBodyBytes()
                            && quotas.bodyBytesPerPrincipal() <= limits.maxInFlightBodyBytes(),
                    "quotas.bodyBytesPerPrincipal",
                    "must be between limits.maxBodyBytes (" + limits.maxBodyBytes()
                            + ") and limits.maxInFlightBodyBytes (" + limits.maxInFlightBodyBytes() + ")");
        }
        if (quotas.alertsReservedBodyBytes() != null) {
            p.check(
                    quotas.alertsReservedBodyBytes() >= 0
                            && quotas.alertsReservedBodyBytes() < limits.maxInFlightBodyBytes(),
                    "quotas.alertsReservedBodyBytes",
                    "must be at least 0 and less than limits.maxInFlightBodyBytes (" + limits.maxInFlightBodyBytes()
                            + ")");
        }
        var keys = new TreeMap<String, List<String>>();
        if (apiKeys != null) {
            for (var e : apiKeys.entrySet()) {
                String path = "apiKeys." + e.getKey();
                p.contract(() -> Require.slug(path, e.getKey()));
                List<String> hashes = p.contract(() -> Require.list(path, e.getValue(), 32));
                if (hashes == null) {
                    continue;
                }
                List<String> normalised = new ArrayList<>();
                for (int i = 0; i < hashes.size(); i++) {
                    String h = hashes.get(i).trim().toLowerCase(Locale.ROOT);
                    p.check(
                            SHA256_HEX.matcher(h).matches(),
                            path + "[" + i + "]",
                            "must be the 64-hex-digit SHA-256 of the key (printf '%s' \"$KEY\" | sha256sum), never the key itself");
                    normalised.add(h);
                }
                keys.put(e.getKey(), List.copyOf(normalised));
            }
        }
        apiKeys = Collections.unmodifiableMap(keys);
        var workers = new TreeMap<String, ProbeWorkerKey>();
        if (probeWorkers != null) {
            for (var e : probeWorkers.entrySet()) {
                String path = "probeWorkers." + e.getKey();
                p.check(KEY_ID.matcher(e.getKey()).matches(), path, "key id must be 1-64 characters [A-Za-z0-9._-]");
                if (p.required(path, e.getValue()) != null) {
                    workers.put(e.getKey(), e.getValue());
                }
            }
        }
        probeWorkers = Collections.unmodifiableMap(workers);
        p.throwIfAny();
    }

    /** The shape before tracing ({@code otel}: export off). */
    public IngestConfig(
            Http http,
            Kafka kafka,
            Map<String, List<String>> apiKeys,
            Map<String, ProbeWorkerKey> probeWorkers,
            Limits limits,
            Integrations integrations,
            Quotas quotas) {
        this(http, kafka, apiKeys, probeWorkers, limits, integrations, quotas, null);
    }

    /** No vendor integrations. */
    public IngestConfig(
            Http http,
            Kafka kafka,
            Map<String, List<String>> apiKeys,
            Map<String, ProbeWorkerKey> probeWorkers,
            Limits limits) {
        this(http, kafka, apiKeys, probeWorkers, limits, null, null);
    }

    /** Default quotas. */
    public IngestConfig(
            Http http,
            Kafka kafka,
            Map<String, List<String>> apiKeys,
            Map<String, ProbeWorkerKey> probeWorkers,
            Limits limits,
            Integrations integrations) {
        this(http, kafka, apiKeys, probeWorkers, limits, integrations, null);
    }

    /** Defaults, then the YAML file (if any), then {@code VIGIL_*} variables; throws ConfigException listing every problem. */
    public static IngestConfig load(Path file, Map<String, String> env) {
        return ConfigLoader.load(SPEC, file, env);
    }

    /** Built-in defaults: port 8080, local Kafka, no keys (every authenticated route refuses until keys are configured). */
    public static IngestConfig defaults() {
        return new IngestConfig(
                Http.defaults(),
                Kafka.defaults("localhost:9092"),
                Map.of(),
                Map.of(),
                Limits.defaults(),
                Integrations.none(),
                Quotas.defaults());
    }

    public IngestConfig withPort(int newPort) {
        return withHttp(new Http(http.host(), newPort, http.allowedHosts()));
    }

    public IngestConfig withLimits(Limits newLimits) {
        return new IngestConfig(http, kafka, apiKeys, probeWorkers, newLimits, integrations, quotas, otel);
    }

    public IngestConfig withHttp(Http newHttp) {
        return new IngestConfig(newHttp, kafka, apiKeys, probeWorkers, limits, integrations, quotas, otel);
    }

    public IngestConfig withKafka(Kafka newKafka) {
        return new IngestConfig(http, newKafka, apiKeys, probeWorkers, limits, integrations, quotas, otel);
    }

    public IngestConfig withIntegrations(Integrations newIntegrations) {
        return new IngestConfig(http, kafka, apiKeys, probeWorkers, limits, newIntegrations, quotas, otel);
    }

    public IngestConfig withQuotas(Quotas newQuotas) {
        return new IngestConfig(http, kafka, apiKeys, probeWorkers, limits, integrations, newQuotas, otel);
    }

    /**
     * The HTTP server: where it binds (port 0 picks a free port) and the names it answers to.
     *
     * @param allowedHosts names accepted in the {@code Host} header (port ignored). Empty (the default): the loopback
     *                     names when the server is bound to a loopback address (a DNS-rebound browser page sends the
     *                     attacker's name, so it is refused), any name otherwise. Names listed here are accepted in
     *                     addition to the loopback names on a loopback bind, and instead of "any" on other binds;
     *                     {@code "*"} accepts any name on any bind.
     */
    public record Http(String host, Integer port, List<String> allowedHosts) {
        public static final int DEFAULT_PORT = 8080;
        private static final Pattern HOST =
                Pattern.compile("\\*|\\[[0-9a-f:.]+]|[0-9a-f.]*:[0-9a-f:.]*|[a-z0-9_][a-z0-9._-]{0,252}");

        public Http {
            Problems p = new Problems();
            host = p.text("host", host, "0.0.0.0", 255);
            port = p.range("port", port, DEFAULT_PORT, 0, 65535);
            var hosts = new ArrayList<String>();
            List<String> given = allowedHosts;
            List<String> listed = p.contract(() -> Require.list("allowedHosts", given, 64));
            for (String h : listed == null ? List.<String>of() : listed) {
                String name = h.strip().toLowerCase(Locale.ROOT);
                p.check(
                        HOST.matcher(name).matches(),
                        "allowedHosts[" + hosts.size() + "]",
                        "must be a host name or address without port (or * for any)");
                hosts.add(name);
            }
            allowedHosts = List.copyOf(hosts);
            p.throwIfAny();
        }

        /** Bound to {@code host:port}, the Host allow-list following the bind address. */
        public Http(String host, Integer port) {
            this(host, port, null);
        }

        public static Http defaults() {
            return new Http(null, null, null);
        }
    }

    /** Kafka connection, topic names and the publish bound. */
    public record Kafka(
            String bootstrapServers,
            TopicNames topics,
            String transactionalIdPrefix,
            Integer producers,
            Duration sendTimeout,
            Duration commitResolveTimeout,
            Duration retryAfter,
            Integer maxRecordsPerTransaction,
            Integer maxQueuedRequests,
            Map<String, String> properties) {

        public Kafka {
            Problems p = new Problems();
            p.text("bootstrapServers", bootstrapServers, null, 2048);
            topics = topics == null ? TopicNames.defaults() : topics;
            transactionalIdPrefix = transactionalIdPrefix == null || transactionalIdPrefix.isBlank()
                    ? defaultTransactionalIdPrefix()
                    : p.text("transactionalIdPrefix", transactionalIdPrefix, null, 200);
            producers = p.range("producers", producers, 2, 1, 32);
            sendTimeout = p.duration(
                    "sendTimeout", sendTimeout, Duration.ofSeconds(5), Duration.ofMillis(200), Duration.ofMinutes(2));
            commitResolveTimeout = commitResolveTimeout == null ? Duration.ofMinutes(1) : commitResolveTimeout;
            p.check(
                    commitResolveTimeout.compareTo(sendTimeout) >= 0,
                    "commitResolveTimeout",
                    "must be at least kafka.sendTimeout");
            retryAfter = p.duration(
                    "retryAfter", retryAfter, Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofHours(1));
            // it becomes the Retry-After header, which counts whole seconds
            p.check(retryAfter.toMillis() % 1000 == 0, "retryAfter", "must be whole seconds (e.g. 5s)");
            maxRecordsPerTransaction =
                    p.range("maxRecordsPerTransaction", maxRecordsPerTransaction, 10_000, 1, 1_000_000);
            maxQueuedRequests = p.range("maxQueuedRequests", maxQueuedRequests, 512, 1, 100_000);
            properties = properties == null ? Map.of() : Map.copyOf(properties);
            p.throwIfAny();
        }

        public static Kafka defaults(String bootstrapServers) {
            return new Kafka(
                    bootstrapServers, TopicNames.defaults(), null, null, null, null, null, null, null, Map.of());
        }

        public Kafka withBootstrapServers(String servers) {
            return new Kafka(
                    servers,
                    topics,
                    transactionalIdPrefix,
                    producers,
                    sendTimeout,
                    commitResolveTimeout,
                    retryAfter,
                    maxRecordsPerTransaction,
                    maxQueuedRequests,
                    properties);
        }

        public Kafka withTransactionalIdPrefix(String prefix) {
            return new Kafka(
                    bootstrapServers,
                    topics,
                    prefix,
                    producers,
                    sendTimeout,
                    commitResolveTimeout,
                    retryAfter,
                    maxRecordsPerTransaction,
                    maxQueuedRequests,
                    properties);
        }

        public Kafka withSendTimeout(Duration timeout) {
            Duration resolve = commitResolveTimeout.compareTo(timeout) >= 0 ? commitResolveTimeout : timeout;
            return new Kafka(
                    bootstrapServers,
                    topics,
                    transactionalIdPrefix,
                    producers,
                    timeout,
                    resolve,
                    retryAfter,
                    maxRecordsPerTransaction,
                    maxQueuedRequests,
                    properties);
        }

        public Kafka withTopics(TopicNames names) {
            return new Kafka(
                    bootstrapServers,
                    names,
                    transactionalIdPrefix,
                    producers,
                    sendTimeout,
                    commitResolveTimeout,
                    retryAfter,
                    maxRecordsPerTransaction,
                    maxQueuedRequests,
                    properties);
        }

        public Kafka withProducers(int count, Map<String, String> producerProperties) {
            return new Kafka(
                    bootstrapServers,
                    topics,
                    transactionalIdPrefix,
                    count,
                    sendTimeout,
                    commitResolveTimeout,
                    retryAfter,
                    maxRecordsPerTransaction,
                    maxQueuedRequests,
                    producerProperties);
        }

        /** Stable per host so a restarted instance fences (and aborts) its predecessor's open transactions. */
        private static String defaultTransactionalIdPrefix() {
            String host = System.getenv("HOSTNAME");
            if (host == null || host.isBlank()) {
                try {
                    host = java.net.InetAddress.getLocalHost().getHostName();
                } catch (java.net.UnknownHostException e) {
                    host = "local";
                }
            }
            return "vigil-ingest-" + host;
        }
    }

    /**
     * Topic names; defaults from {@link Topics}.
     *
     * @param heartbeats    where probe workers' own heartbeats ({@code POST /v1/heartbeats}) go
     * @param vendorUpdates where a person's acknowledgement or resolution in a vendor's tool (the BetterStack
     *                      webhook) goes, for the notifier
     * @param monitors      the compacted monitor catalogue ingest reads (never writes) to know the heartbeat monitors
     *                      and their ping tokens' hashes; the pings' results go to {@code probeResults}
     */
    public record TopicNames(
            String metrics,
            String probeResults,
            String alerts,
            String heartbeats,
            String vendorUpdates,
            String monitors) {
        public TopicNames {
            Problems p = new Problems();
            metrics = p.topic("metrics", metrics, Topics.METRICS);
            probeResults = p.topic("probeResults", probeResults, Topics.PROBE_RESULTS);
            alerts = p.topic("alerts", alerts, Topics.ALERTS);
            heartbeats = p.topic("heartbeats", heartbeats, Topics.HEARTBEATS);
            vendorUpdates = p.topic("vendorUpdates", vendorUpdates, Topics.VENDOR_UPDATES);
            monitors = p.topic("monitors", monitors, Topics.MONITORS);
            p.throwIfAny();
        }

        /** The monitor catalogue on the default topic. */
        public TopicNames(String metrics, String probeResults, String alerts, String heartbeats, String vendorUpdates) {
            this(metrics, probeResults, alerts, heartbeats, vendorUpdates, null);
        }

        /** Vendor updates on the default topic. */
        public TopicNames(String metrics, String probeResults, String alerts, String heartbeats) {
            this(metrics, probeResults, alerts, heartbeats, null);
        }

        /** Heartbeats and vendor updates on the default topics. */
        public TopicNames(String metrics, String probeResults, String alerts) {
            this(metrics, probeResults, alerts, null, null);
        }

        public static TopicNames defaults() {
            return new TopicNames(null, null, null, null, null, null);
        }
    }

    /**
     * Vendors' outgoing webhooks ingest accepts. Each is off unless configured: its routes then answer 404 like
     * any unknown route.
     *
     * @param betterstack BetterStack's incident webhook, or null for none
     */
    public record Integrations(BetterStack betterstack) {
        public static Integrations none() {
            return new Integrations(null);
        }
    }

    /**
     * BetterStack's incident webhook ({@code POST /v1/integrations/betterstack/<token>}). BetterStack sends no
     * signature and lets one configure only a URL, so a shared token is the credential, and it travels in the path.
     * It is named by environment variable, never written here; start-up fails when the variable is not set.
     *
     * @param tokenEnv the environment variable holding the token (at least 32 URL-safe characters)
     */
    public record BetterStack(String tokenEnv) {
        public BetterStack {
            Problems p = new Problems();
            if (p.required("tokenEnv", tokenEnv) != null) {
                p.check(ENV_NAME.matcher(tokenEnv).matches(), "tokenEnv", "must be an environment variable name");
            }
            p.throwIfAny();
        }
    }

    /**
     * A remote probe worker's signing key: the region it may speak for, the env var holding its secret and
     * the worker id it may heartbeat as ({@code null} = the key id itself).
     */
    public record ProbeWorkerKey(String region, String secretEnv, String workerId) {
        public ProbeWorkerKey {
            Problems p = new Problems();
            p.contract(() -> Require.slug("region", region));
            // results in region push are heartbeat pings, which only ingest records (after checking the token)
            p.check(
                    !MonitorDefinition.PUSH_REGION.equals(region),
                    "region",
                    "push is the region of heartbeat pings; a probe worker speaks for a real region");
            workerId = workerId == null || workerId.isBlank() ? null : p.text("workerId", workerId.strip(), null, 128);
            if (p.required("secretEnv", secretEnv) != null) {
                p.check(ENV_NAME.matcher(secretEnv).matches(), "secretEnv", "must be an environment variable name");
            }
            p.throwIfAny();
        }

        /** A key whose worker id is its key id. */
        public ProbeWorkerKey(String region, String secretEnv) {
            this(region, secretEnv, null);
        }

        /** The worker id heartbeats signed with this key must carry. */
        public String workerIdOr(String keyId) {
            return workerId == null ? keyId : workerId;
        }
    }

    /**
     * What one principal (an app's API key, a probe worker's signing key, the BetterStack token) may hold or send, so
     * that no one caller, however busy or hostile, takes what the others need; alerts have their own, larger
     * allowance, so a metric flood never keeps a page out.
     *
     * @param metricsRequestsPerSecond  sustained {@code POST /v1/metrics} requests per second per app (token bucket)
     * @param metricsBurst              requests an app may send at once from an idle bucket (default 400)
     * @param alertsRequestsPerSecond   the same for {@code POST /v1/alerts}, counted apart from metrics
     * @param alertsBurst               burst of {@code POST /v1/alerts} (default 2000)
     * @param maxSeriesPerApp           distinct metric series (name and dimensions) an app may have live at once
     * @param seriesIdleExpiry          a series not written for this long no longer counts towards the cap
     * @param bodyBytesPerPrincipal     request body bytes one principal may hold at once (null: an eighth of
     *                                  {@code limits.maxInFlightBodyBytes}, at least {@code limits.maxBodyBytes})
     * @param alertsReservedBodyBytes   body bytes only alerts and the BetterStack webhook may use (null: a quarter of
     *                                  {@code limits.maxInFlightBodyBytes}, leaving room for one largest other body)
     */
    public record Quotas(
            Integer metricsRequestsPerSecond,
            Integer metricsBurst,
            Integer alertsRequestsPerSecond,
            Integer alertsBurst,
            Integer maxSeriesPerApp,
            Duration seriesIdleExpiry,
            Long bodyBytesPerPrincipal,
            Long alertsReservedBodyBytes) {
        public Quotas {
            Problems p = new Problems();
            metricsRequestsPerSecond = p.range("metricsRequestsPerSecond", metricsRequestsPerSecond, 200, 1, 1_000_000);
            metricsBurst = p.range("metricsBurst", metricsBurst, 400, 1, 10_000_000);
            alertsRequestsPerSecond = p.range("alertsRequestsPerSecond", alertsRequestsPerSecond, 1000, 1, 1_000_000);
            alertsBurst = p.range("alertsBurst", alertsBurst, 2000, 1, 10_000_000);
            maxSeriesPerApp = p.range("maxSeriesPerApp", maxSeriesPerApp, 10_000, 1, 1_000_000);
            seriesIdleExpiry = p.duration(
                    "seriesIdleExpiry",
                    seriesIdleExpiry,
                    Duration.ofHours(1),
                    Duration.ofSeconds(1),
                    Duration.ofDays(7));
            p.throwIfAny();
        }

        public static Quotas defaults() {
            return new Quotas(null, null, null, null, null, null, null, null);
        }

        public Quotas withRates(int metricsPerSecond, int metricsBurst, int alertsPerSecond, int alertsBurst) {
            return new Quotas(
                    metricsPerSecond,
                    metricsBurst,
                    alertsPerSecond,
                    alertsBurst,
                    maxSeriesPerApp,
                    seriesIdleExpiry,
                    bodyBytesPerPrincipal,
                    alertsReservedBodyBytes);
        }

        public Quotas withMaxSeriesPerApp(int max) {
            return new Quotas(
                    metricsRequestsPerSecond,
                    metricsBurst,
                    alertsRequestsPerSecond,
                    alertsBurst,
                    max,
                    seriesIdleExpiry,
                    bodyBytesPerPrincipal,
                    alertsReservedBodyBytes);
        }

        public Quotas withBodyBytes(Long perPrincipal, Long alertsReserved) {
            return new Quotas(
                    metricsRequestsPerSecond,
                    metricsBurst,
                    alertsRequestsPerSecond,
                    alertsBurst,
                    maxSeriesPerApp,
                    seriesIdleExpiry,
                    perPrincipal,
                    alertsReserved);
        }

        /** The share one principal may hold, given the server's limits. */
        public long bodyBytesPerPrincipal(Limits limits) {
            return bodyBytesPerPrincipal != null
                    ? bodyBytesPerPrincipal
                    : Math.max(limits.maxBodyBytes(), limits.maxInFlightBodyBytes() / 8);
        }

        /** The bytes kept for alerts, given the server's limits. */
        public long alertsReservedBodyBytes(Limits limits) {
            return alertsReservedBodyBytes != null
                    ? alertsReservedBodyBytes
                    : Math.max(
                            0,
                            Math.min(
                                    limits.maxInFlightBodyBytes() / 4,
                                    limits.maxInFlightBodyBytes() - limits.maxBodyBytes()));
        }
    }

    /**
     * Request limits.
     *
     * @param timestampSkew        how far a metric's timestamp may be off the server clock, and an alert's times ahead
     * @param signatureSkew        how old or new a signed request may be (and how far ahead a probe result's time)
     * @param maxInFlightBodyBytes request body bytes the whole server holds at once until each request is answered;
     *                             a request that would exceed it is answered 503 with Retry-After before any handler
     *                             runs. At least {@code maxBodyBytes}, so one request of the largest size fits
     * @param headerTimeout        a connection must send a complete request head within this time of opening (or of
     *                             its previous answer), else 408 and the connection is closed (slowloris)
     * @param requestTimeout       the whole request body must arrive within this time of its head, else 408
     * @param idleTimeout          a keep-alive connection without any traffic is closed after this time
     */
    public record Limits(
            Integer maxBodyBytes,
            Integer maxEvents,
            Duration timestampSkew,
            Duration signatureSkew,
            Integer replayCacheSize,
            Long maxInFlightBodyBytes,
            Duration headerTimeout,
            Duration requestTimeout,
            Duration idleTimeout) {
        public Limits {
            Problems p = new Problems();
            maxBodyBytes = p.range("maxBodyBytes", maxBodyBytes, 1 << 20, 1024, 64 << 20);
            maxEvents = p.range("maxEvents", maxEvents, 1000, 1, 100_000);
            timestampSkew = p.duration(
                    "timestampSkew", timestampSkew, Duration.ofMinutes(5), Duration.ofSeconds(1), Duration.ofDays(1));
            signatureSkew = p.duration(
                    "signatureSkew", signatureSkew, Duration.ofMinutes(1), Duration.ofSeconds(1), Duration.ofHours(1));
            replayCacheSize = p.range("replayCacheSize", replayCacheSize, 100_000, 16, 10_000_000);
            maxInFlightBodyBytes = maxInFlightBodyBytes == null ? 64L << 20 : maxInFlightBodyBytes;
            p.check(
                    maxInFlightBodyBytes >= maxBodyBytes && maxInFlightBodyBytes <= 16L << 30,
                    "maxInFlightBodyBytes",
                    "must be between limits.maxBodyBytes (" + maxBodyBytes + ") and 17179869184 (16 GiB)");
            headerTimeout = p.duration(
                    "headerTimeout",
                    headerTimeout,
                    Duration.ofSeconds(10),
                    Duration.ofMillis(100),
                    Duration.ofMinutes(10));
            requestTimeout = p.duration(
                    "requestTimeout",
                    requestTimeout,
                    Duration.ofSeconds(30),
                    Duration.ofSeconds(1),
                    Duration.ofMinutes(10));
            idleTimeout = p.duration(
                    "idleTimeout", idleTimeout, Duration.ofMinutes(1), Duration.ofSeconds(1), Duration.ofHours(1));
            p.throwIfAny();
        }

        /** Default edge settings (body budget, timeouts). */
        public Limits(
                Integer maxBodyBytes,
                Integer maxEvents,
                Duration timestampSkew,
                Duration signatureSkew,
                Integer replayCacheSize) {
            this(maxBodyBytes, maxEvents, timestampSkew, signatureSkew, replayCacheSize, null, null, null, null);
        }

        public static Limits defaults() {
            return new Limits(null, null, null, null, null, null, null, null, null);
        }

        public Limits withMaxBodyBytes(int bytes) {
            return new Limits(
                    bytes,
                    maxEvents,
                    timestampSkew,
                    signatureSkew,
                    replayCacheSize,
                    Math.max(bytes, maxInFlightBodyBytes),
                    headerTimeout,
                    requestTimeout,
                    idleTimeout);
        }

        public Limits withReplayCacheSize(int size) {
            return new Limits(
                    maxBodyBytes,
                    maxEvents,
                    timestampSkew,
                    signatureSkew,
                    size,
                    maxInFlightBodyBytes,
                    headerTimeout,
                    requestTimeout,
                    idleTimeout);
        }

        public Limits withMaxInFlightBodyBytes(long bytes) {
            return new Limits(
                    maxBodyBytes,
                    maxEvents,
                    timestampSkew,
                    signatureSkew,
                    replayCacheSize,
                    bytes,
                    headerTimeout,
                    requestTimeout,
                    idleTimeout);
        }

        public Limits withHeaderTimeout(Duration timeout) {
            return new Limits(
                    maxBodyBytes,
                    maxEvents,
                    timestampSkew,
                    signatureSkew,
                    replayCacheSize,
                    maxInFlightBodyBytes,
                    timeout,
                    requestTimeout,
                    idleTimeout);
        }
    }

    /** With other tracing settings. */
    public IngestConfig withOtel(OtelSettings o) {
        return new IngestConfig(http, kafka, apiKeys, probeWorkers, limits, integrations, quotas, o);
    }
}
