package dev.vigil.schemas.contract;

import java.util.List;
import java.util.Set;

/**
 * A fact about an incident that is not itself an alert event: the value of {@code vigil.incident-notes}, keyed by
 * fingerprint like {@code vigil.alerts} (and with as many partitions), so an incident's timeline is built in one task
 * from both topics.
 * <ul>
 *   <li>{@code deliveries} — the notifier's final outcome of one event on each channel it was routed to;</li>
 *   <li>{@code unacknowledged} — a person took their acknowledgement back ({@code by});</li>
 *   <li>{@code folded} — an application's alert event linked to this monitor's open incident was counted in it
 *       instead of paging on its own ({@code eventId} is the application's event).</li>
 * </ul>
 *
 * @param at when it happened (epoch ms)
 * @param by who did it (a token's name), for {@code unacknowledged}
 * @param summary one line for the timeline
 * @param deliveries one row per channel, for {@code deliveries}
 */
public record IncidentNote(
        Integer schemaVersion,
        String kind,
        String fingerprint,
        String incidentId,
        String eventId,
        AlertState state,
        Long at,
        String by,
        String summary,
        List<Delivery> deliveries) {
    public static final String DELIVERIES = "deliveries";
    public static final String UNACKNOWLEDGED = "unacknowledged";
    public static final String FOLDED = "folded";
    private static final Set<String> KINDS = Set.of(DELIVERIES, UNACKNOWLEDGED, FOLDED);
    /** More channels than a route and its escalation tiers can name. */
    public static final int MAX_DELIVERIES = 32;

    public IncidentNote {
        schemaVersion = schemaVersion == null ? 1 : Require.schemaVersion(schemaVersion);
        if (!KINDS.contains(kind)) {
            throw new ContractViolation("kind", "must be deliveries, unacknowledged or folded");
        }
        Require.matches("fingerprint", fingerprint, Require.FINGERPRINT, "<rule-or-service>/<subject>");
        Require.text("incidentId", incidentId, 256);
        Require.optionalText("eventId", eventId, 256);
        Require.atLeast("at", Require.present("at", at), 0);
        Require.optionalText("by", by, 128);
        Require.optionalText("summary", summary, 300);
        deliveries = deliveries == null ? List.of() : Require.list("deliveries", deliveries, MAX_DELIVERIES);
    }

    /**
     * One channel's final outcome of the event: {@code delivered}, {@code deduplicated} (another attempt had
     * delivered it), {@code silenced} (recorded, not paged; {@code detail} says why) or {@code dead_lettered}
     * ({@code detail} is the last error).
     */
    public record Delivery(String channel, String outcome, Integer attempts, String detail) {
        public Delivery {
            Require.text("channel", channel, 64);
            Require.text("outcome", outcome, 32);
            attempts = attempts == null ? 0 : Require.range("attempts", attempts, 0, 1_000_000);
            Require.optionalText("detail", detail, 300);
        }
    }
}
