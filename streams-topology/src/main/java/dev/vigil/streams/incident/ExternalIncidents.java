package dev.vigil.streams.incident;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.AlertState;
import dev.vigil.streams.alerting.AlertPhase;
import dev.vigil.streams.alerting.AlertStateRecord;
import java.util.Map;
import java.util.Optional;

/**
 * The alert state of incidents the topology does not decide on — applications', Alertmanager's and the notifier's
 * own delivery-failing alerts, all {@code source: app} on {@code vigil.alerts} — folded from their events, so the API
 * lists, and people acknowledge, them like the topology's own. Their senders decide: an {@code opened},
 * {@code reminder} or {@code escalated} keeps the incident firing, a {@code resolved} ends it; an
 * {@code acknowledged} notice changes nothing (the acknowledgement itself lives in the acknowledgements' store).
 */
public final class ExternalIncidents {
    private ExternalIncidents() {}

    /** True for an event whose incident only its sender knows. */
    public static boolean isExternal(AlertEvent e) {
        return e.source() == AlertSource.APP;
    }

    /** The state after {@code e}, or empty when {@code e} changes nothing ({@code current} stays). */
    public static Optional<AlertStateRecord> apply(AlertStateRecord current, AlertEvent e) {
        if (e.state() == AlertState.ACKNOWLEDGED) {
            return Optional.empty();
        }
        boolean sameIncident = current != null && current.incidentId().equals(e.incidentId());
        if (e.state() == AlertState.RESOLVED) {
            if (!sameIncident || !current.isOpen()) {
                return Optional.empty(); // a resolution of an incident never seen open here: nothing to close
            }
            return Optional.of(with(current, e, AlertPhase.HEALTHY, current.occurrences(), current.sequence() + 1));
        }
        if (sameIncident && current.isOpen()) {
            if (e.lastSeen() < current.lastEvaluated()) {
                return Optional.empty(); // an older event of this incident, read late
            }
            return Optional.of(with(current, e, AlertPhase.FIRING, current.occurrences() + 1, current.sequence() + 1));
        }
        return Optional.of(with(null, e, AlertPhase.FIRING, Math.max(1, e.occurrences()), 1));
    }

    private static AlertStateRecord with(AlertStateRecord current, AlertEvent e, AlertPhase phase, int occ, int seq) {
        boolean silenced = Boolean.TRUE.equals(e.silenced());
        boolean paged = (current != null && current.paged()) || !silenced;
        long firstSeen = current == null ? e.firstSeen() : Math.min(current.firstSeen(), e.firstSeen());
        long lastSeen =
                Math.max(firstSeen, current == null ? e.lastSeen() : Math.max(current.lastSeen(), e.lastSeen()));
        Map<String, String> links = e.links() == null ? Map.of() : e.links();
        Map<String, String> attributes = e.attributes() == null ? Map.of() : e.attributes();
        return new AlertStateRecord(
                e.fingerprint(),
                e.incidentId(),
                phase,
                current == null || e.severity().compareTo(current.severity()) < 0 ? e.severity() : current.severity(),
                e.service(),
                e.componentType(),
                e.summary(),
                links,
                attributes,
                e.source(),
                firstSeen,
                lastSeen,
                e.lastSeen(),
                e.lastSeen(),
                occ,
                0,
                seq,
                silenced,
                paged);
    }
}
