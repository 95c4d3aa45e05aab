package dev.vigil.streams.rules;

import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.Severity;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-worker death ({@code worker/<region>/<workerId>}, warning). Worker health is judged on wall clock
 * (heartbeat age), so these evaluations are the one place where "now" is not replayable event time.
 *
 * <p>The state machine resolves after consecutive healthy evaluations, so the caller should evaluate a
 * worker on every heartbeat / health punctuation, not only on health changes.
 */
public final class WorkerRules {
    public static final String SERVICE = "vigil-probe-worker";
    static final String COMPONENT_TYPE = "worker";

    private final AlertLinks links;

    public WorkerRules(AlertLinks links) {
        this.links = links;
    }

    /**
     * @param dead whether the worker's heartbeat is older than the dead threshold
     * @param lastHeartbeatAt the worker's latest heartbeat time (epoch ms)
     * @param at evaluation time (epoch ms)
     */
    public Evaluation onHealth(String region, String workerId, boolean dead, long lastHeartbeatAt, long at) {
        String fp = Fingerprints.worker(region, workerId);
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("region", region);
        attrs.put("workerId", workerId.length() <= 256 ? workerId : workerId.substring(0, 256));
        attrs.put("lastHeartbeatAt", Long.toString(lastHeartbeatAt));
        String who = "Probe worker " + Fingerprints.segment(workerId) + " in " + region;
        if (dead) {
            long silentSeconds = Math.max(0, (at - lastHeartbeatAt) / 1000);
            return Evaluation.breach(
                    fp,
                    at,
                    Severity.WARNING,
                    SERVICE,
                    COMPONENT_TYPE,
                    who + " is dead: no heartbeat for " + silentSeconds + " s",
                    links.workers(fp),
                    attrs,
                    AlertSource.HEARTBEAT);
        }
        return Evaluation.healthy(
                fp,
                at,
                SERVICE,
                COMPONENT_TYPE,
                who + " is sending heartbeats again",
                links.workers(fp),
                attrs,
                AlertSource.HEARTBEAT);
    }
}
