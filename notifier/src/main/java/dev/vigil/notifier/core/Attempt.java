package dev.vigil.notifier.core;

import dev.vigil.schemas.contract.AlertState;

/**
 * One send attempt, for the delivery_attempts audit table. The fingerprint and state say what was sent, so a
 * resolution can find the channels its incident's pages reached.
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
        String error) {}
