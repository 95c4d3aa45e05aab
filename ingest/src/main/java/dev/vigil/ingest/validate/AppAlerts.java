package dev.vigil.ingest.validate;

import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.Require;
import dev.vigil.schemas.validate.PrivacyGuard;
import dev.vigil.schemas.validate.PrivacyViolation;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an app's API key fixes on every alert event it sends (AlertEvents and Alertmanager alerts alike), so an app
 * speaks only for its own incidents:
 * <ul>
 *   <li>the fingerprint is namespaced {@code app/<appId>/<fingerprint as sent>}; one that already starts with
 *       {@code app/<appId>/} is kept. A fingerprint naming another app ({@code app/other/…}) is prefixed like any
 *       other ({@code app/<appId>/app/other/…}): it can never land in another app's namespace, and nothing the
 *       client could send reaches a fingerprint of the topology ({@code monitor/…}, {@code metric/…});</li>
 *   <li>{@code incidentId} and {@code eventId} are derived from the namespaced fingerprint (fingerprint@firstSeen,
 *       fingerprint/state), never taken from the client, so an app cannot resolve, re-page or pre-claim an
 *       incident by naming its id;</li>
 *   <li>{@code source} is {@code app} and {@code attributes.app} is the app id, whatever the client sent;</li>
 *   <li>the channel override is passed through: which channels an app may name is the notifier's decision.</li>
 * </ul>
 * Then: no time more than the skew ahead of the server clock, and the privacy guard. Accepted events are keyed by
 * the namespaced fingerprint.
 */
public final class AppAlerts {
    static final String PREFIX = "app/";
    /** incidentId's bound in the AlertEvent contract; the derived id is not checked on write, only when read back. */
    private static final int MAX_INCIDENT_ID = 256;

    private static final int MAX_EVENT_ID = 300;
    private static final int MAX_ATTRIBUTES = 16;

    private final long maxAheadMs;

    /** @param maxAheadMs how far firstSeen/lastSeen may be ahead of the server clock */
    public AppAlerts(long maxAheadMs) {
        this.maxAheadMs = maxAheadMs;
    }

    /** {@code app/<appId>/<sent>}, or {@code sent} itself when it is already in the app's namespace. */
    public static String fingerprint(String appId, String sent) {
        String own = PREFIX + appId + "/";
        return sent.startsWith(own) ? sent : own + sent;
    }

    /** Checks {@code sent} as {@code appId}'s event and accepts the owned version, or rejects it under {@code index}. */
    public void admit(int index, AlertEvent sent, String appId, long nowMs, BatchResult.Builder<AlertEvent> out) {
        AlertEvent event;
        try {
            event = own(sent, appId);
        } catch (ContractViolation e) {
            out.reject(Rejection.of(index, e));
            return;
        }
        if (!TimeBounds.notAhead(event.firstSeen(), nowMs, maxAheadMs)) {
            out.reject(TimeBounds.ahead(index, "firstSeen", maxAheadMs));
            return;
        }
        if (!TimeBounds.notAhead(event.lastSeen(), nowMs, maxAheadMs)) {
            out.reject(TimeBounds.ahead(index, "lastSeen", maxAheadMs));
            return;
        }
        List<PrivacyViolation> pii = PrivacyGuard.inspect(event);
        if (!pii.isEmpty()) {
            out.reject(Rejection.of(index, pii.get(0)));
            return;
        }
        out.accept(index, event.fingerprint(), event);
    }

    /** The event as Vigil publishes it for {@code appId}; a {@link ContractViolation} when it no longer fits the contract. */
    static AlertEvent own(AlertEvent sent, String appId) {
        String fp = fingerprint(appId, sent.fingerprint());
        String namespace = PREFIX + appId + "/…";
        if (!Require.FINGERPRINT.matcher(fp).matches()) {
            // The sent fingerprint matched the pattern; only its part count can break it: the namespace takes two of
            // the five parts a fingerprint may have.
            throw new ContractViolation(
                    "fingerprint",
                    "has too many parts once namespaced as " + namespace
                            + ": an app's fingerprint may have at most 3 '/'-separated parts (e.g. checkout/db/primary)");
        }
        String incidentId = AlertEvent.incidentIdFor(fp, sent.firstSeen());
        if (incidentId.length() > MAX_INCIDENT_ID
                || AlertEvent.appEventId(fp, sent.state()).length() > MAX_EVENT_ID) {
            throw new ContractViolation(
                    "fingerprint",
                    "is too long once namespaced as " + namespace
                            + ": the incident id derived from it (fingerprint@firstSeen) must fit " + MAX_INCIDENT_ID
                            + " characters");
        }
        Map<String, String> attributes = new TreeMap<>(sent.attributes());
        attributes.put("app", appId);
        if (attributes.size() > MAX_ATTRIBUTES) {
            throw new ContractViolation(
                    "attributes",
                    "must have at most " + (MAX_ATTRIBUTES - 1) + " entries besides app, which Vigil sets");
        }
        // incidentId and eventId null: the record derives them from the namespaced fingerprint.
        return new AlertEvent(
                sent.schemaVersion(),
                null,
                fp,
                null,
                sent.state(),
                sent.severity(),
                sent.service(),
                sent.componentType(),
                sent.summary(),
                sent.links(),
                attributes,
                sent.occurrences(),
                sent.firstSeen(),
                sent.lastSeen(),
                AlertSource.APP,
                sent.silenced(),
                sent.channels());
    }
}
