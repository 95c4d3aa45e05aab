package dev.vigil.ingest.config;

import dev.vigil.kit.config.ConfigLoader;
import dev.vigil.kit.config.ConfigSpec;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.topic.Topics;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Configuration of the ingest service ({@code vigil-ingest.yaml}), validated at start. Every problem names
 * its key path.
 *
 * <p>API keys are configured as the lower-case hex SHA-256 of the key, never the key itself:
 * {@code printf '%s' "$KEY" | sha256sum | cut -d' ' -f1}. Probe-worker secrets and webhook tokens are named by
 * environment variable, never inline.
 */
public record IngestConfig(
        String host,
        Integer port,
        Kafka kafka,
        Map<String, List<String>> apiKeys,
        Map<String, ProbeWorkerKey> probeWorkers,
        Limits limits,
        Http http,
        Integrations integrations) {

    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    public IngestConfig {
        host = host == null ? "0.0.0.0" : Require.text("host", host, 255);
        port = port == null ? 8080 : Require.range("port", port, 0, 65535);
        kafka = Require.present("kafka", kafka);
        limits = limits == null ? Limits.defaults() : limits;
        http = http == null ? Http.defaults() : http;
        integrations = integrations == null ? Integrations.none() : integrations;
        var keys = new TreeMap<String, List<String>>();
        if (apiKeys != null) {
            for (var e : apiKeys.entrySet()) {
                String path = "apiKeys." + e.getKey();
                Require.slug(path, e.getKey());
                List<String> hashes = Require.list(path, e.getValue(), 32);
                for (int i = 0; i < hashes.size(); i++) {
                    String h = hashes.get(i).trim().toLowerCase(Locale.ROOT);
                    if (!SHA256_HEX.matcher(h).matches()) {
                        throw new ContractViolation(path + "[" + i + "]",
                                "must be the 64-hex-digit SHA-256 of the key (printf '%s' \"$KEY\" | sha256sum), never the key itself");
                    }
                }
                keys.put(e.getKey(), hashes.stream().map(h -> h.trim().toLowerCase(Locale.ROOT)).toList());
            }
        }
        apiKeys = java.util.Collections.unmodifiableMap(keys);
        var workers = new TreeMap<String, ProbeWorkerKey>();
        if (probeWorkers != null) {
            for (var e : probeWorkers.entrySet()) {
                String path = "probeWorkers." + e.getKey();
                if (!KEY_ID.matcher(e.getKey()).matches()) {
                    throw new ContractViolation(path, "key id must be 1-64 characters [A-Za-z0-9._-]");
                }
                ProbeWorkerKey k = Require.present(path, e.getValue());
                workers.put(e.getKey(), k);
            }
        }
        probeWorkers = java.util.Collections.unmodifiableMap(workers);
    }

    /** No vendor integrations. */
    public IngestConfig(String host, Integer port, Kafka kafka, Map<String, List<String>> apiKeys,
                        Map<String, ProbeWorkerKey> probeWorkers, Limits limits, Http http) {
        this(host, port, kafka, apiKeys, probeWorkers, limits, http, null);
    }

    /** Default HTTP settings (the Host allow-list follows the bind address), no vendor integrations. */
    public IngestConfig(String host, Integer port, Kafka kafka, Map<String, List<String>> apiKeys,
                        Map<String, ProbeWorkerKey> probeWorkers, Limits limits) {
        this(host, port, kafka, apiKeys, probeWorkers, limits, null, null);
    }

    /** How {@link ConfigLoader} reads this configuration. */
    public static final ConfigSpec<IngestConfig> SPEC = ConfigSpec.of(IngestConfig.class, IngestConfig::defaults);

    /** Defaults, then the YAML file (if any), then {@code VIGIL_*} variables; throws ConfigException listing every problem. */
    public static IngestConfig load(Path file, Map<String, String> env) {
        return ConfigLoader.load(SPEC, file, env);
    }

    /** Built-in defaults: port 8080, local Kafka, no keys (every authenticated route refuses until keys are configured). */
    public static IngestConfig defaults() {
        return new IngestConfig("0.0.0.0", 8080, Kafka.defaults("localhost:9092"), Map.of(), Map.of(), Limits.defaults(),
                Http.defaults(), Integrations.none());
    }

    public IngestConfig withPort(int newPort) {
        return new IngestConfig(host, newPort, kafka, apiKeys, probeWorkers, limits, http, integrations);
    }

    public IngestConfig withLimits(Limits newLimits) {
        return new IngestConfig(host, port, kafka, apiKeys, probeWorkers, newLimits, http, integrations);
    }

    public IngestConfig withHttp(Http newHttp) {
        return new IngestConfig(host, port, kafka, apiKeys, probeWorkers, limits, newHttp, integrations);
    }

    public IngestConfig withIntegrations(Integrations newIntegrations) {
        return new IngestConfig(host, port, kafka, apiKeys, probeWorkers, limits, http, newIntegrations);
    }

    /** Kafka connection, topic names and the publish bound. */
    public record Kafka(
            String bootstrapServers,
            TopicNames topics,
            String transactionalIdPrefix,
            Integer producers,
            Long sendTimeoutMs,
            Long commitResolveTimeoutMs,
            Integer retryAfterSeconds,
            Integer maxRecordsPerTransaction,
            Integer maxQueuedRequests,
            Map<String, String> properties) {

        public Kafka {
            Require.text("bootstrapServers", bootstrapServers, 2048);
            topics = topics == null ? TopicNames.defaults() : topics;
            transactionalIdPrefix = transactionalIdPrefix == null || transactionalIdPrefix.isBlank()
                    ? defaultTransactionalIdPrefix() : Require.text("transactionalIdPrefix", transactionalIdPrefix, 200);
            producers = producers == null ? 2 : Require.range("producers", producers, 1, 32);
            sendTimeoutMs = sendTimeoutMs == null ? 5_000L : sendTimeoutMs;
            if (sendTimeoutMs < 200 || sendTimeoutMs > 120_000) {
                throw new ContractViolation("sendTimeoutMs", "must be between 200 and 120000");
            }
            commitResolveTimeoutMs = commitResolveTimeoutMs == null ? 60_000L : commitResolveTimeoutMs;
            if (commitResolveTimeoutMs < sendTimeoutMs) {
                throw new ContractViolation("commitResolveTimeoutMs", "must be at least kafka.sendTimeoutMs");
            }
            retryAfterSeconds = retryAfterSeconds == null ? 5 : Require.range("retryAfterSeconds", retryAfterSeconds, 1, 3600);
            maxRecordsPerTransaction = maxRecordsPerTransaction == null ? 10_000
                    : Require.range("maxRecordsPerTransaction", maxRecordsPerTransaction, 1, 1_000_000);
            maxQueuedRequests = maxQueuedRequests == null ? 512 : Require.range("maxQueuedRequests", maxQueuedRequests, 1, 100_000);
            properties = properties == null ? Map.of() : Map.copyOf(properties);
        }

        public static Kafka defaults(String bootstrapServers) {
            return new Kafka(bootstrapServers, TopicNames.defaults(), null, null, null, null, null, null, null, Map.of());
        }

        public Kafka withBootstrapServers(String servers) {
            return new Kafka(servers, topics, transactionalIdPrefix, producers, sendTimeoutMs, commitResolveTimeoutMs,
                    retryAfterSeconds, maxRecordsPerTransaction, maxQueuedRequests, properties);
        }

        public Kafka withTransactionalIdPrefix(String prefix) {
            return new Kafka(bootstrapServers, topics, prefix, producers, sendTimeoutMs, commitResolveTimeoutMs,
                    retryAfterSeconds, maxRecordsPerTransaction, maxQueuedRequests, properties);
        }

        public Kafka withSendTimeoutMs(long ms) {
            return new Kafka(bootstrapServers, topics, transactionalIdPrefix, producers, ms, Math.max(ms, commitResolveTimeoutMs),
                    retryAfterSeconds, maxRecordsPerTransaction, maxQueuedRequests, properties);
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
    public record TopicNames(String metrics, String probeResults, String alerts, String heartbeats, String vendorUpdates,
                             String monitors) {
        public TopicNames {
            metrics = metrics == null ? Topics.METRICS : Require.text("metrics", metrics, 249);
            probeResults = probeResults == null ? Topics.PROBE_RESULTS : Require.text("probeResults", probeResults, 249);
            alerts = alerts == null ? Topics.ALERTS : Require.text("alerts", alerts, 249);
            heartbeats = heartbeats == null ? Topics.HEARTBEATS : Require.text("heartbeats", heartbeats, 249);
            vendorUpdates = vendorUpdates == null ? Topics.VENDOR_UPDATES : Require.text("vendorUpdates", vendorUpdates, 249);
            monitors = monitors == null ? Topics.MONITORS : Require.text("monitors", monitors, 249);
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
            Require.present("tokenEnv", tokenEnv);
            if (!ENV_NAME.matcher(tokenEnv).matches()) {
                throw new ContractViolation("tokenEnv", "must be an environment variable name");
            }
        }
    }

    /**
     * A remote probe worker's signing key: the region it may speak for, the env var holding its secret and
     * the worker id it may heartbeat as ({@code null} = the key id itself).
     */
    public record ProbeWorkerKey(String region, String secretEnv, String workerId) {
        public ProbeWorkerKey {
            Require.slug("region", region);
            if (dev.vigil.schemas.contract.MonitorDefinition.PUSH_REGION.equals(region)) {
                // results in region push are heartbeat pings, which only ingest records (after checking the token)
                throw new ContractViolation("region", "push is the region of heartbeat pings; a probe worker "
                        + "speaks for a real region");
            }
            workerId = workerId == null || workerId.isBlank() ? null : Require.text("workerId", workerId.strip(), 128);
            Require.present("secretEnv", secretEnv);
            if (!ENV_NAME.matcher(secretEnv).matches()) {
                throw new ContractViolation("secretEnv", "must be an environment variable name");
            }
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
     * HTTP edge settings.
     *
     * @param allowedHosts names accepted in the {@code Host} header (port ignored). Empty (the default): the loopback
     *                     names when the server is bound to a loopback address (a DNS-rebound browser page sends the
     *                     attacker's name, so it is refused), any name otherwise. Names listed here are accepted in
     *                     addition to the loopback names on a loopback bind, and instead of "any" on other binds;
     *                     {@code "*"} accepts any name on any bind.
     */
    public record Http(List<String> allowedHosts) {
        private static final Pattern HOST = Pattern.compile(
                "\\*|\\[[0-9a-f:.]+]|[0-9a-f.]*:[0-9a-f:.]*|[a-z0-9_][a-z0-9._-]{0,252}");

        public Http {
            var hosts = new java.util.ArrayList<String>();
            for (String h : Require.list("allowedHosts", allowedHosts, 64)) {
                String name = h.strip().toLowerCase(Locale.ROOT);
                if (!HOST.matcher(name).matches()) {
                    throw new ContractViolation("allowedHosts[" + hosts.size() + "]",
                            "must be a host name or address without port (or * for any)");
                }
                hosts.add(name);
            }
            allowedHosts = List.copyOf(hosts);
        }

        public static Http defaults() {
            return new Http(List.of());
        }
    }

    /**
     * Request limits.
     *
     * @param maxInFlightBodyBytes request body bytes the whole server holds at once until each request is answered;
     *                             a request that would exceed it is answered 503 with Retry-After before any handler
     *                             runs. At least {@code maxBodyBytes}, so one request of the largest size fits
     * @param headerTimeoutMs      a connection must send a complete request head within this time of opening (or of
     *                             its previous answer), else 408 and the connection is closed (slowloris)
     * @param requestTimeoutMs     the whole request body must arrive within this time of its head, else 408
     * @param idleTimeoutMs        a keep-alive connection without any traffic is closed after this time
     */
    public record Limits(
            Integer maxBodyBytes,
            Integer maxEvents,
            Long timestampSkewMs,
            Long signatureSkewMs,
            Integer replayCacheSize,
            Long maxInFlightBodyBytes,
            Long headerTimeoutMs,
            Long requestTimeoutMs,
            Long idleTimeoutMs) {
        public Limits {
            maxBodyBytes = maxBodyBytes == null ? 1 << 20 : Require.range("maxBodyBytes", maxBodyBytes, 1024, 64 << 20);
            maxEvents = maxEvents == null ? 1000 : Require.range("maxEvents", maxEvents, 1, 100_000);
            timestampSkewMs = timestampSkewMs == null ? 300_000L : timestampSkewMs;
            if (timestampSkewMs < 1000 || timestampSkewMs > 86_400_000L) {
                throw new ContractViolation("timestampSkewMs", "must be between 1000 and 86400000");
            }
            signatureSkewMs = signatureSkewMs == null ? 60_000L : signatureSkewMs;
            if (signatureSkewMs < 1000 || signatureSkewMs > 3_600_000L) {
                throw new ContractViolation("signatureSkewMs", "must be between 1000 and 3600000");
            }
            replayCacheSize = replayCacheSize == null ? 100_000 : Require.range("replayCacheSize", replayCacheSize, 16, 10_000_000);
            maxInFlightBodyBytes = maxInFlightBodyBytes == null ? 64L << 20 : maxInFlightBodyBytes;
            if (maxInFlightBodyBytes < maxBodyBytes || maxInFlightBodyBytes > 16L << 30) {
                throw new ContractViolation("maxInFlightBodyBytes",
                        "must be between limits.maxBodyBytes (" + maxBodyBytes + ") and 17179869184 (16 GiB)");
            }
            headerTimeoutMs = millis("headerTimeoutMs", headerTimeoutMs, 10_000L, 100, 600_000);
            requestTimeoutMs = millis("requestTimeoutMs", requestTimeoutMs, 30_000L, 1000, 600_000);
            idleTimeoutMs = millis("idleTimeoutMs", idleTimeoutMs, 60_000L, 1000, 3_600_000);
        }

        /** Default edge settings (body budget, timeouts). */
        public Limits(Integer maxBodyBytes, Integer maxEvents, Long timestampSkewMs, Long signatureSkewMs,
                      Integer replayCacheSize) {
            this(maxBodyBytes, maxEvents, timestampSkewMs, signatureSkewMs, replayCacheSize, null, null, null, null);
        }

        public static Limits defaults() {
            return new Limits(null, null, null, null, null, null, null, null, null);
        }

        public Limits withMaxBodyBytes(int bytes) {
            return new Limits(bytes, maxEvents, timestampSkewMs, signatureSkewMs, replayCacheSize,
                    Math.max(bytes, maxInFlightBodyBytes), headerTimeoutMs, requestTimeoutMs, idleTimeoutMs);
        }

        public Limits withReplayCacheSize(int size) {
            return new Limits(maxBodyBytes, maxEvents, timestampSkewMs, signatureSkewMs, size, maxInFlightBodyBytes,
                    headerTimeoutMs, requestTimeoutMs, idleTimeoutMs);
        }

        public Limits withMaxInFlightBodyBytes(long bytes) {
            return new Limits(maxBodyBytes, maxEvents, timestampSkewMs, signatureSkewMs, replayCacheSize, bytes,
                    headerTimeoutMs, requestTimeoutMs, idleTimeoutMs);
        }

        public Limits withHeaderTimeoutMs(long ms) {
            return new Limits(maxBodyBytes, maxEvents, timestampSkewMs, signatureSkewMs, replayCacheSize,
                    maxInFlightBodyBytes, ms, requestTimeoutMs, idleTimeoutMs);
        }

        private static long millis(String field, Long value, long dflt, long min, long max) {
            long v = value == null ? dflt : value;
            if (v < min || v > max) {
                throw new ContractViolation(field, "must be between " + min + " and " + max);
            }
            return v;
        }
    }
}
