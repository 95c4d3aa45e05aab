package dev.vigil.streams.uptime;

import dev.vigil.schemas.contract.Status;

/**
 * One monitor's verdict counts for one UTC day. Uptime counts {@code degraded} as up (with an incident)
 * and excludes {@code unknown}: {@code (up + degraded) / (up + degraded + down)}; no decided window, no figure.
 */
public record DailyUptime(long epochDay, long up, long degraded, long down, long unknown) {

    public static DailyUptime empty(long epochDay) {
        return new DailyUptime(epochDay, 0, 0, 0, 0);
    }

    public DailyUptime plus(Status status) {
        return switch (status) {
            case UP -> new DailyUptime(epochDay, up + 1, degraded, down, unknown);
            case DEGRADED -> new DailyUptime(epochDay, up, degraded + 1, down, unknown);
            case DOWN -> new DailyUptime(epochDay, up, degraded, down + 1, unknown);
            case UNKNOWN -> new DailyUptime(epochDay, up, degraded, down, unknown + 1);
        };
    }

    public long decided() {
        return up + degraded + down;
    }

    public long upWindows() {
        return up + degraded;
    }

    /** Uptime in percent, or null when no window of the day was decided. */
    public Double uptimePercent() {
        return percent(upWindows(), decided());
    }

    public static Double percent(long upWindows, long decided) {
        return decided == 0 ? null : 100.0 * upWindows / decided;
    }
}
