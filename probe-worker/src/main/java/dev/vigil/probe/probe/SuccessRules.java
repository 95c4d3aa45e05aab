package dev.vigil.probe.probe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.schemas.contract.MonitorDefinition;
import dev.vigil.schemas.contract.Outcome;
import dev.vigil.schemas.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

/**
 * Decides whether a fetched response is a success under a monitor's {@code expect} rules. Pure. Details
 * name the rule that failed and never echo the body or a header value (they may carry data we must not
 * republish). Order: status, response time, headers, body text, JSON.
 */
public final class SuccessRules {
    private SuccessRules() {}

    /** The verdict on one final response. */
    public record Verdict(Outcome outcome, String detail) {
        static final Verdict SUCCESS = new Verdict(Outcome.SUCCESS, null);
    }

    /**
     * @param body          the first bytes of the body (at most the read cap)
     * @param bodyTruncated true when the body was longer than the cap
     */
    public static Verdict evaluate(
            MonitorDefinition.Expect expect, int status, int responseMs, byte[] body, boolean bodyTruncated) {
        return evaluate(expect, status, responseMs, body, bodyTruncated, name -> List.of());
    }

    /**
     * @param headers the values of a response header by name (case-insensitive; empty when absent), for
     *                {@code expect.headers}
     */
    public static Verdict evaluate(
            MonitorDefinition.Expect expect,
            int status,
            int responseMs,
            byte[] body,
            boolean bodyTruncated,
            Function<String, List<String>> headers) {
        if (!expect.acceptsStatus(status)) {
            return new Verdict(Outcome.HTTP_FAILURE, "status " + status + " is not one of " + expect.statusCodes());
        }
        if (expect.maxResponseMs() != null && responseMs > expect.maxResponseMs()) {
            return new Verdict(
                    Outcome.ASSERTION_FAILURE,
                    "response took " + responseMs + " ms, more than maxResponseMs " + expect.maxResponseMs());
        }
        for (var e : expect.headers().entrySet()) {
            List<String> values = headers.apply(e.getKey());
            if (values.isEmpty()) {
                return new Verdict(Outcome.ASSERTION_FAILURE, "response header " + e.getKey() + " is missing");
            }
            if (!headerMatches(e.getValue(), values)) {
                // Never the value: a response header may carry a session or a token.
                return new Verdict(
                        Outcome.ASSERTION_FAILURE,
                        "response header " + e.getKey() + " does not "
                                + (e.getValue().startsWith(MonitorDefinition.Expect.REGEX_PREFIX)
                                        ? "match the expected pattern"
                                        : "have the expected value"));
            }
        }
        String text = expect.bodyContains() != null || expect.bodyNotContains() != null
                ? new String(body, StandardCharsets.UTF_8)
                : null;
        if (expect.bodyContains() != null && !text.contains(expect.bodyContains())) {
            return new Verdict(
                    Outcome.ASSERTION_FAILURE,
                    "body does not contain the expected text"
                            + (bodyTruncated ? " in its first " + body.length + " bytes" : ""));
        }
        if (expect.bodyNotContains() != null && text.contains(expect.bodyNotContains())) {
            return new Verdict(Outcome.ASSERTION_FAILURE, "body contains the text it must not contain");
        }
        if (expect.json() != null) {
            var assertion = expect.json();
            JsonNode tree;
            try {
                tree = Json.tree(body);
            } catch (RuntimeException e) {
                return new Verdict(
                        Outcome.ASSERTION_FAILURE,
                        bodyTruncated
                                ? "body is larger than " + body.length + " bytes, JSON assertion cannot be checked"
                                : "body is not JSON, expected " + assertion.pointer() + " in " + assertion.anyOf());
            }
            JsonNode value = tree.at(assertion.pointer());
            if (value.isMissingNode() || value.isNull()) {
                return new Verdict(Outcome.ASSERTION_FAILURE, "JSON " + assertion.pointer() + " is missing");
            }
            if (!value.isValueNode() || !assertion.anyOf().contains(value.asText())) {
                return new Verdict(
                        Outcome.ASSERTION_FAILURE,
                        "JSON " + assertion.pointer() + " is not one of " + assertion.anyOf());
            }
        }
        return Verdict.SUCCESS;
    }

    /**
     * A header sent several times matches when one of its values does, or when the values joined as one field
     * ({@code a, b}, RFC 9110 section 5.3) do.
     */
    static boolean headerMatches(String expected, List<String> values) {
        for (String v : values) {
            if (MonitorDefinition.Expect.headerMatches(expected, v)) {
                return true;
            }
        }
        return values.size() > 1 && MonitorDefinition.Expect.headerMatches(expected, String.join(", ", values));
    }
}
