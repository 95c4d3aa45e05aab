package dev.vigil.schemas.contract;

/**
 * What Vigil knows of one probe region, from its workers' heartbeats: the value of {@code vigil.regions} (compacted),
 * keyed by region. Written by the topology whenever a region's picture changes; read by {@code GET /v1/regions}, by
 * {@code vigil monitors apply} (a monitor naming a region no worker has ever served is refused) and by alerting (a
 * monitor's missing result from a blind region is Vigil's gap, folded into the region's own alert).
 *
 * @param liveWorkers workers of the region whose latest heartbeat is recent (healthy)
 * @param knownWorkers workers of the region ever heard of and not yet forgotten
 * @param monitorsNaming enabled, probed monitors that name the region (the largest count any live worker reports)
 * @param lastHeartbeatAt the newest heartbeat of any of its workers; null for a region no worker has ever served
 * @param blindSince since when monitors name it and no live worker serves it; null while it is served
 * @param updatedAt when this picture was made (epoch ms)
 */
public record RegionStatus(
        Integer schemaVersion,
        String region,
        Integer liveWorkers,
        Integer knownWorkers,
        Integer monitorsNaming,
        Long lastHeartbeatAt,
        Long blindSince,
        Long updatedAt) {

    public RegionStatus {
        schemaVersion = Require.schemaVersion(schemaVersion);
        Require.slug("region", region);
        Require.range("liveWorkers", Require.present("liveWorkers", liveWorkers), 0, Integer.MAX_VALUE);
        Require.range("knownWorkers", Require.present("knownWorkers", knownWorkers), 0, Integer.MAX_VALUE);
        if (liveWorkers > knownWorkers) {
            throw new ContractViolation("liveWorkers", "must not exceed knownWorkers");
        }
        Require.range("monitorsNaming", Require.present("monitorsNaming", monitorsNaming), 0, Integer.MAX_VALUE);
        if (lastHeartbeatAt != null) {
            Require.atLeast("lastHeartbeatAt", lastHeartbeatAt, 0);
        }
        if (blindSince != null) {
            Require.atLeast("blindSince", blindSince, 0);
        }
        Require.atLeast("updatedAt", Require.present("updatedAt", updatedAt), 0);
    }

    /** True while monitors name the region and no live worker serves it. */
    public boolean blind() {
        return blindSince != null;
    }

    /** True once any worker of the region has been heard of: monitors may name it without an override. */
    public boolean everServed() {
        return lastHeartbeatAt != null;
    }
}
