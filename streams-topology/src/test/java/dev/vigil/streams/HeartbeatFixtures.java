package dev.vigil.streams;

import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.ErrorKind;
import dev.vigil.schemas.contract.HeartbeatSchedules;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.window.Windows;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Heartbeat (push) monitors and the results ingest publishes for their pings. */
public final class HeartbeatFixtures {
    /** The default pipeline grace ({@code verdict.grace}) the topology adds to a heartbeat window's deadline. */
    public static final long PIPELINE_GRACE_MS = Windows.DEFAULT_GRACE_MS;

    private HeartbeatFixtures() {}

    /** A heartbeat monitor with {@code intervalSeconds} windows and {@code graceSeconds} grace. */
    public static MonitorDefinition every(String id, int intervalSeconds, int graceSeconds) {
        return heartbeat(id, intervalSeconds, new MonitorDefinition.Heartbeat(null, null, graceSeconds, null));
    }

    /** A heartbeat monitor whose windows run from one fire time of {@code schedule} in {@code zone} to the next. */
    public static MonitorDefinition cron(String id, String schedule, String zone, int graceSeconds) {
        return heartbeat(id, 86_400, new MonitorDefinition.Heartbeat(schedule, zone, graceSeconds, null));
    }

    private static MonitorDefinition heartbeat(String id, int intervalSeconds, MonitorDefinition.Heartbeat hb) {
        return new MonitorDefinition(
                1,
                id,
                "Job " + id,
                null,
                null,
                intervalSeconds,
                null,
                List.of(),
                null,
                null,
                null,
                null,
                null,
                Map.of(),
                null,
                CheckType.HEARTBEAT,
                null,
                null,
                null,
                null,
                null,
                hb);
    }

    /** A ping accepted by ingest at {@code at}, for the window it arrived in. */
    public static ProbeResult ping(MonitorDefinition def, long at) {
        return result(def, HeartbeatSchedules.windowAt(def, at).start(), at, Outcome.SUCCESS, null);
    }

    /** A {@code /fail} ping accepted at {@code at}. */
    public static ProbeResult failed(MonitorDefinition def, long at) {
        return result(
                def,
                HeartbeatSchedules.windowAt(def, at).start(),
                at,
                Outcome.ASSERTION_FAILURE,
                ErrorKind.REPORTED_FAILURE);
    }

    /** A ping result claiming {@code windowStart} (which need not be a window start), received at {@code at}. */
    public static ProbeResult result(
            MonitorDefinition def, long windowStart, long at, Outcome outcome, ErrorKind kind) {
        return new ProbeResult(
                1,
                def.id(),
                MonitorDefinition.PUSH_REGION,
                "ingest",
                windowStart,
                at,
                outcome,
                kind,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                UUID.randomUUID().toString(),
                CheckType.HEARTBEAT,
                null);
    }

    /** The wall-clock deadline of the window starting at {@code windowStart}: its end, the grace, the pipeline grace. */
    public static long deadline(MonitorDefinition def, long windowStart) {
        return HeartbeatSchedules.windowAt(def, windowStart).end()
                + def.heartbeat().graceSeconds() * 1000L
                + PIPELINE_GRACE_MS;
    }

    public static long at(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }
}
