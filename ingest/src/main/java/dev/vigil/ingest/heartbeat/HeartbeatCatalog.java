package dev.vigil.ingest.heartbeat;

import dev.vigil.kit.auth.BearerTokens;
import dev.vigil.kit.auth.HashedCredentials;
import dev.vigil.schemas.contract.CheckType;
import dev.vigil.schemas.contract.MonitorDefinition;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ingest's copy of the heartbeat monitors of {@code vigil.monitors}: only enabled heartbeat monitors that have a ping
 * token hash, because only those may be pinged. Fed by {@link MonitorsFollower} (one thread), read by every event
 * loop.
 *
 * <p>{@link #authenticate} answers "this monitor with this token" as a whole: an unknown monitor, one of another type,
 * a disabled one, one without a token and a wrong token all come back null, and an unknown id still costs a hash and
 * a comparison (against a decoy), so neither the answer nor its timing tells which monitor ids exist.
 */
public final class HeartbeatCatalog {
    private static final HashedCredentials<Boolean> DECOY =
            HashedCredentials.of(List.of(Map.entry(BearerTokens.hash(BearerTokens.generate()), Boolean.TRUE)));

    private final Map<String, HeartbeatMonitor> monitors = new ConcurrentHashMap<>();
    private volatile boolean ready;

    /**
     * Applies one record of the monitors topic, keyed by monitor id: a definition, or null for a tombstone. A monitor
     * that stops being pingable (deleted, disabled, another type, token removed) is dropped with its memory of
     * published windows. A definition whose id is not its key is ignored, as the topology dead-letters it.
     */
    public void apply(String key, MonitorDefinition def) {
        if (key == null) {
            return;
        }
        if (def == null || !pingable(def)) {
            monitors.remove(key);
            return;
        }
        if (!key.equals(def.id())) {
            return;
        }
        HeartbeatMonitor known = monitors.get(key);
        if (known == null || !known.definition().equals(def)) {
            monitors.put(key, new HeartbeatMonitor(def));
        }
    }

    private static boolean pingable(MonitorDefinition def) {
        return def.type() == CheckType.HEARTBEAT
                && def.enabled()
                && def.heartbeat().tokenSha256() != null;
    }

    /**
     * The monitor {@code authorization} ({@code Bearer <token>}) may ping, or null, whichever way it is refused.
     */
    public HeartbeatMonitor authenticate(String monitorId, String authorization) {
        HeartbeatMonitor m = monitors.get(monitorId);
        if (m == null) {
            DECOY.authenticate(authorization);
            return null;
        }
        return m.accepts(authorization) ? m : null;
    }

    /** True once the copy has caught up with the topic as it was when ingest started reading it. */
    public boolean ready() {
        return ready;
    }

    void markReady() {
        ready = true;
    }

    /** Heartbeat monitors that may be pinged. */
    public int size() {
        return monitors.size();
    }
}
