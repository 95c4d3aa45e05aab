package dev.vigil.ingest.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.schemas.contract.ContractViolation;
import dev.vigil.schemas.contract.WorkerHeartbeat;
import dev.vigil.schemas.json.Json;
import dev.vigil.schemas.validate.PrivacyGuard;
import dev.vigil.schemas.validate.PrivacyViolation;
import java.util.List;
import java.util.Optional;

/**
 * Per-heartbeat validation of a signed batch: the contract (record constructor), then identity — a worker
 * beats only for itself, so {@code workerId} must be the signing key's worker id and {@code region} the
 * key's region — then {@code sentAt} within the signature's clock skew (health is judged by its age), then the
 * privacy guard on {@code version}, the one free-text field the key does not fix.
 * Accepted heartbeats are keyed by workerId.
 */
public final class HeartbeatValidator {
    private final long maxSkewMs;

    /** @param maxSkewMs how far {@code sentAt} may be from the server clock (the signature's skew bound) */
    public HeartbeatValidator(long maxSkewMs) {
        this.maxSkewMs = maxSkewMs;
    }

    public BatchResult<WorkerHeartbeat> validate(
            List<JsonNode> heartbeats, String keyWorkerId, String keyRegion, long nowMs) {
        var out = new BatchResult.Builder<WorkerHeartbeat>();
        for (int i = 0; i < heartbeats.size(); i++) {
            JsonNode node = heartbeats.get(i);
            if (!(node instanceof ObjectNode obj)) {
                out.reject(Rejection.notObject(i));
                continue;
            }
            WorkerHeartbeat hb;
            try {
                TimeBounds.requireLongs(obj, "sentAt");
                hb = Json.convert(obj, WorkerHeartbeat.class);
            } catch (ContractViolation e) {
                out.reject(Rejection.of(i, e));
                continue;
            }
            if (!hb.workerId().equals(keyWorkerId)) {
                out.reject(new Rejection(
                        i,
                        "workerId",
                        "is not the signing key's worker id ('" + keyWorkerId
                                + "'): a worker heartbeats only for itself",
                        Rejection.Kind.IDENTITY));
                continue;
            }
            if (!hb.region().equals(keyRegion)) {
                out.reject(new Rejection(
                        i,
                        "region",
                        "is not the signing key's region ('" + keyRegion
                                + "'): a worker heartbeats only for its own region",
                        Rejection.Kind.IDENTITY));
                continue;
            }
            // Worker health is judged by the age of sentAt: a worker whose clock is off would look dead (or alive
            // after it died), so its beats are refused rather than believed.
            if (!TimeBounds.within(hb.sentAt(), nowMs, maxSkewMs)) {
                out.reject(new Rejection(
                        i,
                        "sentAt",
                        "is more than " + maxSkewMs / 1000 + " s away from the server clock:"
                                + " fix the worker's clock (NTP)",
                        Rejection.Kind.TIMESTAMP));
                continue;
            }
            Optional<PrivacyViolation> pii = PrivacyGuard.check("version", hb.version());
            if (pii.isPresent()) {
                out.reject(Rejection.of(i, pii.get()));
                continue;
            }
            out.accept(i, hb.workerId(), hb);
        }
        return out.build();
    }
}
