package dev.vigil.ingest.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.json.Json;
import java.util.List;

/**
 * Per-event validation of application alert events for the app the API key is for. What the key fixes
 * (namespaced fingerprint, derived ids, source, {@code attributes.app}) is {@link AppAlerts}' job. The client's
 * {@code incidentId}, {@code eventId} and {@code source} are dropped before the contract is checked: they are
 * ignored, so not even an ill-formed one is a reason to refuse the event.
 */
public final class AlertEventValidator {
    private static final String PLACEHOLDER_ID = "-";
    private final AppAlerts apps;

    /** @param maxAheadMs how far firstSeen/lastSeen may be ahead of the server clock */
    public AlertEventValidator(long maxAheadMs) {
        this.apps = new AppAlerts(maxAheadMs);
    }

    public BatchResult<AlertEvent> validate(List<JsonNode> events, String appId, long nowMs) {
        var out = new BatchResult.Builder<AlertEvent>();
        for (int i = 0; i < events.size(); i++) {
            JsonNode node = events.get(i);
            if (!(node instanceof ObjectNode obj)) {
                out.reject(Rejection.notObject(i));
                continue;
            }
            obj.remove("incidentId");
            // A placeholder, so the record does not derive (and bound) an id from the fingerprint as sent: the real
            // one is derived from the namespaced fingerprint, and its length is checked there with a clear reason.
            obj.set("eventId", TextNode.valueOf(PLACEHOLDER_ID));
            obj.set("source", TextNode.valueOf(AlertSource.APP.wire()));
            AlertEvent sent;
            try {
                TimeBounds.requireLongs(obj, "firstSeen", "lastSeen");
                sent = Json.convert(obj, AlertEvent.class);
            } catch (ContractViolation e) {
                out.reject(Rejection.of(i, e));
                continue;
            }
            apps.admit(i, sent, appId, nowMs, out);
        }
        return out.build();
    }
}
