package dev.vigil.ingest.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.vigil.schemas.contract.AlertEvent;
import dev.vigil.schemas.contract.AlertSource;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.validate.PrivacyGuard;
import dev.vigil.schemas.validate.PrivacyViolation;
import java.util.List;

/**
 * Per-event validation of application alert events. Applications may only send {@code source: app}
 * (absent means app): probe, metric and heartbeat events are the topology's, and accepting them here
 * would let an app forge Vigil's own incidents.
 */
public final class AlertEventValidator {

    public BatchResult<AlertEvent> validate(List<JsonNode> events) {
        var out = new BatchResult.Builder<AlertEvent>();
        for (int i = 0; i < events.size(); i++) {
            JsonNode node = events.get(i);
            if (!(node instanceof ObjectNode obj)) {
                out.reject(Rejection.notObject(i));
                continue;
            }
            JsonNode source = obj.get("source");
            if (source == null || source.isNull()) {
                obj.set("source", TextNode.valueOf(AlertSource.APP.wire()));
            } else if (!AlertSource.APP.wire().equals(source.asText())) {
                out.reject(new Rejection(i, "source", "must be app for events sent to ingest", Rejection.Kind.SOURCE));
                continue;
            }
            try {
                check(i, Json.convert(obj, AlertEvent.class), out);
            } catch (ContractViolation e) {
                out.reject(Rejection.of(i, e));
            }
        }
        return out.build();
    }

    /** Privacy guard, then accept keyed by fingerprint. Shared with the Alertmanager translation. */
    public static void check(int index, AlertEvent event, BatchResult.Builder<AlertEvent> out) {
        List<PrivacyViolation> pii = PrivacyGuard.inspect(event);
        if (!pii.isEmpty()) {
            out.reject(Rejection.of(index, pii.get(0)));
            return;
        }
        out.accept(index, event.fingerprint(), event);
    }
}
