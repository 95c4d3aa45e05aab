package dev.vigil.schemas.contract;

import java.util.List;

/**
 * Where an incident's escalation climb stands: the value of the compacted {@code vigil.escalations} topic, keyed by
 * fingerprint, written by the notifier whenever a climb is scheduled, a tier pages, or the rest is cancelled. The
 * notifier's PostgreSQL rows are the timers; this is what the console shows beside the incident.
 *
 * @param tiers    the climb from tier 2 on, in order
 * @param updatedAt when the notifier wrote this (epoch ms)
 */
public record EscalationStatus(
        Integer schemaVersion, String fingerprint, String incidentId, List<Step> tiers, Long updatedAt) {
    /** At most this many tiers follow a route's own channels. */
    public static final int MAX_TIERS = 8;

    public EscalationStatus {
        schemaVersion = schemaVersion == null ? 1 : Require.schemaVersion(schemaVersion);
        Require.matches("fingerprint", fingerprint, Require.FINGERPRINT, "<rule-or-service>/<subject>");
        Require.text("incidentId", incidentId, 256);
        tiers = Require.list("tiers", tiers, MAX_TIERS);
        Require.atLeast("updatedAt", Require.present("updatedAt", updatedAt), 0);
    }

    /**
     * One tier: its number (2 on), the channels it pages, when it is (or was) due, its state ({@code pending},
     * {@code fired} or {@code cancelled}), when it fired and what cancelled it ({@code acknowledged},
     * {@code resolved}). Times are epoch ms.
     */
    public record Step(
            Integer tier, List<String> channels, Long dueAt, String state, Long firedAt, String cancelledBy) {
        public Step {
            Require.range("tier", Require.present("tier", tier), 2, MAX_TIERS + 1);
            channels = Require.list("channels", channels, 16);
            for (int i = 0; i < channels.size(); i++) {
                Require.slug("channels[" + i + "]", channels.get(i));
            }
            Require.atLeast("dueAt", Require.present("dueAt", dueAt), 0);
            if (!List.of("pending", "fired", "cancelled").contains(state)) {
                throw new ContractViolation("state", "must be pending, fired or cancelled");
            }
            Require.optionalText("cancelledBy", cancelledBy, 64);
        }
    }
}
