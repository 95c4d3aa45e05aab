package dev.vigil.schemas.topic;

import java.util.List;

/** Topic names and their defaults (docs/design.md#topics-and-stores). Names are configuration; these are the defaults. */
public final class Topics {
    public static final String MONITORS = "vigil.monitors";
    public static final String PROBE_RESULTS = "vigil.probe-results";
    public static final String HEARTBEATS = "vigil.heartbeats";
    public static final String METRICS = "vigil.metrics";
    public static final String MONITOR_STATUS = "vigil.monitor-status";
    public static final String ALERT_RULES = "vigil.alert-rules";
    public static final String ALERTS = "vigil.alerts";
    public static final String SILENCES = "vigil.silences";
    public static final String DEAD_LETTER = "vigil.dead-letter";
    /** Acknowledgements of open incidents, keyed by fingerprint (compacted; a tombstone unacknowledges). */
    public static final String ACKS = "vigil.acks";
    /** Who changed what through the API and the CLI (append-only; read with the admin scope). */
    public static final String AUDIT = "vigil.audit";
    /**
     * Each probe region's picture from its workers' heartbeats ({@code RegionStatus}), keyed by region (compacted):
     * which regions are served, by how many live workers, and which are blind.
     */
    public static final String REGIONS = "vigil.regions";
    /** What people did to Vigil's incidents in a vendor's tool (BetterStack acknowledged, resolved), from ingest. */
    public static final String VENDOR_UPDATES = "vigil.vendor-updates";

    /**
     * Where each incident's escalation climb stands ({@code EscalationStatus}), keyed by fingerprint (compacted):
     * written by the notifier, shown by the console.
     */
    public static final String ESCALATIONS = "vigil.escalations";

    /**
     * Facts about incidents that are not alert events ({@code IncidentNote}: each event's deliveries per channel,
     * unacknowledgements, folded application events), keyed by fingerprint with as many partitions as
     * {@link #ALERTS}: an incident's timeline is built from both in one task.
     */
    public static final String INCIDENT_NOTES = "vigil.incident-notes";

    /** Default partitions for high-volume topics; keyed topics that must co-partition share it. */
    public static final int DEFAULT_PARTITIONS = 6;

    public static final short DEFAULT_REPLICATION = 3;

    private Topics() {}

    /** A topic's name, partition count and cleanup policy. */
    public record TopicSpec(String name, int partitions, boolean compacted) {
        public TopicSpec {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("topic name must not be blank");
            }
            if (partitions < 1) {
                throw new IllegalArgumentException("topic " + name + ": partitions must be at least 1");
            }
        }

        public TopicSpec withPartitions(int n) {
            return new TopicSpec(name, n, compacted);
        }
    }

    /** Every topic Vigil uses, with default partitions and cleanup policy. */
    public static List<TopicSpec> all() {
        return List.of(
                new TopicSpec(MONITORS, DEFAULT_PARTITIONS, true),
                new TopicSpec(PROBE_RESULTS, DEFAULT_PARTITIONS, false),
                new TopicSpec(HEARTBEATS, 3, false),
                new TopicSpec(METRICS, DEFAULT_PARTITIONS, false),
                new TopicSpec(MONITOR_STATUS, DEFAULT_PARTITIONS, true),
                new TopicSpec(ALERT_RULES, 1, true),
                new TopicSpec(ALERTS, DEFAULT_PARTITIONS, false),
                new TopicSpec(SILENCES, 1, true),
                new TopicSpec(DEAD_LETTER, 3, false),
                new TopicSpec(AUDIT, 1, false),
                new TopicSpec(ACKS, 1, true),
                new TopicSpec(VENDOR_UPDATES, 1, false),
                new TopicSpec(REGIONS, 1, true),
                new TopicSpec(ESCALATIONS, 1, true),
                new TopicSpec(INCIDENT_NOTES, DEFAULT_PARTITIONS, false));
    }
}
