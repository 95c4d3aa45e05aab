package dev.vigil.notifier.core;

/** One send attempt, for the delivery_attempts audit table. */
public record Attempt(String eventId, String incidentId, String channel, int number, String outcome,
                      Integer httpStatus, long latencyMs, String error) {
}
