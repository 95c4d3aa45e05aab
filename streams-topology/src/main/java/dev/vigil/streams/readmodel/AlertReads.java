package dev.vigil.streams.readmodel;

import dev.vigil.schemas.contract.Ack;
import dev.vigil.schemas.contract.Severity;
import dev.vigil.streams.alerting.AlertStateRecord;
import dev.vigil.streams.query.QueryBackend;
import dev.vigil.streams.rules.Fingerprints;
import dev.vigil.streams.topology.StoreNames;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/** The open alerts of a monitor and their acknowledgements, as the status and monitor answers show them. */
final class AlertReads {
    private AlertReads() {}

    /**
     * The monitor-alert store, or null in a topology without the alerting half. The store lives in the
     * same task (partition) as the monitor's definition and status, so a local read is the whole answer.
     */
    static ReadOnlyKeyValueStore<String, AlertStateRecord> alertStore(QueryBackend backend) {
        try {
            return backend.keyValueStore(StoreNames.MONITOR_ALERTS_STORE);
        } catch (QueryBackend.NoStandby e) {
            throw e;
        } catch (QueryBackend.Unavailable e) {
            return null;
        }
    }

    static ReadOnlyKeyValueStore<String, Ack> ackStore(QueryBackend backend) {
        try {
            return backend.keyValueStore(StoreNames.ACKS_STORE);
        } catch (QueryBackend.NoStandby e) {
            throw e;
        } catch (QueryBackend.Unavailable e) {
            return null;
        }
    }

    /**
     * Open alerts of a monitor (availability, no data, TLS), most severe first, each with who acknowledged it
     * ({@code acknowledgedBy}, {@code acknowledgedAt}, {@code acknowledgedUntil} when not until the end) while that
     * acknowledgement holds, and {@code held} while its notifications wait for a parent that is down.
     */
    static List<Map<String, Object>> openAlerts(
            ReadOnlyKeyValueStore<String, AlertStateRecord> store,
            ReadOnlyKeyValueStore<String, Ack> acks,
            String monitorId,
            long now) {
        return store == null ? new ArrayList<>() : openAlerts(store::get, acks, monitorId, now);
    }

    /** As above, reading alert states through {@code states} (a store, or the open ones gathered in one scan). */
    static List<Map<String, Object>> openAlerts(
            java.util.function.Function<String, AlertStateRecord> states,
            ReadOnlyKeyValueStore<String, Ack> acks,
            String monitorId,
            long now) {
        List<Map<String, Object>> open = new ArrayList<>();
        for (String fingerprint :
                List.of(Fingerprints.monitor(monitorId), Fingerprints.noData(monitorId), Fingerprints.tls(monitorId))) {
            AlertStateRecord a = states.apply(fingerprint);
            if (a != null && a.isOpen()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("fingerprint", a.fingerprint());
                row.put("state", a.phase());
                row.put("severity", a.severity());
                row.put("since", a.firstSeen());
                row.put("occurrences", a.occurrences());
                row.put("silenced", a.silenced());
                row.put("summary", a.summary());
                if (a.held() != null) {
                    row.put("held", a.held()); // its parent is down: its pages wait (docs/monitors.md#dependencies)
                }
                Ack ack = acks == null ? null : acks.get(a.fingerprint());
                if (ack != null && ack.holdsFor(a.incidentId(), a.severity(), now)) {
                    row.put("acknowledgedBy", ack.by());
                    row.put("acknowledgedAt", ack.at());
                    if (ack.until() != null) {
                        row.put("acknowledgedUntil", ack.until());
                    }
                }
                open.add(row);
            }
        }
        open.sort(Comparator.comparing((Map<String, Object> r) -> (Severity) r.get("severity"))); // critical first
        return open;
    }
}
