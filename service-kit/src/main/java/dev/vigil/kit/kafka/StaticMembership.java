package dev.vigil.kit.kafka;

import java.util.Map;

/**
 * Consumer settings of a static group member, the one way Vigil's Streams instances and notifiers use it. The id
 * lets an instance restarted after a crash take its partitions back at once. The session is shorter than the
 * consumer's 45 s default because with a static id a crashed member's partitions move to the survivors only when
 * its session ends: on a cluster that is how long pages and verdicts of those partitions wait when the crashed
 * instance does not come back.
 */
public final class StaticMembership {
    /**
     * The session of a static member: a crashed instance's partitions move to the others after this long. The
     * brokers' smallest allowed session ({@code group.min.session.timeout.ms}, 6 s by default): a survivor then decides
     * a crashed Streams instance's monitors again within 10 s of the crash (its standbys are caught up), and queries
     * are answered from those standbys meanwhile. The heartbeats come from a thread of their own, so a busy stream
     * thread or notifier does not end it; a process stalled longer than this (swapping, a stopped VM) does.
     */
    public static final int SESSION_TIMEOUT_MS = 6_000;
    /** A third of the session, as Kafka recommends, so one lost heartbeat never ends a session. */
    public static final int HEARTBEAT_INTERVAL_MS = 2_000;

    private StaticMembership() {}

    /**
     * The consumer settings for {@code groupInstanceId} (Kafka's own key names), or none when it is empty (dynamic
     * membership keeps the consumer's defaults).
     */
    public static Map<String, Object> consumerSettings(String groupInstanceId) {
        if (groupInstanceId == null || groupInstanceId.isBlank()) {
            return Map.of();
        }
        return Map.of(
                "group.instance.id",
                groupInstanceId,
                "session.timeout.ms",
                SESSION_TIMEOUT_MS,
                "heartbeat.interval.ms",
                HEARTBEAT_INTERVAL_MS);
    }
}
