package dev.vigil.streams.uptime;

import dev.vigil.schemas.contract.Status;

/**
 * One monitor's verdict counts for one UTC day. Uptime counts {@code degraded} as up (with an incident)
 * and excludes {@code unknown}: {@code (up + degraded) / (up + degraded + down)}; no decided window, no figure.
 *
 * <p>The {@code maintenance*} counts are the windows of the day that were under maintenance (docs/design.md#incident-lifecycle), by
 * status; each is part of the plain count of its status, not in addition to it, so {@link #uptimePercent} is the
 * figure it always was and {@link #uptimeExcludingMaintenancePercent} is the same rule over the other windows. Per
 * status rather than one total because the figure without maintenance needs the decided windows under maintenance
 * (an {@code unknown} one is not decided), and a report wants the down ones. What "under maintenance" means is
 * {@link UptimeProcessor}'s to say.
 */
public record DailyUptime(
        long epochDay,
        long up,
        long degraded,
        long down,
        long unknown,
        long maintenanceUp,
        long maintenanceDegraded,
        long maintenanceDown,
        long maintenanceUnknown) {

    public DailyUptime {
        if (maintenanceUp < 0
                || maintenanceUp > up
                || maintenanceDegraded < 0
                || maintenanceDegraded > degraded
                || maintenanceDown < 0
                || maintenanceDown > down
                || maintenanceUnknown < 0
                || maintenanceUnknown > unknown) {
            throw new IllegalArgumentException("maintenance counts must be part of the counts of their status");
        }
    }

    /** A day without maintenance: the shape of every day written before maintenance windows were counted. */
    public DailyUptime(long epochDay, long up, long degraded, long down, long unknown) {
        this(epochDay, up, degraded, down, unknown, 0, 0, 0, 0);
    }

    public static DailyUptime empty(long epochDay) {
        return new DailyUptime(epochDay, 0, 0, 0, 0);
    }

    /** One more window outside maintenance. */
    public DailyUptime plus(Status status) {
        return plus(status, false);
    }

    /** One more window, under maintenance or not. */
    public DailyUptime plus(Status status, boolean underMaintenance) {
        int m = underMaintenance ? 1 : 0;
        return switch (status) {
            case UP -> new DailyUptime(
                    epochDay,
                    up + 1,
                    degraded,
                    down,
                    unknown,
                    maintenanceUp + m,
                    maintenanceDegraded,
                    maintenanceDown,
                    maintenanceUnknown);
            case DEGRADED -> new DailyUptime(
                    epochDay,
                    up,
                    degraded + 1,
                    down,
                    unknown,
                    maintenanceUp,
                    maintenanceDegraded + m,
                    maintenanceDown,
                    maintenanceUnknown);
            case DOWN -> new DailyUptime(
                    epochDay,
                    up,
                    degraded,
                    down + 1,
                    unknown,
                    maintenanceUp,
                    maintenanceDegraded,
                    maintenanceDown + m,
                    maintenanceUnknown);
            case UNKNOWN -> new DailyUptime(
                    epochDay,
                    up,
                    degraded,
                    down,
                    unknown + 1,
                    maintenanceUp,
                    maintenanceDegraded,
                    maintenanceDown,
                    maintenanceUnknown + m);
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

    /** Windows under maintenance, whatever their status. */
    public long maintenance() {
        return maintenanceUp + maintenanceDegraded + maintenanceDown + maintenanceUnknown;
    }

    public boolean hasMaintenance() {
        return maintenance() > 0;
    }

    /** Decided windows outside maintenance. */
    public long decidedExcludingMaintenance() {
        return decided() - (maintenanceUp + maintenanceDegraded + maintenanceDown);
    }

    /** Up (or degraded) windows outside maintenance. */
    public long upWindowsExcludingMaintenance() {
        return upWindows() - (maintenanceUp + maintenanceDegraded);
    }

    /** Uptime in percent over the decided windows outside maintenance, or null when there is none. */
    public Double uptimeExcludingMaintenancePercent() {
        return percent(upWindowsExcludingMaintenance(), decidedExcludingMaintenance());
    }

    public static Double percent(long upWindows, long decided) {
        return decided == 0 ? null : 100.0 * upWindows / decided;
    }
}
