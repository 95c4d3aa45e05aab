package dev.vigil.streams.config;

import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.schemas.window.Windows;
import java.time.Duration;

/**
 * Everything the topology itself depends on (and nothing about how it is run): topic names, verdict
 * timing, retention and worker-health thresholds. {@code VigilTopology.build} is a pure function of this.
 */
public record TopologyConfig(TopicNames topics, VerdictSettings verdict, WorkerSettings workers) {

    public TopologyConfig {
        topics = topics == null ? TopicNames.defaults() : topics;
        verdict = verdict == null ? VerdictSettings.defaults() : verdict;
        workers = workers == null ? WorkerSettings.defaults() : workers;
    }

    public static TopologyConfig defaults() {
        return new TopologyConfig(TopicNames.defaults(), VerdictSettings.defaults(), WorkerSettings.defaults());
    }

    /** Topic names (SPEC section 3); defaults from {@link Topics}. */
    public record TopicNames(String monitors, String probeResults, String heartbeats, String monitorStatus,
                             String deadLetter, String audit, String acks) {
        public TopicNames {
            audit = name("topics.audit", audit, Topics.AUDIT);
            acks = name("topics.acks", acks, Topics.ACKS);
            monitors = name("topics.monitors", monitors, Topics.MONITORS);
            probeResults = name("topics.probeResults", probeResults, Topics.PROBE_RESULTS);
            heartbeats = name("topics.heartbeats", heartbeats, Topics.HEARTBEATS);
            monitorStatus = name("topics.monitorStatus", monitorStatus, Topics.MONITOR_STATUS);
            deadLetter = name("topics.deadLetter", deadLetter, Topics.DEAD_LETTER);
        }

        public TopicNames(String monitors, String probeResults, String heartbeats, String monitorStatus, String deadLetter) {
            this(monitors, probeResults, heartbeats, monitorStatus, deadLetter, null, null);
        }

        public static TopicNames defaults() {
            return new TopicNames(null, null, null, null, null, null, null);
        }

        private static String name(String key, String value, String fallback) {
            if (value == null) {
                return fallback;
            }
            if (!value.matches("[a-zA-Z0-9._-]{1,249}")) {
                throw new ContractViolation(key, "must be a valid Kafka topic name");
            }
            return value;
        }
    }

    /**
     * Verdict timing. {@code graceMs} is added to each window's collection deadline; the punctuator runs
     * every {@code punctuationIntervalMs} of wall-clock time; {@code maxBackfillWindows} bounds how many
     * silent windows of one monitor a single punctuation turns into {@code unknown} verdicts (catching up
     * after downtime spreads over several punctuations instead of one long stall).
     */
    public record VerdictSettings(Long graceMs, Integer historyRetentionDays, Long punctuationIntervalMs,
                                  Integer maxBackfillWindows) {
        public VerdictSettings {
            graceMs = graceMs == null ? Windows.DEFAULT_GRACE_MS : graceMs;
            if (graceMs < 0 || graceMs > 600_000) {
                throw new ContractViolation("verdict.graceMs", "must be between 0 and 600000");
            }
            historyRetentionDays = historyRetentionDays == null ? 90 : historyRetentionDays;
            if (historyRetentionDays < 1 || historyRetentionDays > 3650) {
                throw new ContractViolation("verdict.historyRetentionDays", "must be between 1 and 3650");
            }
            punctuationIntervalMs = punctuationIntervalMs == null ? 1000L : punctuationIntervalMs;
            if (punctuationIntervalMs < 10 || punctuationIntervalMs > 60_000) {
                throw new ContractViolation("verdict.punctuationIntervalMs", "must be between 10 and 60000");
            }
            maxBackfillWindows = maxBackfillWindows == null ? 100 : maxBackfillWindows;
            if (maxBackfillWindows < 1 || maxBackfillWindows > 100_000) {
                throw new ContractViolation("verdict.maxBackfillWindows", "must be between 1 and 100000");
            }
        }

        public static VerdictSettings defaults() {
            return new VerdictSettings(null, null, null, null);
        }

        public Duration historyRetention() {
            return Duration.ofDays(historyRetentionDays);
        }

        public Duration punctuationInterval() {
            return Duration.ofMillis(punctuationIntervalMs);
        }
    }

    /** Worker health by heartbeat age: healthy below the first, warn below the second, stale below the third, dead beyond. */
    public record WorkerSettings(Integer healthySeconds, Integer warnSeconds, Integer staleSeconds,
                                 Long punctuationIntervalMs) {
        public WorkerSettings {
            healthySeconds = healthySeconds == null ? 30 : healthySeconds;
            warnSeconds = warnSeconds == null ? 60 : warnSeconds;
            staleSeconds = staleSeconds == null ? 300 : staleSeconds;
            punctuationIntervalMs = punctuationIntervalMs == null ? 5000L : punctuationIntervalMs;
            if (healthySeconds < 1) {
                throw new ContractViolation("workers.healthySeconds", "must be at least 1");
            }
            if (warnSeconds <= healthySeconds) {
                throw new ContractViolation("workers.warnSeconds", "must be greater than workers.healthySeconds");
            }
            if (staleSeconds <= warnSeconds) {
                throw new ContractViolation("workers.staleSeconds", "must be greater than workers.warnSeconds");
            }
            if (punctuationIntervalMs < 10 || punctuationIntervalMs > 60_000) {
                throw new ContractViolation("workers.punctuationIntervalMs", "must be between 10 and 60000");
            }
        }

        public static WorkerSettings defaults() {
            return new WorkerSettings(null, null, null, null);
        }
    }
}
