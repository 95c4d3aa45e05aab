package dev.vigil.probe.probe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;

/**
 * Decides whether a fetched response is a success under a monitor's {@code expect} rules. Pure. Details
 * name the rule that failed and never echo the body (it may carry data we must not republish).
 */
public final class SuccessRules {
    private SuccessRules() {
    }

    /** The verdict on one final response. */
    public record Verdict(Outcome outcome, String detail) {
        static final Verdict SUCCESS = new Verdict(Outcome.SUCCESS, null);
    }

    /**
     * @param body          the first bytes of the body (at most the read cap)
     * @param bodyTruncated true when the body was longer than the cap
     */
    public static Verdict evaluate(MonitorDefinition.Expect expect, int status, int responseMs, byte[] body,
                                   boolean bodyTruncated) {
        if (!expect.acceptsStatus(status)) {
            return new Verdict(Outcome.HTTP_FAILURE, "status " + status + " is not one of " + expect.statusCodes());
        }
        if (expect.maxResponseMs() != null && responseMs > expect.maxResponseMs()) {
            return new Verdict(Outcome.ASSERTION_FAILURE,
                    "response took " + responseMs + " ms, more than maxResponseMs " + expect.maxResponseMs());
        }
        if (expect.bodyContains() != null) {
            String text = new String(body, StandardCharsets.UTF_8);
            if (!text.contains(expect.bodyContains())) {
                return new Verdict(Outcome.ASSERTION_FAILURE, "body does not contain the expected text"
                        + (bodyTruncated ? " in its first " + body.length + " bytes" : ""));
            }
        }
        if (expect.json() != null) {
            var assertion = expect.json();
            JsonNode tree;
            try {
                tree = Json.tree(body);
            } catch (RuntimeException e) {
                return new Verdict(Outcome.ASSERTION_FAILURE, bodyTruncated
                        ? "body is larger than " + body.length + " bytes, JSON assertion cannot be checked"
                        : "body is not JSON, expected " + assertion.pointer() + " in " + assertion.anyOf());
            }
            JsonNode value = tree.at(assertion.pointer());
            if (value.isMissingNode() || value.isNull()) {
                return new Verdict(Outcome.ASSERTION_FAILURE, "JSON " + assertion.pointer() + " is missing");
            }
            if (!value.isValueNode() || !assertion.anyOf().contains(value.asText())) {
                return new Verdict(Outcome.ASSERTION_FAILURE,
                        "JSON " + assertion.pointer() + " is not one of " + assertion.anyOf());
            }
        }
        return Verdict.SUCCESS;
    }
}
