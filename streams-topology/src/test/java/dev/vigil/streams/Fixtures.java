package dev.vigil.streams;

import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.schemas.window.Windows;
import java.util.List;
import java.util.UUID;

/** Test data builders. Every monitor uses a 60 s interval and 2.5 s timeout unless stated. */
public final class Fixtures {
    public static final long INTERVAL_MS = 60_000;
    public static final int TIMEOUT_MS = 2_500;
    /** A window start well after the driver's initial wall clock. */
    public static final long W0 = 1_800_000_000_000L - (1_800_000_000_000L % INTERVAL_MS);

    private Fixtures() {}

    public static List<String> regions(int n) {
        return List.of("eu-west", "us-east", "ap-south", "sa-east", "af-south").subList(0, n);
    }

    public static MonitorDefinition monitor(String id, List<String> regions) {
        return new MonitorDefinition(
                1,
                id,
                null,
                "https://example.com/" + id,
                null,
                60,
                TIMEOUT_MS,
                regions,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    public static MonitorDefinition disabled(String id, List<String> regions) {
        return new MonitorDefinition(
                1,
                id,
                null,
                "https://example.com/" + id,
                null,
                60,
                TIMEOUT_MS,
                regions,
                null,
                null,
                null,
                null,
                null,
                null,
                false);
    }

    public static ProbeResult success(String monitorId, String region, long windowStart) {
        return new ProbeResult(
                1,
                monitorId,
                region,
                "worker-" + region,
                windowStart,
                windowStart + 10,
                Outcome.SUCCESS,
                null,
                200,
                42,
                45,
                100L,
                0,
                null,
                null,
                null,
                null,
                null,
                null,
                UUID.randomUUID().toString());
    }

    public static ProbeResult failure(String monitorId, String region, long windowStart) {
        return new ProbeResult(
                1,
                monitorId,
                region,
                "worker-" + region,
                windowStart,
                windowStart + 10,
                Outcome.NETWORK_FAILURE,
                ErrorKind.CONNECT_REFUSED,
                null,
                null,
                3,
                0L,
                0,
                null,
                null,
                null,
                null,
                null,
                null,
                UUID.randomUUID().toString());
    }

    public static ProbeResult httpFailure(String monitorId, String region, long windowStart) {
        return new ProbeResult(
                1,
                monitorId,
                region,
                "worker-" + region,
                windowStart,
                windowStart + 10,
                Outcome.HTTP_FAILURE,
                null,
                503,
                30,
                31,
                10L,
                0,
                null,
                null,
                null,
                null,
                null,
                null,
                UUID.randomUUID().toString());
    }

    public static WorkerHeartbeat heartbeat(String workerId, String region, long sentAt) {
        return new WorkerHeartbeat(1, workerId, region, sentAt, 3, 10, "0.1.0");
    }

    /**
     * The latest wall-clock collection deadline any default monitor's window can have with the default grace: past
     * it, every monitor's window is due, whatever its id.
     */
    public static long deadline(long windowStart) {
        return Windows.latestCollectionDeadline(windowStart, INTERVAL_MS, TIMEOUT_MS, Windows.DEFAULT_GRACE_MS);
    }

    /** Wall-clock collection deadline of default monitor {@code monitorId}'s window with the default grace. */
    public static long deadline(String monitorId, long windowStart) {
        return Windows.collectionDeadline(monitorId, windowStart, INTERVAL_MS, TIMEOUT_MS, Windows.DEFAULT_GRACE_MS);
    }

    /** A heartbeat with the self-watch counts: cumulative probes started and skipped, and the regions monitors name. */
    public static WorkerHeartbeat heartbeat(
            String workerId,
            String region,
            long sentAt,
            long started,
            long skipped,
            java.util.Map<String, Integer> regionsNamed) {
        return new WorkerHeartbeat(1, workerId, region, sentAt, 3, 10, "0.1.0", started, skipped, regionsNamed);
    }

    /** The result a worker publishes when it did not probe the window, for {@code reason}. */
    public static ProbeResult skipped(
            String monitorId, String region, long windowStart, dev.vigil.schemas.contract.SkipReason reason) {
        return ProbeResult.skipped(
                monitorId,
                region,
                "worker-" + region,
                windowStart,
                windowStart + 10,
                null,
                reason,
                UUID.randomUUID().toString());
    }
}
