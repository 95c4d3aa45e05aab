package dev.vigil.ingest.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.vigil.kit.http.HttpProblem;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.DomainMetric;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.validate.PathSanitizer;
import dev.vigil.schemas.validate.PrivacyGuard;
import dev.vigil.schemas.validate.PrivacyViolation;
import java.util.List;

/**
 * Per-event validation of a metrics batch for one authenticated app. Pure: the clock reading is passed in.
 *
 * <p>Order per event: the pathname is stripped of query and fragment before anything else reads it; the
 * appId is filled in from the API key when absent (and naming another app refuses the whole request: the
 * key fixes the app); the record constructor checks the contract; the timestamp must be within the skew;
 * the privacy guard checks every string field.
 */
public final class MetricValidator {
    private final long timestampSkewMs;

    public MetricValidator(long timestampSkewMs) {
        this.timestampSkewMs = timestampSkewMs;
    }

    public BatchResult<DomainMetric> validate(List<JsonNode> events, String appId, long nowMs) {
        var out = new BatchResult.Builder<DomainMetric>();
        for (int i = 0; i < events.size(); i++) {
            JsonNode node = events.get(i);
            if (!(node instanceof ObjectNode obj)) {
                out.reject(Rejection.notObject(i));
                continue;
            }
            JsonNode path = obj.get("pathname");
            if (path != null && path.isTextual()) {
                obj.set("pathname", TextNode.valueOf(PathSanitizer.sanitize(path.textValue())));
            }
            JsonNode app = obj.get("appId");
            if (app == null || app.isNull()) {
                obj.set("appId", TextNode.valueOf(appId));
            } else if (app.isTextual() && !app.textValue().equals(appId)) {
                throw HttpProblem.forbidden(
                        "app-mismatch",
                        "event " + i + " names another appId than the one the API key is for ('" + appId + "')");
            }
            DomainMetric metric;
            try {
                TimeBounds.requireLongs(obj, "timestamp");
                metric = Json.convert(obj, DomainMetric.class);
            } catch (ContractViolation e) {
                out.reject(Rejection.of(i, e));
                continue;
            }
            if (!TimeBounds.within(metric.timestamp(), nowMs, timestampSkewMs)) {
                out.reject(new Rejection(
                        i,
                        "timestamp",
                        "is more than " + timestampSkewMs / 1000 + " s away from the server clock",
                        Rejection.Kind.TIMESTAMP));
                continue;
            }
            List<PrivacyViolation> pii = PrivacyGuard.inspectSanitized(metric);
            if (!pii.isEmpty()) {
                out.reject(Rejection.of(i, pii.get(0)));
                continue;
            }
            out.accept(i, metric.key(), metric);
        }
        return out.build();
    }
}
