package dev.vigil.streams.rules;

/**
 * What the built-in per-monitor rules remember between verdicts of one monitor (a small store value keyed by
 * monitor id).
 *
 * @param lastWindowStart window of the latest verdict applied; a verdict for that window or an earlier one is ignored
 * @param consecutiveDegraded degraded verdicts in a row
 * @param consecutiveUnknown unknown verdicts in a row
 * @param tlsWindowStart window of the latest TLS evaluation
 * @param tlsBreachInWindow a TLS breach was already evaluated for {@code tlsWindowStart}
 * @param tlsHealthyInWindow a healthy TLS evaluation was already emitted for {@code tlsWindowStart}
 */
public record MonitorRuleState(
        long lastWindowStart,
        int consecutiveDegraded,
        int consecutiveUnknown,
        long tlsWindowStart,
        boolean tlsBreachInWindow,
        boolean tlsHealthyInWindow) {
    public static final MonitorRuleState INITIAL = new MonitorRuleState(-1, 0, 0, -1, false, false);

    public MonitorRuleState {
        if (consecutiveDegraded < 0 || consecutiveUnknown < 0) {
            throw new IllegalArgumentException("counts must not be negative");
        }
    }

    public MonitorRuleState withLastWindowStart(long windowStart) {
        return new MonitorRuleState(
                windowStart,
                consecutiveDegraded,
                consecutiveUnknown,
                tlsWindowStart,
                tlsBreachInWindow,
                tlsHealthyInWindow);
    }
}
