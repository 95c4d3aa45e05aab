package dev.vigil.schemas.contract;

/**
 * A probe worker's sign of life, every 10 s. Key of {@code vigil.heartbeats} is the worker id.
 *
 * <p>Optional, for Vigil's watch over itself: {@code probesStarted} and {@code probesSkipped} count since the worker
 * started (a reader takes differences between heartbeats, so a lost heartbeat loses nothing), and
 * {@code regionsNamed} counts the enabled, probed monitors that name each region, as this worker sees the fleet: a
 * region that monitors name and no live worker serves is blind.
 */
public record WorkerHeartbeat(
        Integer schemaVersion,
        String workerId,
        String region,
        Long sentAt,
        Integer inFlight,
        Integer monitorsAssigned,
        String version,
        Long probesStarted,
        Long probesSkipped,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                java.util.Map<String, Integer> regionsNamed) {

    public WorkerHeartbeat {
        schemaVersion = Require.schemaVersion(schemaVersion);
        Require.text("workerId", workerId, 128);
        Require.slug("region", region);
        Require.atLeast("sentAt", Require.present("sentAt", sentAt), 0);
        Require.range("inFlight", Require.present("inFlight", inFlight), 0, Integer.MAX_VALUE);
        Require.range("monitorsAssigned", Require.present("monitorsAssigned", monitorsAssigned), 0, Integer.MAX_VALUE);
        Require.text("version", version, 64);
        if (probesStarted != null) {
            Require.atLeast("probesStarted", probesStarted, 0);
        }
        if (probesSkipped != null) {
            Require.atLeast("probesSkipped", probesSkipped, 0);
        }
        if (regionsNamed == null || regionsNamed.isEmpty()) {
            regionsNamed = java.util.Map.of();
        } else {
            if (regionsNamed.size() > 64) {
                throw new ContractViolation("regionsNamed", "at most 64 regions");
            }
            var sorted = new java.util.TreeMap<String, Integer>();
            for (var e : regionsNamed.entrySet()) {
                Require.slug("regionsNamed", e.getKey());
                sorted.put(
                        e.getKey(),
                        Require.range(
                                "regionsNamed." + e.getKey(),
                                Require.present("regionsNamed." + e.getKey(), e.getValue()),
                                0,
                                Integer.MAX_VALUE));
            }
            regionsNamed = java.util.Collections.unmodifiableMap(sorted);
        }
    }

    /** A heartbeat without the self-watch counts (as before they existed). */
    public WorkerHeartbeat(
            Integer schemaVersion,
            String workerId,
            String region,
            Long sentAt,
            Integer inFlight,
            Integer monitorsAssigned,
            String version) {
        this(schemaVersion, workerId, region, sentAt, inFlight, monitorsAssigned, version, null, null, null);
    }
}
