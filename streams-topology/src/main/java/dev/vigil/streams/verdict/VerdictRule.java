package dev.vigil.streams.verdict;

import dev.vigil.schemas.contract.MonitorStatus;
import dev.vigil.schemas.contract.MonitorStatus.RegionResult;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.SkipReason;
import dev.vigil.schemas.contract.Status;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The four-way window verdict (docs/design.md#verdicts) over the expected regions E of a monitor:
 * <ul>
 *   <li>{@code unknown}: no expected region reported;</li>
 *   <li>{@code up}: every region in E reported success;</li>
 *   <li>{@code down}: failures are a strict majority of E ({@code failures * 2 > |E|});</li>
 *   <li>{@code degraded}: anything else with at least one result.</li>
 * </ul>
 * A missing region is never counted as a failure. A region whose worker sent a skip (it did not probe, for a reason
 * of Vigil's own) is missing too: it completes the window (nothing more will come from it, so the verdict need not
 * wait for the deadline), and the verdict names it with its reason in {@code skipped}. Results from regions outside E
 * (e.g. a region removed from the definition mid-window) are ignored. Pure: no I/O, no clock.
 */
public final class VerdictRule {
    private VerdictRule() {}

    public static Status decide(Collection<String> expectedRegions, Map<String, Outcome> outcomes) {
        if (expectedRegions.isEmpty()) {
            throw new IllegalArgumentException("a monitor has at least one expected region");
        }
        int reported = 0;
        int failures = 0;
        for (String region : expectedRegions) {
            Outcome outcome = outcomes.get(region);
            if (outcome != null) {
                reported++;
                if (outcome != Outcome.SUCCESS) {
                    failures++;
                }
            }
        }
        if (reported == 0) {
            return Status.UNKNOWN;
        }
        if (failures * 2 > expectedRegions.size()) {
            return Status.DOWN;
        }
        if (failures == 0 && reported == expectedRegions.size()) {
            return Status.UP;
        }
        return Status.DEGRADED;
    }

    /** True when every expected region has reported (the verdict can be emitted before the deadline). */
    public static boolean complete(Collection<String> expectedRegions, Map<String, ?> results) {
        for (String region : expectedRegions) {
            if (!results.containsKey(region)) {
                return false;
            }
        }
        return true;
    }

    /** True when every expected region has a result or a skip: nothing more is awaited for the window. */
    public static boolean complete(Collection<String> expectedRegions, PendingWindow window) {
        for (String region : expectedRegions) {
            if (!window.heardFrom(region)) {
                return false;
            }
        }
        return true;
    }

    /** The full verdict record of a pending window: its results, and its skips among the missing regions. */
    public static MonitorStatus verdict(List<String> expectedRegions, PendingWindow window, long decidedAt) {
        return verdict(
                window.monitorId(),
                window.windowStart(),
                expectedRegions,
                window.results(),
                window.skipped(),
                decidedAt);
    }

    /** The full verdict record: status, the expected regions' results, and the missing ones. */
    public static MonitorStatus verdict(
            String monitorId,
            long windowStart,
            List<String> expectedRegions,
            Map<String, RegionResult> results,
            long decidedAt) {
        return verdict(monitorId, windowStart, expectedRegions, results, Map.of(), decidedAt);
    }

    /**
     * The full verdict record: status, the expected regions' results, the missing ones and, of those, the ones that
     * were skipped (with why).
     */
    public static MonitorStatus verdict(
            String monitorId,
            long windowStart,
            List<String> expectedRegions,
            Map<String, RegionResult> results,
            Map<String, SkipReason> skips,
            long decidedAt) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        Map<String, RegionResult> reported = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        for (String region : expectedRegions) {
            RegionResult r = results.get(region);
            if (r == null) {
                missing.add(region);
            } else {
                outcomes.put(region, r.outcome());
                reported.put(region, r);
            }
        }
        Map<String, SkipReason> skipped = new LinkedHashMap<>();
        for (String region : missing) {
            SkipReason reason = skips.get(region);
            if (reason != null) {
                skipped.put(region, reason);
            }
        }
        Status status = decide(expectedRegions, outcomes);
        return new MonitorStatus(
                1,
                monitorId,
                windowStart,
                status,
                missing.isEmpty(),
                reported,
                missing.stream().sorted().toList(),
                decidedAt,
                skipped);
    }
}
