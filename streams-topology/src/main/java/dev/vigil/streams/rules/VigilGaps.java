package dev.vigil.streams.rules;

import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.RegionStatus;
import java.util.function.Function;

/**
 * Whether a verdict's missing regions are all gaps Vigil already knows of and alerts on itself, so that the monitor's
 * own no-data rule need not page for them: a region is such a gap when its worker said it skipped the window, when the
 * region is blind (monitors name it, no live worker serves it), when no worker has ever served it, or when none of its
 * workers has sent a heartbeat for {@code silentAfterMs} (a worker that just died, before its region is marked blind).
 * A region the region picture does not know at all is not a known gap: without heartbeats Vigil cannot tell, and the
 * monitor keeps paging. Pure; {@code now} is the caller's wall clock, as worker health is.
 */
public final class VigilGaps {
    private VigilGaps() {}

    /**
     * @param regions each region's latest picture ({@code vigil.regions}), null when unknown
     */
    public static boolean allMissingAreVigilsGap(
            MonitorStatus verdict, Function<String, RegionStatus> regions, long now, long silentAfterMs) {
        if (verdict.missingRegions().isEmpty()) {
            return false;
        }
        for (String region : verdict.missingRegions()) {
            if (verdict.skipped().containsKey(region)) {
                continue;
            }
            RegionStatus picture = regions.apply(region);
            if (picture == null) {
                return false;
            }
            boolean silent = !picture.everServed() || now - picture.lastHeartbeatAt() > silentAfterMs;
            if (!picture.blind() && !silent) {
                return false; // served and healthy, yet no result: a per-monitor fault of Vigil, which still pages
            }
        }
        return true;
    }
}
