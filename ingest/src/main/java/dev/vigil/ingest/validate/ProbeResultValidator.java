package dev.vigil.ingest.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.kit.http.HttpProblem;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.validate.PrivacyGuard;
import dev.vigil.schemas.validate.PrivacyViolation;
import java.util.List;

/**
 * Per-result validation of a signed probe-worker batch. A result naming another region than the signing
 * key's refuses the whole request: a key speaks for exactly one region. {@code windowStart} and
 * {@code startedAt} may not be ahead of the server clock by more than the signature skew: a probe started before
 * its batch was signed, and a signature from a clock further off is refused anyway.
 */
public final class ProbeResultValidator {
    private final long maxAheadMs;

    /** @param maxAheadMs how far windowStart/startedAt may be ahead of the server clock (the signature skew) */
    public ProbeResultValidator(long maxAheadMs) {
        this.maxAheadMs = maxAheadMs;
    }

    public BatchResult<ProbeResult> validate(List<JsonNode> results, String region, long nowMs) {
        var out = new BatchResult.Builder<ProbeResult>();
        for (int i = 0; i < results.size(); i++) {
            JsonNode node = results.get(i);
            if (!(node instanceof ObjectNode obj)) {
                out.reject(Rejection.notObject(i));
                continue;
            }
            JsonNode r = obj.get("region");
            if (r != null && r.isTextual() && !r.textValue().equals(region)) {
                throw HttpProblem.forbidden(
                        "wrong-region",
                        "result " + i + " names another region than the signing key's ('" + region + "')");
            }
            ProbeResult result;
            try {
                TimeBounds.requireLongs(obj, "windowStart", "startedAt");
                result = Json.convert(obj, ProbeResult.class);
            } catch (ContractViolation e) {
                out.reject(Rejection.of(i, e));
                continue;
            }
            if (!TimeBounds.notAhead(result.windowStart(), nowMs, maxAheadMs)) {
                out.reject(TimeBounds.ahead(i, "windowStart", maxAheadMs));
                continue;
            }
            if (!TimeBounds.notAhead(result.startedAt(), nowMs, maxAheadMs)) {
                out.reject(TimeBounds.ahead(i, "startedAt", maxAheadMs));
                continue;
            }
            List<PrivacyViolation> pii = PrivacyGuard.inspect(result);
            if (!pii.isEmpty()) {
                out.reject(Rejection.of(i, pii.get(0)));
                continue;
            }
            out.accept(i, result.monitorId(), result);
        }
        return out.build();
    }
}
