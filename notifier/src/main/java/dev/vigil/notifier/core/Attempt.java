package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertState;

/**
 * One send attempt, for the delivery_attempts audit table. The fingerprint and state say what was sent, so a
 * resolution can find the channels its incident's pages reached.
 *
 * @param groupId the group message this attempt sent the event in (one send for several events of a grouped route),
 *                or null when the event went out in a message of its own
 */
public record Attempt(
        String eventId,
        String incidentId,
        String fingerprint,
        AlertState state,
        String channel,
        int number,
        String outcome,
        Integer httpStatus,
        long latencyMs,
        String error,
        String groupId) {
    /** An attempt that sent the event in a message of its own. */
    public Attempt(
            String eventId,
            String incidentId,
            String fingerprint,
            AlertState state,
            String channel,
            int number,
            String outcome,
            Integer httpStatus,
            long latencyMs,
            String error) {
        this(eventId, incidentId, fingerprint, state, channel, number, outcome, httpStatus, latencyMs, error, null);
    }
}
