package dev.vigil.schemas.contract;

/** A probe worker's sign of life, every 10 s. Key of {@code vigil.heartbeats} is the worker id. */
public record WorkerHeartbeat(
        Integer schemaVersion,
        String workerId,
        String region,
        Long sentAt,
        Integer inFlight,
        Integer monitorsAssigned,
        String version) {

    public WorkerHeartbeat {
        schemaVersion = Require.schemaVersion(schemaVersion);
        Require.text("workerId", workerId, 128);
        Require.slug("region", region);
        Require.atLeast("sentAt", Require.present("sentAt", sentAt), 0);
        Require.range("inFlight", Require.present("inFlight", inFlight), 0, Integer.MAX_VALUE);
        Require.range("monitorsAssigned", Require.present("monitorsAssigned", monitorsAssigned), 0, Integer.MAX_VALUE);
        Require.text("version", version, 64);
    }
}
