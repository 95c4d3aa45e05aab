package dev.vigil.ingest.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.ingest.route.HttpProblem;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.ProbeResult;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.validate.PrivacyGuard;
import dev.vigil.schemas.validate.PrivacyViolation;
import java.util.List;

/**
 * Per-result validation of a signed probe-worker batch. A result naming another region than the signing
 * key's refuses the whole request: a key speaks for exactly one region.
 */
public final class ProbeResultValidator {

    public BatchResult<ProbeResult> validate(List<JsonNode> results, String region) {
        var out = new BatchResult.Builder<ProbeResult>();
        for (int i = 0; i < results.size(); i++) {
            JsonNode node = results.get(i);
            if (!(node instanceof ObjectNode obj)) {
                out.reject(Rejection.notObject(i));
                continue;
            }
            JsonNode r = obj.get("region");
            if (r != null && r.isTextual() && !r.textValue().equals(region)) {
                throw HttpProblem.forbidden("wrong-region",
                        "result " + i + " names another region than the signing key's ('" + region + "')");
            }
            ProbeResult result;
            try {
                result = Json.convert(obj, ProbeResult.class);
            } catch (ContractViolation e) {
                out.reject(Rejection.of(i, e));
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
