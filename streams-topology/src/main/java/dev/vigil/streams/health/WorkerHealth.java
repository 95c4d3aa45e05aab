package dev.vigil.streams.health;

import dev.vigil.schemas.contract.WorkerHeartbeat;

/** The latest known state of one probe worker: its last heartbeat and the health evaluated from its age. */
public record WorkerHealth(
        String workerId,
        String region,
        long lastHeartbeatAt,
        Health health,
        long healthSince,
        int inFlight,
        int monitorsAssigned,
        String version,
        long evaluatedAt) {

    public static WorkerHealth of(WorkerHeartbeat hb, Health health, long healthSince, long evaluatedAt) {
        return new WorkerHealth(
                hb.workerId(),
                hb.region(),
                hb.sentAt(),
                health,
                healthSince,
                hb.inFlight(),
                hb.monitorsAssigned(),
                hb.version(),
                evaluatedAt);
    }

    public WorkerHealth evaluated(Health newHealth, long now) {
        return new WorkerHealth(
                workerId,
                region,
                lastHeartbeatAt,
                newHealth,
                newHealth == health ? healthSince : now,
                inFlight,
                monitorsAssigned,
                version,
                now);
    }
}
