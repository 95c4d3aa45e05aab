package dev.vigil.streams.config;

import dev.vigil.kit.config.Problems;
import dev.vigil.schemas.topic.Topics;
import dev.vigil.schemas.window.Windows;
import java.time.Duration;

/**
 * Everything the topology itself depends on (and nothing about how it is run): topic names, verdict
 * timing, retention and worker-health thresholds. {@code VigilTopology.build} is a pure function of this.
 */
public record TopologyConfig(
        TopicNames topics, VerdictSettings verdict, WorkerSettings workers, SelfWatchSettings selfWatch) {

    public TopologyConfig {
        topics = topics == null ? TopicNames.defaults() : topics;
        verdict = verdict == null ? VerdictSettings.defaults() : verdict;
        workers = workers == null ? WorkerSettings.defaults() : workers;
        selfWatch = selfWatch == null ? SelfWatchSettings.defaults() : selfWatch;
    }

    /** With the default self-watch settings. */
    public TopologyConfig(TopicNames topics, VerdictSettings verdict, WorkerSettings workers) {
        this(topics, verdict, workers, null);
    }

    public static TopologyConfig defaults() {
        return new TopologyConfig(TopicNames.defaults(), VerdictSettings.defaults(), WorkerSettings.defaults());
    }

    /** The self-watch topic: the region signals, repartitioned, named from the application id. */
    public TopologyConfig withSignalsTopicOf(String applicationId) {
        return new TopologyConfig(
                topics, verdict, workers, selfWatch.withSignalsTopic(SelfWatchSettings.signalsTopicOf(applicationId)));
    }

    /**
     * Every topic the Streams service reads or writes (docs/design.md#topics-and-stores), {@code kafka.topics} in its YAML; defaults
     * from {@link Topics}.
     *
     * @param alerts     where alert events go
     * @param alertRules compacted metric rules
     * @param silences   compacted silences and maintenance windows
     * @param metrics    domain metrics
     * @param regions    compacted picture of each probe region (served, blind), written by the self-watch
     * @param escalations compacted escalation climbs, written by the notifier, shown beside each incident
     * @param incidentNotes facts about incidents that are not alert events (deliveries, unacknowledgements), keyed
     *                      like {@code alerts} and read with it into each incident's timeline
     */
    public record TopicNames(
            String monitors,
            String probeResults,
            String heartbeats,
            String monitorStatus,
            String deadLetter,
            String audit,
            String acks,
            String alerts,
            String alertRules,
            String silences,
            String metrics,
            String regions,
            String escalations,
            String incidentNotes) {
        public TopicNames {
            Problems p = new Problems();
            monitors = p.topic("monitors", monitors, Topics.MONITORS);
            probeResults = p.topic("probeResults", probeResults, Topics.PROBE_RESULTS);
            heartbeats = p.topic("heartbeats", heartbeats, Topics.HEARTBEATS);
            monitorStatus = p.topic("monitorStatus", monitorStatus, Topics.MONITOR_STATUS);
            deadLetter = p.topic("deadLetter", deadLetter, Topics.DEAD_LETTER);
            audit = p.topic("audit", audit, Topics.AUDIT);
            acks = p.topic("acks", acks, Topics.ACKS);
            alerts = p.topic("alerts", alerts, Topics.ALERTS);
            alertRules = p.topic("alertRules", alertRules, Topics.ALERT_RULES);
            silences = p.topic("silences", silences, Topics.SILENCES);
            metrics = p.topic("metrics", metrics, Topics.METRICS);
            regions = p.topic("regions", regions, Topics.REGIONS);
            escalations = p.topic("escalations", escalations, Topics.ESCALATIONS);
            incidentNotes = p.topic("incidentNotes", incidentNotes, Topics.INCIDENT_NOTES);
            p.throwIfAny();
        }

        /** Every topic but the incident notes' named (its default). */
        public TopicNames(
                String monitors,
                String probeResults,
                String heartbeats,
                String monitorStatus,
                String deadLetter,
                String audit,
                String acks,
                String alerts,
                String alertRules,
                String silences,
                String metrics,
                String regions,
                String escalations) {
            this(
                    monitors,
                    probeResults,
                    heartbeats,
                    monitorStatus,
                    deadLetter,
                    audit,
                    acks,
                    alerts,
                    alertRules,
                    silences,
                    metrics,
                    regions,
                    escalations,
                    null);
        }

        /** Every topic but the escalations' named (its default). */
        public TopicNames(
                String monitors,
                String probeResults,
                String heartbeats,
                String monitorStatus,
                String deadLetter,
                String audit,
                String acks,
                String alerts,
                String alertRules,
                String silences,
                String metrics,
                String regions) {
            this(
                    monitors,
                    probeResults,
                    heartbeats,
                    monitorStatus,
                    deadLetter,
                    audit,
                    acks,
                    alerts,
                    alertRules,
                    silences,
                    metrics,
                    regions,
                    null,
                    null);
        }

        /** Every topic but the regions' named (its default). */
        public TopicNames(
                String monitors,
                String probeResults,
                String heartbeats,
                String monitorStatus,
                String deadLetter,
                String audit,
                String acks,
                String alerts,
                String alertRules,
                String silences,
                String metrics) {
            this(
                    monitors,
                    probeResults,
                    heartbeats,
                    monitorStatus,
                    deadLetter,
                    audit,
                    acks,
                    alerts,
                    alertRules,
                    silences,
                    metrics,
                    null);
        }

        /** The verdict and worker-health topics named; the rest their defaults. */
        public TopicNames(
                String monitors, String probeResults, String heartbeats, String monitorStatus, String deadLetter) {
            this(
                    monitors,
                    probeResults,
                    heartbeats,
                    monitorStatus,
                    deadLetter,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null);
        }

        public static TopicNames defaults() {
            return new TopicNames(null, null, null, null, null);
        }
    }

    /**
     * Verdict timing. {@code grace} is added to each window's collection deadline; the punctuator runs every
     * {@code punctuationInterval} of wall-clock time; {@code maxBackfillWindows} bounds how many silent windows of
     * one monitor a single punctuation turns into {@code unknown} verdicts (catching up after downtime spreads over
     * several punctuations instead of one long stall). {@code historyRetention} is whole days: the daily uptime is
     * kept per day.
     */
    public record VerdictSettings(
            Duration grace, Duration historyRetention, Duration punctuationInterval, Integer maxBackfillWindows) {
        public VerdictSettings {
            Problems p = new Problems();
            grace = p.duration(
                    "grace", grace, Duration.ofMillis(Windows.DEFAULT_GRACE_MS), Duration.ZERO, Duration.ofMinutes(10));
            historyRetention = p.duration(
                    "historyRetention",
                    historyRetention,
                    Duration.ofDays(90),
                    Duration.ofDays(1),
                    Duration.ofDays(3650));
            p.check(
                    historyRetention.toMillis() % Duration.ofDays(1).toMillis() == 0,
                    "historyRetention",
                    "must be whole days (e.g. 90d)");
            punctuationInterval = p.duration(
                    "punctuationInterval",
                    punctuationInterval,
                    Duration.ofSeconds(1),
                    Duration.ofMillis(10),
                    Duration.ofMinutes(1));
            maxBackfillWindows = p.range("maxBackfillWindows", maxBackfillWindows, 100, 1, 100_000);
            p.throwIfAny();
        }

        public static VerdictSettings defaults() {
            return new VerdictSettings(null, null, null, null);
        }
    }

    /**
     * Worker health by heartbeat age: healthy below {@code healthy}, warn below {@code warn}, stale below
     * {@code stale}, dead beyond.
     */
    public record WorkerSettings(Duration healthy, Duration warn, Duration stale, Duration punctuationInterval) {
        public WorkerSettings {
            Problems p = new Problems();
            healthy = p.duration("healthy", healthy, Duration.ofSeconds(30), Duration.ofSeconds(1));
            warn = warn == null ? Duration.ofMinutes(1) : warn;
            stale = stale == null ? Duration.ofMinutes(5) : stale;
            p.check(warn.compareTo(healthy) > 0, "warn", "must be greater than workers.healthy");
            p.check(stale.compareTo(warn) > 0, "stale", "must be greater than workers.warn");
            punctuationInterval = p.duration(
                    "punctuationInterval",
                    punctuationInterval,
                    Duration.ofSeconds(5),
                    Duration.ofMillis(10),
                    Duration.ofMinutes(1));
            p.throwIfAny();
        }

        public static WorkerSettings defaults() {
            return new WorkerSettings(null, null, null, null);
        }
    }

    /**
     * Vigil's watch over itself ({@code selfWatch} in the YAML).
     *
     * @param signalsTopic      the internal topic on which heartbeats (one record per region each names) and dead
     *                          letters are re-keyed for the region watch: {@code <application.id>-selfwatch-signals},
     *                          created at start-up when missing
     * @param skippedShare      a worker skipping more than this share of its probes over {@code skippedOver} is
     *                          alerted on (0.01)
     * @param skippedMinimum    and at least this many skips over {@code skippedOver}, so one skip never pages (5)
     * @param skippedOver       the span of heartbeats the skipped share is measured over (1m)
     * @param silentRegionAfter a region without a heartbeat for this long is Vigil's gap for the no-data rule, before
     *                          its workers count as dead: twice the workers' heartbeat interval (20s)
     * @param deadLetterQuiet   the dead-letter alert resolves after this long without a new dead letter (10m)
     * @param forgetWorkerAfter a worker silent this long leaves its region's known workers (1d)
     */
    public record SelfWatchSettings(
            String signalsTopic,
            Double skippedShare,
            Integer skippedMinimum,
            Duration skippedOver,
            Duration silentRegionAfter,
            Duration deadLetterQuiet,
            Duration forgetWorkerAfter) {
        public static final String DEFAULT_SIGNALS_TOPIC = signalsTopicOf("vigil-streams");

        public SelfWatchSettings {
            Problems p = new Problems();
            signalsTopic = p.topic("signalsTopic", signalsTopic, DEFAULT_SIGNALS_TOPIC);
            skippedShare = skippedShare == null ? 0.01 : skippedShare;
            p.check(skippedShare > 0 && skippedShare <= 1, "skippedShare", "must be above 0 and at most 1");
            skippedMinimum = p.range("skippedMinimum", skippedMinimum, 5, 1, 1_000_000);
            skippedOver = p.duration(
                    "skippedOver", skippedOver, Duration.ofMinutes(1), Duration.ofSeconds(10), Duration.ofHours(1));
            silentRegionAfter = p.duration(
                    "silentRegionAfter",
                    silentRegionAfter,
                    Duration.ofSeconds(20),
                    Duration.ofSeconds(1),
                    Duration.ofHours(1));
            deadLetterQuiet = p.duration(
                    "deadLetterQuiet",
                    deadLetterQuiet,
                    Duration.ofMinutes(10),
                    Duration.ofSeconds(10),
                    Duration.ofDays(1));
            forgetWorkerAfter = p.duration(
                    "forgetWorkerAfter",
                    forgetWorkerAfter,
                    Duration.ofDays(1),
                    Duration.ofMinutes(1),
                    Duration.ofDays(30));
            p.throwIfAny();
        }

        public static SelfWatchSettings defaults() {
            return new SelfWatchSettings(null, null, null, null, null, null, null);
        }

        /** The internal signals topic of an application. */
        public static String signalsTopicOf(String applicationId) {
            return applicationId + "-selfwatch-signals";
        }

        public SelfWatchSettings withSignalsTopic(String topic) {
            return new SelfWatchSettings(
                    topic,
                    skippedShare,
                    skippedMinimum,
                    skippedOver,
                    silentRegionAfter,
                    deadLetterQuiet,
                    forgetWorkerAfter);
        }
    }
}
